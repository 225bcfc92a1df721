; video.com: INT 10h through real INT instructions, results as "OK name" or
; "FAIL name" lines through INT 21h 09h (drawn by the BIOS teletype in the
; graphics mode, and on stdout).
;  pix12: mode 12h, 0Ch writes colour 0Ch at (100,50), 0Dh reads it back,
;         a XOR write (bit 7) clears it.
;  pix13: mode 13h, the same with colour 9Ah (no XOR in mode 13h).
;  glyph: 0Eh draws 'A' in colour 0Eh at (0,0); each pixel of the cell
;         read with 0Dh matches the font 1130h BH=1 (INT 43h) points at.
;  dac:   1010h then 1015h return the same colour.
;  state: 1B00h fills the table: AL = 1Bh, mode 13h, 40 columns.
        cpu 8086
        org 100h

%include "report.inc"

        mov ax, 0012h
        int 10h
        mov ax, 0C0Ch
        xor bx, bx
        mov cx, 100
        mov dx, 50
        int 10h
        mov ah, 0Dh
        int 10h
        cmp al, 0Ch
        jne .p12_fail
        mov ax, 0C8Ch           ; XOR with the same colour
        int 10h
        mov ah, 0Dh
        int 10h
        cmp al, 0
        jne .p12_fail
        clc
        jmp .p12_done
.p12_fail:
        stc
.p12_done:
        pushf
        mov ax, 0013h
        int 10h
        popf
        mov si, n_pix12
        call result

        mov ax, 0C9Ah
        xor bx, bx
        mov cx, 300
        mov dx, 190
        int 10h
        mov ah, 0Dh
        int 10h
        cmp al, 9Ah
        je .p13_ok
        stc
        jmp .p13_done
.p13_ok:
        clc
.p13_done:
        mov si, n_pix13
        call result

; glyph: draw 'A' at row 1 (below the first result line), column 10.
        mov ah, 2
        xor bh, bh
        mov dx, 010Ah
        int 10h
        mov ax, 0E41h
        mov bx, 000Eh
        int 10h
        mov ax, 1130h
        mov bh, 1
        push bp
        int 10h                 ; ES:BP = INT 43h font, CX = height (8)
        mov si, bp
        pop bp
        add si, 41h * 8
        mov dx, 8               ; first pixel line of text row 1
        mov byte [bad], 0
.g_row: mov bl, [es:si]
        mov cx, 80              ; column 10 * 8
.g_px:  push bx
        mov ah, 0Dh
        xor bh, bh
        int 10h
        pop bx
        shl bl, 1
        jc .g_on
        cmp al, 0
        je .g_next
        mov byte [bad], 1
        jmp .g_next
.g_on:  cmp al, 0Eh
        je .g_next
        mov byte [bad], 1
.g_next:
        inc cx
        cmp cx, 88
        jb .g_px
        inc si
        inc dx
        cmp dx, 16
        jb .g_row
        push cs
        pop es
        mov ah, 2               ; on to the start of row 2
        xor bh, bh
        mov dx, 0200h
        int 10h
        cmp byte [bad], 1
        cmc
        mov si, n_glyph
        call result

        mov ax, 1010h
        mov bx, 77h
        mov dh, 11
        mov cx, 2233h & 3F3Fh
        int 10h
        mov ax, 1015h
        mov bx, 77h
        xor cx, cx
        xor dx, dx
        int 10h
        cmp dh, 11
        jne .d_fail
        cmp cx, 2233h & 3F3Fh
        jne .d_fail
        clc
        jmp .d_done
.d_fail:
        stc
.d_done:
        mov si, n_dac
        call result

        mov ax, 1B00h
        xor bx, bx
        mov di, table
        int 10h
        cmp al, 1Bh
        jne .s_fail
        cmp byte [table + 4], 13h
        jne .s_fail
        cmp word [table + 5], 40
        jne .s_fail
        clc
        jmp .s_done
.s_fail:
        stc
.s_done:
        mov si, n_state
        call result

        mov ax, 4C00h
        int 21h

; Prints "OK " or "FAIL " (from CF) and the name at SI, then CR LF.
        RESULT_ROUTINE
n_pix12 db 'pix12$'
n_pix13 db 'pix13$'
n_glyph db 'glyph$'
n_dac   db 'dac$'
n_state db 'state$'
bad     db 0
table   times 64 db 0
