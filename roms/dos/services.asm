; services.com: exercises DOS and BIOS services and prints "OK name" or
; "FAIL name" for each check (dos/tests/services.rs runs it on the 386
; model with HELLO.COM beside it, XMS and EMS on).
        cpu 386
        org 100h

%include "report.inc"

%macro CHECK 1                  ; jump target on failure is .fail_%1
%endmacro

start:
        mov sp, stack_top
        ; Shrink our block to 8 KiB (what a program does before EXEC).
        mov ah, 4Ah
        mov bx, 200h
        int 21h
        mov si, n_shrink
        call result

; --- version, date, time
        mov ah, 30h
        int 21h
        cmp ax, 0005h
        mov si, n_version
        call result_z
        mov ah, 2Ah
        int 21h
        cmp cx, 1994
        jne .d
        cmp dx, 0601h
.d:     mov si, n_date
        call result_z
        mov ah, 2Ch
        int 21h
        cmp ch, 8
        mov si, n_time
        call result_z

; --- memory: allocate, fail with the largest size, free
        mov ah, 48h
        mov bx, 100h
        int 21h
        jc .m_fail
        mov [seg1], ax
        mov ah, 48h
        mov bx, 0FFFFh
        int 21h
        jnc .m_fail
        cmp ax, 8
        jne .m_fail
        cmp bx, 1000h           ; hundreds of KiB remain
        jb .m_fail
        mov es, [seg1]
        mov ah, 49h
        int 21h
        jc .m_fail
        push cs
        pop es
        clc
        jmp .m_done
.m_fail: stc
.m_done: mov si, n_memory
        call result

; --- files: create, write, seek, read back, time, delete
        mov ah, 3Ch
        xor cx, cx
        mov dx, f_test
        int 21h
        jc .f_fail
        mov bx, ax
        mov ah, 40h
        mov cx, 10
        mov dx, pattern
        int 21h
        jc .f_fail
        cmp ax, 10
        jne .f_fail
        mov ax, 4202h           ; seek to end: DX:AX = 10
        xor cx, cx
        xor dx, dx
        int 21h
        cmp ax, 10
        jne .f_fail
        mov ax, 4200h
        xor cx, cx
        mov dx, 3
        int 21h
        mov ah, 3Fh
        mov cx, 20
        mov dx, buffer
        int 21h
        cmp ax, 7
        jne .f_fail
        mov al, [buffer]
        cmp al, [pattern + 3]
        jne .f_fail
        mov ax, 5700h
        int 21h
        jc .f_fail
        mov ah, 3Eh
        int 21h
        jc .f_fail
        mov ah, 41h
        mov dx, f_test
        int 21h
        jc .f_fail
        mov ax, 3D00h           ; gone
        mov dx, f_test
        int 21h
        jnc .f_fail
        cmp ax, 2
        jne .f_fail
        clc
        jmp .f_done
.f_fail: stc
.f_done: mov si, n_files
        call result

; --- find first/next over two files
        mov dx, f_a
        call touch
        mov dx, f_b
        call touch
        mov ah, 1Ah
        mov dx, dta
        int 21h
        mov ah, 4Eh
        xor cx, cx
        mov dx, f_pat
        int 21h
        jc .s_fail
        cmp word [dta + 1Eh], 'A.'
        jne .s_fail
        mov ah, 4Fh
        int 21h
        jc .s_fail
        cmp word [dta + 1Eh], 'B.'
        jne .s_fail
        mov ah, 4Fh
        int 21h
        jnc .s_fail
        cmp ax, 18
        jne .s_fail
        clc
        jmp .s_done
.s_fail: stc
.s_done: mov si, n_find
        call result

; --- directories
        mov ah, 39h
        mov dx, d_sub
        int 21h
        jc .dir_fail
        mov ah, 3Bh
        int 21h
        jc .dir_fail
        mov ah, 47h
        xor dl, dl
        mov si, buffer
        int 21h
        cmp dword [buffer], 'SUBD'
        jne .dir_fail
        mov ah, 3Bh
        mov dx, d_up
        int 21h
        jc .dir_fail
        mov ah, 3Ah
        mov dx, d_sub
        int 21h
        jc .dir_fail
        clc
        jmp .dir_done
