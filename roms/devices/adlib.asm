; adlib: the AdLib detection every game runs (YM3812 at 388h/389h):
; mask and reset both timers, read the status (top bits clear), start
; timer 1 at FFh, wait with 100 status reads (630 us on the 4.77 MHz
; 8086, one timer step is 80 us), read the status again (C0h in the top
; bits), reset. Then timer 2 at FEh (two steps of 320 us) must not fire
; within 50 reads and must within 1000 more (true from the 4.77 MHz 8086
; to a 33 MHz 386 with ISA I/O timing).
; Expected output: "s1=00 s2=C0 r=00 t2a=00 t2b=A0\n"
        cpu 8086
        org 100h
%include "macros.inc"

start:  cli
        mov ax, 0460h
        call opl_write
        mov ax, 0480h
        call opl_write
        PRINT "s1="
        mov dx, 388h
        in al, dx
        call print_hex8
        mov ax, 02FFh
        call opl_write
        mov ax, 0421h
        call opl_write
        mov cx, 100
        call wait_reads
        PRINT " s2="
        call print_hex8
        mov ax, 0460h
        call opl_write
        mov ax, 0480h
        call opl_write
        PRINT " r="
        mov dx, 388h
        in al, dx
        call print_hex8

        mov ax, 03FEh
        call opl_write
        mov ax, 0442h           ; start timer 2, mask timer 1
        call opl_write
        mov cx, 50
        call wait_reads
        PRINT " t2a="
        call print_hex8
        mov cx, 1000
        call wait_reads
        PRINT " t2b="
        call print_hex8
        mov ax, 0480h
        call opl_write
        PRINT 10
        hlt

; opl_write: AH = register, AL = value
opl_write:
        mov dx, 388h
        xchg al, ah
        out dx, al
        inc dx
        xchg al, ah
        out dx, al
        ret

%include "opl.inc"

%include "lib.inc"
