; cdtest.com: an MSCDEX client. Checks MSCDEX (INT 2Fh 1500h, 150Bh,
; 150Ch), reads D:\DOCS\README.TXT through INT 21h and prints it, tries to
; create a file on D: (access denied), then reads the disc's track list
; (IOCTL input 10 and 11 through 1510h) and, at the first BIOS tick at or
; after tick 18 of its run (about one second), plays the last track (the
; audio one) for 2 seconds (PLAY AUDIO, Red Book addressing). 1.48 s
; later it reads the Q channel and the audio status; after the play it
; stops twice and prints the audio status again. Between the file and the
; tracks it lists D:\DOCS (find first/next), makes D: current with DOCS its
; directory and opens README.TXT by its bare name. Every line is
; "name value" for the test (frontend/tests/cdrom.rs).
%include "report.inc"
        cpu 8086
        org 100h
        xor ax, ax
        mov es, ax
        mov ax, [es:046Ch]
        mov [t0], ax
        push cs
        pop es
        mov ax, 1500h           ; MSCDEX: drives, first letter
        xor bx, bx
        int 2Fh
        mov [drive], cx
        mov si, s_drives
        mov ax, bx
        call line
        mov si, s_first
        mov ax, [drive]
        call line
        mov ax, 150Bh           ; drive check: BX = ADADh, AX nonzero
        mov cx, [drive]
        int 2Fh
        mov si, s_check
        mov ax, bx
        call line
        mov ax, 150Ch           ; version
        int 2Fh
        mov si, s_version
        mov ax, bx
        call line
        ; The file through INT 21h.
        mov ax, 3D00h
        mov dx, fname
        int 21h
        jc fail
        mov bx, ax
        mov ah, 3Fh
        mov cx, 200
        mov dx, buf
        int 21h
        jc fail
        mov cx, ax
        push bx
        mov ah, 40h
        mov bx, 1
        mov dx, buf
        int 21h
        pop bx
        mov ah, 3Eh
        int 21h
        mov ah, 3Ch             ; create on D: must fail
        xor cx, cx
        mov dx, newname
        int 21h
        sbb bx, bx              ; BX = FFFFh when CF
        and ax, bx
        mov si, s_create
        call line
        ; The directory through find first/next (directories too).
        mov ah, 1Ah
        mov dx, dta
        int 21h
        xor di, di
        mov ah, 4Eh
        mov cx, 10h
        mov dx, pattern
        int 21h
.more:  jc .listed
        inc di
        mov ah, 4Fh
        int 21h
        jmp .more
.listed: mov si, s_listed
        mov ax, di
        call line
        ; D: as the current drive, DOCS its current directory: the file
        ; by its bare name.
        mov ah, 3Bh
        mov dx, docs
        int 21h
        mov ah, 0Eh
        mov dl, 3
        int 21h
        mov ah, 19h
        int 21h
        xor ah, ah
        mov si, s_curdrive
        call line
        mov ax, 3D00h
        mov dx, bare
        int 21h
        sbb bx, bx
        and ax, bx
        mov si, s_relopen
        call line
        mov ah, 0Eh
        mov dl, 2
        int 21h
        ; Audio disc info: lowest and highest track.
        mov byte [cb], 10
        mov byte [rh+2], 3
        call request
        mov si, s_tracks
        mov ax, [cb+1]
        call line
        ; Track info of the highest track (the audio one).
        mov al, [cb+2]
        mov [cb+1], al
        mov byte [cb], 11
        call request
        mov si, s_start
        mov ax, [cb+4]          ; minutes
        call line
        mov si, s_startsf
        mov ax, [cb+2]          ; seconds:frames
        call line
        mov ax, [cb+2]
        mov [play_at], ax
        mov ax, [cb+4]
        mov [play_at+2], ax
        ; Wait for tick 18.
        xor ax, ax
        mov es, ax
wait1:  mov ax, [es:046Ch]
        sub ax, [t0]
        cmp ax, 18
        jae go
        sti
        hlt
        jmp wait1
go:     push cs
        pop es
        mov byte [rh+2], 132    ; PLAY AUDIO, Red Book, 150 sectors
        mov byte [rh+13], 1
        mov ax, [play_at]
        mov [rh+14], ax
        mov ax, [play_at+2]
        mov [rh+16], ax
        mov word [rh+18], 150
        mov word [rh+20], 0
        call send
        mov si, s_play
        mov ax, [rh+3]
        call line
        mov cx, 27              ; 27 ticks (1.48 s) into the play
        call ticks
        ; Q channel.
        mov byte [rh+2], 3
        mov byte [cb], 12
        call request
        mov si, s_status
        mov ax, [rh+3]
        call line
        mov si, s_qtrack
        mov ax, [cb+2]          ; track, index (BCD)
        call line
        mov si, s_qrel
        mov ax, [cb+5]          ; relative MSF: seconds, frames
        call line
        ; Audio status while playing.
        mov byte [cb], 15
        call request
        mov si, s_paused
        mov ax, [cb+1]
        call line
        mov cx, 30              ; past the play's end
        call ticks
        mov byte [rh+2], 3
        mov byte [cb], 15
        call request
        mov si, s_after
        mov ax, [rh+3]
        call line
        mov byte [rh+2], 133    ; STOP twice: nothing is playing
        call send
        mov byte [rh+2], 136    ; RESUME: not paused, an error
        call send
        mov si, s_resume
        mov ax, [rh+3]
        call line
        mov ax, 4C00h
        int 21h
fail:   mov ax, 4C01h
        int 21h

; ticks: waits CX BIOS ticks.
ticks:  xor ax, ax
        mov es, ax
.next:  mov dx, [es:046Ch]
.idle:  sti
        hlt
        cmp dx, [es:046Ch]
        je .idle
        loop .next
        push cs
        pop es
        ret

; request: an IOCTL input request (command at rh+2) with the control
; block at cb.
request:
        mov word [rh+14], cb
        mov [rh+16], cs
        mov word [rh+18], 16
; send: the request header at rh to drive [drive] through 1510h.
send:   mov byte [rh], 26
        mov byte [rh+1], 0
        mov word [rh+3], 0
        mov ax, 1510h
        mov cx, [drive]
        mov bx, rh
        int 2Fh
        ret

; line: prints the `$` string at SI, AX in hex, CR LF.
line:   push ax
        mov dx, si
        mov ah, 9
        int 21h
        pop ax
        HEX4
        mov dx, s_crlf
        mov ah, 9
        int 21h
        ret

s_drives   db 'drives $'
s_first    db 'first $'
s_check    db 'check $'
s_version  db 'version $'
s_create   db 'create $'
s_tracks   db 'tracks $'
s_start    db 'start-min $'
s_startsf  db 'start-secframe $'
s_play     db 'play-status $'
s_status   db 'status $'
s_qtrack   db 'q-track-index $'
s_qrel     db 'q-rel-secframe $'
s_paused   db 'paused $'
s_after    db 'after-status $'
s_resume   db 'resume-status $'
s_listed   db 'listed $'
s_curdrive db 'curdrive $'
s_relopen  db 'relopen $'
s_crlf     db 13, 10, '$'
pattern    db 'D:\DOCS\*.*', 0
docs       db 'D:\DOCS', 0
bare       db 'README.TXT', 0
dta        times 43 db 0
fname      db 'D:\DOCS\README.TXT', 0
newname    db 'D:\NEW.TXT', 0
t0         dw 0
drive      dw 0
play_at    dd 0
rh         times 32 db 0
cb         times 16 db 0
buf        times 200 db 0
