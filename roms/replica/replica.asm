; The replica: our own DOS program that implements the target game's known
; routines at the game's offsets (shared/design/target-game-facts.md), so
; that every golden-master path can be tested without the copyrighted game.
;
; It is an MZ executable with two segments:
;   CODE  the main code segment. The game keeps its timer counter, snapshot,
;         sine table and amplitude bytes here, so do we (CS-relative data).
;   DATA  the data group; SS = DS = DATA; the parameter table lives at
;         SS:PARAMS (256 signed words).
;
; Build (roms/replica/build.sh):
;   nasm -f bin -o replica.exe replica.asm                  (retail layout)
;   nasm -f bin -DDEMO -o replica-demo.exe replica.asm      (demo layout)
;
; Behaviour: sets mode 13h, hooks IRQ0 (INT 08h) with the handler at
; IRQ0_HANDLER, programs the PIT through the game's setup fragment (divisor
; 2,386: about 500 Hz), and runs a frame loop paced by vertical retrace:
; frame update (elapsed timer units), fountain, landing; draws six fountain
; bars from the six parameters and a gate whose opening follows the landing
; parameter. Esc quits; P pauses the clock by patching the ADD's immediate
; to 0 (and back to 1). On exit it restores the PIT, INT 08h and text mode.
;
; Offsets marked (facts) are the game's; the others are our choices and are
; listed in models/profiles/replica*.toml.

        cpu 386

%ifdef DEMO
; The 1995 demo: routine 4696, clock 178C, heights at SS:6292 (slots 5-10),
; sine table at 7906, amplitude bytes at 46E6 (facts).
%define TIMER_SETUP     0x0300
%define DIVISOR         0x0340
%define PIT_HELPER      0x0350
%define DRAW_CODE       0x0400
%define IRQ0_VARS       0x1770
%define IRQ0_HANDLER    0x177E          ; so that its snapshot word is 178C
%define FRAME_UPDATE    0x1900
%define LANDING_START   0x1A00
%define LANDING_UPDATE  0x1A07
%define PARAM_LOOKUP    0x2000
%define STATE_SELECT    0x2100
%define FOUNTAIN        0x4696          ; (facts) 4696-46E5
%define AMPS            0x46E6          ; (facts)
%define SINE            0x7906          ; (facts)
%define PARAMS          0x6288          ; slot 5 is SS:6292 (facts)
%define FIRST_SLOT      5               ; (facts) slots 5-10
%define INTERP          0x2400
%define EMIT            0x2700
%define PROJ            0x2740
%define CODE_SIZE       0x8200
%else
%define TIMER_SETUP     0x0321          ; (facts)
%define DIVISOR         0x1774          ; (facts) value 0952h
%define PIT_HELPER      0x1838          ; (facts)
%define DRAW_CODE       0x0400
%define IRQ0_VARS       0x0BE0
%define IRQ0_HANDLER    0x0BEA          ; (facts)
%define FRAME_UPDATE    0xB0CE          ; (facts) B0CE-B0D8
%define LANDING_START   0xC64F
%define LANDING_UPDATE  0xC656          ; (facts) C656-C66E
%define PARAM_LOOKUP    0x3300
%define STATE_SELECT    0x2F00
%define FOUNTAIN        0xDB1A          ; (facts) DB1A-DB69
%define AMPS            0xDB6A
%define SINE            0x944A          ; (facts)
%define PARAMS          0x7935          ; (facts) SS:7935
%define FIRST_SLOT      9               ; (facts) slots 9-14
%define INTERP          0x4000
%define EMIT            0x4300
%define PROJ            0x4340
%define CODE_SIZE       0xDC00
%endif
; The data image: everything up to the end of the parameter table.
%define DATA_SIZE       ((PARAMS + 512 + 15) & ~15)

; Derived addresses inside the IRQ0 handler (the facts' 0BF0/0BF4/0BF8 for
; the retail layout): the counter is the immediate of a MOV AX, the step the
; immediate of an ADD AX (self-modifying), the snapshot a data word.
%define COUNTER         (IRQ0_HANDLER + 6)
%define STEP_IMM        (IRQ0_HANDLER + 10)
%define SNAPSHOT        (IRQ0_HANDLER + 14)
%define ENABLE          (IRQ0_VARS + 0)         ; byte: 1 = the clock runs
%define STEP_LIMIT      (IRQ0_VARS + 2)         ; word: max counter - snapshot

