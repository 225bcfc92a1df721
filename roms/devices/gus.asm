; gus: the Gravis UltraSound as a DOS program finds and drives it
; (UltraSound Lowlevel ToolKit; the GF1 hardware reference).
; Reads ULTRASND from its environment (base, playback DMA, sampling DMA,
; GF1 IRQ, MIDI IRQ) and prints it; resets the GF1 (4Ch 0, then 1) and
; sizes its DRAM as the ToolKit does (a byte at 0, 40000h, 80000h,
; C0000h, read back: "GUS 1024 KiB"); programs the 2XB latches (2X0 bit 6
; selects the IRQ latch, clear the DMA latch), takes the card's
; interrupt, and uploads one period of a sine (256 unsigned bytes, 41h
; bit 7 inverting them to signed) to DRAM 1000h through the 8237 (mode
; 48h) and the GF1's DMA (41h: go, TC interrupt); the handler reads 2X6
; and 41h ("DMA done"). Then voice 0 plays it looped at 14 voices
; (44100 Hz) with FC 1308/512: 1308 / 512 * 44100 / 256 = 440.09 Hz,
; its volume ramping up from 040h to E00h, for 18 BIOS ticks (1 s), and
; stops ("sine played"). Failures print why and exit 1.
        cpu 8086
        org 100h
%include "macros.inc"

DRAM    equ 1000h               ; where the sine goes in DRAM
FC      equ 1308 << 1           ; 01h: 1308/512 frames a frame

start:  call dos_probe
        call ultrasnd
        jnc .reset
        PRINT "no ULTRASND"
        jmp fail
.reset: mov ax, 004Ch           ; master reset
        call w8
        call delay
        mov ax, 014Ch           ; run
        call w8
        call delay
        call size
        cmp ax, 0
        jne .found
        PRINT "no GUS"
        jmp fail
.found: PRINT "GUS "
        call print_u16
        PRINT " KiB"
        call newline
        call latches
        call set_vector
        mov ax, 074Ch           ; run, DAC, GF1 interrupt
        call w8
        mov ax, 0CD0Eh          ; 14 active voices: 44100 Hz
        call w8
        call upload
        jnc .play
        PRINT "no DMA interrupt"
        jmp fail
.play:  PRINT "DMA done"
        call newline
        call play
        mov cx, 18
        call ticks
        mov ax, 0300h           ; voice 0 stopped
        call w8
        PRINT "sine played"
        call newline
        call restore_vector
        mov al, 0
        DOS_EXIT
fail:   call newline
        mov al, 1
        DOS_EXIT

; ---- the GF1's registers: 3X3 selects, 3X5 (8-bit) or 3X4 (16) ----
; w8: register AL := AH
w8:     push dx
        push ax
        mov dx, [base]
        add dx, 103h
        out dx, al
        add dx, 2
        mov al, ah
        out dx, al
        pop ax
        pop dx
        ret

; w16: register AL := BX
w16:    push dx
        push ax
        mov dx, [base]
        add dx, 103h
        out dx, al
        inc dx
        mov ax, bx
        out dx, ax
        pop ax
        pop dx
        ret

; rd8: AL := register AL
rd8:     push dx
        mov dx, [base]
        add dx, 103h
        out dx, al
        add dx, 2
        in al, dx
        pop dx
        ret

; poke: DRAM (DL:BX) := AL ; peek: AL := DRAM (DL:BX)
poke:   push ax
        call dram_at
        pop ax
        push dx
        mov dx, [base]
        add dx, 107h
        out dx, al
        pop dx
        ret
peek:   call dram_at
        push dx
        mov dx, [base]
        add dx, 107h
        in al, dx
        pop dx
        ret
dram_at:
        mov al, 43h
        call w16
        mov ah, dl
        mov al, 44h
        call w8
        ret

; size: AX := KiB of DRAM, the ToolKit's way: a byte in each 256 KiB
; bank, every bank read back.
size:   xor bx, bx
        mov cx, 4
        xor dl, dl
.w:     mov al, cl
        add al, 0A0h
        call poke
        add dl, 4
        loop .w
        mov cx, 4
        xor dl, dl
        xor si, si
.r:     call peek
        mov ah, cl
        add ah, 0A0h
        cmp al, ah
        jne .done
        add si, 256
        add dl, 4
        loop .r
.done:  mov ax, si
        ret

; latches: 2XB's interrupt and DMA latches from ULTRASND (both channels
; on the GF1's)
latches:
        mov al, [irq]
        mov si, irq_table
        call index
        or al, 40h              ; combine the MIDI interrupt with it
        mov ah, al
        mov dx, [base]
        mov al, 4Bh             ; 2X0: latches on, line in/out off, IRQ latch
        out dx, al
        add dx, 0Bh
        mov al, ah
        out dx, al
        mov al, [dma]
        mov si, dma_table
        call index
        or al, 40h
        mov ah, al
        mov dx, [base]
        mov al, 0Bh             ; DMA latch
        out dx, al
        add dx, 0Bh
        mov al, ah
        out dx, al
        ret
