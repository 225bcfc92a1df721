; hello.com: text through each console path, then exit code 7.
; "Hello" via INT 21h 09h, the command tail via INT 21h 40h on handle 1,
; "!" via INT 10h 0Eh (BIOS teletype), CR LF via INT 21h 02h.
        cpu 8086
        org 100h
        mov ah, 9
        mov dx, msg
        int 21h
        mov ah, 40h
        mov bx, 1
        xor cx, cx
        mov cl, [80h]
        mov dx, 81h
        int 21h
        mov ax, 0E21h
        xor bx, bx
        int 10h
        mov ah, 2
        mov dl, 13
        int 21h
        mov dl, 10
        int 21h
        mov ax, 4C07h
        int 21h
msg     db 'Hello,$'
