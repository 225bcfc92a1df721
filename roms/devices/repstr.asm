; repstr: REP string instructions interrupted by a fast IRQ0, on every
; CPU model. PIT channel 0 at divisor 200 (about 6 kHz) makes IRQ0 land
; inside the REP loops; the handler counts ticks and scribbles on the
; destination buffer's first byte, so where each interrupt landed shows
; in the data. Runs REP MOVSB/MOVSW (forward and backward, overlapping),
; REP STOSB/STOSW, REPE CMPSB (with ZF clear before it), REPNE SCASB, REP
; LODSB, near the 64 KiB offset end; REPE/REPNE CMPSW and SCASW going
; down, LODSB without REP, overlapping moves going down and up, the offset
; wrap at FFFFh, FFFF:xxxx across the ROM's top and the A20 wrap, STOS and
; MOVS into ROM and into and out of VGA text memory; then prints a
; checksum of buffers A and B,
; SI, DI, CX and the tick count on port E9h. A test runs it with and
; without hooks (the step-by-step and the burst paths) and compares
; everything (hw/tests/rep_string.rs).
        cpu 8086
        org 100h
%include "macros.inc"

start:  cli
        call pic_init
        SETVEC 08h, irq0
        mov al, 34h             ; channel 0, lo/hi, mode 2
        out 43h, al
        mov al, 200
        out 40h, al
        xor al, al
        out 40h, al
        mov al, 0FEh            ; IRQ0 only
        out 21h, al
        mov ax, cs
        add ax, 1000h
        mov [bufa], ax
        add ax, 1000h
        mov [bufb], ax
        xor bp, bp              ; checksum of the registers
        mov byte [pass], 2
.pass:  cmp byte [pass], 1
        jne .ints
        cli                     ; the second pass with IF clear
        jmp .go
.ints:  sti
.go:    ; A := 0, 1, 2, ... by STOSB from AL counting in a loop of REPs
        mov es, [bufa]
        xor di, di
        mov ax, 0
        mov bx, 64
.fill:  mov cx, 1000
        rep stosb
        inc ax
        dec bx
        jnz .fill
        ; STOSW up to the very end of the segment
        mov di, 0FF00h
        mov ax, 0A55Ah
        mov cx, 80h
        rep stosw
        add bp, di
        ; B := A by words, forward
        mov ds, [bufa]
        mov es, [cs:bufb]
        xor si, si
        xor di, di
        mov cx, 8000h
        rep movsw
        add bp, si
        ; overlapping MOVSB forward: smear B[0] over 5000 bytes
        mov ds, [cs:bufb]
        xor si, si
        mov di, 1
        mov cx, 5000
        rep movsb
        ; backward MOVSW from the top, odd addresses
        std
        mov si, 0FFFDh
        mov di, 0FFF1h
        mov cx, 3000h
        rep movsw
        cld
        add bp, si
        add bp, di
        ; REPE CMPSB with ZF clear before it, A against B
        mov ds, [cs:bufa]
        mov es, [cs:bufb]
        mov si, 6000
        mov di, 6000
        mov cx, 9000
        or al, 1                ; ZF = 0
        repe cmpsb
        add bp, cx
        add bp, si
        ; REPNE SCASB for a byte of A's pattern in B
        mov al, 40
        xor di, di
        mov cx, 0FFFFh
        repne scasb
        add bp, cx
        add bp, di
        ; REP LODSB over 3000 bytes: AL ends at the last one
        xor si, si
        mov cx, 3000
        rep lodsb
        add bp, ax
        add bp, si
        mov si, 2990            ; across a change of A's bytes
        mov cx, 20
        rep lodsb
        add bp, ax
        std
        mov si, 4010            ; LODSW going down, across 4000
        mov cx, 12
        rep lodsw
        cld
        add bp, ax
        add bp, si
        ; REPE CMPSW from the top going down (STD), A against B
        std
        mov si, 0FFFEh
        mov di, 0FFFEh
        mov cx, 7000h
        repe cmpsw
        add bp, cx
        add bp, di
        ; REPNE CMPSB: up to the first equal byte
        cld
        mov si, 100
        mov di, 101
        mov cx, 9000
        repne cmpsb
        add bp, cx
        add bp, si
        ; REPE SCASW for words equal to AX, then REPNE SCASW going down
        mov ax, [es:8000]
        mov di, 8000
        mov cx, 4000
        repe scasw
        add bp, cx
        add bp, di
        std
        mov ax, 0A55Ah
        mov di, 0FFF0h
        mov cx, 0FFFFh
        repne scasw
        add bp, cx
        add bp, di
        cld
        ; LODSB one by one (no REP), summed, going down
        std
        mov si, 7777
        mov cx, 700