%define LANDING_SLOT    20
%define FOUNTAIN_PARAMS (PARAMS + 2 * FIRST_SLOT)
%define LANDING_PARAM   (PARAMS + 2 * LANDING_SLOT)
%define CAP             0xE800                  ; (facts) landing cap

%define BANKS           0x1000                  ; DATA: bank table
%define DEFS            0x2000                  ; DATA: drawing definitions
%define NDEFS           5
%define VERTS           0x3000                  ; DATA: emitted vertices
%define STACK_TOP       0xFFFE

; Places the next byte at code offset %1 (zero fill); an error if the code
; before it has grown past it.
%macro AT 1
%if %1 < ($ - $$)
%error "layout: code runs past %1"
%endif
        times (%1) - ($ - $$) db 0
%endmacro

; ---------------------------------------------------------------------------
; MZ header (32 bytes: the fixed part and one relocation).
; ---------------------------------------------------------------------------
        section header start=0
mz:     db 'MZ'
        dw file_size % 512                      ; bytes in the last page
        dw (file_size + 511) / 512              ; pages
        dw 1                                    ; relocations
        dw 2                                    ; header paragraphs
        dw 0x1000                               ; minalloc: 64 KiB for DATA
        dw 0xFFFF                               ; maxalloc
        dw data_para                            ; SS (relative)
        dw STACK_TOP                            ; SP
        dw 0                                    ; checksum
        dw start                                ; IP
        dw 0                                    ; CS (relative)
        dw 0x1C                                 ; relocation table
        dw 0                                    ; overlay
        dw reloc_data + 1, 0                    ; the DATA segment in start
        align 16, db 0

file_size  equ 32 + CODE_SIZE + DATA_SIZE
data_para  equ CODE_SIZE / 16

; ---------------------------------------------------------------------------
; CODE
; ---------------------------------------------------------------------------
        section code follows=header vstart=0 align=16

        AT 0x0100
start:
reloc_data:
        mov ax, data_para                       ; relocated: DATA
        mov ds, ax
        mov [psp], es
        ; Save INT 08h and point it at the game's handler.
        mov ax, 0x3508
        int 0x21
        mov [old08], bx
        mov [old08 + 2], es
        push ds
        push cs
        pop ds
        mov dx, IRQ0_HANDLER
        mov ax, 0x2508
        int 0x21
        pop ds
        ; The clock: counter = snapshot = 0, step 1, enabled, limit 2048.
        mov word [cs:COUNTER], 0
        mov word [cs:SNAPSHOT], 0
        mov word [cs:STEP_IMM], 1
        mov word [cs:STEP_LIMIT], 2048
        mov byte [cs:ENABLE], 1
        cli
        call TIMER_SETUP                        ; PIT channel 0: 2,386
        sti
        mov ax, 0x0013                          ; mode 13h
        int 0x10
        call cpu_check
        call LANDING_START
.frame:
        call wait_retrace
        call FRAME_UPDATE                       ; AX = elapsed units
        mov cx, ax
        call LANDING_UPDATE
        call FOUNTAIN
        call draw_fountain
        call draw_gate
        cmp byte [is386], 0                     ; the interpreter is 386 code
        je .keys
        call draw_models
.keys:
        mov ah, 0x01                            ; key waiting?
        int 0x16
        jz .frame
        xor ah, ah
        int 0x16
        cmp ah, 0x01                            ; Esc
        je .quit
        cmp ah, 0x19                            ; P: pause / resume
        jne .frame
        xor word [cs:STEP_IMM], 1
        jmp .frame
.quit:
        cli
        mov al, 0x36                            ; PIT back to 18.2 Hz
        out 0x43, al
        xor al, al
        out 0x40, al
        out 0x40, al
        sti
        push ds
        lds dx, [old08]
        mov ax, 0x2508
        int 0x21
        pop ds
        mov ax, 0x0003
        int 0x10
        mov ax, 0x4C00
        int 0x21

