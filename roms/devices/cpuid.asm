; cpuid: the classic processor detection of the early 1990s, as DOS
; programs ran it. FLAGS bits 12-15 tell the 8086 (they read as ones) from
; the 286; IOPL/NT (bits 12-14), which real-mode 286 code cannot set, the
; 286 from the 386; EFLAGS.AC (bit 18), which the 386 cannot toggle, the
; 386 from the 486; EFLAGS.ID (bit 21), toggleable only where CPUID
; exists, the later 486 steppings. Prints one line:
; "8086\n", "286\n", "386\n", "486\n" or "486 CPUID F/M/S\n" (family, model,
; stepping of CPUID leaf 1, decimal).
        cpu 8086
        org 100h
%include "macros.inc"

start:  cli
        call is_8086
        je is8086
        call is_286
        jz is286
        cpu 386
        ; The 386 cannot toggle AC.
        mov eax, 1 << 18
        call toggles
        jz is386
        ; Without CPUID, ID cannot be toggled either.
        mov eax, 1 << 21
        call toggles
        jz is486
        ; nasm files CPUID under the Pentium; the later 486s have it too.
        cpu 586
        mov eax, 1
        cpuid
        PRINT "486 CPUID "
        mov bx, ax              ; EAX bits 11-8 family, 7-4 model, 3-0 stepping
        mov ax, bx
        shr ax, 8
        and ax, 0Fh
        call print_u16
        DBG '/'
        mov ax, bx
        shr ax, 4
        and ax, 0Fh
        call print_u16
        DBG '/'
        mov ax, bx
        and ax, 0Fh
        call print_u16
        DBG 10
        jmp done
        cpu 8086
is8086: PRINT `8086\n`
        jmp done
is286:  PRINT `286\n`
        jmp done
is386:  PRINT `386\n`
        jmp done
is486:  PRINT `486\n`
done:   cli
        hlt

%include "eflags.inc"
%include "lib.inc"
