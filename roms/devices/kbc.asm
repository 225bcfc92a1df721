; kbc: talks to the 8042 and the keyboard through ports 60h/64h. The test
; feeds key presses (A down/up, cursor up down/up) from cycle 2,000,000 on;
; the INT 9 handler collects the scan codes. Expected output:
; "st=55 it=00 cb=45 cb=44 echo=EE id=FAAB41 op=C1 a20=C3
;  keys=1E9EE048E0C8\n" (on one line)
        cpu 8086
        org 100h
%include "macros.inc"

start:  cli
        call pic_init
        mov al, 0AAh
        PRINT "st="
        call ctl_cmd
        mov al, 0ABh
        PRINT " it="
        call ctl_cmd
        mov al, 20h
        PRINT " cb="
        call ctl_cmd
        mov al, 60h
        out 64h, al
        mov al, 44h
        out 60h, al
        mov al, 20h
        PRINT " cb="
        call ctl_cmd
        mov al, 60h
        out 64h, al
        mov al, 45h
        out 60h, al
        PRINT " echo="
        mov al, 0EEh
        out 60h, al
        call read_print
        PRINT " id="
        mov al, 0F2h
        out 60h, al
        call read_print
        call read_print
        call read_print
        mov al, 0D0h
        PRINT " op="
        call ctl_cmd
        mov al, 0D1h
        out 64h, al
        mov al, 0C3h
        out 60h, al
        mov al, 0D0h
        PRINT " a20="
        call ctl_cmd

        SETVEC 09h, irq1
        mov al, 0FDh
        out 21h, al
        sti
.wait:  hlt
        cmp word [count], 6
        jb .wait
        cli
        PRINT " keys="
        mov si, buf
        mov cx, 6
.k:     lodsb
        call print_hex8
        loop .k
        DBG 10
        cli
        hlt

; ctl_cmd: AL to port 64h, print the reply
ctl_cmd:
        out 64h, al
; read_print: wait for OBF, print the byte from port 60h
read_print:
        mov cx, 0FFFFh
.w:     in al, 64h
        test al, 1
        jnz .r
        loop .w
        DBG 'T'
        ret
.r:     in al, 60h
        call print_hex8
        ret

irq1:   push ax
        push bx
        in al, 60h
        mov bx, [cs:count]
        mov [cs:buf+bx], al
        inc word [cs:count]
        mov al, 20h
        out 20h, al
        pop bx
        pop ax
        iret

%include "lib.inc"

count:  dw 0
buf:    times 8 db 0
