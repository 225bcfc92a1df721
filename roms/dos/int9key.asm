; int9key.com: its own INT 9 handler reads the first byte the keyboard
; controller delivers on port 60h (a make code, or E0h before a grey key)
; and the program exits with it as its return code. For `run --press`:
; scripted keys must arrive as scan codes through the 8042 and IRQ 1.
        cpu 8086
        org 100h
        mov ax, 2509h           ; INT 21h 25h: set the INT 9 vector
        mov dx, irq1
        int 21h
poll:   cmp byte [key], 0
        je poll
        mov al, [key]
        mov ah, 4Ch             ; exit with AL
        int 21h
irq1:   push ax
        in al, 60h
        cmp byte [cs:key], 0
        jne .eoi
        mov [cs:key], al
.eoi:   mov al, 20h             ; non-specific EOI to the master PIC
        out 20h, al
        pop ax
        iret
key:    db 0
