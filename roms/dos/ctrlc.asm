; ctrlc.com: Ctrl-C through a program's INT 23h handler. With stdin
; "^C x ^C" (dos/tests/dos5.rs types 03h, 'x', 03h): INT 21h 01h reads
; Ctrl-C, DOS prints "^C" and calls the handler, which counts and IRETs,
; so DOS reads again and gets 'x'. Then a handler that returns with RETF
; and carry set makes DOS end the program at the next Ctrl-C (exit code
; 0). Exit 1 if anything comes back that should not.
        cpu 8086
        org 100h

start:
        mov ax, 2523h
        mov dx, count_iret
        int 21h
        mov ah, 01h             ; ^C, then x
        int 21h
        cmp al, 'x'
        jne fail
        cmp byte [count], 1
        jne fail
        mov ax, 2523h
        mov dx, abort_retf
        int 21h
        mov ah, 08h             ; ^C: the handler asks DOS to end us
        int 21h
fail:   mov ax, 4C01h
        int 21h

count_iret:
        inc byte [cs:count]
        iret
abort_retf:
        stc
        retf

count:  db 0