; index: AL := the position of AL in the 8-byte table at SI
index:  push cx
        xor cx, cx
.l:     cmp al, [si]
        je .f
        inc si
        inc cx
        cmp cx, 8
        jb .l
        xor cx, cx
.f:     mov al, cl
        pop cx
        ret

; upload: the sine to DRAM through DMA; CF set when no interrupt comes
upload: mov byte [done], 0
        ; the sine copied to a buffer that does not cross a 64 KiB page
        mov ax, ds
        mov dx, ds
        mov cl, 4
        shl ax, cl              ; physical bits 15-0 of DS:0
        mov cl, 12
        shr dx, cl              ; physical bits 19-16 of DS:0
        mov di, buf
        add ax, di
        adc dl, 0
        cmp ax, 0FF00h
        jbe .ok
        add di, 256             ; past the page's end
        add ax, 256
        adc dl, 0
.ok:    mov [phys], ax
        mov [page], dl
        push ds
        pop es
        mov si, sine
        mov cx, 256
        cld
        rep movsb
        mov al, [dma]
        and al, 3
        mov ah, al
        or al, 4
        out 0Ah, al             ; mask
        out 0Ch, al             ; flip-flop
        mov al, ah
        or al, 48h              ; single, read, increment
        out 0Bh, al
        mov dl, ah
        xor dh, dh
        shl dx, 1               ; address port: 2 * channel
        mov al, [phys]
        out dx, al
        mov al, [phys+1]
        out dx, al
        inc dx                  ; count port
        mov al, 255
        out dx, al
        xor al, al
        out dx, al
        mov bl, ah
        xor bh, bh
        mov dl, [page_ports+bx]
        xor dh, dh
        mov al, [page]
        out dx, al
        mov al, ah
        out 0Ah, al             ; unmask
        mov bx, DRAM >> 4
        mov al, 42h
        call w16
        mov ax, 0A141h          ; go, 8-bit, TC interrupt, invert
        call w8
        mov cx, 3
        call ticks
        cmp byte [done], 0
        jne .yes
        stc
        ret
.yes:   clc
        ret

; play: voice 0, the sine looped, the volume ramping up
play:   mov dx, [base]
        add dx, 102h
        xor al, al
        out dx, al              ; voice 0
        mov bx, FC
        mov al, 01h
        call w16
        mov bx, DRAM >> 7       ; start (02h high, 03h low)
        mov al, 02h
        call w16
        mov bx, (DRAM & 7Fh) << 9
        mov al, 03h
        call w16
        mov bx, (DRAM + 256) >> 7       ; end
        mov al, 04h
        call w16
        mov bx, ((DRAM + 256) & 7Fh) << 9
        mov al, 05h
        call w16
        mov bx, DRAM >> 7       ; current
        mov al, 0Ah
        call w16
        mov bx, (DRAM & 7Fh) << 9
        mov al, 0Bh
        call w16
        mov ax, 070Ch           ; pan: centre
        call w8
        mov bx, 0400h           ; volume 040h
        mov al, 09h
        call w16
        mov ax, 0407h           ; ramp from 040h
        call w8
        mov ax, 0E008h          ; to E00h
        call w8
        mov ax, 1F06h           ; 31 a frame
        call w8
        mov ax, 000Dh           ; ramp up, once
        call w8
        mov ax, 0800h           ; looped, 8-bit, forward
        call w8
        mov dx, [base]
        mov al, 09h             ; 2X0: line out on, latches on
        out dx, al
        ret

; the GF1's interrupt: the DMA's terminal count
handler:
        push ax
        push dx
        push ds
        push cs
        pop ds
        mov dx, [base]
        add dx, 6
        in al, dx
        test al, 80h
        jz .eoi
        mov al, 41h
        call rd8                 ; takes the DMA interrupt
        mov byte [done], 1
.eoi:   mov al, 20h
        cmp byte [irq], 8
        jb .m
        out 0A0h, al
.m:     out 20h, al
        pop ds
        pop dx
        pop ax
        iret

; set_vector: the card's interrupt to `handler`, unmasked
set_vector:
        mov al, [irq]
        cmp al, 2
        jne .n2
        mov al, 9
.n2:    mov [line], al
        mov bl, al
        add bl, 8
        cmp al, 8
        jb .v
        add bl, 70h - 16
.v:     mov [vec], bl
        xor bh, bh
        shl bx, 1
        shl bx, 1
        xor ax, ax
        mov es, ax
        cli
        mov ax, [es:bx]
        mov [old], ax
        mov ax, [es:bx+2]
        mov [old+2], ax
        mov word [es:bx], handler
        mov [es:bx+2], cs
        mov cl, [line]
        mov ah, 1
        cmp cl, 8
        jb .master
        sub cl, 8
        shl ah, cl
        not ah
        in al, 0A1h
        and al, ah
        out 0A1h, al
        mov ah, 4               ; the cascade
        not ah
        in al, 21h
        and al, ah
        out 21h, al
        sti
        ret
