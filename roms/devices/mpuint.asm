; mpuint: the MPU-401's intelligent mode as a sequencer driver uses it
; (MPU-401 Technical Reference Manual: "Commands", "Track Data Request",
; "Conductor", "Clock to Host").
; Reset (FFh, twice when the first found it in UART mode), version (ACh)
; and revision (ADh): prints "reset: FE", "version: 15", "revision: 01".
; Then timebase 120 (C5h), tempo 120 (E0h 78h): a clock every 1/240 s;
; clock to host every 60 clocks (E7h F0h, 95h), track 1 active (ECh 01h),
; the conductor on (8Fh), play counters cleared (B8h), and play started
; (0Ah) with the MPU's interrupt (IRQ 2 = IRQ 9, INT 71h) answering:
; - track 1's data requests (F0h) from `track`: program change 0 and A4
;   at once, its note off 120 clocks later, a timing overflow (240 clocks),
;   C5 at once, its note off 120 clocks later, data end;
; - the conductor's requests (F9h) from `conductor`: a timing overflow,
;   then tempo 60 (E0h 3Ch) at once (at clock 240), then data end.
; Every byte the MPU sends in play is printed with the BIOS ticks since
; play started, "F0 @9" (timeline: clocks 0-240 take 1 s at tempo 120,
; clocks 240-480 take 2 s at tempo 60: track requests at 0, 0.5, 2 and 3
; s, clock to host at every 60 clocks, all end FCh at 3 s). Then
; "clock to host: 8", stop (05h), and "done". Exits 0; 1 without an MPU,
; 2 when all end does not come within 8 s.
        cpu 8086
        org 100h
%include "macros.inc"