.lods:  lodsb
        add bp, ax
        loop .lods
        cld
        ; overlapping MOVSB going down that feeds back (destination
        ; below the source), then one that does not (destination above)
        mov ds, [cs:bufb]
        std
        mov si, 30000
        mov di, 29999
        mov cx, 3000
        rep movsb
        mov si, 40000
        mov di, 40003
        mov cx, 5001
        rep movsw
        cld
        ; forward MOVSW with the destination below the source, overlapping
        mov si, 20001
        mov di, 19998
        mov cx, 3001
        rep movsw
        ; bytes across the 64 KiB offset wrap at FFFFh, both operands
        mov si, 0FFF0h
        mov di, 0FFE0h
        mov cx, 40h
        rep movsb
        add bp, si
        add bp, di
        ; FFFF:0 on: the ROM's top, then the A20 wrap (linear 100000h and
        ; up: physical 0 with A20 off) into A, through 8000h by STOSB and
        ; back by MOVSW; STOSW and MOVSB into ROM (ignored)
        mov ax, 0FFFFh
        mov ds, ax
        mov es, [cs:bufa]
        xor si, si
        mov di, 9000
        mov cx, 40h
        rep movsb
        mov es, ax
        mov di, 8010h
        mov ax, 3C3Ch
        add al, [cs:pass]
        mov cx, 300
        rep stosb
        mov si, 8010h
        mov es, [cs:bufa]
        mov di, 9100
        mov cx, 200
        rep movsw
        mov si, 8010h           ; compare it back: 400 equal bytes
        mov di, 9100
        mov cx, 500
        repe cmpsb
        add bp, cx
        add bp, si
        mov ax, 0F000h
        mov es, ax
        mov di, 1000h
        mov cx, 800h
        rep stosw
        mov ds, [cs:bufa]
        xor si, si
        mov di, 3000h
        mov cx, 900h
        rep movsb
        ; VGA text memory (B800h): STOSW, MOVSW from A, then back into A;
        ; A000h is outside mode 3's window
        mov ax, 0B800h
        mov es, ax
        xor di, di
        mov ax, 0741h
        mov cx, 200
        rep stosw
        mov cx, 300
        rep movsw
        mov ax, 0A000h
        mov es, ax
        xor di, di
        mov cx, 100
        rep stosb
        mov ax, 0B800h
        mov ds, ax
        mov es, [cs:bufa]
        xor si, si
        mov di, 10000
        mov cx, 600
        rep movsw
        push cs
        pop ds
        dec byte [pass]
        jz .done
        jmp .pass
.done:  cli
        ; checksum of B: 16-bit sum of its words
        mov ds, [cs:bufb]
        xor si, si
        xor dx, dx
        mov cx, 8000h
.sum:   lodsw
        add dx, ax
        loop .sum
        mov ds, [cs:bufa]
        mov cx, 8000h
.suma:  lodsw
        add dx, ax
        rol dx, 1
        loop .suma
        push cs
        pop ds
        PRINT "b="
        mov ax, dx
        call print_u16
        PRINT " r="
        mov ax, bp
        call print_u16
        PRINT " t="
        mov ax, [ticks]
        call print_u16
        DBG 10
        cli
        hlt

irq0:   inc word [cs:ticks]
        push ds
        push ax
        mov ds, [cs:bufb]
        mov al, [cs:ticks]
        mov [0], al
        pop ax
        pop ds
        EOI_IRET

%include "lib.inc"

ticks:  dw 0
bufa:   dw 0
bufb:   dw 0
pass:   db 0
