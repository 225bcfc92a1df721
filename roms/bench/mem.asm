; mem: loads, stores and read-modify-writes over two 64 KiB arrays, with
; segment overrides (ES, FS, GS) and the 16-bit addressing modes
; (roms/bench; see common.inc). Word accesses use even offsets: a word at
; offset FFFFh faults on a 386.
        cpu 386
        org 100h
%define NAME "mem"
%ifndef SCALE
%define SCALE 750
%endif

start:  mov ax, cs              ; the arrays: the two 64 KiB after ours
        add ax, 1000h
        mov es, ax
        mov fs, ax
        add ax, 1000h
        mov gs, ax
        cld
        xor di, di              ; fill both with a pattern
        mov cx, 8000h
        mov ax, 1234h
.fill:  mov [gs:di], ax
        stosw
        rol ax, 3
        add ax, 7F4Bh
        loop .fill
        mov dword [sum], 0
        mov word [outer], SCALE
        xor dx, dx
        xor si, si
        xor di, di
.outer: mov cx, 10000
.inner: mov bx, dx              ; a pseudo-random even offset
        and bx, 0FFFEh
        mov al, [es:bx]
        add [fs:bx+si], al
        mov ax, [es:bx+di+6]
        xor [gs:bx], ax
        mov bp, bx
        add ax, [es:bp+si]
        mov [gs:bp+di], ax
        sub ax, [gs:si+100h]
        mov [es:di+2], ax
        add [sum], ax
        adc word [sum+2], 0
        mov ax, [fs:bp+di+40h]
        mov bx, si              ; DS: our own 256-byte table
        and bx, 0FFh
        xor [bx+data], al
        add dx, ax
        add dx, 9E37h
        rol dx, 3
        add si, 2
        add di, 6
        loop .inner
        dec word [outer]
        jnz .outer
        xor bx, bx              ; fold the arrays into the checksum
        mov eax, [sum]
        mov cx, 8000h
.fold:  rol eax, 1
        add ax, [es:bx]
        xor ax, [gs:bx]
        add bx, 2
        loop .fold
        jmp finish

outer:  dw 0
sum:    dd 0
%include "common.inc"
data:   times 256 db 0
