; modes: three pictures in a row for `tandem run --video`'s files: mode
; 13h (320x200 at 70.086 Hz, a diagonal ramp of the 256 colours), mode 12h
; (640x480 at 59.94 Hz, stripes), mode 13h again, each held for 35 frames
; (the starts of vertical retrace counted on input status 1, 3DAh bit 3),
; the PC speaker sounding 440 Hz throughout; then it exits to DOS.
        cpu 8086
        org 100h

start:  mov al, 0B6h            ; PIT channel 2, lobyte/hibyte, square wave
        out 43h, al
        mov ax, 2712            ; 1193182 / 440
        out 42h, al
        mov al, ah
        out 42h, al
        in al, 61h
        or al, 3                ; gate and speaker on
        out 61h, al
        mov ax, 0013h
        int 10h
        call ramp13
        call wait35
        mov ax, 0012h
        int 10h
        call stripes12
        call wait35
        mov ax, 0013h
        int 10h
        call ramp13
        call wait35
        in al, 61h
        and al, 0FCh
        out 61h, al
        mov ax, 4C00h
        int 21h

; Mode 13h: pixel (x, y) is colour (x + y) mod 256.
ramp13: mov ax, 0A000h
        mov es, ax
        xor di, di
        xor dx, dx
.row:   mov cx, 320
        mov al, dl
.px:    stosb
        inc al
        loop .px
        inc dx
        cmp dx, 200
        jne .row
        ret

; Mode 12h (write mode 0, all four planes): byte column c of row y is
; y + c, so each byte's set bits show colour 15.
stripes12:
        mov ax, 0A000h
        mov es, ax
        xor di, di
        xor dx, dx
.row:   mov cx, 80
        mov al, dl
.b:     stosb
        inc al
        loop .b
        inc dx
        cmp dx, 480
        jne .row
        ret

; Waits for 35 starts of vertical retrace.
wait35: mov cx, 35
        mov dx, 3DAh
.f:     in al, dx               ; out of the retrace in progress
        test al, 8
        jnz .f
.r:     in al, dx               ; to the next one's start
        test al, 8
        jz .r
        loop .f
        ret
