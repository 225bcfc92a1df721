; alu: 16- and 32-bit ALU work and the flags it defines, shifts and
; rotates, MUL and DIV (roms/bench; see common.inc).
        cpu 386
        org 100h
%define NAME "alu"
%ifndef SCALE
%define SCALE 400
%endif

start:  mov esi, 12345678h      ; two running values
        mov edi, 9ABCDEF1h
        xor ebp, ebp            ; checksum
        xor edx, edx
        mov word [outer], SCALE
.outer: mov cx, 10000
.inner: mov ax, si              ; 16-bit arithmetic: every flag defined
        add ax, di
        adc dx, ax
        sub ax, cx
        sbb dx, 1234h
        lahf
        and ah, 0D5h            ; SF ZF AF PF CF
        add bp, ax
        xor ax, dx              ; logic: AF undefined, so it is masked off
        or ax, 0101h
        and ax, 7FFFh
        lahf
        and ah, 0C5h
        add bp, ax
        mov bx, cx              ; shifts by 1..15
        and bl, 0Fh
        or bl, 1
        xchg bx, cx
        shl ax, cl
        rcl dx, 1
        sar ax, cl
        ror dx, cl
        xchg bx, cx
        adc bp, dx
        mov eax, esi            ; 32-bit arithmetic
        add eax, edi
        rol eax, 7
        xor esi, eax
        sub edi, esi
        neg eax
        adc ebp, eax
        mov ax, si              ; MUL: DX:AX; flags after it not used
        mul di
        add bp, dx
        xor bp, ax
        mov bx, cx              ; DIV: DX < 8000h <= divisor, no overflow
        or bx, 8000h
        shr dx, 1
        div bx
        add bp, ax
        add bp, dx
        inc si
        dec di
        loop .inner
        rol ebp, 1
        dec word [outer]
        jnz .outer
        mov eax, ebp
        add eax, esi
        xor eax, edi
        jmp finish

outer:  dw 0
%include "common.inc"
