; mouse.com: installs an INT 33h 0Ch event handler for every event, waits
; until it has been called, and prints "EVENT ax bx cx dx" with the
; registers the handler received (dos/tests/mouse.rs moves the mouse).
        cpu 8086
        org 100h

%include "report.inc"
        xor ax, ax
        int 33h
        cmp ax, 0FFFFh
        jne fail
        mov ax, 0Ch
        mov cx, 7Fh
        push cs
        pop es
        mov dx, handler
        int 33h
        sti
.wait:  hlt
        cmp byte [flag], 0
        je .wait
        mov dx, s_event
        mov ah, 9
        int 21h
        mov si, saved
        mov cx, 4
.next:  lodsw
        push cx
        call hex16
        pop cx
        loop .next
        mov dx, crlf
        mov ah, 9
        int 21h
        mov ax, 4C00h
        int 21h
fail:   mov ax, 4C01h
        int 21h

handler:
        mov [cs:saved], ax
        mov [cs:saved + 2], bx
        mov [cs:saved + 4], cx
        mov [cs:saved + 6], dx
        mov byte [cs:flag], 1
        retf

; Prints AX as four hex digits and a space.
hex16:
        HEX4
        mov dl, ' '
        mov ah, 2
        int 21h
        ret

s_event db 'EVENT $'
crlf    db 13, 10, '$'
flag    db 0
saved   dw 0, 0, 0, 0
