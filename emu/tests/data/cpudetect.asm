; The classic 8086/286/386/486 detection, as DOS programs of the 1990s ran
; it (FLAGS bits 12-15, then IOPL/NT, then AC). Flat binary at 0000:0100;
; ends with HLT. Results: AX = 0 (8086), 2 (286), 3 (386), 4 (486 or later);
; BX = 1 when PUSH SP pushed the decremented SP (the 8086), else 0.
; Build: nasm -f bin -o cpudetect.bin cpudetect.asm
        cpu     386
        org     0x100
start:
        xor     bx, bx
        push    sp
        pop     dx
        cmp     dx, sp
        je      .pushsp_done
        mov     bx, 1
.pushsp_done:
        ; The 8086 reads FLAGS bits 12-15 as ones whatever is written.
        pushf
        pop     ax
        mov     cx, ax
        and     ax, 0x0fff
        push    ax
        popf
        pushf
        pop     ax
        and     ax, 0xf000
        cmp     ax, 0xf000
        je      is8086
        ; The 286 in real mode cannot set IOPL or NT (bits 12-14).
        mov     ax, cx
        or      ax, 0x7000
        push    ax
        popf
        pushf
        pop     ax
        test    ax, 0x7000
        jz      is286
        ; The 386 has no AC flag (EFLAGS bit 18): it cannot be toggled.
        pushfd
        pop     eax
        mov     ecx, eax
        xor     eax, 0x40000
        push    eax
        popfd
        pushfd
        pop     eax
        xor     eax, ecx
        push    ecx
        popfd
        test    eax, 0x40000
        jz      is386
        mov     ax, 4
        jmp     done
is386:  mov     ax, 3
        jmp     done
is286:  mov     ax, 2
        jmp     done
is8086: xor     ax, ax
done:   hlt
