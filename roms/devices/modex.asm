; modex: 320x240 unchained 256-colour mode ("mode X") set up register by
; register, then page flipping and scrolling through the CRTC start
; address. Pages are 19200 bytes (80 bytes x 240 lines per plane).
; Markers on port E9h: 'A' once page 0 is shown, 'B' page 1, 'C' page 1
; scrolled up 10 lines; then "rd=XX" (a pixel read back through the read
; map select) and a newline.
        cpu 8086
        org 100h
%include "macros.inc"

PAGE1   equ 19200

start:  cli
        cld
        call set_modex
        ; Palette entries 0-5.
        mov dx, 3C8h
        xor al, al
        out dx, al
        inc dx
        mov si, palette
        mov cx, 6*3
.pal:   lodsb
        out dx, al
        loop .pal
        ; Clear all four planes.
        mov dx, 3C4h
        mov ax, 0F02h
        out dx, ax
        mov ax, 0A000h
        mov es, ax
        xor di, di
        xor ax, ax
        mov cx, 8000h
        rep stosw
        ; Show the blank page 1 while page 0 is drawn.
        mov bx, PAGE1
        call set_start
        call wait_vr

        ; Page 0: colour 1 everywhere, a colour 2 box at x 40-119, y 40-99.
        xor di, di
        mov al, 1
        mov cx, 19200
        rep stosb
        mov bx, 40
.box1:  mov ax, bx
        mov dx, 80
        mul dx
        add ax, 10
        mov di, ax
        mov al, 2
        mov cx, 20
        rep stosb
        inc bx
        cmp bx, 100
        jne .box1

        xor bx, bx
        call set_start
        call wait_vr
        DBG 'A'
        call wait_vr

        ; Page 1: a latch copy of page 0 (write mode 1, 4 pixels a byte)...
        mov dx, 3CEh
        mov ax, 4105h
        out dx, ax
        push ds
        mov ax, 0A000h
        mov ds, ax
        xor si, si
        mov di, PAGE1
        mov cx, 19200
        rep movsb
        pop ds
        mov ax, 4005h
        out dx, ax
        ; ... a colour 3 box at x 160-279, y 120-199 ...
        mov bx, 120
.box2:  mov ax, bx
        mov dx, 80
        mul dx
        add ax, PAGE1 + 40
        mov di, ax
        mov al, 3
        mov cx, 30
        rep stosb
        inc bx
        cmp bx, 200
        jne .box2
        ; ... and a colour 4 diagonal (x, x) for x = 0..239, one plane at
        ; a time through the map mask.
        xor bx, bx
.diag:  mov cl, bl
        and cl, 3
        mov ah, 1
        shl ah, cl
        mov al, 2
        mov dx, 3C4h
        out dx, ax
        mov ax, bx
        mov dx, 80
        mul dx
        mov dx, bx
        mov cl, 2
        shr dx, cl
        add ax, dx
        add ax, PAGE1
        mov di, ax
        mov byte [es:di], 4
        inc bx
        cmp bx, 240
        jne .diag
        mov dx, 3C4h
        mov ax, 0F02h
        out dx, ax

        mov bx, PAGE1
        call set_start
        call wait_vr
        DBG 'B'
        call wait_vr

        mov bx, PAGE1 + 10*80
        call set_start
        call wait_vr
        DBG 'C'
        call wait_vr

        ; Read back pixel (3,3) of page 1 from plane 3.
        mov dx, 3CEh
        mov ax, 0304h
        out dx, ax
        mov al, [es:PAGE1 + 3*80]
        PRINT "rd="
        call print_hex8
        DBG 10
        cli
        hlt

; set_start: BX -> CRTC start address
set_start:
        push ax
        push dx
        mov dx, 3D4h
        mov al, 0Ch
        mov ah, bh
        out dx, ax
        mov al, 0Dh
        mov ah, bl
        out dx, ax
        pop dx
        pop ax
        ret

; wait_vr: wait for the start of vertical retrace
wait_vr:
        push ax
        push dx
        mov dx, 3DAh
.a:     in al, dx
        test al, 8
        jnz .a
.b:     in al, dx
        test al, 8
        jz .b
        pop dx
        pop ax
        ret

; set_modex: mode 13h's registers with chain 4 off, byte addressing and
; 480 scan lines (M. Abrash's mode X)
set_modex:
        mov dx, 3C2h
        mov al, 0E3h
        out dx, al
        mov dx, 3C4h
        mov si, seq_regs
        xor bx, bx
.seq:   mov al, bl
        mov ah, [si+bx]
        out dx, ax
        inc bx
        cmp bx, 5
        jne .seq
        mov ax, 0300h           ; end of synchronous reset
        out dx, ax
        mov dx, 3D4h
        mov ax, 0011h           ; unprotect CR0-7
        out dx, ax
        mov si, crtc_regs
        xor bx, bx
.crtc:  mov al, bl
        mov ah, [si+bx]
        out dx, ax
        inc bx
        cmp bx, 25
        jne .crtc
        mov dx, 3CEh
        mov si, gc_regs
        xor bx, bx
.gc:    mov al, bl
        mov ah, [si+bx]
        out dx, ax
        inc bx
        cmp bx, 9
        jne .gc
        mov dx, 3DAh
        in al, dx               ; attribute flip-flop to index
        mov dx, 3C0h
        mov si, attr_regs
        xor bx, bx
.attr:  mov al, bl
        out dx, al
        mov al, [si+bx]
        out dx, al
        inc bx
        cmp bx, 21
        jne .attr
        mov al, 20h             ; palette address source: display on
        out dx, al
        ret

seq_regs:  db 01h, 01h, 0Fh, 00h, 06h
crtc_regs: db 5Fh, 4Fh, 50h, 82h, 54h, 80h, 0Dh, 3Eh, 00h, 41h, 00h, 00h, 00h
           db 00h, 00h, 00h, 0EAh, 0ACh, 0DFh, 28h, 00h, 0E7h, 06h, 0E3h, 0FFh
gc_regs:   db 00h, 00h, 00h, 00h, 00h, 40h, 05h, 0Fh, 0FFh
attr_regs: db 00h, 01h, 02h, 03h, 04h, 05h, 06h, 07h, 08h, 09h, 0Ah, 0Bh
           db 0Ch, 0Dh, 0Eh, 0Fh, 41h, 00h, 0Fh, 00h, 00h
palette:   db 0, 0, 0,  0, 0, 42,  63, 63, 0,  0, 63, 0,  63, 63, 63,  63, 0, 0

%include "lib.inc"