; Sets is386 when the CPU is a 386 or later (FLAGS bits 12-15 are always
; set on an 8086 and always clear in real mode on a 286): the drawing
; interpreter, as the game's, is 386 code.
cpu_check:
        pushf                                   ; restored at the end
        pushf
        pop ax
        and ax, 0x0FFF
        push ax
        popf
        pushf
        pop ax
        and ax, 0xF000
        cmp ax, 0xF000
        je .no                                  ; 8086/8088
        or ax, 0x7000
        push ax
        popf
        pushf
        pop ax
        test ax, 0x7000
        jz .no                                  ; 286
        mov byte [is386], 1
.no:    popf
        ret

; Runs the drawing interpreter over every definition in both projections
; with cell state 0 (the parameter table as the frame left it); the
; vertices land in VERTS (nothing is drawn: the screen stays the bars').
draw_models:
        xor bp, bp                              ; definition
.def:   xor di, di                              ; projection
.proj:  mov bx, bp
        mov ax, di                              ; AL = projection, AH = cell 0
        call INTERP
        inc di
        cmp di, 2
        jb .proj
        inc bp
        cmp bp, NDEFS
        jb .def
        ret

; Waits for the start of the next vertical retrace (3DAh bit 3).
wait_retrace:
        mov dx, 0x3DA
.in:    in al, dx
        test al, 8
        jnz .in
.out:   in al, dx
        test al, 8
        jz .out
        ret


; ---------------------------------------------------------------------------
; Routine bodies (placed per layout below).
; ---------------------------------------------------------------------------

; (facts) Loads DX from the divisor word and calls the PIT helper.
%macro TIMER_SETUP_BODY 0
timer_setup:
        mov dx, [cs:DIVISOR]
        call PIT_HELPER
        ret
%endmacro

%macro DIVISOR_BODY 0
        dw 0x0952                               ; (facts) 2,386
%endmacro

; (facts) PIT channel 0: lo/hi access, mode 3, divisor DX.
%macro PIT_HELPER_BODY 0
pit_helper:
        mov al, 0x36
        out 0x43, al
        mov al, dl
        out 0x40, al
        mov al, dh
        out 0x40, al
        ret
%endmacro

%macro DRAW_BODY 0
; Six bars, one per fountain parameter: bar k at x = 100 + 20k, 14 pixels
; wide, rising from y = 190 by -param / 4 pixels (the -384 baseline is 96),
; drawn over rows 10-189 so that each frame repaints the whole column.
draw_fountain:
        push es
        push bp
        mov ax, 0xA000
        mov es, ax
        xor bx, bx                              ; 2 * band
.bar:   mov ax, [FOUNTAIN_PARAMS + bx]
        neg ax
        sar ax, 1
        sar ax, 1
        cmp ax, 0
        jge .pos
        xor ax, ax
.pos:   cmp ax, 180
        jle .fit
        mov ax, 180
.fit:   mov si, 190
        sub si, ax                              ; first lit row
        mov ax, bx
        mov cx, 10
        mul cx
        add ax, 100
        mov bp, ax                              ; x
        mov dl, bl
        shl dl, 1
        shl dl, 1
        add dl, 32                              ; colour 32 + 8k
        mov cx, 10                              ; y
.row:   mov ax, cx
        push dx
        mov di, 320
        mul di
        pop dx
        add ax, bp
        mov di, ax
        mov al, dl
        cmp cx, si
        jge .lit
        xor al, al
.lit:   push cx
        mov cx, 14
        rep stosb
        pop cx
        inc cx
        cmp cx, 190
        jb .row
        add bx, 2
        cmp bx, 12
        jb .bar
        pop bp
        pop es
        ret

; The gate: a grey block x 20..79, y 60..139 with a black opening of
; ((param >> 1) * 60) >> 15 pixels centred at x = 50: the game's factor
; (uint16(param) >> 1) / 32768 applied to a 60-pixel door.
draw_gate:
        push es
        mov ax, 0xA000
        mov es, ax
        mov ax, [LANDING_PARAM]
        shr ax, 1
        mov cx, 60
        mul cx                                  ; DX:AX = (p >> 1) * 60
        shl dx, 1
        rol ax, 1
        and ax, 1
        or dx, ax                               ; opening, 0..59
        mov bx, dx
        mov ax, 60                              ; rows 60..139
.row:   push ax
        mov cx, 320
        mul cx
        add ax, 20
        mov di, ax
        mov cx, 60
        mov al, 7
        rep stosb                               ; the block
        sub di, 30                              ; x = 50
        mov ax, bx
        shr ax, 1
        sub di, ax
        mov cx, bx
        xor al, al
        rep stosb                               ; the opening
        pop ax
        inc ax
        cmp ax, 140
        jb .row
        pop es
        ret
%endmacro

; (facts) The IRQ0 handler. The counter lives in the immediate of MOV AX
; (COUNTER), the step in the immediate of ADD AX (STEP_IMM, patched by the
; game, and by P here); SNAPSHOT is the word the game logic reads. The new
; count is stored while ENABLE is set and while it is at most STEP_LIMIT
; units ahead of the snapshot.
%macro IRQ0_BODY 0
        db 1, 0                                 ; ENABLE
        dw 2048                                 ; STEP_LIMIT
        AT IRQ0_HANDLER
irq0:
        push ax                                 ; +0
        push ds                                 ; +1
        push cs                                 ; +2
        pop ds                                  ; +3
        nop                                     ; +4
        db 0xB8                                 ; +5  mov ax, imm16
        dw 0                                    ; +6  COUNTER
        nop                                     ; +8
        db 0x05                                 ; +9  add ax, imm16
        dw 1                                    ; +10 STEP_IMM
        jmp short .body                         ; +12
        dw 0                                    ; +14 SNAPSHOT
.body:  cmp byte [ENABLE], 0
        je .done
        push bx
        mov bx, ax
        sub bx, [SNAPSHOT]
        cmp bx, [STEP_LIMIT]
        pop bx
        ja .done
        mov [COUNTER], ax
.done:  mov al, 0x20
        out 0x20, al
        pop ds
        pop ax
        iret
%endmacro

; (facts) The per-frame update: AX = counter - snapshot (timer units since
; the last frame), then the snapshot advances by AX.
%macro FRAME_UPDATE_BODY 0
frame_update:
        mov ax, [cs:COUNTER]
        sub ax, [cs:SNAPSHOT]
        add [cs:SNAPSHOT], ax
        ret
%endmacro

; (facts) Landing: the parameter is written as 0 when the landing starts,
; then each update adds step << 6 (CX = step) and caps it at E800h.
%macro LANDING_BODY 0
landing_start:
        mov word [LANDING_PARAM], 0
        ret
        AT LANDING_UPDATE
landing_update:
        cmp cx, CAP >> 6                        ; a step this large caps
        jae .cap
        mov ax, cx
        mov cl, 6
        shl ax, cl
        add ax, [LANDING_PARAM]
        jc .cap
        cmp ax, CAP
        jbe .store
.cap:   mov ax, CAP
.store: mov [LANDING_PARAM], ax
        ret
%endmacro

; (facts) Parameter lookup: AX = table[((cell_state & 31) + index) & 255]
; with AL = cell state, BL = index (DS = the data group).
%macro LOOKUP_BODY 0
param_lookup:
        and al, 31
        add al, bl
        xor ah, ah
        mov bx, ax
        shl bx, 1
        mov ax, [PARAMS + bx]
        ret
%endmacro

; (facts) Model state selection: SI = a city-model header (DS), AL = state,
; AH = bank (30, 31, 32). If state & 80h, follow the alternate link (+2);
; then follow the damage link (+0) (state & mask) >> 5 times, mask 20h for
; bank 30 and 60h for banks 31 and 32. Links are relative to the header.
; Returns SI = the selected header.
%macro SELECT_BODY 0
state_select:
        push cx
        mov ch, 0x20
        cmp ah, 30
        je .mask
        mov ch, 0x60
.mask:  and ch, al
        test al, 0x80
        jz .damage
        add si, [si + 2]
.damage:
        mov cl, 5
        shr ch, cl
        jz .done
.next:  add si, [si]
        dec ch
        jnz .next
.done:  pop cx
        ret
%endmacro

%macro SINE_BODY 0
%include "sine.inc"
%endmacro

; (facts) The fountain (model types 120-123): six parameters from the clock
; word SNAPSHOT, the sine table SINE and the seven amplitude bytes AMPS.
;  1. all six = -384 (FE80h);
;  2. phase = ((clock << 5) & FFFFh) * 6, 32 bits;
;  3. band = phase >> 16; i = (phase & FFFFh) >> 7; s = sine[i];
;  4. param[band] += floor(amp[band] * s / 65536);
;  5. param[(band + 1) mod 6] -= floor(2 * amp[band + 1] * s / 65536).
%macro FOUNTAIN_BODY 0
; Clobbers AX, BX, CX, DX, SI, DI and ES (as the game's routine may; the
; frame loop keeps nothing in them). 186+ shifts, like the 386 original.
fountain:
        push ds
        pop es
        mov di, FOUNTAIN_PARAMS
        mov ax, 0xFE80
        mov cx, 6
        rep stosw                               ; 1. all six = -384
        mov ax, [cs:SNAPSHOT]
        shl ax, 5
        mov cl, 6
        mul cx                                  ; 2. DX:AX = phase
        mov bx, dx                              ; 3. band
        mov si, ax
        shr si, 7
        shl si, 1
        mov si, [cs:SINE + si]                  ;    s
        mov cx, [cs:AMPS + bx]                  ; CL = amp, CH = next amp
        mov al, cl
        xor ah, ah
        imul si                                 ; 4. DX = floor(amp s / 65536)
        mov di, bx
        shl di, 1
        add [FOUNTAIN_PARAMS + di], dx
        mov al, ch
        xor ah, ah
        shl ax, 1
        imul si                                 ; 5. DX = floor(2 amp' s / 65536)
        inc di
        inc di
        cmp di, 12
        jb .wrap
        xor di, di
.wrap:  sub [FOUNTAIN_PARAMS + di], dx
        ret
        AT AMPS
        db 118, 154, 136, 112, 85, 60, 118      ; (facts)
%endmacro


; The drawing interpreter (FCxx commands). Ours, built from the facts:
; command 35 sets the anchor to the current point and 38 emits a NEW vertex
; anchor + (current - anchor) * factor with factor = (uint16(param) >> 1) /
; 32768 (facts), in the native form: each axis (current - anchor) * (param
; >> 1) as a 32-bit product, shifted right 15 (floor), added to the anchor;
; 3B replaces the vertical axis's projected contribution with the signed
; parameter C times the vertical coefficient, as the height Y = -C (facts:
; negative C is above the origin); parameters are read as
; table[((cell_state & 31) + index) & 255] (facts). Ours: 31 sets the
; current point and emits it, 32 sets it without emitting, 33 emits it, FF
; ends; the projection is identity-axis (screen x from model X or Z, screen
; y from model Y, upwards), each contribution rounded on its own as
; (value * coefficient + 2000h) >> 14 (Q14 coefficients).
;
; In: BX = definition number, AL = projection (0, 1), AH = cell state,
; DS = the data group. Each vertex goes through EMIT with AX = screen x,
; BX = screen y, CX = its number, DL = the command. Out: CX = vertices.
%macro INTERP_BODY 0
draw:
        push si
        push di
        push bp
        mov [cs:d_cell], ah
        xor ah, ah
        imul di, ax, 10
        add di, PROJ
        mov [cs:d_proj], di
        shl bx, 1
        mov si, [DEFS + bx]
        mov word [cs:d_count], 0
        mov word [cs:d_xc], 0
        mov word [cs:d_yc], 0
.next:  lodsw
        cmp al, 0xFC
        jne .end
        cmp ah, 0x31
        je .vertex
        cmp ah, 0x32
        je .move
        cmp ah, 0x33
        je .emit
        cmp ah, 0x35
        je .anchor
        cmp ah, 0x38
        je .gate
        cmp ah, 0x3B
        je .height
.end:   mov cx, [cs:d_count]
        pop bp
        pop di
        pop si
        ret
.vertex:
        call .point
        mov dl, 0x31
        jmp .out
.move:  call .point
        jmp .next
.emit:  mov dl, 0x33
.out:   mov ax, [cs:d_xc]
        mov bx, [cs:d_yc]
        call .screen
        jmp .next
.anchor:
        mov eax, [cs:d_cur]
        mov [cs:d_anch], eax
        mov ax, [cs:d_cur + 4]
        mov [cs:d_anch + 4], ax
        jmp .next
.gate:  lodsb
        call .param
        shr ax, 1                               ; (facts) uint16(param) >> 1
        movzx ebp, ax
        xor bx, bx
.axis:  movsx eax, word [cs:d_cur + bx]
        movsx edx, word [cs:d_anch + bx]
        sub eax, edx
        imul eax, ebp
        sar eax, 15
        add ax, dx
        mov [cs:d_gate + bx], ax
        add bx, 2
        cmp bx, 6
        jb .axis
        mov di, [cs:d_proj]
        mov bx, [cs:di]                         ; the axis screen x comes from
        mov ax, [cs:d_gate + bx]
        mov cx, [cs:di + 2]
        call .contrib
        push ax
        mov ax, [cs:d_gate + 2]
        mov cx, [cs:di + 4]
        call .contrib
        mov bx, ax
        pop ax
        mov dl, 0x38
        call .screen
        jmp .next
.height:
        lodsb
        call .param
        mov di, [cs:d_proj]
        mov cx, [cs:di + 4]
        movsx eax, ax
        neg eax                                 ; (facts) Y = -C: negative is up
        call .contrib32
        mov [cs:d_yc], ax                       ; (facts) replaces, not scales
        jmp .next

; Reads X, Y, Z into the current point and projects it (d_xc, d_yc).
.point: lodsw
        mov [cs:d_cur], ax
        lodsw
        mov [cs:d_cur + 2], ax
        lodsw
        mov [cs:d_cur + 4], ax
        mov di, [cs:d_proj]
        mov bx, [cs:di]
        mov ax, [cs:d_cur + bx]
        mov cx, [cs:di + 2]
        call .contrib
        mov [cs:d_xc], ax
        mov ax, [cs:d_cur + 2]
        mov cx, [cs:di + 4]
        call .contrib
        mov [cs:d_yc], ax
        ret

; AX = round(AX * CX / 4000h), half up (the native rounding).
.contrib:
        movsx eax, ax
.contrib32:
        movsx ecx, cx
        imul eax, ecx
        add eax, 0x2000
        sar eax, 14
        ret

; AX = the parameter of index AL: table[((cell & 31) + AL) & 255].
.param: mov ah, [cs:d_cell]
        and ah, 31
        add al, ah
        xor ah, ah
        mov bx, ax
        shl bx, 1
        mov ax, [PARAMS + bx]
        ret

; Emits contributions AX (x), BX (y) with command DL at the projection's
; centre: screen x = cx + AX, screen y = cy - BX.
.screen:
        mov di, [cs:d_proj]
        add ax, [cs:di + 6]
        neg bx
        add bx, [cs:di + 8]
        mov cx, [cs:d_count]
        call EMIT
        inc word [cs:d_count]
        ret

d_cell:  db 0
d_proj:  dw 0
d_count: dw 0
d_xc:    dw 0
d_yc:    dw 0
d_cur:   dw 0, 0, 0
d_anch:  dw 0, 0, 0
d_gate:  dw 0, 0, 0
%endmacro

; The event point: stores vertex CX (AX = x, BX = y, DL = the command) in
; VERTS (8 bytes each, the last 256 kept).
%macro EMIT_BODY 0
emit:   push di
        mov di, cx
        and di, 255
        shl di, 3
        mov [VERTS + di], ax
        mov [VERTS + di + 2], bx
        mov [VERTS + di + 4], dl
        pop di
        ret
%endmacro

; Two identity-axis projections (ours): axis offset of screen x in the
; point (0 = X, 4 = Z), x and y coefficients (Q14), centre x and y.
%macro PROJ_BODY 0
        dw 0, 0x4000, 0x4000, 160, 100          ; front, 1:1
        dw 4, 0x3000, 0x3000, 160, 120          ; side, 3:4
%endmacro

%macro INTERP_LAYOUT 0
        AT INTERP
        INTERP_BODY
        AT EMIT
        EMIT_BODY
        AT PROJ
        PROJ_BODY
%endmacro

; ---------------------------------------------------------------------------
; The layouts.
; ---------------------------------------------------------------------------
%ifdef DEMO
        AT TIMER_SETUP
        TIMER_SETUP_BODY
        AT DIVISOR
        DIVISOR_BODY
        AT PIT_HELPER
        PIT_HELPER_BODY
        AT DRAW_CODE
        DRAW_BODY
        AT IRQ0_VARS
        IRQ0_BODY
        AT FRAME_UPDATE
        FRAME_UPDATE_BODY
        AT LANDING_START
        LANDING_BODY
        AT PARAM_LOOKUP
        LOOKUP_BODY
        AT STATE_SELECT
        SELECT_BODY
        INTERP_LAYOUT
        AT FOUNTAIN
        FOUNTAIN_BODY
        AT SINE
        SINE_BODY
%else
        AT TIMER_SETUP
        TIMER_SETUP_BODY
        AT DRAW_CODE
        DRAW_BODY
        AT IRQ0_VARS
        IRQ0_BODY
        AT DIVISOR
        DIVISOR_BODY
        AT PIT_HELPER
        PIT_HELPER_BODY
        AT STATE_SELECT
        SELECT_BODY
        AT PARAM_LOOKUP
        LOOKUP_BODY
        INTERP_LAYOUT
        AT SINE
        SINE_BODY
        AT FRAME_UPDATE
        FRAME_UPDATE_BODY
        AT LANDING_START
        LANDING_BODY
        AT FOUNTAIN
        FOUNTAIN_BODY
%endif
        AT CODE_SIZE

; ---------------------------------------------------------------------------
; DATA (SS = DS): variables, the model banks, the parameter table. The
; segment is 64 KiB at run time (minalloc); the image holds its first part.
; ---------------------------------------------------------------------------
        section data follows=code vstart=0 align=16
psp:    dw 0
old08:  dd 0
is386:  db 0

; City-model definitions: a header of two signed links relative to the
; header (+0 the next damage definition, +2 the alternate definition) and a
; height (+4). CITY name, height, damage steps: a base chain of steps + 1
; headers and an alternate chain of the same length; the last header of a
; chain links to itself.
%macro CITY 3
%assign %%n %3
%1:
%assign %%k 0
%rep %%n + 1
%%h %+ %%k:
%if %%k < %%n
        dw %%h %+ %%k - %%h %+ %%k + 6          ; next damage header
%else
        dw 0
%endif
        dw %%a0 - %%h %+ %%k                    ; alternate
        dw %2 + %%k * 4                         ; own height
%assign %%k %%k + 1
%endrep
%%a0:
%assign %%k 0
%rep %%n + 1
%if %%k < %%n
        dw 6
%else
        dw 0
%endif
        dw 0                                    ; the alternate of itself
        dw %2 + 100 + %%k * 4
%assign %%k %%k + 1
%endrep
%endmacro

; A special object: a drawing body, not link records.
%macro SPECIAL 1
%1:     db 0x35, 0x10, 0x20, 0x38, 0x3B, 0x09, 0xFF, 0x7F
%endmacro

        align 16, db 0
        times BANKS - ($ - $$) db 0
; Bank directory: for banks 30, 31 and 32, the offset of its table. A table
; is a count, then per definition a type byte (0 city, 1 special) and the
; offset of its header.
banks:  dw bank30, bank31, bank32
bank30: db 6
        db 0
        dw c30a
        db 0
        dw c30b
        db 1
        dw s30
        db 0
        dw c30c
        db 0
        dw c30d
        db 0
        dw c30e
bank31: db 7
        db 0
        dw c31a
        db 0
        dw c31b
        db 0
        dw c31c
        db 1
        dw s31
        db 0
        dw c31d
        db 0
        dw c31e
        db 0
        dw c31f
bank32: db 7
        db 0
        dw c32a
        db 0
        dw c32b
        db 0
        dw c32c
        db 0
        dw c32d
        db 0
        dw c32e
        db 0
        dw c32f
        db 0
        dw c32g
        CITY c30a, 40, 1
        CITY c30b, 48, 1
        SPECIAL s30
        CITY c30c, 56, 1
        CITY c30d, 64, 1
        CITY c30e, 72, 1
        CITY c31a, 80, 3
        CITY c31b, 88, 3
        CITY c31c, 96, 3
        SPECIAL s31
        CITY c31d, 104, 3
        CITY c31e, 112, 3
        CITY c31f, 120, 3
        CITY c32a, 128, 3
        CITY c32b, 136, 3
        CITY c32c, 144, 3
        CITY c32d, 152, 3
        CITY c32e, 160, 3
        CITY c32f, 168, 3
        CITY c32g, 176, 3


; Drawing definitions (ours): commands FCxx as bytes FC, xx.
%macro VTX 3
        db 0xFC, 0x31
        dw %1, %2, %3
%endmacro
%macro MOVETO 3
        db 0xFC, 0x32
        dw %1, %2, %3
%endmacro
%macro EMITPT 0
        db 0xFC, 0x33
%endmacro
%macro ANCHOR 0
        db 0xFC, 0x35
%endmacro
%macro GATEV 1
        db 0xFC, 0x38, %1
%endmacro
%macro HEIGHT 1
        db 0xFC, 0x3B, %1
%endmacro
%macro ENDDEF 0
        db 0xFC, 0xFF
%endmacro

        times DEFS - ($ - $$) db 0
defs:   dw def_box, def_pyramid, def_gate, def_gates, def_fountain
; A box (static).
def_box:
        VTX -31, -21, -13
        VTX  31, -21, -13
        VTX  31,  21, -13
        VTX -31,  21, -13
        VTX -31, -21,  13
        VTX  31, -21,  13
        VTX  31,  21,  13
        VTX -31,  21,  13
        ENDDEF
; A pyramid (static).
def_pyramid:
        VTX -45, -30, -45
        VTX  45, -30, -45
        VTX  45, -30,  45
        VTX -45, -30,  45
        VTX   1,  57,   3
        ENDDEF
; A gate (animated by slot 20, the landing's): the frame, then two doors
; opening from their hinges, each edge a vertex between hinge and centre.
def_gate:
        VTX -41,   0,  5
        VTX  41,   0,  5
        VTX  41,  63,  5
        VTX -41,  63,  5
        MOVETO -41,  0, 5
        ANCHOR
        MOVETO   0,  0, 5
        GATEV 20
        MOVETO -41, 63, 5
        ANCHOR
        MOVETO   0, 63, 5
        GATEV 20
        MOVETO  41,  0, 5
        ANCHOR
        MOVETO   0,  0, 5
        GATEV 20
        MOVETO  41, 63, 5
        ANCHOR
        MOVETO   0, 63, 5
        GATEV 20
        ENDDEF
; Two linked gates (slots 20 and 21), the second behind the first.
def_gates:
        VTX -25,  0, -7
        MOVETO -25,  0, -7
        ANCHOR
        MOVETO  25, 37, -7
        GATEV 20
        VTX  25, 37, -7
        MOVETO -25, 37, 23
        ANCHOR
        MOVETO  25, -3, 53
        GATEV 21
        MOVETO  25, -3, 53
        GATEV 21
        ENDDEF
; The fountain: six bars, a base vertex and a top whose height is the
; parameter (slots 9-14 at cell state 0) through 3B.
def_fountain:
%assign bar 0
%rep 6
        MOVETO (-51 + 21 * bar), 0, (7 * bar - 17)
        EMITPT
        HEIGHT (FIRST_SLOT + bar)
        EMITPT
%assign bar bar + 1
%endrep
        ENDDEF

        times VERTS - ($ - $$) db 0
verts:  times 256 * 4 dw 0

        times PARAMS - ($ - $$) db 0
params: times 256 dw 0
        times DATA_SIZE - ($ - $$) db 0
