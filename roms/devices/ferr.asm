; ferr: an unmasked x87 exception reaching a DOS program. Phase 1 (any
; machine with an FPU): INT 02h hooked, the zero divide unmasked, 1/0;
; the FPU's error output raises IRQ13, the BIOS's INT 75h clears the
; latch (OUT F0h), sends EOI and calls INT 02h, whose handler stores the
; status word and clears the exception. Prints "IRQ13 n=N sw=XXXX" (N:
; handler calls, XXXX: the status word it saw). Phase 2, on a 486 only:
; CR0.NE set and IRQ13 masked, the same divide then FWAIT raises #MF,
; vector 16 (INT 10h's slot in real mode), at the FWAIT. Prints
; " MF n=N at=fwait|other". Exits with the number of handler calls.
        cpu 486
        org 100h
%include "macros.inc"

start:  call dos_probe
        mov word [es:02h*4], int02
        mov word [es:02h*4+2], cs
        fninit
        fldcw [cw_ze]
        fld1
        fldz
        fdivp st1, st0          ; 1/0: ZE unmasked, ES set, FERR#
        fwait
        PRINT "IRQ13 n="
        mov al, [n02]
        xor ah, ah
        call print_u16
        PRINT " sw="
        mov ax, [sw02]
        xchg al, ah
        call print_hex8
        xchg al, ah
        call print_hex8
        ; A 486? Not a 286 (IOPL/NT settable), then EFLAGS.AC toggles.
        call is_286
        jnz is386               ; (short: the 286 has no Jcc near)
        jmp finish
is386:  mov eax, 1 << 18
        call toggles
        jz finish
        ; Native mode: IRQ13 masked, vector 16 (INT 10h's) hooked.
        in al, 0A1h
        or al, 20h
        out 0A1h, al
        push word [es:10h*4]
        push word [es:10h*4+2]
        mov word [es:10h*4], int16
        mov word [es:10h*4+2], cs
        mov eax, cr0
        or eax, 1 << 5
        mov cr0, eax
        fninit
        fldcw [cw_ze]
        fld1
        fldz
        fdivp st1, st0
fw:     fwait                   ; #MF here
        mov eax, cr0
        and eax, ~(1 << 5)
        mov cr0, eax
        pop word [es:10h*4+2]
        pop word [es:10h*4]
        PRINT " MF n="
        mov al, [n16]
        xor ah, ah
        call print_u16
        PRINT " at="
        cmp word [at16], fw
        jne other
        PRINT "fwait"
        jmp finish
other:  PRINT "other"
finish: mov al, 10
        call putc
        mov al, [n02]
        add al, [n16]
        mov ah, 4Ch
        int 21h

; INT 02h: what the BIOS's INT 75h calls for a coprocessor error.
int02:  inc byte [cs:n02]
        fnstsw [cs:sw02]
        fnclex
        iret

; Vector 16 (#MF in real mode): note where it came from, clear, return to
; the faulting FWAIT (which then runs).
int16:  inc byte [cs:n16]
        push bp
        mov bp, sp
        push ax
        mov ax, [bp+2]
        mov [cs:at16], ax
        pop ax
        pop bp
        fnclex
        iret

cw_ze:  dw 037Bh                ; FNINIT's control word with ZE unmasked
sw02:   dw 0
at16:   dw 0
n02:    db 0
n16:    db 0

%include "eflags.inc"
%include "doslib.inc"
