; opl: the AdLib detection every game runs, then one note to listen to.
; Detection (AdLib programming guide): mask and reset both timers, read the
; status (top bits clear), start timer 1 at FFh, wait (100 status reads,
; more than its 80 us step even on a 33 MHz 386 with ISA I/O timing), read
; the status (C0h in the top bits), reset. Bits 2-1 of the status are 0 on
; the YMF262 and set on the YM3812. Prints "AdLib: OPL3\n" (or OPL2, or
; "AdLib: none\n" and exits 1).
; Then A4 on channel 0 for about one second: the carrier alone (additive
; connection, modulator at full attenuation), block 4, F-number 244h:
; 580 * 49716 / 2^(20-4) = 439.98 Hz (YMF262 datasheet, F-number =
; f * 2^(20-block) / 49716). The second is timed by the OPL's own timer 2
; (preset 0: 256 steps of 320 us = 81.92 ms; 12 overflows = 983 ms), so it
; needs no BIOS. Prints "A4 played\n" and exits 0.
; It prints on port E9h and, under DOS (`tandem run --adlib`), through
; INT 21h AH=02h; it exits through INT 21h AH=4Ch (or halts without DOS).
        cpu 8086
        org 100h
%include "macros.inc"

start:  call dos_probe
        mov ax, 0460h           ; mask both timers
        call opl_write
        mov ax, 0480h           ; IRQ reset
        call opl_write
        mov dx, 388h
        in al, dx
        mov [s1], al
        mov ax, 02FFh           ; timer 1 preset FFh
        call opl_write
        mov ax, 0421h           ; start timer 1
        call opl_write
        mov cx, 100
        call wait_reads
        mov [s2], al
        mov ax, 0460h
        call opl_write
        mov ax, 0480h
        call opl_write
        PRINT "AdLib: "
        mov al, [s1]
        and al, 0E0h
        jnz none
        mov al, [s2]
        and al, 0E0h
        cmp al, 0C0h
        jne none
        test byte [s1], 06h
        jnz .opl2
        PRINT "OPL3"
        jmp .note
.opl2:  PRINT "OPL2"
.note:  mov al, 10
        call putc
        mov si, a4
.reg:   lodsw                   ; AL = register, AH = value
        cmp al, 0FFh
        je .keyed
        xchg al, ah
        call opl_write
        jmp .reg
.keyed: mov ax, 0300h           ; timer 2 preset 0
        call opl_write
        mov ax, 0442h           ; start timer 2, timer 1 masked
        call opl_write
        mov cx, 12
.tick:  mov dx, 388h
.poll:  in al, dx
        test al, 20h
        jz .poll
        mov ax, 0480h           ; IRQ reset; the timer goes on
        call opl_write
        loop .tick
        mov ax, 0400h           ; stop the timers
        call opl_write
        mov ax, 0B012h          ; key off
        call opl_write
        PRINT "A4 played"
        mov al, 10
        call putc
        mov al, 0
        jmp exit
none:   PRINT "none"
        mov al, 10
        call putc
        mov al, 1
exit:   DOS_EXIT

; opl_write: AH = register, AL = value; waits as the AdLib guide asks
; (6 status reads after the index, 35 after the data)
opl_write:
        push cx
        push dx
        mov dx, 388h
        xchg al, ah
        out dx, al
        mov cx, 6
        call wait_reads
        inc dx
        xchg al, ah
        out dx, al
        mov cx, 35
        call wait_reads
        pop dx
        pop cx
        ret

%include "opl.inc"

; (register, value) pairs of the note, FFh ends: operator 1 (modulator)
; silent, operator 2 (carrier) sustained at full level, additive, A4 on.
a4:     db 20h, 01h, 40h, 3Fh, 60h, 0F0h, 80h, 77h
        db 23h, 21h, 43h, 00h, 63h, 0F0h, 83h, 77h
        db 0C0h, 01h, 0A0h, 44h, 0B0h, 32h
        db 0FFh, 0
s1:     db 0
s2:     db 0

%include "doslib.inc"
