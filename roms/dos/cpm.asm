; cpm.com: the CP/M-style entry of the PSP and the country case-map
; routine. Prints "CPM!+" through CALL 5 (function 09h, then 02h, then
; 02h again with A20 on, through the HMA twin of 0000:00C0) and exits 0,
; or exits 1 at the first check that fails: CALL 5 with a function above
; 24h returns AL = 0, PSP:0006 holds FEF0h, and the far case-map routine
; INT 21h 38h points at upper-cases 84h to 8Eh and leaves 'a' alone.
; dos/tests/dos5.rs runs it on the 386 model.
        cpu 386
        org 100h

start:
        mov cl, 9
        mov dx, msg
        call 5
        mov cl, 2
        mov dl, '!'
        call 5
        mov cl, 30h             ; beyond CP/M's functions
        mov al, 55h
        call 5
        cmp al, 0
        jne fail
        cmp word [6], 0FEF0h
        jne fail
        in al, 92h              ; A20 on: F01D:FEF0 is in the HMA now
        or al, 2
        out 92h, al
        mov cl, 2
        mov dl, '+'
        call 5
        in al, 92h
        and al, 0FDh
        out 92h, al
        mov ax, 3800h
        mov dx, info
        int 21h
        jc fail
        mov al, 84h             ; a-umlaut
        call far [info+12h]
        cmp al, 8Eh             ; A-umlaut
        jne fail
        mov al, 'a'
        call far [info+12h]
        cmp al, 'a'
        jne fail
        mov ax, 4C00h
        int 21h
fail:   mov ax, 4C01h
        int 21h

msg:    db 'CPM$'
info:   times 34 db 0