.master:
        shl ah, cl
        not ah
        in al, 21h
        and al, ah
        out 21h, al
        sti
        ret

restore_vector:
        mov bl, [vec]
        xor bh, bh
        shl bx, 1
        shl bx, 1
        xor ax, ax
        mov es, ax
        cli
        mov ax, [old]
        mov [es:bx], ax
        mov ax, [old+2]
        mov [es:bx+2], ax
        sti
        ret

; ticks: waits CX BIOS ticks (0040:006Ch)
ticks:  push es
        mov ax, 40h
        mov es, ax
        sti
.t:     mov ax, [es:6Ch]
.s:     cmp ax, [es:6Ch]
        je .s
        loop .t
        pop es
        ret

; delay: a few microseconds (the ToolKit reads 2X6 seven times)
delay:  push cx
        push dx
        mov dx, [base]
        add dx, 6
        mov cx, 7
.l:     in al, dx
        loop .l
        pop dx
        pop cx
        ret

; ultrasnd: finds ULTRASND= in the environment, prints it, takes the base
; (hex), the playback DMA and the GF1 IRQ. CF set when missing.
ultrasnd:
        mov es, [2Ch]
        xor di, di
.var:   cmp byte [es:di], 0
        je .none
        mov si, name
        mov bx, di
.cmp:   lodsb
        or al, al
        jz .found
        cmp al, [es:bx]
        jne .skip
        inc bx
        jmp .cmp
.skip:  cmp byte [es:di], 0
        je .nextv
        inc di
        jmp .skip
.nextv: inc di
        jmp .var
.none:  stc
        ret
.found: mov si, name
        call print_str
        mov si, bx
.show:  mov al, [es:si]
        or al, al
        jz .shown
        call putc
        inc si
        jmp .show
.shown: call newline
        mov si, bx
        mov bx, 16
        call number
        mov [base], ax
        inc si
        mov bx, 10
        call number
        mov [dma], al
        inc si
        call number             ; the sampling DMA
        inc si
        call number
        mov [irq], al
        clc
        ret

; number: the digits at ES:SI in radix BX -> AX (SI past them)
number: push cx
        push dx
        xor ax, ax
.d:     mov cl, [es:si]
        sub cl, '0'
        cmp cl, 9
        ja .e
        mul bx
        xor ch, ch
        add ax, cx
        inc si
        jmp .d
.e:     pop dx
        pop cx
        ret

newline:
        mov al, 10
        jmp putc

name:   db "ULTRASND=", 0
irq_table:  db 0, 2, 5, 3, 7, 11, 12, 15
dma_table:  db 0, 1, 3, 5, 6, 7, 0FFh, 0FFh
page_ports: db 87h, 83h, 81h, 82h
base:   dw 0
dma:    db 0
irq:    db 0
line:   db 0
vec:    db 0
done:   db 0
page:   db 0
phys:   dw 0
old:    dd 0
        align 256
; one period of a sine, unsigned: 128 + 100 sin(2 pi i / 256)
sine:
        db 128, 130, 133, 135, 138, 140, 143, 145, 148, 150, 152, 155, 157, 159, 162, 164
        db 166, 169, 171, 173, 175, 177, 179, 181, 184, 186, 188, 190, 191, 193, 195, 197
        db 199, 200, 202, 204, 205, 207, 208, 210, 211, 212, 214, 215, 216, 217, 218, 219
        db 220, 221, 222, 223, 224, 224, 225, 226, 226, 227, 227, 227, 228, 228, 228, 228
        db 228, 228, 228, 228, 228, 227, 227, 227, 226, 226, 225, 224, 224, 223, 222, 221
        db 220, 219, 218, 217, 216, 215, 214, 212, 211, 210, 208, 207, 205, 204, 202, 200
        db 199, 197, 195, 193, 191, 190, 188, 186, 184, 181, 179, 177, 175, 173, 171, 169
        db 166, 164, 162, 159, 157, 155, 152, 150, 148, 145, 143, 140, 138, 135, 133, 130
        db 128, 126, 123, 121, 118, 116, 113, 111, 108, 106, 104, 101,  99,  97,  94,  92
        db  90,  87,  85,  83,  81,  79,  77,  75,  72,  70,  68,  66,  65,  63,  61,  59
        db  57,  56,  54,  52,  51,  49,  48,  46,  45,  44,  42,  41,  40,  39,  38,  37
        db  36,  35,  34,  33,  32,  32,  31,  30,  30,  29,  29,  29,  28,  28,  28,  28
        db  28,  28,  28,  28,  28,  29,  29,  29,  30,  30,  31,  32,  32,  33,  34,  35
        db  36,  37,  38,  39,  40,  41,  42,  44,  45,  46,  48,  49,  51,  52,  54,  56
        db  57,  59,  61,  63,  65,  66,  68,  70,  72,  75,  77,  79,  81,  83,  85,  87
        db  90,  92,  94,  97,  99, 101, 104, 106, 108, 111, 113, 116, 118, 121, 123, 126

buf:    times 512 db 0

%include "doslib.inc"
