; bench: a CPU-bound loop with IRQ0 at about 1 kHz and VGA memory writes,
; for measuring emulation speed (hw/examples/bench.rs). Prints "irq0=N".
        cpu 8086
        org 100h
%include "macros.inc"

start:  cli
        cld
        call pic_init
        SETVEC 08h, irq0
        mov al, 34h
        out 43h, al
        mov ax, 1193
        out 40h, al
        mov al, ah
        out 40h, al
        mov al, 0FEh
        out 21h, al
        sti
        mov ax, 0B800h
        mov es, ax
        mov bp, 200             ; outer iterations
.outer: mov cx, 10000
        xor si, si
.inner: mov ax, si
        add ax, cx
        xor bx, bx
        mov bl, al
        mov dl, [data+bx]
        add [data+bx], dl
        shl ax, 1
        mov di, cx
        and di, 0FFEh
        mov [es:di], ax
        inc si
        loop .inner
        mov di, 0
        mov cx, 64
        mov si, data
        rep movsw
        dec bp
        jnz .outer
        cli
        mov ax, [ticks]
        PRINT "irq0="
        call print_u16
        DBG 10
        hlt

irq0:   inc word [cs:ticks]
        EOI_IRET

%include "lib.inc"

ticks:  dw 0
data:   times 256 db 1
