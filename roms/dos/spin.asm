; spin.com: never terminates (interrupts on), for the time-limit exit.
        cpu 8086
        org 100h
        sti
spin:   jmp spin
