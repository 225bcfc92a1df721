; b32: 32-bit operand- and address-size code in real mode: scaled-index
; addressing, IMUL, BT/BTS, SHLD/SHRD, MOVZX/MOVSX, SETcc (roms/bench; see
; common.inc). Offsets stay below 10000h: above it a 386 in real mode faults.
        cpu 386
        org 100h
%define NAME "b32"
%ifndef SCALE
%define SCALE 7000000
%endif

start:  mov ax, cs              ; a table of 16384 dwords after our segment
        add ax, 1000h
        mov es, ax
        xor edi, edi
        mov eax, 2468ACEh
.fill:  mov [es:edi*4], eax
        imul eax, eax, 69069
        inc eax
        inc edi
        cmp edi, 4000h
        jb .fill
        mov dword [count], SCALE
        xor ebp, ebp            ; checksum
        mov edx, 13579BDFh
.loop:  imul eax, edx, 41C64E6Dh
        add eax, 3039h
        mov ebx, eax            ; a 14-bit index
        shr ebx, 18
        add edx, [es:ebx*4]
        movzx esi, dl
        movsx edi, dh
        bt eax, esi
        adc ebp, 0
        bts dword [es:ebx*4], 5
        setc cl
        movzx ecx, cl
        add ebp, ecx
        shld edx, eax, 5
        shrd eax, edx, 3
        imul ecx, eax, 7
        lea esi, [eax+edi*2+7]
        xor ebp, esi
        movzx ecx, word [es:ebx*4+2]
        add ebp, ecx
        mov ecx, ebx            ; a store through another scaled index
        xor ecx, 2AAAh
        mov [es:ecx*4], ebp
        rol ebp, 1
        dec dword [count]
        jnz .loop
        xor ebx, ebx            ; fold the table into the checksum
.fold:  add ebp, [es:ebx*4]
        rol ebp, 1
        inc ebx
        cmp ebx, 4000h
        jb .fold
        mov eax, ebp
        jmp finish

count:  dd 0
%include "common.inc"
