; smc: self-modifying code, the cases a decoded-instruction cache must keep
; exact (issue 17). Prints one line
; "add=XXXX self=XX rep=XXXX,XXXX next=XX irq=XXXX"
; (hex; what each part shows is below). The results differ between CPU
; models where the prefetch queue holds old bytes; cli_smc.rs pins the
; output of each model as the core gives it.
; Intel's rule (Intel 64 and IA-32 Architectures Software Developer's
; Manual, vol. 3A, "Self-Modifying Code"; the i486 and 386 behave so): after
; a store into code, a jump is needed before the new code is certain to run;
; without one the old bytes may run from the prefetch queue. The core today
; decodes every instruction from memory when it starts (in the 8086's
; cycle-exact mode too), so every store is seen by the next instruction.
; The timer is masked with CLI around each case (a few instructions) so
; the results do not depend on where IRQ0 falls.
        cpu 8086
        org 100h
%include "macros.inc"

start:  call dos_probe
        push cs                 ; dos_probe left ES = 0
        pop es
        cld
        ; (a) a loop patches the immediate of an ADD that it reaches later
        ; through a CALL (as a game patches its IRQ0 handler's ADD when it
        ; reprograms the timer): AX = 1 + 2 + 3 + 4 + 5 = 000F when every
        ; patch is seen.
        xor ax, ax
        mov cx, 5
.a:     mov [patched+1], cx
        call patched
        loop .a
        PRINT "add="
        call print_hex16
        ; (b) an instruction that stores into its own immediate: each
        ; execution runs with the immediate it was fetched with, and the next
        ; execution (after LOOP, a jump) sees the new one: 01 -> 02 -> 04 ->
        ; 08. A cache that kept the first decoding would give 04.
        mov cx, 3
        cli
.b:     add byte [selfadd+4], 1
selfadd equ .b
        loop .b
        sti
        PRINT " self="
        mov al, [selfadd+4]
        call print_hex8
        ; (c) REP STOSB that overwrites itself (F3 AA) and the two INC BX
        ; after it with NOPs: CX shows how many stores ran, BX how many INC
        ; BX still ran (old bytes).
        xor bx, bx
        mov di, reps
        mov cx, 4
        mov al, 90h
        cli
reps:   rep stosb
        inc bx
        inc bx
        sti
        PRINT " rep="
        mov ax, cx
        call print_hex16
        mov al, ','
        call putc
        mov ax, bx
        call print_hex16
        ; (d) a store into the immediate of the very next instruction, with
        ; no jump between: 11 if the old bytes ran (prefetched), 22 if the
        ; new ones did.
        cli
        mov byte [nextins+1], 22h
nextins: mov al, 11h
        sti
        PRINT " next="
        call print_hex8
        ; (e) the game's case: the main program patches the immediate of
        ; the ADD in its own IRQ0 handler before each tick (4, 3, 2, 1),
        ; and HLT waits for the tick: irq=000A when each patch is seen.
        mov ax, 3508h
        int 21h
        mov [old8], bx
        mov [old8+2], es
        mov ax, 2508h
        mov dx, irq0
        int 21h
        mov cx, 4
.e:     mov [irqadd+1], cx
        sti
        hlt
        loop .e
        push ds
        mov ax, 2508h
        lds dx, [old8]
        int 21h
        pop ds
        PRINT " irq="
        mov ax, [ticks]
        call print_hex16
        PRINT {10}
        mov ax, 4C00h           ; smc runs under DOS (tandem run)
        int 21h

; the ADD of (a): its immediate word is rewritten before each call
patched: add ax, strict word 0     ; 05 iw
        ret

; the IRQ0 handler of (e): its ADD's immediate word is rewritten between ticks
irq0:   push ax
        mov ax, [cs:ticks]
irqadd: add ax, strict word 0     ; 05 iw
        mov [cs:ticks], ax
        mov al, 20h             ; non-specific EOI to the 8259A
        out 20h, al
        pop ax
        iret
ticks:  dw 0
old8:   dd 0

; print_hex16: AX as four hex digits
print_hex16:
        xchg al, ah
        call print_hex8
        xchg al, ah
        jmp print_hex8

%include "doslib.inc"