.dir_fail: stc
.dir_done: mov si, n_dirs
        call result

; --- a hooked INT 21h that chains with pushf; call far reaches DOS
        mov ax, 3521h
        int 21h
        mov [old21], bx
        mov [old21 + 2], es
        mov ax, 2521h
        mov dx, hook21
        int 21h
        mov ah, 30h
        int 21h
        push ax
        push ds
        lds dx, [old21]
        mov ax, 2521h
        int 21h
        pop ds
        pop ax
        cmp al, 5
        jne .h_fail
        cmp word [count21], 2    ; AH=30h and the restoring 2521h
        jne .h_fail
        clc
        jmp .h_done
.h_fail: stc
.h_done: mov si, n_hook21
        call result

; --- the timer: a hooked INT 1Ch runs on each tick, 40:6C counts
        mov ax, 351Ch
        int 21h
        mov [old1c], bx
        mov [old1c + 2], es
        mov ax, 251Ch
        mov dx, hook1c
        int 21h
        xor ax, ax
        mov es, ax
        mov bx, [es:46Ch]
        sti
.t_wait: hlt
        mov ax, [es:46Ch]
        sub ax, bx
        cmp ax, 3
        jb .t_wait
        push ds
        lds dx, [old1c]
        mov ax, 251Ch
        int 21h
        pop ds
        push cs
        pop es
        cmp word [count1c], 3
        mov si, n_tick
        call result_ae

; --- XMS: version, allocate, move there and back, free
        mov ax, 4300h
        int 2Fh
        cmp al, 80h
        jne .x_fail
        mov ax, 4310h
        int 2Fh
        mov [xms], bx
        mov [xms + 2], es
        push cs
        pop es
        mov ah, 0
        call far [xms]
        cmp ax, 0300h
        jne .x_fail
        mov ah, 9
        mov dx, 64
        call far [xms]
        cmp ax, 1
        jne .x_fail
        mov [xh], dx
        ; conventional pattern -> XMS offset 100h
        mov word [mv_len], 10
        mov word [mv_sh], 0
        mov word [mv_so], pattern
        mov [mv_so + 2], ds
        mov [mv_dh], dx
        mov word [mv_do], 100h
        mov word [mv_do + 2], 0
        mov ah, 0Bh
        mov si, mv
        call far [xms]
        cmp ax, 1
        jne .x_fail
        ; XMS offset 100h -> buffer
        mov ax, [xh]
        mov [mv_sh], ax
        mov word [mv_so], 100h
        mov word [mv_so + 2], 0
        mov word [mv_dh], 0
        mov word [mv_do], buffer + 32
        mov [mv_do + 2], ds
        mov ah, 0Bh
        mov si, mv
        call far [xms]
        cmp ax, 1
        jne .x_fail
        mov si, pattern
        mov di, buffer + 32
        mov cx, 10
        repe cmpsb
        jne .x_fail
        mov ah, 0Ah
        mov dx, [xh]
        call far [xms]
        cmp ax, 1
        jne .x_fail
        ; A20: global enable, query, the HMA visible, disable, query
        mov ah, 03h
        call far [xms]
        mov ah, 07h
        call far [xms]
        cmp ax, 1
        jne .x_fail
        mov ax, 0FFFFh
        mov es, ax
        mov byte [es:0010h], 5Ah  ; 100000h, not 0000:0000
        xor ax, ax
        mov es, ax
        cmp byte [es:0000h], 5Ah
        je .x_fail
        mov ah, 04h
        call far [xms]
        mov ah, 07h
        call far [xms]
        cmp ax, 0
        jne .x_fail
        push cs
        pop es
        clc
        jmp .x_done
.x_fail: push cs
        pop es
        stc
.x_done: mov si, n_xms
        call result

