; text: mode 03h as the machine starts (80x25, 9x16 cells, font in plane
; 2): writes "Hi!" in yellow on blue at row 1, column 2 through B800h,
; moves the cursor to row 3 column 0 through CR0E/CR0F, then reads back the
; glyph row 5 of 'H' from plane 2 (read map 2, sequential addressing) and
; prints it as "g=XX\n".
        cpu 8086
        org 100h
%include "macros.inc"

start:  cli
        cld
        mov ax, 0B800h
        mov es, ax
        mov di, (1*80 + 2) * 2
        mov si, text
        mov ah, 1Eh
.c:     lodsb
        or al, al
        jz .d
        stosw
        jmp .c
.d:     mov dx, 3D4h
        mov ax, 000Eh
        out dx, ax
        mov ax, 240 << 8 | 0Fh  ; 3 * 80 = 240
        out dx, ax
        ; Font access: planes sequential, read map 2, A0000h window.
        mov dx, 3C4h
        mov ax, 0704h
        out dx, ax
        mov dx, 3CEh
        mov ax, 0204h
        out dx, ax
        mov ax, 0005h
        out dx, ax
        mov ax, 0406h
        out dx, ax
        mov ax, 0A000h
        mov es, ax
        mov al, [es:'H' * 32 + 5]
        push ax
        ; Back to text addressing.
        mov dx, 3C4h
        mov ax, 0304h
        out dx, ax
        mov dx, 3CEh
        mov ax, 0004h
        out dx, ax
        mov ax, 1005h
        out dx, ax
        mov ax, 0E06h
        out dx, ax
        pop ax
        PRINT "g="
        call print_hex8
        DBG 10
        cli
        hlt

text:   db "Hi!", 0

%include "lib.inc"
