; files.com: keeps two files open for as long as it runs (the save-state
; test). Creates LOG.TXT, opens its own FILES.COM for reading, then on
; every timer tick reads the next byte of FILES.COM (back to the start at
; its end) and appends it to LOG.TXT. Never exits (stopped by the time
; limit); the bytes read also go to a ring in memory.
        cpu 8086
        org 100h
        mov ah, 3Ch             ; create LOG.TXT
        xor cx, cx
        mov dx, logname
        int 21h
        jc fail
        mov [log], ax
        mov ax, 3D00h           ; open FILES.COM for reading
        mov dx, selfname
        int 21h
        jc fail
        mov [self], ax
        xor ax, ax
        mov es, ax
next:   mov dx, [es:046Ch]      ; wait for the BIOS tick count to change
idle:   sti
        hlt
        cmp dx, [es:046Ch]
        je idle
        mov ah, 3Fh             ; read one byte
        mov bx, [self]
        mov cx, 1
        mov dx, byte_
        int 21h
        jc fail
        test ax, ax
        jnz got
        mov ax, 4200h           ; at the end: back to the start
        xor cx, cx
        xor dx, dx
        int 21h
        jmp next
got:    mov al, [byte_]
        mov bx, [ring_i]
        mov [ring + bx], al
        inc bx
        and bx, 0FFh
        mov [ring_i], bx
        mov ah, 40h             ; append it to LOG.TXT
        mov bx, [log]
        mov cx, 1
        mov dx, byte_
        int 21h
        jc fail
        jmp next
fail:   mov ax, 4C01h
        int 21h
logname  db 'LOG.TXT', 0
selfname db 'FILES.COM', 0
log     dw 0
self    dw 0
byte_   db 0
ring_i  dw 0
ring    times 256 db 0
