; calls: near and far CALL/RET, PUSH/POP, recursion and INT to the
; program's own handler (roms/bench; see common.inc).
        cpu 386
        org 100h
%define NAME "calls"
%ifndef SCALE
%define SCALE 2100
%endif
VEC     equ 60h                 ; a user interrupt vector

start:  mov ax, 3500h + VEC     ; keep the old vector, set ours
        int 21h
        mov [oldvec], bx
        mov [oldvec+2], es
        mov ax, 2500h + VEC
        mov dx, handler
        int 21h
        mov [farptr+2], cs
        xor ebp, ebp            ; checksum
        mov word [outer], SCALE
.outer: mov ax, 18              ; recursion: about 8400 calls
        call fib
        add bp, ax
        mov cx, 2000
.calls: push cx
        push bp
        call far [farptr]
        pop bx
        add bp, bx
        int VEC
        call near leaf
        pop cx
        loop .calls
        rol ebp, 5
        dec word [outer]
        jnz .outer
        push ds
        mov ax, 2500h + VEC     ; restore the vector
        lds dx, [oldvec]
        int 21h
        pop ds
        mov eax, ebp
        jmp finish

; fib: AX = n -> AX = fib(n), recursively; BX kept
fib:    cmp ax, 2
        jb .done
        push bx
        push ax
        dec ax
        call fib
        mov bx, ax
        pop ax
        sub ax, 2
        call fib
        add ax, bx
        pop bx
.done:  ret

farfn:  xor bp, cx              ; reached by CALL FAR
        retf

leaf:   add bp, 3               ; reached by CALL NEAR
        ret

handler: ror bp, 1              ; INT VEC
        add bp, cx
        iret

farptr: dw farfn, 0
oldvec: dd 0
outer:  dw 0
%include "common.inc"
