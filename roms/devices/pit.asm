; pit: programs the 8254 through ports 40h-43h and 61h and prints what it
; observes: read-back status, counter latch, GATE, OUT2 in port 61h bit 5,
; modes 0, 1, 3, BCD counting. Expected output:
; "s1=70 c1=1234 s2=30 dec=1 tc=1 sq=1 os=1 bcd=1\n"
        cpu 8086
        org 100h
%include "macros.inc"

%macro READ_COUNT2 0            ; latch counter 2; AH = its low byte, AL = its high byte
        mov al, 80h
        out 43h, al
        in al, 42h
        mov ah, al
        in al, 42h
%endmacro

start:  cli
        mov al, 0               ; gate 2 low, speaker off
        out 61h, al
        mov al, 0B0h            ; ch2, lo/hi, mode 0, binary
        out 43h, al
        mov al, 0E8h            ; read-back: status of ch2
        out 43h, al
        in al, 42h
        PRINT "s1="
        call print_hex8
        mov al, 34h
        out 42h, al
        mov al, 12h
        out 42h, al
        call delay
        mov al, 80h             ; latch ch2
        out 43h, al
        call delay
        in al, 42h
        mov ah, al
        in al, 42h
        xchg al, ah
        PRINT " c1="
        xchg al, ah
        call print_hex8
        xchg al, ah
        call print_hex8
        mov al, 0E8h
        out 43h, al
        in al, 42h
        PRINT " s2="
        call print_hex8

        ; Gate high: the count goes down.
        mov al, 1
        out 61h, al
        call delay
        READ_COUNT2
        xchg al, ah
        PRINT " dec="
        cmp ax, 1234h
        mov al, '0'
        jae .d1
        mov al, '1'
.d1:    out 0E9h, al

        ; Mode 0 terminal count: OUT2 (61h bit 5) goes high.
        mov al, 0B0h
        out 43h, al
        mov al, 0
        out 42h, al
        mov al, 2
        out 42h, al             ; 512 clocks
        PRINT " tc="
        mov bl, 20h
        call wait_out_high
        ; Mode 3: OUT2 toggles.
        mov al, 0B6h
        out 43h, al
        mov al, 100
        out 42h, al
        mov al, 0
        out 42h, al
        PRINT " sq="
        call wait_out_low
        call wait_out_high
        ; Mode 1: a GATE rising edge starts a low pulse of 5000 clocks.
        PRINT " os="
        mov al, 0B2h
        out 43h, al
        mov ax, 5000
        out 42h, al
        mov al, ah
        out 42h, al
        mov al, 0
        out 61h, al
        mov al, 1
        out 61h, al
        call wait_out_low
        call wait_out_high
        ; BCD: every digit of the count stays 0-9.
        mov al, 0B1h
        out 43h, al
        mov al, 99h
        out 42h, al
        out 42h, al
        call delay
        call delay
        READ_COUNT2
        PRINT " bcd="
        call bcd_ok
        mov al, ah
        call bcd_ok
        mov al, '1'
        out 0E9h, al
        DBG 10
        cli
        hlt

; bcd_ok: AL must be two BCD digits, else print "0" and stop
bcd_ok: push ax
        mov bl, al
        and bl, 0Fh
        cmp bl, 9
        ja .bad
        mov cl, 4
        shr al, cl
        cmp al, 9
        ja .bad
        pop ax
        ret
.bad:   DBG '0'
        DBG 10
        cli
        hlt

; POLL_OUT2 jcc: poll OUT2 (port 61h bit 5) until `jcc` (jnz: high, jz:
; low) jumps to .ok; stops at timeout after 65535 polls
%macro POLL_OUT2 1
        mov cx, 0FFFFh
%%poll: in al, 61h
        test al, 20h
        %1 .ok
        loop %%poll
        jmp timeout
%endmacro

; wait_out_high / wait_out_low: poll OUT2; print "1" when seen (only
; after wait_out_high), "T" on timeout and stop
wait_out_high:
        POLL_OUT2 jnz
.ok:    DBG '1'
        ret
wait_out_low:
        POLL_OUT2 jz
.ok:    ret
timeout:
        DBG 'T'
        DBG 10
        cli
        hlt

delay:  push cx
        mov cx, 100
.d:     loop .d
        pop cx
        ret

%include "lib.inc"
