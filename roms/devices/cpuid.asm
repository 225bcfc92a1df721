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
        ; The 8086 reads FLAGS bits 12-15 as ones whatever is written.
        pushf
        pop ax
        mov cx, ax
        and ax, 0FFFh
        push ax
        popf
        pushf
        pop ax
        and ax, 0F000h
        cmp ax, 0F000h
        je is8086
        ; The 286 in real mode keeps IOPL and NT clear.
        mov ax, cx
        or ax, 7000h
        push ax
        popf
        pushf
        pop ax
        test ax, 7000h
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

        cpu 386
; toggles: ZF clear when the EFLAGS bits in EAX can be flipped by POPFD
; (EFLAGS restored afterwards).
toggles:
        mov edx, eax
        pushfd
        pop eax
        mov ecx, eax
        xor eax, edx
        push eax
        popfd
        pushfd
        pop eax
        push ecx
        popfd
        xor eax, ecx
        test eax, edx
        ret
        cpu 8086

%include "lib.inc"
