; pic: exercises the 8259A pair through ports 20h/21h/A0h/A1h with IRQ0
; from PIT channel 0 (mode 0 terminal count) and IRQ8 from the RTC's
; periodic interrupt. Expected output:
; "irr=01 isr=00 poll=80 isr=01 isr=00 h=01 isr=00 keep=01 seoi=00
;  imr=A5 slave=01/04\n" (on one line)
        cpu 8086
        org 100h
%include "macros.inc"

start:  cli
        call pic_init
        call pit_pulse          ; IRQ0 rising edge while masked
        PRINT "irr="
        mov al, 0Ah
        out 20h, al
        in al, 20h
        call print_hex8
        call isr
        ; Unmask, and acknowledge with the poll command (IF is clear).
        mov al, 0FEh
        out 21h, al
        mov al, 0Ch
        out 20h, al
        in al, 20h
        PRINT " poll="
        call print_hex8
        call isr
        mov al, 20h             ; non-specific EOI
        out 20h, al
        call isr
        ; A real interrupt: the handler reads ISR and sends EOI.
        SETVEC 08h, irq0
        mov byte [eoi], 1
        call pit_pulse
        sti
        hlt
        cli
        PRINT " h="
        mov al, [seen]
        call print_hex8
        call isr
        ; Again without EOI: the level stays in service...
        mov byte [eoi], 0
        call pit_pulse
        sti
        hlt
        cli
        PRINT " keep="
        mov al, 0Bh
        out 20h, al
        in al, 20h
        call print_hex8
        mov al, 60h             ; ... until a specific EOI for IR0
        out 20h, al
        PRINT " seoi="
        mov al, 0Bh
        out 20h, al
        in al, 20h
        call print_hex8
        ; The mask reads back.
        mov al, 0A5h
        out 21h, al
        in al, 21h
        PRINT " imr="
        call print_hex8
        ; IRQ8 through the slave: RTC periodic interrupt.
        SETVEC 70h, irq8
        mov al, 0FBh            ; master: only the cascade
        out 21h, al
        mov al, 0FEh            ; slave: only IRQ8
        out 0A1h, al
        RTC_ACK                 ; clear pending RTC flags
        mov al, 0Bh
        out 70h, al
        mov al, 42h             ; PIE, 24-hour
        out 71h, al
        sti
        hlt
        cli
        mov al, 0Bh
        out 70h, al
        mov al, 02h
        out 71h, al
        PRINT " slave="
        mov al, [sisr]
        call print_hex8
        DBG '/'
        mov al, [misr]
        call print_hex8
        DBG 10
        cli
        hlt

isr:    PRINT " isr="
        mov al, 0Bh
        out 20h, al
        in al, 20h
        call print_hex8
        ret

; pit_pulse: channel 0 mode 0, count 20: OUT0 low now, high 21 clocks later
pit_pulse:
        mov al, 30h
        out 43h, al
        mov al, 20
        out 40h, al
        mov al, 0
        out 40h, al
        mov cx, 200
.w:     loop .w
        ret

irq0:   push ax
        mov al, 0Bh
        out 20h, al
        in al, 20h
        mov [cs:seen], al
        cmp byte [cs:eoi], 0
        je .x
        mov al, 20h
        out 20h, al
.x:     pop ax
        iret

irq8:   push ax
        mov al, 0Bh
        out 0A0h, al
        in al, 0A0h
        mov [cs:sisr], al
        mov al, 0Bh
        out 20h, al
        in al, 20h
        mov [cs:misr], al
        RTC_ACK
        EOI_BOTH
        pop ax
        iret

%include "lib.inc"

seen:   db 0
eoi:    db 0
sisr:   db 0
misr:   db 0
