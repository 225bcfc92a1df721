; str: the string instructions: REP MOVSB/MOVSW/MOVSD, REP STOSD,
; REPE CMPSB, LODSB and REPNE SCASB over two 64 KiB buffers (roms/bench;
; see common.inc). The guest count here is string elements: each REP
; iteration counts as one.
        cpu 386
        org 100h
%define NAME "str"
%ifndef SCALE
%define SCALE 1200
%endif

start:  mov ax, cs
        mov [ours], ax
        add ax, 1000h           ; buffer A
        mov [bufa], ax
        add ax, 1000h           ; buffer B
        mov [bufb], ax
        cld
        xor ebp, ebp            ; checksum
        mov edx, 1234567h       ; fill pattern
        mov bx, 1               ; position of the difference
        mov word [outer], SCALE
.outer: mov es, [bufa]          ; A := pattern
        xor di, di
        mov eax, edx
        mov cx, 4000h
        rep stosd
        mov ds, [bufa]          ; B := A, by dwords
        mov es, [cs:bufb]
        xor si, si
        xor di, di
        mov cx, 4000h
        rep movsd
        mov byte [es:bx], 5Ah   ; B differs from A at BX
        xor si, si              ; first difference: REPE CMPSB
        xor di, di
        mov cx, 0FFFFh
        repe cmpsb
        add bp, cx
        add bp, si
        mov si, 1               ; A := B shifted, by words from an odd start
        xor di, di
        mov ax, es
        mov ds, ax
        mov es, [cs:bufa]
        mov cx, 7FFFh
        rep movsw
        xor si, si              ; B := A, by bytes
        xor di, di
        mov ds, [cs:bufa]
        mov es, [cs:bufb]
        mov cx, 0FFFFh
        rep movsb
        mov si, bx              ; sum 2048 bytes of A with LODSB
        xor ax, ax
        mov cx, 800h
.lods:  lodsb
        add bp, ax
        loop .lods
        mov al, 5Ah             ; look for the marker in B: REPNE SCASB
        xor di, di
        mov cx, 0FFFFh
        repne scasb
        add bp, di
        mov ds, [cs:ours]
        rol ebp, 3
        add edx, 9E3779B9h
        add bx, 4099            ; move the difference
        dec word [outer]
        jnz .outer
        mov es, [ours]
        mov eax, ebp
        jmp finish

ours:   dw 0
bufa:   dw 0
bufb:   dw 0
outer:  dw 0
%include "common.inc"
