; irq0rtc: measures the IRQ0 rate against the RTC.
; PIT channel 0 in mode 2 with divisor 2386; counts IRQ0s between the
; first tick after an RTC seconds change and the first tick after the 60th
; change that follows. Prints "ticks=N\n" on port E9h.
        cpu 8086
        org 100h
%include "macros.inc"

start:  cli
        call pic_init
        SETVEC 08h, irq0
        mov al, 34h             ; channel 0, lo/hi, mode 2, binary
        out 43h, al
        mov ax, 2386
        out 40h, al
        mov al, ah
        out 40h, al
        mov al, 0FEh            ; unmask IRQ0 only
        out 21h, al
        sti

        xor al, al
        call rtc_read
        mov [last], al
.sync:  hlt                     ; wake on IRQ0, then look at the clock
        xor al, al
        call rtc_read
        cmp al, [last]
        je .sync
        mov [last], al
        cli
        mov ax, [ticks]
        mov dx, [ticks+2]
        sti
        mov [t0], ax
        mov [t0+2], dx

        mov cx, 60
.sec:   hlt
        xor al, al
        call rtc_read
        cmp al, [last]
        je .sec
        mov [last], al
        loop .sec

        cli
        mov ax, [ticks]
        mov dx, [ticks+2]
        sub ax, [t0]
        sbb dx, [t0+2]
        PRINT "ticks="
        call print_u32
        DBG 10
        cli
        hlt

irq0:   add word [cs:ticks], 1
        adc word [cs:ticks+2], 0
        EOI_IRET

%include "lib.inc"

ticks:  dd 0
t0:     dd 0
last:   db 0
