; A .COM program that is not the replica: a fountain routine of its own
; (386 code, 32-bit products) at offsets of its own, with its own "sine"
; table (a triangle wave) and its own amplitudes. The tests build it with
; nasm (frontend/tests/cli_models.rs) and sweep it with a profile that
; names only the fountain's symbols (fountain.toml beside this file).
;
; Layout (offsets from the PSP, as a .COM's are):
;   0100  entry: calls the fountain once, exits
;   0102  the signature "FOUNTAIN-COM"
;   0240  CLOCK   the clock word
;   0250  AMPS    seven amplitude bytes
;   0600  fountain
;   0A00  SINE    1,024 signed words
;   2000  HEIGHTS the six parameters (data: DS = SS = the PSP)
        cpu 386
        org 0x100

%define CLOCK   0x0240
%define AMPS    0x0250
%define FOUNT   0x0600
%define SINE    0x0A00
%define HEIGHTS 0x2000
%macro AT 1
        times (%1 - 0x100) - ($ - $$) db 0
%endmacro

start:  jmp short main
        db "FOUNTAIN-COM", 0
main:   call fountain
        mov ax, 0x4C00
        int 0x21

        AT CLOCK
        dw 0
        AT AMPS
        db 100, 50, 75, 125, 90, 30, 100

; heights[k] = -384 for all six; phase = ((clock << 5) & FFFFh) * 6;
; band = phase >> 16; s = SINE[(phase & FFFFh) >> 7];
; heights[band] += (amp[band] * s) >> 16;
; heights[(band + 1) mod 6] -= (2 * amp[band + 1] * s) >> 16.
        AT FOUNT
fountain:
        push bp
        mov di, HEIGHTS
        mov cx, 6
.init:  mov word [di], -384
        add di, 2
        loop .init
        movzx eax, word [cs:CLOCK]
        shl ax, 5
        imul eax, eax, 6
        mov ebx, eax
        shr ebx, 16                             ; band
        movzx esi, ax
        shr si, 7
        add si, si
        movsx ebp, word [cs:SINE + si]          ; s
        movzx eax, byte [cs:AMPS + bx]
        imul eax, ebp
        sar eax, 16
        mov di, bx
        add di, di
        add [HEIGHTS + di], ax
        movzx eax, byte [cs:AMPS + 1 + bx]
        add eax, eax
        imul eax, ebp
        sar eax, 16
        add di, 2
        cmp di, 12
        jb .ok
        xor di, di
.ok:    sub [HEIGHTS + di], ax
        pop bp
        ret

        AT SINE
%assign i 0
%rep 1024
  %if i < 256
    %assign v i * 127
  %elif i < 768
    %assign v (512 - i) * 127
  %else
    %assign v (i - 1024) * 127
  %endif
        dw v
  %assign i i + 1
%endrep
