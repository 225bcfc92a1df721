; childpsp.com: a program loader of its own, as demos of 1993 wrote them
; (Second Reality's runs every part so): no EXEC. It places a child's code
; in a block, builds the child's PSP with INT 21h 55h, puts its own
; return point at the child's PSP:000Ah and itself at PSP:0016h, makes the
; child current with 50h and jumps in. The child allocates a block of its
; own and ends with 4Ch, code 2Ah. DOS must come back to the terminate
; address with the parent current again, the child's return code for 4Dh,
; INT 22h restored from the child's PSP and the child's own block freed.
; Prints "CHILD" (from the child) then "BACK OK"; exit 0, or the number of
; the first check that failed.
        cpu 8086
        org 100h

start:  mov ah, 4Ah                 ; shrink to 4 KiB
        mov bx, 100h
        int 21h
        mov ah, 51h
        int 21h
        mov [own], bx
        mov ah, 48h                 ; the child's block: PSP + code
        mov bx, 40h
        int 21h
        mov bl, 1
        jc fail
        mov [child], ax
        ; the child's code at child:0100h
        mov es, ax
        mov di, 100h
        mov si, kid
        mov cx, kid_end - kid
        cld
        rep movsb
        ; 55h: child PSP at DX, top of memory SI
        mov dx, [child]
        mov si, dx
        add si, 40h
        mov ah, 55h
        int 21h
        mov es, [child]
        mov word [es:0Ah], back
        mov [es:0Ch], cs
        mov ax, [own]
        mov [es:16h], ax
        mov ah, 50h
        mov bx, [child]
        int 21h
        mov [save_sp], sp
        mov [save_ss], ss
        mov ax, [child]
        mov [target+2], ax
        mov ds, ax
        mov es, ax
        jmp far [cs:target]

back:   cli                         ; DOS kept none of our registers
        mov ss, [cs:save_ss]
        mov sp, [cs:save_sp]
        sti
        push cs
        pop ds
        mov ah, 51h                 ; 2: the parent is current again
        int 21h
        mov al, 2
        cmp bx, [own]
        jne fail_al
        mov ah, 4Dh                 ; 3: the child's return code
        int 21h
        mov bl, 3
        cmp ax, 002Ah
        jne fail
        xor ax, ax                  ; 4: INT 22h is the child's PSP:000Ah
        mov es, ax
        mov bl, 4
        cmp word [es:22h*4], back
        jne fail
        mov ax, cs
        cmp [es:22h*4+2], ax
        jne fail
        mov es, [child]             ; 5: the child's own block is free
        mov ax, [es:0F0h]
        dec ax
        mov es, ax
        mov bl, 5
        cmp word [es:1], 0
        jne fail
        mov ah, 9
        mov dx, ok
        int 21h
        mov ax, 4C00h
        int 21h

fail_al: mov bl, al
fail:   mov al, bl
        mov ah, 4Ch
        int 21h

; The child, copied to child:0100h (position-independent: DS = its PSP).
kid:    mov ah, 48h                 ; a block of its own, owned by it
        mov bx, 1
        int 21h
        mov [ds:0F0h], ax
        mov ah, 9
        mov dx, 100h + kid_msg - kid
        int 21h
        mov ax, 4C2Ah
        int 21h
kid_msg: db 'CHILD', 13, 10, '$'
kid_end:

ok:     db 'BACK OK$'
own:    dw 0
child:  dw 0
save_sp: dw 0
save_ss: dw 0
target: dw 100h, 0
