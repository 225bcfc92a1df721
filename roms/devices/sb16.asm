; sb16: the Sound Blaster 16 as a DOS program finds and drives it
; (Creative, Sound Blaster Series Hardware Programming Guide).
; Reads BLASTER from its environment (base A, IRQ I, 8-bit DMA D) and
; prints it, resets the DSP (1 then 0 at base+6, AAh at base+Ah once
; base+Eh bit 7 is set), prints "DSP 4.05" (E1h), sets master and voice
; to 0 dB (mixer 22h and 04h: FFh) and installs its own handler on the
; card's IRQ (which reads base+Eh, the 8-bit acknowledge). Then:
; - no argument: one 8-bit single-cycle block (14h) of 257 samples,
;   00h, 01h ... FFh, 80h, at 44100 Hz (41h ACh 44h), from a buffer that
;   does not cross a 64 KiB page, through DMA channel D (mode 48h).
;   PIT channel 0 runs in mode 2 (count 65536, 18.2 Hz as before, falling
;   by one a tick) and is latched right before the byte that starts the
;   block and again in the handler: prints "IRQ after N PIT ticks"
;   (257 samples at 44100 Hz: 6953.4 ticks of 1193182 Hz).
; - argument "auto": 8-bit auto-init (1Ch) at 22050 Hz, 100-sample
;   blocks (48h) from a 200-byte buffer (DMA mode 58h: auto-init), counts
;   the interrupts over 182 BIOS ticks (0040:006Ch, synchronized on a
;   tick's start: 182 * 65536 / 1193182 s = 9.9964 s) and prints "IRQs in
;   182 ticks: N" (220.5 a second: 2204.2), then exits auto-init (DAh),
;   waits for the last block's interrupt and resets the DSP.
; Failures print "no BLASTER" or "no DSP" and exit 1.
        cpu 8086
        org 100h
%include "macros.inc"

start:  call dos_probe
        call blaster
        jnc .dsp
        PRINT "no BLASTER"
        jmp fail
.dsp:   call dsp_reset
        jnc .ver
        PRINT "no DSP"
        jmp fail
.ver:   PRINT "DSP "
        mov al, 0E1h
        call dsp_write
        call dsp_read
        xor ah, ah
        call print_u16
        mov al, '.'
        call putc
        call dsp_read
        cmp al, 10
        jae .minor
        push ax
        mov al, '0'
        call putc
        pop ax
.minor: xor ah, ah
        call print_u16
        call newline
        mov dx, [base]
        add dx, 4
        mov ax, 0FF22h          ; master 0 dB
        call mixer
        mov ax, 0FF04h          ; voice 0 dB
        call mixer
        call set_vector
        cmp byte [80h], 0       ; the command tail's length
        je single
        jmp auto

; ---- one single-cycle block, timed with the PIT ----
single: mov al, 34h             ; channel 0, mode 2, binary
        out 43h, al
        xor al, al
        out 40h, al
        out 40h, al
        mov cx, 257
        call buffer
        xor al, al
        mov cx, 256
.fill:  mov [bx], al
        inc bx
        inc al
        loop .fill
        mov byte [bx], 80h
        sub bx, 256
        mov byte [dma_mode], 48h ; single transfer, read, single-cycle
        mov cx, 257
        call dma_setup
        mov al, 0D1h            ; speaker on
        call dsp_write
        mov al, 41h             ; 44100 Hz
        call dsp_write
        mov al, 0ACh
        call dsp_write
        mov al, 44h
        call dsp_write
        mov al, 14h             ; 8-bit single-cycle, 257 samples
        call dsp_write
        mov al, 0
        call dsp_write
        mov dx, [base]
        add dx, 0Ch
.ready: in al, dx
        test al, 80h
        jnz .ready
        cli
        call pit_latch
        mov [t0], ax
        mov al, 1
        out dx, al              ; the block starts
        sti
.wait:  cmp word [irqs], 0
        jne .got
        hlt
        jmp .wait
.got:   PRINT "IRQ after "
        mov ax, [t0]
        sub ax, [t1]
        call print_u16
        PRINT " PIT ticks"
        call newline
        mov al, 36h             ; channel 0 back to mode 3
        out 43h, al
        xor al, al
        out 40h, al
        out 40h, al
        mov al, 0
        jmp exit

; ---- auto-init for 182 BIOS ticks ----
auto:   mov cx, 200
        call buffer
        push bx
        xor al, al
        mov cx, 200
.fill:  mov [bx], al
        inc bx
        add al, 5
        loop .fill
        pop bx
        mov byte [dma_mode], 58h ; single transfer, read, auto-init
        mov cx, 200
        call dma_setup
        mov al, 0D1h
        call dsp_write
        mov al, 41h             ; 22050 Hz
        call dsp_write
        mov al, 56h
        call dsp_write
        mov al, 22h
        call dsp_write
        mov al, 48h             ; blocks of 100 samples
        call dsp_write
        mov al, 99
        call dsp_write
        mov al, 0
        call dsp_write
        mov al, 1Ch             ; 8-bit auto-init
        call dsp_write
        mov ax, 40h
        mov es, ax
        mov ax, [es:6Ch]
.sync:  hlt
        cmp ax, [es:6Ch]
        je .sync
        cli
        mov ax, [es:6Ch]
        mov [t0], ax
        mov ax, [irqs]
        mov [count0], ax
        sti
.count: hlt
        mov ax, [es:6Ch]
        sub ax, [t0]
        cmp ax, 182
        jb .count
        cli
        mov ax, [irqs]
        sti
        sub ax, [count0]
        PRINT "IRQs in 182 ticks: "
        call print_u16
        call newline
        mov al, 0DAh            ; exit auto-init after this block
        call dsp_write
        mov ax, [irqs]
.last:  hlt
        cmp ax, [irqs]
        je .last
        PRINT "auto-init ended"
        call newline
        call dsp_reset
        mov al, 0
        jmp exit

fail:   call newline
        mov al, 1
exit:   DOS_EXIT

; ---- the card's interrupt ----
handler:
        push ax
        push dx
        call pit_latch
        mov [cs:t1], ax
        mov dx, [cs:base]
        add dx, 0Eh
        in al, dx               ; acknowledge the 8-bit interrupt
        inc word [cs:irqs]
        mov al, 20h
        cmp byte [cs:slave], 0
        je .m
        out 0A0h, al
.m:     out 20h, al
        pop dx
        pop ax
        iret

; pit_latch: AX = PIT channel 0's count
pit_latch:
        mov al, 0
        out 43h, al
        in al, 40h
        mov ah, al
        in al, 40h
        xchg al, ah
        ret

; blaster: finds BLASTER= in the environment, prints it, takes A (hex),
; I and D (decimal). CF set when missing.
blaster:
        mov es, [2Ch]
        xor di, di
.var:   cmp byte [es:di], 0
        je .none
        mov si, blaster_name
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
.found: mov si, blaster_name
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
.tok:   mov al, [es:si]
        or al, al
        jz .done
        inc si
        mov bx, 16
        mov di, base
        cmp al, 'A'
        je .num
        mov bx, 10
        mov di, irq
        cmp al, 'I'
        je .num
        mov di, dma
        cmp al, 'D'
        jne .tok
.num:   call number
        mov [di], ax
        jmp .tok
.done:  clc
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

; dsp_reset: CF set when no AAh comes
dsp_reset:
        mov dx, [base]
        add dx, 6
        mov al, 1
        out dx, al
        add dx, 8               ; base+Eh: a few reads are the 3 us
        mov cx, 8
.hold:  in al, dx
        loop .hold
        sub dx, 8
        xor al, al
        out dx, al
        add dx, 8
        mov cx, 1000
.poll:  in al, dx
        test al, 80h
        jnz .data
        loop .poll
        stc
        ret
.data:  sub dx, 4
        in al, dx
        cmp al, 0AAh
        jne .bad
        clc
        ret
.bad:   stc
        ret

; dsp_write: AL to the DSP once base+Ch bit 7 is clear
dsp_write:
        push dx
        push ax
        mov dx, [base]
        add dx, 0Ch
.w:     in al, dx
        test al, 80h
        jnz .w
        pop ax
        out dx, al
        pop dx
        ret

; dsp_read: AL from the DSP once base+Eh bit 7 is set
dsp_read:
        push dx
        mov dx, [base]
        add dx, 0Eh
.w:     in al, dx
        test al, 80h
        jz .w
        sub dx, 4
        in al, dx
        pop dx
        ret

; mixer: AL = register, AH = value; DX = base+4
mixer:  out dx, al
        inc dx
        mov al, ah
        out dx, al
        dec dx
        ret

; set_vector: the handler on [irq]'s vector, the line unmasked
set_vector:
        mov cl, [irq]
        cmp cl, 2
        jne .n
        mov cl, 9               ; the AT's IRQ 2 is IRQ 9
.n:     mov bl, cl
        add bl, 8
        cmp cl, 8
        jb .v
        add bl, 70h - 16
        mov byte [slave], 1
.v:     xor bh, bh
        shl bx, 1
        shl bx, 1
        xor ax, ax
        mov es, ax
        cli
        mov word [es:bx], handler
        mov [es:bx+2], cs
        cmp cl, 8
        jb .master
        sub cl, 8
        mov ah, 1
        shl ah, cl
        not ah
        in al, 0A1h
        and al, ah
        out 0A1h, al
        mov cl, 2
.master:
        mov ah, 1
        shl ah, cl
        not ah
        in al, 21h
        and al, ah
        out 21h, al
        sti
        ret

; buffer: BX = a CX-byte window of buf that does not cross a 64 KiB page
buffer: mov ax, ds
        push cx
        mov cl, 4
        shl ax, cl
        pop cx
        add ax, buf             ; the low 16 bits of its physical address
        mov bx, buf
        mov dx, ax
        add dx, cx
        jnc .ok
        neg ax                  ; the bytes up to the page's end
        add bx, ax
.ok:    ret

; dma_setup: channel [dma], mode [dma_mode], CX bytes at DS:BX
dma_setup:
        push cx
        mov ax, ds
        mov cl, 4
        rol ax, cl
        mov dl, al
        and dl, 0Fh             ; the page: A19-A16
        and al, 0F0h            ; A15-A0 of the segment's base
        add ax, bx
        adc dl, 0
        pop cx
        mov di, ax
        mov bl, [dma]
        xor bh, bh
        mov al, bl
        or al, 4
        out 0Ah, al             ; mask the channel
        out 0Ch, al             ; clear the flip-flop
        mov al, [dma_mode]
        or al, bl
        out 0Bh, al
        mov al, dl
        mov dl, [pages + bx]
        xor dh, dh
        out dx, al              ; the page register
        mov dx, bx
        shl dx, 1               ; the channel's address register
        mov ax, di
        out dx, al
        mov al, ah
        out dx, al
        inc dx                  ; its count register: bytes - 1
        mov ax, cx
        dec ax
        out dx, al
        mov al, ah
        out dx, al
        mov al, bl
        out 0Ah, al             ; unmask
        ret

newline:
        mov al, 10
        jmp putc

blaster_name: db "BLASTER=", 0
pages:  db 87h, 83h, 81h, 82h
base:   dw 220h
irq:    dw 5
dma:    dw 1
dma_mode: db 0
slave:  db 0
irqs:   dw 0
count0: dw 0
t0:     dw 0
t1:     dw 0

%include "doslib.inc"

buf:    times 514 db 0
