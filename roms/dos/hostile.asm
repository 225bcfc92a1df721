; hostile.com: a guest that tries to leave drive C:'s sandbox. Each attempt
; prints one line "LABEL CODE" through DOS (AH=09h): CODE is the AX error
; code in hex when carry came back set, "0000" when the call succeeded.
; The test (dos/tests/hostile.rs) creates the symlinks LINK.TXT (to a file
; outside the mount), DANGLE.TXT (to a missing file outside) and OUTDIR
; (to a directory outside) before running it, and checks the codes and
; that nothing appeared outside the mount.
; Build: nasm -f bin -o hostile.com hostile.asm (roms/build.sh).
        cpu 8086
        org 100h

%include "report.inc"

%macro TRY_CREATE 2             ; label, path
        mov dx, %2
        mov ah, 3Ch
        xor cx, cx
        int 21h
        mov si, %1
        call report
%endmacro

%macro TRY_OPEN 3               ; label, path, mode
        mov dx, %2
        mov ax, 3D00h | %3
        int 21h
        mov si, %1
        call report
%endmacro

start:
        TRY_CREATE l_dotdot, p_dotdot
        TRY_CREATE l_rootup, p_rootup
        TRY_CREATE l_subup, p_subup
        TRY_CREATE l_abs, p_abs
        TRY_CREATE l_abs2, p_abs2
        TRY_CREATE l_long, p_long
        TRY_CREATE l_longdir, p_longdir
        TRY_CREATE l_drive, p_drive
        TRY_OPEN l_linkrd, p_link, 0
        TRY_OPEN l_linkwr, p_link, 1
        TRY_CREATE l_linkcr, p_link
        TRY_CREATE l_dangle, p_dangle
        TRY_CREATE l_outdir, p_outdir
        TRY_OPEN l_passwd, p_passwd, 0
        ; mkdir and chdir above the root
        mov dx, p_mkdir
        mov ah, 39h
        int 21h
        mov si, l_mkdir
        call report
        mov dx, p_up
        mov ah, 3Bh
        int 21h
        mov si, l_chdir
        call report
        ; rename an inside file to outside
        mov dx, p_inside
        mov ah, 3Ch
        xor cx, cx
        int 21h
        jc .skipclose
        mov bx, ax
        mov ah, 40h
        mov cx, 2
        mov dx, hi
        int 21h
        mov ah, 3Eh
        int 21h
.skipclose:
        mov dx, p_inside
        mov di, p_dotdot
        push ds
        pop es
        mov ah, 56h
        int 21h
        mov si, l_rename
        call report
        ; delete through the link
        mov dx, p_link
        mov ah, 41h
        int 21h
        mov si, l_delete
        call report
        ; devices
        TRY_OPEN l_nul, p_nul, 1
        TRY_OPEN l_con, p_con, 1
        ; a legitimate file inside
        TRY_CREATE l_inside, p_inside2
        mov ax, 4C00h
        int 21h

; Prints the label at SI, a space, and the result code (AX on carry, else
; 0), then CR LF. Closes a handle the call opened.
report:
        pushf
        mov bx, ax
        mov dx, si
        mov ah, 9
        int 21h
        popf
        jc .err
        ; success: close the handle (ignore errors for non-handles)
        mov ah, 3Eh
        int 21h
        xor bx, bx
.err:
        mov ax, bx
        HEX4
        mov dx, crlf
        mov ah, 9
        int 21h
        ret

crlf    db 13, 10, '$'
hi      db 'hi'
l_dotdot  db 'DOTDOT $'
l_rootup  db 'ROOTUP $'
l_subup   db 'SUBUP $'
l_abs     db 'ABSPATH $'
l_abs2    db 'ABSPATH2 $'
l_long    db 'LONGNAME $'
l_longdir db 'LONGDIR $'
l_drive   db 'DRIVE $'
l_linkrd  db 'LINKREAD $'
l_linkwr  db 'LINKWRITE $'
l_linkcr  db 'LINKCREATE $'
l_dangle  db 'DANGLE $'
l_outdir  db 'OUTDIR $'
l_passwd  db 'PASSWD $'
l_mkdir   db 'MKDIR $'
l_chdir   db 'CHDIR $'
l_rename  db 'RENAME $'
l_delete  db 'DELETE $'
l_nul     db 'NUL $'
l_con     db 'CON $'
l_inside  db 'INSIDE $'
p_dotdot  db '..\..\ESCAPED1.TXT', 0
p_rootup  db 'C:\..\..\ESCAPED2.TXT', 0
p_subup   db 'SUB\..\..\ESCAPED3.TXT', 0
p_abs     db '/tmp/ESCAPED4.TXT', 0
p_abs2    db '\\?\C:\ESCAPED5.TXT', 0
p_long    db 'AVERYLONGFILENAME.TXT', 0
p_longdir db 'ABCDEFGHIJKLMNOPQRSTUVWXYZ\X.TXT', 0
p_drive   db 'D:\ESCAPED6.TXT', 0
p_link    db 'LINK.TXT', 0
p_dangle  db 'DANGLE.TXT', 0
p_outdir  db 'OUTDIR\ESCAPED7.TXT', 0
p_passwd  db '\..\..\..\..\ETC\PASSWD', 0
p_mkdir   db '..\ESCDIR', 0
p_up      db '..', 0
p_inside  db 'MOVE.TXT', 0
p_nul     db 'NUL', 0
p_con     db 'CON', 0
p_inside2 db 'INSIDE.TXT', 0
