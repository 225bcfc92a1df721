; detect: the detection matrix of the early 1990s in one DOS program: the
; CPU by the classic FLAGS tests (bits 12-15 read as ones on the 8086;
; IOPL/NT, bits 12-14, stay clear on the 286 in real mode; EFLAGS.AC,
; bit 18, cannot be toggled on the 386; EFLAGS.ID, bit 21, only where
; CPUID exists, then CPUID leaf 1's family and model), and the FPU by
; FNINIT, FNSTSW (must store 0) and FNSTCW (must read 037Fh, masked to
; 103Fh as Intel's AP-485 does), then 287 against 387 by the infinity
; compare (the 287 starts in projective closure, where -inf = +inf; the
; 387 and the 486 know only affine closure). Prints one line, e.g.
; "CPU 486 CPUID 4/3 FPU 387\n", on port E9h and through INT 21h AH=02h
; under DOS, and exits with code 16 * cpu + 8 * cpuid + fpu (cpu: 0 8086,
; 1 286, 2 386, 3 486; fpu: 0 none, 1 287, 2 387); without DOS it halts.
        cpu 8086
        org 100h
%include "macros.inc"

start:  call dos_probe
        PRINT "CPU "
        call cpu_type
        PRINT " FPU "
        call fpu_type
        mov al, 10
        call putc
        cmp byte [dos], 0
        je .halt
        mov al, [code]
        mov ah, 4Ch
        int 21h
.halt:  cli
        hlt

; cpu_type: prints the CPU (and CPUID's family/model), sets [code] bits 3-5
cpu_type:
        call is_8086
        jne .not86
        PRINT "8086"
        ret
.not86: call is_286
        jnz .not286
        PRINT "286"
        or byte [code], 10h
        ret
        cpu 386
.not286:
        mov eax, 1 << 18
        call toggles
        jnz .is486
        PRINT "386"
        or byte [code], 20h
        ret
.is486: PRINT "486"
        or byte [code], 30h
        mov eax, 1 << 21
        call toggles
        jz .r
        or byte [code], 08h
        PRINT " CPUID "
        cpu 586
        mov eax, 1
        cpuid
        cpu 386
        mov bx, ax
        shr ax, 8
        and ax, 0Fh
        call print_u16
        mov al, '/'
        call putc
        mov ax, bx
        shr ax, 4
        and ax, 0Fh
        call print_u16
.r:     ret
        cpu 8086

; fpu_type: prints none, 287 or 387, sets [code] bits 0-1. Only no-wait
; forms until the unit is known to be there (a WAIT with no coprocessor
; could hang on a floating BUSY# line).
fpu_type:
        fninit
        mov word [sw], 5A5Ah
        fnstsw [sw]
        cmp byte [sw], 0
        jne .none
        mov word [cw], 0
        fnstcw [cw]
        mov ax, [cw]
        and ax, 103Fh
        cmp ax, 003Fh
        jne .none
        ; +inf from 1/0 (ZE masked), then -inf; equal only in projective
        ; closure, the 287's default.
        fld1
        fldz
        fdivp st1, st0
        fld st0
        fchs
        fcompp
        fstsw [sw]
        mov ax, [sw]
        sahf
        jz .is287
        PRINT "387"
        or byte [code], 2
        ret
.is287: PRINT "287"
        or byte [code], 1
        ret
.none:  PRINT "none"
        ret

sw:     dw 0
cw:     dw 0
code:   db 0

%include "eflags.inc"
%include "doslib.inc"
