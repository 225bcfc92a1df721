; cmos: reads the MC146818 through ports 70h/71h: date and time in BCD,
; registers B and D, the periodic interrupt rate over one RTC second,
; setting the time with SET. Expected output (start 1994-06-01 08:00:00):
; "date=19940601 time=080000 b=02 d=80 pi=1024 min=30\n"
; (pi may be 1023-1025 depending on phase)
        cpu 8086
        org 100h
%include "macros.inc"

start:  cli
        call pic_init
        PRINT "date="
        mov al, 32h
        call rtc_read
        call print_hex8
        mov al, 9
        call rtc_read
        call print_hex8
        mov al, 8
        call rtc_read
        call print_hex8
        mov al, 7
        call rtc_read
        call print_hex8
        PRINT " time="
        mov al, 4
        call rtc_read
        call print_hex8
        mov al, 2
        call rtc_read
        call print_hex8
        xor al, al
        call rtc_read
        call print_hex8
        PRINT " b="
        mov al, 0Bh
        call rtc_read
        call print_hex8
        PRINT " d="
        mov al, 0Dh
        call rtc_read
        call print_hex8

        ; Periodic interrupts (1024 Hz) between two seconds changes.
        SETVEC 70h, irq8
        mov al, 0FBh
        out 21h, al
        mov al, 0FEh
        out 0A1h, al
        mov al, 0Bh
        out 70h, al
        mov al, 42h
        out 71h, al
        sti
        xor al, al
        call rtc_read
        mov bl, al
.s1:    hlt
        xor al, al
        call rtc_read
        cmp al, bl
        je .s1
        mov bl, al
        mov word [ticks], 0
.s2:    hlt
        xor al, al
        call rtc_read
        cmp al, bl
        je .s2
        cli
        mov ax, [ticks]
        PRINT " pi="
        call print_u16
        mov al, 0Bh
        out 70h, al
        mov al, 02h
        out 71h, al

        ; Set the minutes with SET on.
        mov al, 0Bh
        out 70h, al
        mov al, 82h
        out 71h, al
        mov al, 2
        out 70h, al
        mov al, 30h
        out 71h, al
        mov al, 0Bh
        out 70h, al
        mov al, 02h
        out 71h, al
        PRINT " min="
        mov al, 2
        call rtc_read
        call print_hex8
        DBG 10
        cli
        hlt

irq8:   push ax
        inc word [cs:ticks]
        RTC_ACK
        EOI_BOTH
        pop ax
        iret

%include "lib.inc"

ticks:  dw 0
