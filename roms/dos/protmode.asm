; protmode.com: sets PE with LMSW, which tandem does not emulate.
        cpu 286
        org 100h
        smsw ax
        or al, 1
        lmsw ax
        mov ax, 4C00h
        int 21h
