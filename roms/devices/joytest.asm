; joytest: reads the game port both ways for about 3 seconds and prints
; what it sees (IBM Game Control Adapter; INT 15h AH=84h).
; First "raw=XX equip=N\n": port 201h before any trigger (F0h with the
; adapter and no button held: the one-shots are low until triggered; FFh
; without one, the bus floating) and bit 12 of INT 11h's equipment word.
; Then, over and over: each axis timed by a counting loop (wait for the
; four one-shots to be low, trigger them with a write to 201h, count reads
; while the axis's bit is 1, interrupts off), the BIOS's four positions
; (INT 15h AH=84h DX=1) and the buttons (201h's bits 4-7, and INT 15h
; AH=84h DX=0). A line
;   "t=TICKS loop=AX AY BX BY bios=AX AY BX BY buttons=PP BB\n"
; (decimal counts, hex buttons; "bios=none" and "BB" = "--" when INT 15h
; sets CF; "loop=none" without a port) is printed whenever the BIOS's
; values or the buttons change, and every 9 BIOS ticks (about half a
; second); TICKS counts BIOS ticks (54.9 ms) from the start. After 55
; ticks (3.0 s) it exits with 0.
        cpu 8086
        org 100h
%include "macros.inc"

PORT    equ 201h
LENGTH  equ 55                  ; ticks to run
EVERY   equ 9                   ; ticks between unconditional lines

start:  call dos_probe
        mov dx, PORT
        in al, dx
        mov [raw], al
        PRINT "raw="
        call print_hex8
        PRINT " equip="
        int 11h
        mov al, ah
        mov cl, 4
        shr al, cl
        and al, 1
        add al, '0'
        call putc
        mov al, 10
        call putc
        mov ax, 40h
        mov es, ax
        mov ax, [es:6Ch]
        mov [t0], ax
main:   call sample
        mov ax, [es:6Ch]
        sub ax, [t0]
        mov [now], ax
        ; changed? the BIOS's values, its flag and both button bytes
        mov si, cur_bios
        mov di, prev_bios
        mov cx, 12
        push es
        push ds
        pop es
        repe cmpsb
        pop es
        jne .print
        mov ax, [now]
        cmp ax, [next]
        jb .done
.print: call line
        mov ax, [now]
        add ax, EVERY
        mov [next], ax
        mov si, cur_bios
        mov di, prev_bios
        mov cx, 12
        push es
        push ds
        pop es
        rep movsb
        pop es
.done:  cmp word [now], LENGTH
        jb main
        mov al, 0
        DOS_EXIT

; sample: fills cur_loop, cur_bios, bios_cf, port_buttons, bios_buttons
sample: cmp byte [raw], 0FFh
        je .bios
        mov bl, 1
        mov di, cur_loop
.axis:  call time_axis
        mov [di], ax
        add di, 2
        shl bl, 1
        cmp bl, 10h
        jb .axis
.bios:  mov dx, PORT
        in al, dx
        and al, 0F0h
        mov [port_buttons], al
        push es
        mov ah, 84h
        mov dx, 1
        int 15h
        mov byte [bios_cf], 0
        jnc .pos
        mov byte [bios_cf], 1
.pos:   mov [cur_bios], ax
        mov [cur_bios+2], bx
        mov [cur_bios+4], cx
        mov [cur_bios+6], dx
        mov ah, 84h
        mov dx, 0
        int 15h
        jnc .btn
        mov al, 0
.btn:   mov [bios_buttons], al
        pop es
        ret

; time_axis: AX = reads of 201h while the one-shot of bit BL is 1 after a
; trigger (FFFFh at most); waits first (bounded) for all four to be low,
; as a one-shot still timing ignores a trigger
time_axis:
        push cx
        push dx
        mov dx, PORT
        mov cx, 8000h
.idle:  in al, dx
        test al, 0Fh
        loopnz .idle
        cli
        out dx, al
        xor cx, cx
.count: in al, dx
        test al, bl
        jz .low
        inc cx
        jnz .count
        dec cx
.low:   sti
        mov ax, cx
        pop dx
        pop cx
        ret

; line: prints the current sample
line:   PRINT "t="
        mov ax, [now]
        call print_u16
        PRINT " loop="
        cmp byte [raw], 0FFh
        jne .loop
        PRINT "none"
        jmp .bios
.loop:  mov si, cur_loop
        call four
.bios:  PRINT " bios="
        cmp byte [bios_cf], 0
        je .vals
        PRINT "none"
        jmp .btn
.vals:  mov si, cur_bios
        call four
.btn:   PRINT " buttons="
        mov al, [port_buttons]
        call print_hex8
        mov al, ' '
        call putc
        cmp byte [bios_cf], 0
        je .bb
        PRINT "--"
        jmp .nl
.bb:    mov al, [bios_buttons]
        call print_hex8
.nl:    mov al, 10
        jmp putc

; four: the four words at SI, decimal, separated by spaces
four:   mov cx, 4
.w:     lodsw
        call print_u16
        cmp cx, 1
        je .r
        mov al, ' '
        call putc
.r:     loop .w
        ret

raw:          db 0
t0:           dw 0
now:          dw 0
next:         dw 0
cur_loop:     times 4 dw 0
; compared and copied as one block of 12 bytes: cur_bios .. bios_buttons
cur_bios:     times 4 dw 0
bios_cf:      db 0
port_buttons: db 0
bios_buttons: db 0
              db 0
prev_bios:    times 12 db 0FFh

%include "doslib.inc"
