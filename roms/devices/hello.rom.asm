; hello.rom: a minimal option ROM. The BIOS (Machine::init_option_roms)
; finds 55h AAh, checks the sum of its 512 bytes, and far-calls offset 3.
; Init prints "init" on port E9h and hooks INT 60h, whose handler prints
; "int60" and returns AX=1234h. roms/build.sh fixes the checksum byte.
        cpu 8086
        org 0
        db 55h, 0AAh, 1         ; signature, length in 512-byte blocks
        jmp init

init:   push ax
        push si
        push ds
        push es
        push cs
        pop ds
        mov si, msg_init
        call print
        xor ax, ax
        mov es, ax
        mov word [es:60h*4], int60
        mov word [es:60h*4+2], cs
        pop es
        pop ds
        pop si
        pop ax
        retf

int60:  push si
        push ds
        push cs
        pop ds
        mov si, msg_int
        call print
        pop ds
        pop si
        mov ax, 1234h
        iret

print:  lodsb
        or al, al
        jz .d
        out 0E9h, al
        jmp print
.d:     ret

msg_init: db "init", 0
msg_int:  db "int60", 0

        times 511 - ($ - $$) db 0
        db 0                    ; checksum, set by build.sh
