; harness.asm: runs x87 instructions for genqemu.py under qemu-i386 (32-bit Linux, no libc).
;
; stdin and stdout carry 256-byte records. In a record:
;   0   the 108-byte 32-bit protected-mode FRSTOR image (SDM vol. 1 §8.1.10, figure 8-9)
;   108 EAX before the instruction
;   112 the instruction (16 bytes, NOP-padded)
;   128 the memory operand (128 bytes; the instruction addresses it as [rec + 128])
; For each record the harness loads the image with FRSTOR, runs the instruction from `slot`
; (the code is copied there: the section is writable), stores the state with FNSAVE at 0 and
; EAX at 108, and writes the record back.
; Build: nasm -f elf32 harness.asm -o harness.o && ld -m elf_i386 -N -o harness harness.o

        bits 32
        global _start, rec

        section .text progbits alloc exec write align=16
_start:
next:   mov eax, 3                  ; read(0, rec, 256), to the end of the record
        xor ebx, ebx
        mov ecx, rec
        mov edx, 256
        xor esi, esi
.more:  push ecx
        push edx
        int 0x80
        pop edx
        pop ecx
        test eax, eax
        js exit
        jz .eof
        add ecx, eax
        sub edx, eax
        mov eax, 3
        jnz .more
        jmp run
.eof:   cmp edx, 256                ; a clean end only between records
        je exit
        jmp fail
run:    mov esi, rec + 112          ; the instruction into the slot
        mov edi, slot
        mov ecx, 16
        cld
        rep movsb
        frstor [rec]
        mov eax, [rec + 108]
        jmp slot
        align 16
slot:   times 16 nop
        fnsave [rec]
        mov [rec + 108], eax
        mov eax, 4                  ; write(1, rec, 256)
        mov ebx, 1
        mov ecx, rec
        mov edx, 256
        int 0x80
        cmp eax, 256
        jne fail
        jmp next
exit:   mov eax, 1
        xor ebx, ebx
        int 0x80
fail:   mov eax, 1
        mov ebx, 1
        int 0x80

        align 16
rec:    times 256 db 0
