; fpu: the classic coprocessor detection (FNINIT; FNSTSW must store 0;
; FNSTCW must give 03xxh with the exception masks set), then a few results
; computed by the x87, printed in hex. Expected output:
; without an FPU: "no FPU\n"
; with a 387:     "FPU sqrt2=3FF6A09E667F3BCD third=40155555 pi=0003 sw=3824\n"
; (sqrt(2) as a double; 7/3 as a single; FLDPI stored as an integer;
; the status word after 1/0: ZE, PE sticky from before, TOP = 7)
; It prints on port E9h and, when INT 21h has a vector (run under DOS,
; as `tandem run` does), through INT 21h AH=02h too, and then exits
; through INT 21h AH=4Ch instead of halting.
        cpu 386
        org 100h
%include "macros.inc"

start:  call dos_probe
        fninit
        mov word [sw], 5A5Ah
        fnstsw [sw]
        cmp word [sw], 0
        jne nofpu
        mov word [cw], 0
        fnstcw [cw]
        mov ax, [cw]
        and ax, 103Fh
        cmp ax, 003Fh
        jne nofpu
        PRINT "FPU sqrt2="
        fld1
        fadd st0, st0
        fsqrt
        fstp qword [q]
        mov si, q + 7
        mov cx, 8
        call print_bytes
        PRINT " third="
        fild word [seven]
        fidiv word [three]
        fstp dword [q]
        mov si, q + 3
        mov cx, 4
        call print_bytes
        PRINT " pi="
        fldpi
        fistp word [q]
        mov si, q + 1
        mov cx, 2
        call print_bytes
        PRINT " sw="
        fld1
        fldz
        fdivp st1, st0
        fnstsw ax
        fstp st0
        xchg al, ah
        call print_hex8
        xchg al, ah
        call print_hex8
        jmp done
nofpu:  PRINT "no FPU"
done:   mov al, 10
        call putc
        cmp byte [dos], 0
        je .halt
        mov ax, 4C00h
        int 21h
.halt:  cli
        hlt

; print_bytes: CX bytes from SI downwards, as hex
print_bytes:
        std
.l:     lodsb
        call print_hex8
        loop .l
        cld
        ret

seven:  dw 7
three:  dw 3
sw:     dw 0
cw:     dw 0
q:      dq 0

%include "doslib.inc"
