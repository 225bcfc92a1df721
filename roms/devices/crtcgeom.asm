; crtcgeom: tweaked VGA modes whose CRTC display end, blanking and overscan
; colour decide what the monitor shows. The first letter of the command
; tail picks one; every picture is colour 15 (white) everywhere in display
; memory, so what is not white is border (the overscan colour, AR11) or
; blanking (black). The program then waits for the run to end.
;   a  mode 13h with display end 47h (288 pixels) and blanking from 3Fh
;      (252): an intro's tweak; overscan colour 4
;   b  256x240 unchained (mode X's 480 lines), display end 3Fh, blanking
;      narrower from 3Ch (240 pixels); overscan colour 4
;   c  360x480 unchained (28 MHz clock); overscan colour 2
;   d  mode 13h with vertical blanking from scan line 100h (line 128 of
;      200); overscan colour 1
        cpu 8086
        org 100h

start:  cld
        mov ax, 0013h
        int 10h
        ; CR11 bit 7 off: CR00-CR07 writable.
        mov dx, 3D4h
        mov al, 11h
        out dx, al
        inc dx
        in al, dx
        and al, 7Fh
        out dx, al
        ; The letter after the spaces of the command tail.
        mov si, 81h
.skip:  lodsb
        cmp al, ' '
        je .skip
        mov bl, 4
        mov di, tweak_a
        cmp al, 'a'
        je .set
        mov di, tweak_b
        cmp al, 'b'
        je .unch
        mov bl, 2
        mov di, tweak_c
        cmp al, 'c'
        je .c
        mov bl, 1
        mov di, tweak_d
        cmp al, 'd'
        je .set
        mov dx, usage
        mov ah, 9
        int 21h
        mov ax, 4C02h
        int 21h
.c:     mov dx, 3C2h            ; 28.322 MHz dot clock
        mov al, 0E7h
        out dx, al
.unch:  mov dx, 3C4h            ; chain 4 off
        mov ax, 0604h
        out dx, ax
.set:   mov si, di              ; the CRTC pairs (index, value), FFh ends
        mov dx, 3D4h
.crtc:  lodsw
        cmp al, 0FFh
        je .attr
        out dx, ax
        jmp .crtc
.attr:  mov dx, 3DAh            ; AR11, the overscan colour, then PAS on
        in al, dx
        mov dx, 3C0h
        mov al, 31h
        out dx, al
        mov al, bl
        out dx, al
        ; Every plane's every byte colour 15.
        mov dx, 3C4h
        mov ax, 0F02h
        out dx, ax
        mov ax, 0A000h
        mov es, ax
        xor di, di
        mov ax, 0F0Fh
        mov cx, 8000h
        rep stosw
        sti
.wait:  hlt
        jmp .wait

tweak_a: db 01h, 47h, 02h, 3Fh, 13h, 24h, 0FFh, 0
tweak_b: db 06h, 0Dh, 07h, 3Eh, 10h, 0EAh, 11h, 2Ch, 12h, 0DFh, 15h, 0E7h
         db 16h, 06h, 14h, 00h, 17h, 0E3h, 01h, 3Fh, 02h, 3Ch, 13h, 20h, 0FFh, 0
tweak_c: db 00h, 6Bh, 01h, 59h, 02h, 5Ah, 03h, 8Eh, 04h, 5Eh, 05h, 8Ah
         db 06h, 0Dh, 07h, 3Eh, 09h, 40h, 10h, 0EAh, 11h, 2Ch, 12h, 0DFh
         db 13h, 2Dh, 14h, 00h, 15h, 0E7h, 16h, 06h, 17h, 0E3h, 0FFh, 0
tweak_d: db 15h, 00h, 0FFh, 0
usage:  db "usage: crtcgeom a|b|c|d", 13, 10, "$"