DATA    equ 330h
STATUS  equ 331h
DSR     equ 80h                 ; status: 0 when a byte waits
DRR     equ 40h                 ; status: 0 when the MPU takes a byte
VEC     equ 71h                 ; IRQ 9 (the MPU's IRQ 2 on the AT bus)
LOGMAX  equ 48

start:  call dos_probe
        mov al, 0FFh
        call command
        jnc .reset
        mov al, 0FFh            ; it was in UART mode: reset again
        call command
        jc none
.reset: PRINT "reset: "
        call show
        mov al, 0ACh
        call command
        call read_byte
        PRINT "version: "
        call show
        mov al, 0ADh
        call command
        call read_byte
        PRINT "revision: "
        call show
        mov si, setup           ; the set-up commands and data bytes
.set:   lodsb
        or al, al
        jz .go
        call command
        lodsb
        cmp al, 0FFh            ; FFh: no data byte
        je .set
        call send
        jmp .set
.go:    ; the handler, IRQ 9 and the cascade unmasked
        cli
        xor ax, ax
        mov es, ax
        mov ax, [es:VEC*4]
        mov [old_vec], ax
        mov ax, [es:VEC*4+2]
        mov [old_vec+2], ax
        mov word [es:VEC*4], irq9
        mov [es:VEC*4+2], cs
        in al, 0A1h
        mov [old_mask], al
        and al, 0FDh
        out 0A1h, al
        in al, 21h
        mov [old_mask+1], al
        and al, 0FBh
        out 21h, al
        mov ax, 40h
        mov es, ax
        mov ax, [es:6Ch]
        mov [t0], ax
        mov al, 0Ah             ; start play (MIDI start), interrupts off
        call command            ; until its acknowledge is read
        sti
.wait:  hlt
        cmp byte [done], 0
        jne .end
        mov ax, [es:6Ch]
        sub ax, [t0]
        cmp ax, 146             ; 8 s
        jb .wait
        mov byte [status], 2
.end:   cli
        mov al, 05h             ; stop play (MIDI stop)
        call command
        mov al, 94h             ; clock to host off
        call command
        xor ax, ax
        mov es, ax
        mov ax, [old_vec]
        mov [es:VEC*4], ax
        mov ax, [old_vec+2]
        mov [es:VEC*4+2], ax
        mov al, [old_mask]
        out 0A1h, al
        mov al, [old_mask+1]
        out 21h, al
        sti
        ; the log
        mov si, log
        mov cx, [logn]
        jcxz .sum
.entry: lodsb
        call print_hex8
        PRINT " @"
        lodsw
        call print_u16
        mov al, 10
        call putc
        loop .entry
.sum:   PRINT "clock to host: "
        mov ax, [clocks]
        call print_u16
        mov al, 10
        call putc
        mov al, 0FFh
        call command
        PRINT "done"
        mov al, 10
        call putc
        mov al, [status]
        jmp exit
none:   PRINT "MPU-401: none"
        mov al, 10
        call putc
        mov al, 1
exit:   DOS_EXIT

; irq9: every byte the MPU has, each logged and handled by `got`
irq9:   push ax
        push dx
        push si
        push ds
        push es
        mov ax, cs
        mov ds, ax
.next:  mov dx, STATUS
        in al, dx
        test al, DSR
        jnz .eoi
        mov dx, DATA
        in al, dx
        call got
        jmp .next
.eoi:   mov al, 20h
        out 0A0h, al
        out 20h, al
        pop es
        pop ds
        pop si
        pop dx
        pop ax
        iret

; got: AL from the MPU: logged with the ticks since play started; a
; request answered from its script, clock to host counted, all end noted
got:    push ax
        mov si, [logn]
        cmp si, LOGMAX
        jae .h
        inc word [logn]
        mov dx, si
        shl si, 1
        add si, dx              ; 3 bytes an entry
        add si, log
        mov [si], al
        push ax
        mov ax, 40h
        mov es, ax
        mov ax, [es:6Ch]
        sub ax, [t0]
        mov [si+1], ax
        pop ax
.h:     cmp al, 0F0h
        jne .c
        mov si, [track_at]
        call answer
        mov [track_at], si
        jmp .r
.c:     cmp al, 0F9h
        jne .k
        mov si, [cond_at]
        call answer
        mov [cond_at], si
        jmp .r
.k:     cmp al, 0FDh
        jne .e
        inc word [clocks]
        jmp .r
.e:     cmp al, 0FCh
        jne .r
        mov byte [done], 1
.r:     pop ax
        ret

; answer: the counted bytes at SI to the data port; SI past them
answer: push cx
        lodsb
        mov cl, al
        xor ch, ch
.b:     lodsb
        call send
        loop .b
        pop cx
        ret

; show: AL as hex, then a new line
show:   call print_hex8
        mov al, 10
        jmp putc

; read_byte: waits for DSR low and reads the data port into AL
read_byte:
        mov dx, STATUS
.w:     in al, dx
        test al, DSR
        jnz .w
        mov dx, DATA
        in al, dx
        ret

; command: AL to the command port when the MPU takes it, then waits for
; the acknowledge; CF set when none came, else AL = the byte read
command:
        push cx
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
        jmp .r
.got:   mov dx, DATA
        in al, dx
        cmp al, 0FEh
        je .r
        stc
.r:     pop cx
        ret

; send: AL to the data port when the MPU takes it
send:   push ax
        push cx
        mov ah, al
        call wait_drr
        mov al, ah
        mov dx, DATA
        out dx, al
        pop cx
        pop ax
        ret

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

; setup: command, data byte (FFh: none), ..., 0
setup:  db 0C5h, 0FFh           ; timebase 120
        db 0E0h, 120            ; tempo 120
        db 0E7h, 240            ; clock to host every 240/4 = 60 clocks
        db 0ECh, 01h            ; track 1 active
        db 8Fh, 0FFh            ; conductor on
        db 0B8h, 0FFh           ; clear play counters
        db 95h, 0FFh            ; clock to host on
        db 0

; track 1's answers: a count, then the bytes
track:  db 3, 0, 0C0h, 0        ; program change 0 (piano) at once
        db 4, 0, 90h, 69, 100   ; A4 on at once
        db 4, 120, 80h, 69, 64  ; its note off 120 clocks later
        db 1, 0F8h              ; timing overflow: 240 clocks
        db 4, 0, 90h, 72, 100   ; C5 on at once
        db 3, 120, 72, 0        ; 120 clocks later: running status, velocity 0
        db 2, 0, 0FCh           ; data end
; the conductor's answers
conductor:
        db 1, 0F8h              ; timing overflow: 240 clocks
        db 3, 0, 0E0h, 60       ; tempo 60 at once
        db 2, 0, 0FCh           ; data end

track_at: dw track
cond_at:  dw conductor
logn:   dw 0
clocks: dw 0
t0:     dw 0
done:   db 0
status: db 0
old_vec: dw 0, 0
old_mask: db 0, 0
log:    times LOGMAX*3 db 0

%include "doslib.inc"
