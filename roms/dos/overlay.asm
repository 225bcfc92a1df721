; overlay.com: INT 21h 4B03h. Shrinks its block, allocates 4 KiB, loads
; OVL.EXE (made by dos/tests/loader_rules.rs) there as an overlay with the
; block's segment as relocation factor and calls it far at offset 0. The
; overlay prints its message through a relocated segment and returns.
; Exit 0 after the call, 1 if the allocation or the load failed.
        cpu 8086
        org 100h

start:
        mov ah, 4Ah
        mov bx, 1000h
        int 21h
        mov ah, 48h
        mov bx, 100h
        int 21h
        jc fail
        mov [block], ax
        mov [block+2], ax
        mov [entry+2], ax
        mov ax, 4B03h
        mov dx, name
        mov bx, block
        int 21h
        jc fail
        call far [entry]
        mov ax, 4C00h
        int 21h
fail:   mov ax, 4C01h
        int 21h

name:   db 'OVL.EXE', 0
block:  dw 0, 0                 ; load segment, relocation factor
entry:  dw 0, 0                 ; offset 0, the block's segment
