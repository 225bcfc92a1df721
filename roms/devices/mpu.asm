; mpu: the MPU-401 handshake every General MIDI driver does, then one note
; to listen to (MPU-401 Technical Reference Manual, UART mode).
; Reset: FFh to the command port 331h, wait for DSR (status bit 7) to go
; low, read the acknowledge FEh from the data port 330h; with no answer,
; send FFh once more (the first one only left UART mode, which sends no
; acknowledge). Prints "MPU-401 reset: FE\n" (or "MPU-401: none\n" and
; exits 1). Then 3Fh enters UART mode: "UART: FE\n".
; Then, a quarter of a second later, General MIDI on channel 0: program
; change to 0 (acoustic grand piano), note on A4 (69, 440 Hz) at velocity
; 100, about one second (18 BIOS timer ticks of 54.9 ms), note off.
; Prints "A4 played\n", resets the MPU (leaving UART mode) and exits 0.
; It prints on port E9h and, under DOS, through INT 21h AH=02h; it exits
; through INT 21h AH=4Ch (the BIOS tick count needs DOS's BIOS).
        cpu 8086
        org 100h
%include "macros.inc"

DATA    equ 330h
STATUS  equ 331h
DSR     equ 80h                 ; status: 0 when a byte waits
DRR     equ 40h                 ; status: 0 when the MPU takes a byte

start:  call dos_probe
        mov al, 0FFh
        call command
        jnc .reset
        mov al, 0FFh            ; it was in UART mode: reset again
        call command
        jc none
.reset: PRINT "MPU-401 reset: "
        call show
        mov al, 3Fh
        call command
        jc none
        PRINT "UART: "
        call show
        mov cx, 5
        call ticks
        mov si, note_on
        call midi
        mov cx, 18
        call ticks
        mov si, note_off
        call midi
        PRINT "A4 played"
        mov al, 10
        call putc
        mov al, 0FFh
        call command
        mov al, 0
        jmp exit
none:   PRINT "MPU-401: none"
        mov al, 10
        call putc
        mov al, 1
exit:   DOS_EXIT

; show: AL as hex, then a new line
show:   call print_hex8
        mov al, 10
        jmp putc

; command: AL to the command port when the MPU takes it, then waits for
; the acknowledge; CF set when none came, else AL = the byte read
command:
        mov ah, al
        call wait_drr
        jc .r
        mov al, ah
        mov dx, STATUS
        out dx, al
        mov cx, 0FFFFh
.poll:  in al, dx
        test al, DSR
        jz .got
        loop .poll
        stc
        ret
.got:   mov dx, DATA
        in al, dx
        cmp al, 0FEh
        je .r
        stc
.r:     ret

; wait_drr: waits for DRR low; CF set on a timeout
wait_drr:
        mov dx, STATUS
        mov cx, 0FFFFh
.w:     in al, dx
        test al, DRR
        jz .r
        loop .w
        stc
        ret
.r:     clc
        ret

; midi: the bytes at SI, FFh-terminated (FFh is a system reset in MIDI,
; never sent here), to the data port, each when the MPU takes it
midi:   lodsb
        cmp al, 0FFh
        je .r
        mov ah, al
        call wait_drr
        mov al, ah
        mov dx, DATA
        out dx, al
        jmp midi
.r:     ret

; ticks: waits CX changes of the BIOS tick count (0040:006Ch)
ticks:  push es
        mov ax, 40h
        mov es, ax
.t:     mov bx, [es:6Ch]
.same:  cmp bx, [es:6Ch]
        je .same
        loop .t
        pop es
        ret

note_on:  db 0C0h, 0, 90h, 69, 100, 0FFh
note_off: db 80h, 69, 64, 0FFh

%include "doslib.inc"