; --- EMS: the device, the page frame, mapping two pages in turn
        mov ax, 3D00h
        mov dx, emmname
        int 21h
        jc .e_fail
        mov bx, ax
        mov ah, 3Eh
        int 21h
        mov ah, 41h
        int 67h
        cmp bx, 0E000h
        jne .e_fail
        mov ah, 43h
        mov bx, 2
        int 67h
        test ah, ah
        jnz .e_fail
        mov [eh], dx
        mov ax, 4400h           ; logical 0 -> physical 0
        xor bx, bx
        int 67h
        test ah, ah
        jnz .e_fail
        mov ax, 0E000h
        mov es, ax
        mov byte [es:0], 11h
        mov ax, 4400h           ; logical 1 -> physical 0
        mov bx, 1
        mov dx, [eh]
        int 67h
        cmp byte [es:0], 0
        jne .e_fail
        mov byte [es:0], 22h
        mov ax, 4400h
        xor bx, bx
        mov dx, [eh]
        int 67h
        cmp byte [es:0], 11h
        jne .e_fail
        mov ah, 45h
        mov dx, [eh]
        int 67h
        test ah, ah
        jnz .e_fail
        push cs
        pop es
        clc
        jmp .e_done
.e_fail: push cs
        pop es
        stc
.e_done: mov si, n_ems
        call result

; --- EXEC HELLO.COM with a tail; its return code through 4Dh
        mov [pb_tail + 2], ds
        mov ax, 4B00h
        mov dx, f_hello
        mov bx, pblock
        int 21h
        jc .x2_fail
        mov ah, 4Dh
        int 21h
        cmp ax, 0007h
        jne .x2_fail
        clc
        jmp .x2_done
.x2_fail: stc
.x2_done: mov si, n_exec
        call result

; --- video: mode 03h through INT 10h, teletype, cursor
        mov ax, 0003h
        int 10h
        mov ah, 0Fh
        int 10h
        cmp al, 3
        jne .v_fail
        cmp ah, 80
        jne .v_fail
        mov ah, 2
        xor bh, bh
        mov dx, 0A05h           ; row 10, column 5
        int 10h
        mov ax, 0E58h           ; 'X'
        int 10h
        mov ah, 3
        int 10h
        cmp dx, 0A06h
        jne .v_fail
        clc
        jmp .v_done
.v_fail: stc
.v_done: mov si, n_video
        call result

        mov ax, 4C00h
        int 21h

; Creates an empty file named at DX.
touch:
        mov ah, 3Ch
        xor cx, cx
        int 21h
        mov bx, ax
        mov ah, 3Eh
        int 21h
        ret

hook21:
        inc word [cs:count21]
        pushf
        call far [cs:old21]
        iret

hook1c:
        inc word [cs:count1c]
        iret

; Prints "OK " or "FAIL " (from CF) and the name at SI, then CR LF.
result_z:
        jz .ok
        stc
        jmp result
.ok:    clc
        jmp result
result_ae:
        jae .ok
        stc
        jmp result
.ok:    clc
        RESULT_ROUTINE
n_shrink  db 'shrink$'
n_version db 'version$'
n_date    db 'date$'
n_time    db 'time$'
n_memory  db 'memory$'
n_files   db 'files$'
n_find    db 'find$'
n_dirs    db 'dirs$'
n_hook21  db 'hook21$'
n_tick    db 'tick$'
n_xms     db 'xms$'
n_ems     db 'ems$'
n_exec    db 'exec$'
n_video   db 'video$'
f_test  db 'TEST.DAT', 0
f_a     db 'A.TXT', 0
f_b     db 'B.TXT', 0
f_pat   db '*.TXT', 0
f_hello db 'HELLO.COM', 0
d_sub   db 'SUBD', 0
d_up    db '..', 0
emmname db 'EMMXXXX0', 0
pattern db '0123456789'
tail    db 2, ' x', 13
pblock  dw 0
pb_tail dw tail, 0
        dd -1, -1
old21   dd 0
old1c   dd 0
count21 dw 0
count1c dw 0
seg1    dw 0
xms     dd 0
xh      dw 0
eh      dw 0
mv:
mv_len  dd 0
mv_sh   dw 0
mv_so   dd 0
mv_dh   dw 0
mv_do   dd 0
dta     times 43 db 0
buffer  times 64 db 0
        times 256 db 0
stack_top:
