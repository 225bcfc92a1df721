; startup.com / startup.exe: prints what a program sees at its first
; instruction, as MS-DOS 6.22 (or DOSBox) hands it over: FLAGS and the
; registers at entry, the PSP's top-of-memory word (02h), parent (16h),
; job file table (18h-2Bh) and environment (2Ch), the parent's
; environment, the MCB at the top of memory when that is below A000h, the
; environment's strings, word and program path, the first MCB (INT 21h
; 52h, the word before the List of Lists) and the memory chain from it up
; to this program. One line each, hex, for a test or a person to compare:
;   FL=7202 AX=0000 BX=0000 CX=00FF DX=0192 SI=0100 DI=FFFE BP=091C
;   SP=FFFE CS=0192 DS=0192 ES=0192 SS=0192        (one line)
;   TOP=9FFF PARENT=... ENV=... PENV=...
;   JFT=01 01 01 00 02 FF ...
;   TOPMCB=5A 08 00 ...       (16 bytes at TOP:0, only when TOP < A000h)
;   E=COMSPEC=... per string, then WORD=0001 and PROG=C:\STARTUP.COM
;   MCB=... then the chain: segment owner size per block up to ours
; With a file name as its argument it writes the report to that file
; (redirection would change the JFT it reports). Exit 0.
; Built twice (roms/build.sh): startup.com, and with -DEXE startup.exe,
; an MZ program of the same code (CS = load segment, its own stack).
        cpu 8086
%ifdef EXE
CODE_SIZE equ 800h
        section header start=0
        db 'MZ'
        dw (32 + CODE_SIZE) % 512               ; bytes in the last page
        dw (32 + CODE_SIZE + 511) / 512         ; pages
        dw 0                                    ; relocations
        dw 2                                    ; header paragraphs
        dw 40h                                  ; minalloc: the stack
        dw 0FFFFh                               ; maxalloc
        dw 0                                    ; SS (relative)
        dw CODE_SIZE + 400h                     ; SP
        dw 0                                    ; checksum
        dw start                                ; IP
        dw 0                                    ; CS (relative)
        dw 1Ch                                  ; relocation table
        dw 0                                    ; overlay
        align 16, db 0
        section code follows=header vstart=0
%else
        org 100h
%endif

start:  pushf                       ; FLAGS first, before anything sets them
        pop word [cs:e_fl]
        mov [cs:e_ax], ax
        mov [cs:e_bx], bx
        mov [cs:e_cx], cx
        mov [cs:e_dx], dx
        mov [cs:e_si], si
        mov [cs:e_di], di
        mov [cs:e_bp], bp
        mov [cs:e_sp], sp
        mov [cs:e_cs], cs
        mov [cs:e_ds], ds
        mov [cs:e_es], es
        mov [cs:e_ss], ss
        push cs
        pop ds
        mov si, 18h                 ; the JFT before this program opens one
        mov di, jft
        mov cx, 20
        push ds
        push es
        pop ds
        pop es
        cld
        rep movsb
        push cs
        pop ds
        call open_out
        ; FLAGS and the registers, in the order of the names table
        mov si, names
        mov bx, e_fl
        mov bp, 13
.reg:   call name
        mov ax, [bx]
        call hex4
        add bx, 2
        dec bp
        jnz .reg
        call crlf
        ; the PSP
        mov es, [e_ds]
        mov si, n_top
        mov bx, 02h
        call pspword
        mov si, n_parent
        mov bx, 16h
        call pspword
        mov si, n_env
        mov bx, 2Ch
        call pspword
        mov si, n_penv              ; the parent's environment
        call name
        push es
        mov es, [es:16h]
        mov ax, [es:2Ch]
        pop es
        call hex4
        mov si, n_jft
        call name
        mov bx, jft
.jft:   mov al, [bx]
        call hex2
        inc bx
        cmp bx, jft + 20
        jb .jft
        call crlf
        call top_mcb
        call env_dump
        ; the memory chain from the first MCB
        mov ah, 52h
        int 21h
        mov ax, [es:bx-2]
        mov [mcb], ax
        mov si, n_mcb
        call name
        mov ax, [mcb]
        call hex4
        call crlf
.walk:  mov es, [mcb]
        mov si, n_blk
        call name
        mov ax, es
        call hex4
        mov al, ' '
        call putc
        mov al, [es:0]
        call hex2
        mov ax, [es:1]
        call hex4
        mov al, ' '
        call putc
        mov ax, [es:3]
        call hex4
        call crlf
        cmp byte [es:0], 'M'
        jne .done
        mov ax, es
        add ax, [es:3]
        inc ax
        mov [mcb], ax
        mov ax, es
        inc ax
        cmp ax, [e_ds]              ; up to our own block
        jne .walk
.done:  mov ax, 4C00h
        int 21h

; open_out: with a file name in the command tail, creates that file and
; writes the report there (a redirection would change handle 1 in the
; JFT this reports); else handle 1.
open_out:
        mov es, [e_ds]
        mov bl, [es:80h]
        mov bh, 0
        mov byte [es:bx+81h], 0
        mov dx, 81h
.sp:    mov bx, dx
        cmp byte [es:bx], ' '
        jne .name
        inc dx
        jmp .sp
.name:  cmp byte [es:bx], 0
        je .ret
        push ds
        push es
        pop ds
        mov ah, 3Ch
        xor cx, cx
        int 21h
        pop ds
        jc .ret
        mov [out_h], ax
.ret:   ret

; top_mcb: the 16 bytes at TOP:0 (DOSBox keeps an MCB there), when the
; top of memory is below A000h.
top_mcb:
        mov es, [e_ds]
        mov ax, [es:2]
        cmp ax, 0A000h
        jae .r
        mov es, ax
        mov si, n_topmcb
        call name
        xor bx, bx
.b:     mov al, [es:bx]
        call hex2
        inc bx
        cmp bx, 16
        jb .b
        call crlf
.r:     ret

; env_dump: the environment's strings (E=...), the word after them and
; the program's path.
env_dump:
        mov es, [e_ds]
        mov es, [es:2Ch]
        xor bx, bx
.str:   cmp byte [es:bx], 0
        je .end
        mov si, n_e
        call name
        call estr
        call crlf
        jmp .str
.end:   inc bx
        mov si, n_word
        call name
        mov ax, [es:bx]
        call hex4
        call crlf
        add bx, 2
        mov si, n_prog
        call name
        call estr
        jmp crlf

; estr: prints the ASCIIZ string at ES:BX, BX past its NUL.
estr:   mov al, [es:bx]
        inc bx
        or al, al
        jz .r
        call putc
        jmp estr
.r:     ret

; name: prints the $-terminated string at SI and steps SI past it.
name:   lodsb
        cmp al, '$'
        je .r
        call putc
        jmp name
.r:     ret

; pspword: prints name SI and the word at ES:BX, then a space.
pspword:
        call name
        mov ax, [es:bx]
        call hex4
        ret

; hex4: AX as four hex digits.
hex4:   push ax
        mov al, ah
        call hexb
        pop ax
        jmp hexb

; hex2: AL as two hex digits and a space.
hex2:   call hexb
        mov al, ' '
        jmp putc

; hexb: AL as two hex digits.
hexb:   push ax
        mov cl, 4
        shr al, cl
        call nib
        pop ax
        and al, 0Fh
nib:    add al, '0'
        cmp al, '9'
        jbe .p
        add al, 'A' - '0' - 10
.p:     jmp putc

; putc: writes AL to the report (AX kept; CX, DX change).
putc:   push ax
        push bx
        mov [ch_buf], al
        mov ah, 40h
        mov bx, [out_h]
        mov cx, 1
        mov dx, ch_buf
        int 21h
        pop bx
        pop ax
        ret

crlf:   mov al, 13
        call putc
        mov al, 10
        jmp putc

names   db 'FL=$', ' AX=$', ' BX=$', ' CX=$', ' DX=$', ' SI=$', ' DI=$'
        db ' BP=$', ' SP=$', ' CS=$', ' DS=$', ' ES=$', ' SS=$'
n_top   db 'TOP=$'
n_parent db ' PARENT=$'
n_env   db ' ENV=$'
n_penv  db ' PENV=$'
n_topmcb db 'TOPMCB=$'
n_e     db 'E=$'
n_word  db 'WORD=$'
n_prog  db 'PROG=$'
n_jft   db 13, 10, 'JFT=$'
n_mcb   db 'MCB=$'
n_blk   db 'BLK=$'


e_fl    dw 0
e_ax    dw 0
e_bx    dw 0
e_cx    dw 0
e_dx    dw 0
e_si    dw 0
e_di    dw 0
e_bp    dw 0
e_sp    dw 0
e_cs    dw 0
e_ds    dw 0
e_es    dw 0
e_ss    dw 0
mcb     dw 0
out_h   dw 1
jft     times 20 db 0
ch_buf  db 0
%ifdef EXE
        times CODE_SIZE - ($ - $$) db 0
%endif
