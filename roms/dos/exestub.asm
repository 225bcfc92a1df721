; exestub.com: an EXEPACK decompression stub of our own, for the packer in
; dos/tests/loader_rules.rs (not a program to run by itself). The packer
; puts the 18-byte EXEPACK header in front of it (real IP, real CS, a
; scratch word, the block's size, real SP, real SS, unpacked paragraphs,
; skip paragraphs, "RB") and the relocation table after it.
;
; It does what Microsoft's stub does, with its own code: move the block
; above the unpacked image, run the commands backwards (B0h fill, B2h
; copy, bit 0 last), apply 16 sections of relocations, and start the
; program with DS = ES = PSP. Pointers are kept normalised (offset 0-15)
; and only ever decremented by one paragraph, so no segment goes below the
; load segment: it works wherever it is loaded, A20 on or off.
        cpu 8086
        org 12h

REAL_IP   equ 0
REAL_CS   equ 2
LOAD      equ 4                 ; scratch: the load segment
SIZE      equ 6
REAL_SP   equ 8
REAL_SS   equ 0Ah
DEST_LEN  equ 0Ch
SKIP      equ 0Eh

start:
        mov dx, cs              ; the block where the file put it
        mov ax, es
        add ax, 10h
        mov [cs:LOAD], ax
        add ax, [cs:DEST_LEN]   ; the block moves above the image
        mov bx, ax
        push cs
        pop ds
        mov es, bx
        mov cx, [SIZE]
        mov si, cx
        dec si
        mov di, si
        std
        rep movsb
        cld
        push bx
        mov ax, moved
        push ax
        retf

moved:  ; A stack above the moved block (the unpacked image may cover the
        ; one the header gave); the packer asks for 200h bytes there.
        cli
        mov ss, bx
        mov sp, 1F0h
        sti
        ; Source: the last byte of packed data before any FFh padding.
        mov ax, dx
        sub ax, [cs:SKIP]
        mov ds, ax
        mov si, 15
        mov cx, 16
.pad:   cmp byte [si], 0FFh
        jne .padded
        call dec_src
        loop .pad
        jmp error
.padded:
        ; Destination: the last byte of the unpacked image.
        mov ax, [cs:LOAD]
        add ax, [cs:DEST_LEN]
        sub ax, [cs:SKIP]
        mov es, ax
        mov di, 15
.cmd:   mov bl, [si]            ; command
        call dec_src
        mov ch, [si]            ; length, high byte first going down
        call dec_src
        mov cl, [si]
        call dec_src
        mov al, bl
        and al, 0FEh
        cmp al, 0B0h
        jne .copy
        mov al, [si]            ; fill byte
        call dec_src
        jcxz .next
.fill:  mov [es:di], al
        call dec_dst
        loop .fill
        jmp .next
.copy:  cmp al, 0B2h
        jne error
        jcxz .next
.byte:  mov al, [si]
        mov [es:di], al
        call dec_src
        call dec_dst
        loop .byte
.next:  test bl, 1
        jz .cmd

        ; Relocations: 16 sections of 64 KiB, a count and offsets each.
        push cs
        pop ds
        mov si, table
        mov bp, [LOAD]
        xor dx, dx
        mov bx, 16
.section:
        lodsw
        mov cx, ax
        jcxz .next_section
.reloc: lodsw
        mov di, ax
        push cx
        mov cl, 4
        shr ax, cl
        add ax, bp
        add ax, dx
        mov es, ax
        and di, 15
        add [es:di], bp
        pop cx
        loop .reloc
.next_section:
        add dx, 1000h
        dec bx
        jnz .section

        mov si, [REAL_SS]
        add si, bp
        mov di, [REAL_SP]
        add [REAL_CS], bp
        mov ax, bp
        sub ax, 10h
        mov ds, ax
        mov es, ax
        cli
        mov ss, si
        mov sp, di
        sti
        jmp far [cs:REAL_IP]

; ds:si one byte down (si stays 0-15).
dec_src:
        dec si
        jns .ok
        mov si, 15
        push ax
        mov ax, ds
        dec ax
        mov ds, ax
        pop ax
.ok:    ret

; es:di one byte down.
dec_dst:
        dec di
        jns .ok
        mov di, 15
        push ax
        mov ax, es
        dec ax
        mov es, ax
        pop ax
.ok:    ret

error:  mov ah, 40h
        mov bx, 2
        mov cx, msg_len
        push cs
        pop ds
        mov dx, msg
        int 21h
        mov ax, 4CFFh
        int 21h
msg:    db 'Packed file is corrupt'
msg_len equ $ - msg
table:                          ; the packer appends the relocations here
