#!/usr/bin/env python3
"""genx87: x87 and 486 real-mode single-instruction test vectors, recorded with Unicorn.

Writes gzip'd JSON files in the format of shared/vectors/386-real, extended with the
FPU state (see README.md). Deterministic: each form draws from random.Random("<seed>:<form>").
"""
import argparse
import gzip
import json
import os
import random
import re
import sys

from unicorn import Uc, UcError, UC_ARCH_X86, UC_MODE_16, UC_HOOK_MEM_READ, UC_HOOK_MEM_WRITE, UC_HOOK_INTR
from unicorn import UC_ERR_INSN_INVALID, __version__ as UC_VERSION
from unicorn.x86_const import (UC_X86_REG_EAX, UC_X86_REG_EBX, UC_X86_REG_ECX, UC_X86_REG_EDX,
                               UC_X86_REG_ESI, UC_X86_REG_EDI, UC_X86_REG_EBP, UC_X86_REG_ESP,
                               UC_X86_REG_CS, UC_X86_REG_DS, UC_X86_REG_ES, UC_X86_REG_SS,
                               UC_X86_REG_FS, UC_X86_REG_GS, UC_X86_REG_EIP, UC_X86_REG_EFLAGS)

REGS = [("eax", UC_X86_REG_EAX), ("ebx", UC_X86_REG_EBX), ("ecx", UC_X86_REG_ECX),
        ("edx", UC_X86_REG_EDX), ("esi", UC_X86_REG_ESI), ("edi", UC_X86_REG_EDI),
        ("ebp", UC_X86_REG_EBP), ("esp", UC_X86_REG_ESP), ("cs", UC_X86_REG_CS),
        ("ds", UC_X86_REG_DS), ("es", UC_X86_REG_ES), ("ss", UC_X86_REG_SS),
        ("fs", UC_X86_REG_FS), ("gs", UC_X86_REG_GS), ("eip", UC_X86_REG_EIP),
        ("eflags", UC_X86_REG_EFLAGS)]
GPR16 = ["eax", "ecx", "edx", "ebx", "esp", "ebp", "esi", "edi"]  # ModR/M order
SEGS = ["es", "cs", "ss", "ds", "fs", "gs"]
SEG_PREFIX = {"es": 0x26, "cs": 0x2E, "ss": 0x36, "ds": 0x3E, "fs": 0x64, "gs": 0x65}
FLAGS_MASK = 0x3FFFF
# Helper code and the FNSAVE/FRSTOR image live above 1 MiB, out of every test's reach.
HELPER_SEG = 0xFFFF
HELPER_CODE = 0x0100   # FRSTOR [0200h] / FNSAVE [0200h]
IMAGE_OFF = 0x0200
SEED = 0x80487

# ---------------------------------------------------------------- 80-bit values

def f80(sign, exp, mant):
    return (sign << 79) | (exp << 64) | mant

def classify80(v):
    """The encoding class of an 80-bit value (SDM vol. 1 §8.2.2, table 8-3)."""
    exp = (v >> 64) & 0x7FFF
    mant = v & ((1 << 64) - 1)
    j = mant >> 63
    if exp == 0:
        if mant == 0:
            return "zero"
        return "pseudo-denormal" if j else "denormal"
    if exp == 0x7FFF:
        if not j:
            return "pseudo-nan" if mant & ((1 << 63) - 1) else "pseudo-infinity"
        frac = mant & ((1 << 63) - 1)
        if frac == 0:
            return "infinity"
        return "qnan" if frac >> 62 else "snan"
    return "normal" if j else "unnormal"

INVALID_ENCODINGS = {"pseudo-nan", "pseudo-infinity", "unnormal", "pseudo-denormal"}

def rand_f80(r, edges=True):
    s = r.getrandbits(1)
    k = r.random()
    if not edges or k < 0.45:
        return f80(s, 0x3FFF + r.randint(-20, 20), (1 << 63) | r.getrandbits(63))
    if k < 0.55:
        n = r.randint(1, 1 << r.randint(1, 62))
        return int_to_f80(-n if s else n)
    if k < 0.62:
        return f80(s, r.randint(1, 0x7FFE), (1 << 63) | r.getrandbits(63))
    pick = r.choice(["zero", "inf", "qnan", "snan", "indef", "denorm", "pdenorm", "unnormal",
                     "pinf", "pnan", "max", "min", "minden", "one"])
    return {
        "zero": f80(s, 0, 0),
        "inf": f80(s, 0x7FFF, 1 << 63),
        "qnan": f80(s, 0x7FFF, (3 << 62) | r.getrandbits(62)),
        "snan": f80(s, 0x7FFF, (1 << 63) | r.getrandbits(62) | 1),
        "indef": f80(1, 0x7FFF, 3 << 62),
        "denorm": f80(s, 0, r.getrandbits(63) | 1),
        "pdenorm": f80(s, 0, (1 << 63) | r.getrandbits(63)),
        "unnormal": f80(s, r.randint(1, 0x7FFE), r.getrandbits(63) | 1),
        "pinf": f80(s, 0x7FFF, 0),
        "pnan": f80(s, 0x7FFF, r.getrandbits(62) | 1),
        "max": f80(s, 0x7FFE, (1 << 64) - 1),
        "min": f80(s, 1, 1 << 63),
        "minden": f80(s, 0, 1),
        "one": f80(s, 0x3FFF, 1 << 63),
    }[pick]

def int_to_f80(n):
    if n == 0:
        return 0
    s = 1 if n < 0 else 0
    m = abs(n)
    e = m.bit_length() - 1
    return f80(s, 0x3FFF + e, m << (63 - e))

def rand_fp(r, bits):
    """A 32- or 64-bit IEEE value with edge cases."""
    eb, mb = (8, 23) if bits == 32 else (11, 52)
    emax = (1 << eb) - 1
    s = r.getrandbits(1)
    k = r.random()
    if k < 0.5:
        e = (emax >> 1) + r.randint(-20, 20)
        m = r.getrandbits(mb)
    elif k < 0.6:
        e, m = r.randint(1, emax - 1), r.getrandbits(mb)
    else:
        e, m = r.choice([(0, 0), (emax, 0), (emax, (1 << (mb - 1)) | r.getrandbits(mb - 1)),
                         (emax, r.getrandbits(mb - 2) | 1), (0, r.getrandbits(mb) | 1),
                         (emax - 1, (1 << mb) - 1), (1, 0), (0, 1)])
    return (s << (bits - 1)) | (e << mb) | m

def fp_class(v, bits):
    eb, mb = (8, 23) if bits == 32 else (11, 52)
    e = (v >> mb) & ((1 << eb) - 1)
    m = v & ((1 << mb) - 1)
    if e == (1 << eb) - 1 and m and not m >> (mb - 1):
        return "snan"
    return "denormal" if e == 0 and m else "other"

def rand_int(r, bits):
    lim = 1 << (bits - 1)
    v = r.choice([0, 1, -1, lim - 1, -lim, r.randint(-lim, lim - 1), r.randint(-1000, 1000),
                  r.randint(-lim, lim - 1)])
    return v & ((1 << bits) - 1)

def rand_bcd(r):
    """An 80-bit packed BCD value; 1 in 10 has a non-decimal digit (undefined, SDM FBLD)."""
    digits = [r.randint(0, 9) for _ in range(18)]
    k = r.random()
    if k < 0.1:
        digits = [9] * 18
    elif k < 0.2:
        digits = [0] * 18
    elif k < 0.3:
        digits[r.randrange(18)] = r.randint(10, 15)
    v = 0
    for i, d in enumerate(digits):
        v |= d << (4 * i)
    return v | (r.choice([0, 0x80, 0x80, 0x7F]) << 72)

# ---------------------------------------------------------------- forms

def X(name, kind, mem=None, pc_sensitive=False, departures=(), stack=("st0",)):
    return dict(name=name, kind=kind, mem=mem, pc=pc_sensitive, departures=list(departures),
                stack=list(stack))

ARITH = ["fadd", "fmul", "fcom", "fcomp", "fsub", "fsubr", "fdiv", "fdivr"]
ARITH_PC = {"fadd", "fmul", "fsub", "fsubr", "fdiv", "fdivr"}
TRANS = "transcendental"
REM = "fprem"

def x87_forms():
    """Every x87 opcode form: (file name, bytes builder info)."""
    f = {}
    for op, mem, pre in [(0xD8, "m32fp", ""), (0xDA, "m32int", "i"), (0xDC, "m64fp", ""), (0xDE, "m16int", "i")]:
        for reg, n in enumerate(ARITH):
            name = "fi" + n[1:] if pre else n
            f["%02X.%d" % (op, reg)] = X(name + " " + mem, "mem", mem, n in ARITH_PC)
    for reg, n in enumerate(ARITH):
        f["D8.%dr" % reg] = X(n + " st,st(i)", "reg", pc_sensitive=n in ARITH_PC, stack=("st0", "sti"))
    dc = ["fadd", "fmul", "fcom", "fcomp", "fsubr", "fsub", "fdivr", "fdiv"]
    for reg, n in enumerate(dc):
        if reg not in (2, 3):  # DC D0-DF are undocumented aliases of FCOM/FCOMP
            f["DC.%dr" % reg] = X(n + " st(i),st", "reg", pc_sensitive=n in ARITH_PC, stack=("st0", "sti"))
    de = {0: "faddp", 1: "fmulp", 4: "fsubrp", 5: "fsubp", 6: "fdivrp", 7: "fdivp"}
    for reg, n in de.items():
        f["DE.%dr" % reg] = X(n + " st(i),st", "reg", pc_sensitive=True, stack=("st0", "sti"))
    f["DE_D9"] = X("fcompp", "fixed", stack=("st0", "st1"))
    f["DA_E9"] = X("fucompp", "fixed", stack=("st0", "st1"))
    mem = {"D9.0": ("fld m32fp", "m32fp"), "D9.2": ("fst m32fp", "st32"), "D9.3": ("fstp m32fp", "st32"),
           "D9.4": ("fldenv m14", "env"), "D9.5": ("fldcw m16", "cw"), "D9.6": ("fnstenv m14", "out14"),
           "D9.7": ("fnstcw m16", "out2"),
           "DB.0": ("fild m32int", "m32int"), "DB.2": ("fist m32int", "st4"), "DB.3": ("fistp m32int", "st4"),
           "DB.5": ("fld m80fp", "m80fp"), "DB.7": ("fstp m80fp", "st10"),
           "DD.0": ("fld m64fp", "m64fp"), "DD.2": ("fst m64fp", "st64"), "DD.3": ("fstp m64fp", "st64"),
           "DD.4": ("frstor m94", "save"), "DD.6": ("fnsave m94", "out94"), "DD.7": ("fnstsw m16", "out2"),
           "DF.0": ("fild m16int", "m16int"), "DF.2": ("fist m16int", "st2"), "DF.3": ("fistp m16int", "st2"),
           "DF.4": ("fbld m80bcd", "m80bcd"), "DF.5": ("fild m64int", "m64int"),
           "DF.6": ("fbstp m80bcd", "st10"), "DF.7": ("fistp m64int", "st8")}
    for k, (n, m) in mem.items():
        push = n.startswith(("fld ", "fild", "fbld"))
        control = m in ("env", "cw", "out14", "out2", "save", "out94")
        f[k] = X(n, "mem", m, stack=("st7",) if push else () if control else ("st0",))
    for reg, n, st in [(0, "fld st(i)", ("sti", "st7")), (1, "fxch st(i)", ("st0", "sti"))]:
        f["D9.%dr" % reg] = X(n, "reg", stack=st)
    f["DD.0r"] = X("ffree st(i)", "reg", stack=())
    f["DD.2r"] = X("fst st(i)", "reg")
    f["DD.3r"] = X("fstp st(i)", "reg")
    f["DD.4r"] = X("fucom st(i)", "reg", stack=("st0", "sti"))
    f["DD.5r"] = X("fucomp st(i)", "reg", stack=("st0", "sti"))
    f["D8.2r"]["stack"] = f["D8.3r"]["stack"] = ["st0", "sti"]
    fixed = {0xD0: "fnop", 0xE0: "fchs", 0xE1: "fabs", 0xE4: "ftst", 0xE5: "fxam",
             0xE8: "fld1", 0xE9: "fldl2t", 0xEA: "fldl2e", 0xEB: "fldpi", 0xEC: "fldlg2",
             0xED: "fldln2", 0xEE: "fldz", 0xF0: "f2xm1", 0xF1: "fyl2x", 0xF2: "fptan",
             0xF3: "fpatan", 0xF4: "fxtract", 0xF5: "fprem1", 0xF6: "fdecstp", 0xF7: "fincstp",
             0xF8: "fprem", 0xF9: "fyl2xp1", 0xFA: "fsqrt", 0xFB: "fsincos", 0xFC: "frndint",
             0xFD: "fscale", 0xFE: "fsin", 0xFF: "fcos"}
    for b, n in fixed.items():
        dep = []
        if n in ("f2xm1", "fyl2x", "fptan", "fpatan", "fyl2xp1", "fsincos", "fsin", "fcos"):
            dep = [TRANS]
        if n in ("fprem", "fprem1"):
            dep = [REM]
        st = ("st0",)
        if n in ("fyl2x", "fpatan", "fyl2xp1", "fprem", "fprem1", "fscale"):
            st = ("st0", "st1")
        if n.startswith("fld") or n in ("fptan", "fxtract", "fsincos"):
            st = st + ("st7",)
        if n in ("fnop", "fdecstp", "fincstp"):
            st = ()
        f["D9_%02X" % b] = X(n, "fixed", pc_sensitive=n == "fsqrt", departures=dep, stack=st)
    for b, n in {0xE0: "fneni (8087; no-op)", 0xE1: "fndisi (8087; no-op)", 0xE2: "fnclex",
                 0xE3: "fninit", 0xE4: "fsetpm (287; no-op)"}.items():
        f["DB_%02X" % b] = X(n, "fixed", stack=())
    f["DF_E0"] = X("fnstsw ax", "fixed", stack=())
    return f

MEM_SIZE = {"m32fp": 4, "m64fp": 8, "m80fp": 10, "m16int": 2, "m32int": 4, "m64int": 8, "m80bcd": 10,
            "st32": 4, "st64": 8, "st10": 10, "st2": 2, "st4": 4, "st8": 8, "env": 14, "cw": 2,
            "out14": 14, "out2": 2, "save": 94, "out94": 94}

# ---------------------------------------------------------------- addressing

def displacement(r, mod, width):
    """The displacement of `mod` (none, 8 bits, `width` bytes): its bytes and signed value."""
    if mod == 0:
        return b"", 0
    n = 1 if mod == 1 else width
    d = r.randrange(1 << (8 * n))
    return d.to_bytes(n, "little"), d - (1 << (8 * n)) if d >> (8 * n - 1) else d

BASE16 = [("ebx", "esi"), ("ebx", "edi"), ("ebp", "esi"), ("ebp", "edi"),
          ("esi",), ("edi",), ("ebp",), ("ebx",)]

def modrm_mem(r, reg, regs, segs, size, override, addr32=False):
    """A random memory ModR/M for `reg` (16-bit addressing, or 32-bit without SIB under 67),
    with its displacement bytes, and the operand's linear address; the operand stays inside
    its 64 KiB segment."""
    width = 4 if addr32 else 2
    for _ in range(100):
        mod = r.choice([0, 1, 2])
        rm = r.choice([0, 1, 2, 3, 5, 6, 7]) if addr32 else r.randrange(8)
        if mod == 0 and rm == (5 if addr32 else 6):
            d = r.randrange(0x10000)
            disp, ea, seg = d.to_bytes(width, "little"), d, "ds"
        else:
            base = (GPR16[rm],) if addr32 else BASE16[rm]
            seg = "ss" if "ebp" in base else "ds"
            disp, d = displacement(r, mod, width)
            ea = (sum(regs[b] & (0xFFFFFFFF if addr32 else 0xFFFF) for b in base) + d)
            ea &= (1 << (8 * width)) - 1
        if ea + size <= 0x10000:
            seg = override or seg
            return bytes([(mod << 6) | (reg << 3) | rm]) + disp, segs[seg] * 16 + ea
    return None

def rand_regs(r, addr32=False):
    slots = r.sample(range(16), 6)
    segs = {s: slot * 0x1000 for s, slot in zip(SEGS, slots)}
    regs = {}
    for n in GPR16:
        v = r.choice([r.getrandbits(32), r.getrandbits(16), 0, 0xFFFFFFFF, 1, 0x80000000])
        if addr32:
            v &= r.choice([0xFFFF, 0x7FFF, 0xFF])
        regs[n] = v
    regs["esp"] = (r.getrandbits(16) << 16 if not addr32 else 0) | (r.randrange(0x80, 0x7F80) * 2)
    regs.update(segs)
    regs["eip"] = r.randrange(0, 0xFF00)
    regs["eflags"] = 0x2 | (r.getrandbits(32) & 0x7FD5 & ~0x0100)
    return regs, segs

# ---------------------------------------------------------------- running

SKIPPED = [0]

class Run:
    """One instruction run in a fresh Unicorn, with its memory accesses recorded."""

    def __init__(self):
        self.uc = Uc(UC_ARCH_X86, UC_MODE_16)
        self.uc.mem_map(0, 2 << 20)
        self.record = False
        self.init_ram = {}
        self.written = set()
        self.intr = None
        self.uc.hook_add(UC_HOOK_MEM_READ, self._read)
        self.uc.hook_add(UC_HOOK_MEM_WRITE, self._write)
        self.uc.hook_add(UC_HOOK_INTR, self._intr)

    def _read(self, uc, access, addr, size, value, data):
        if self.record:
            cur = uc.mem_read(addr, size)
            for i in range(size):
                self.init_ram.setdefault(addr + i, cur[i])

    def _write(self, uc, access, addr, size, value, data):
        if self.record:
            cur = uc.mem_read(addr, size)
            for i in range(size):
                self.init_ram.setdefault(addr + i, cur[i])
                self.written.add(addr + i)

    def _intr(self, uc, intno, data):
        self.intr = intno
        uc.emu_stop()

    def helper(self, code):
        base = HELPER_SEG * 16
        self.uc.mem_write(base + HELPER_CODE, code)
        self.uc.reg_write(UC_X86_REG_CS, HELPER_SEG)
        self.uc.reg_write(UC_X86_REG_DS, HELPER_SEG)
        self.uc.reg_write(UC_X86_REG_EIP, HELPER_CODE)
        # Unicorn takes the linear address of the first instruction and of the end.
        self.uc.emu_start(base + HELPER_CODE, base + HELPER_CODE + len(code), count=1)

    def load_fpu(self, image):
        self.uc.mem_write(HELPER_SEG * 16 + IMAGE_OFF, bytes(image))
        self.helper(bytes([0xDD, 0x26]) + IMAGE_OFF.to_bytes(2, "little"))  # frstor [0200h]

    def save_fpu(self):
        self.helper(bytes([0xDD, 0x36]) + IMAGE_OFF.to_bytes(2, "little"))  # fnsave [0200h]
        return self.uc.mem_read(HELPER_SEG * 16 + IMAGE_OFF, 94)

    def run(self, regs, code, ram):
        uc = self.uc
        for a, v in ram.items():
            uc.mem_write(a, bytes([v]))
        lin = regs["cs"] * 16 + regs["eip"]
        uc.mem_write(lin, code)
        for n, rid in REGS:
            uc.reg_write(rid, regs[n])
        self.record = True
        exc = None
        try:
            uc.emu_start(lin, lin + len(code), count=1)
        except UcError as e:
            if e.errno != UC_ERR_INSN_INVALID:
                SKIPPED[0] += 1  # an access outside the mapped space: the draw is dropped
                return None
            exc = 6
        self.record = False
        if self.intr is not None:
            exc = self.intr
        fin = {n: uc.reg_read(rid) for n, rid in REGS}
        fin_ram = sorted((a, uc.mem_read(a, 1)[0]) for a in self.written)
        # A store into the code's own page takes QEMU's self-modifying-code path, which
        # re-executes the instruction under count=1: such tests are dropped.
        if any((a >> 12) in ((lin >> 12), (lin + len(code)) >> 12) for a in self.written):
            return None
        init_ram = dict(self.init_ram)
        for i, b in enumerate(code):
            init_ram[lin + i] = b
        for a, v in ram.items():
            init_ram.setdefault(a, v)
        return fin, sorted(init_ram.items()), fin_ram, exc

# ---------------------------------------------------------------- FPU state

def tag_of(v):
    c = classify80(v)
    if c == "zero":
        return 1
    if c == "normal":
        return 0
    return 2

def fpu_image(cw, sw, top, phys, empty, fip=0, fop=0, fdp=0):
    """The 94-byte real-mode FNSAVE image (SDM vol. 1 §8.1.10, fig. 8-12 and 8-10)."""
    tw = 0
    for i in range(8):
        tw |= (3 if empty[i] else tag_of(phys[i])) << (2 * i)
    sw = (sw & ~0x3800) | (top << 11)
    img = bytearray()
    for w in (cw, sw, tw, fip & 0xFFFF, ((fip >> 16) << 12) | (fop & 0x7FF), fdp & 0xFFFF, (fdp >> 16) << 12):
        img += w.to_bytes(2, "little")
    for i in range(8):
        img += phys[(top + i) & 7].to_bytes(10, "little")
    return img

def fpu_json(img):
    w = [int.from_bytes(img[2 * i:2 * i + 2], "little") for i in range(7)]
    return {"cw": w[0], "sw": w[1], "tw": w[2],
            "fip": w[3] | ((w[4] >> 12) << 16), "fop": w[4] & 0x7FF, "fdp": w[5] | ((w[6] >> 12) << 16),
            "st": ["%020x" % int.from_bytes(img[14 + 10 * i:24 + 10 * i], "little") for i in range(8)]}

def rand_fpu(r, form, mode):
    rc, pc = mode
    cw = 0x0040 | (rc << 10) | (pc << 8) | 0x3F
    if r.random() < 0.15:
        cw &= ~r.getrandbits(6)
    if r.random() < 0.1:
        cw |= 0x1000  # the 287's infinity control: ignored by the 387
    sw = r.getrandbits(16) & 0x4700 if r.random() < 0.5 else 0
    top = r.randrange(8)
    phys = [rand_f80(r) for _ in range(8)]
    empty = [r.random() < 0.08 for _ in range(8)]
    if form is not None and "st7" in form["stack"]:
        empty[(top + 7) & 7] = r.random() < 0.92  # a push finds ST(7) free, mostly
    return cw, sw, top, phys, empty

PCS = [(rc, pc) for rc in range(4) for pc in (0, 2, 3)]

def mem_value(r, kind):
    size = MEM_SIZE[kind]
    if kind in ("m32fp",):
        return rand_fp(r, 32).to_bytes(4, "little")
    if kind == "m64fp":
        return rand_fp(r, 64).to_bytes(8, "little")
    if kind == "m80fp":
        return rand_f80(r).to_bytes(10, "little")
    if kind in ("m16int", "m32int", "m64int"):
        return rand_int(r, size * 8).to_bytes(size, "little")
    if kind == "m80bcd":
        return rand_bcd(r).to_bytes(10, "little")
    if kind == "cw":
        return (r.getrandbits(16) & (0xFFFF if r.random() < 0.3 else 0x1F3F) | 0x40).to_bytes(2, "little")
    if kind in ("env", "save"):
        cw, sw, top, phys, empty = rand_fpu(r, None, r.choice(PCS))
        img = fpu_image(cw, r.getrandbits(16), top, phys, empty,
                        r.getrandbits(20), r.getrandbits(11), r.getrandbits(20))
        return bytes(img[:size])
    return bytes(r.getrandbits(8) for _ in range(size))

def operand_classes(form, fpu, rm, membytes):
    """Encoding classes of the operands the instruction reads."""
    cw, sw, top, phys, empty = fpu
    out = []
    for s in form["stack"]:
        i = {"st0": 0, "st1": 1, "sti": rm, "st7": 7}[s]
        p = (top + i) & 7
        if s == "st7":
            out.append("push-full" if not empty[p] else "ok")
        else:
            out.append("empty" if empty[p] else classify80(phys[p]))
    if form["name"] in ("fst st(i)", "fstp st(i)") and empty[(top + rm) & 7]:
        out.append("sti-empty")  # the destination, written, not read
    m = form["mem"]
    if m == "m80fp":
        out.append(classify80(int.from_bytes(membytes, "little")))
    elif m in ("m32fp", "m64fp"):
        out.append(fp_class(int.from_bytes(membytes, "little"), MEM_SIZE[m] * 8))
    return out

# Forms that only move or inspect an extended value: an SNaN operand does not signal (SDM vol. 2
# FLD, FST/FSTP, FXCH, FCHS, FABS, FXAM: "#IA ... does not occur if the source operand is in
# double extended-precision format").
SNAN_QUIET = ("D9.0r", "D9.1r", "DB.5", "DB.7", "DD.0r", "DD.2r", "DD.3r", "D9_E0", "D9_E1", "D9_E5",
              "D9_D0", "D9_F6", "D9_F7")
# The constants that are not exact: rounded per RC on the 387 and later (SDM vol. 2 FLD1/FLDL2T/...).
ROUNDED_CONSTANTS = ("D9_E9", "D9_EA", "D9_EB", "D9_EC", "D9_ED")
# Control-word bits that read back fixed (SDM vol. 1 §8.1.5, figure 8-6: 6-7 and 13-15 reserved).
CW_RESERVED, CW_RESERVED_VALUE = 0xE0C0, 0x0040

def is_control(key, form):
    """The control instructions (SDM vol. 1 §8.1.8) and the 8087/287 no-ops and FNSTSW AX."""
    return form["mem"] in CONTROL or key.startswith(("DB_", "DF_E0"))

def x87_departures(key, form, classes, fpu, fin_img, membytes, name):
    d = list(form["departures"])
    _, _, top, phys, empty = fpu
    if any(c in INVALID_ENCODINGS for c in classes):
        d.append("invalid-encoding")
    if any(c in ("denormal", "pseudo-denormal") for c in classes):
        d.append("denormal-flag")
    if "empty" in classes or "push-full" in classes:
        d.append("stack-fault")
    if "snan" in classes and key not in SNAN_QUIET:
        d.append("snan-operand")
    cw = fin_img[0] | (fin_img[1] << 8)
    sw = fin_img[2] | (fin_img[3] << 8)
    # Unicorn raises no exception flag but ZE, so wherever the control word unmasks one, Intel's
    # part may withhold a result that Unicorn stores.
    if sw & 0x3F & ~cw & 0x3F or (not is_control(key, form) and ~fpu[0] & 0x3F):
        d.append("unmasked-exception")
    if key in ROUNDED_CONSTANTS and (fpu[0] >> 10) & 3:
        d.append("constant-rounding")
    if key == "D9_F4" and classes[0] in ("qnan", "snan", "infinity"):
        d.append("fxtract-special")
    if key in ("DD.2r", "DD.3r") and "sti-empty" in classes:
        d.append("fst-empty-tag")
    if key == "D9.6" and ~fpu[0] & 0x3F:
        d.append("fnstenv-masking")
    if key == "DF.6" and not empty[top]:
        v = phys[top]
        e = ((v >> 64) & 0x7FFF) - 16383
        # -0, a negative that may round to -0, NaN, infinity, or beyond 18 digits (10^18 > 2^59)
        if classify80(v) in ("qnan", "snan", "infinity") or e >= 59 or (v >> 79 and e < 0):
            d.append("fbstp-special")
    if form["mem"] in ("cw", "env", "save"):
        loaded = int.from_bytes(membytes[:2], "little")
        if loaded & CW_RESERVED != CW_RESERVED_VALUE:
            d.append("reserved-control-bits")
    if form["mem"] == "m80bcd" and name.startswith("fbld"):
        v = int.from_bytes(membytes, "little")
        if any(((v >> (4 * i)) & 0xF) > 9 for i in range(18)):
            d.append("bcd-invalid-digit")
    return sorted(set(d))

CONTROL = ("env", "cw", "out14", "out2", "save", "out94")
# The compares, which define C0, C2 and C3; every other non-control instruction leaves them
# undefined (SDM vol. 2, "FPU Flags Affected"), and FPREM/FPREM1 are marked whole.
COMPARES = ("D8.2", "D8.3", "D8.2r", "D8.3r", "DA.2", "DA.3", "DC.2", "DC.3", "DE.2", "DE.3",
            "DD.4r", "DD.5r", "DE_D9", "DA_E9", "D9_E4", "D9_E5")

def fpu_unchecked(key, form):
    """FPU fields not to compare: the opcode (Unicorn stores 0), the data pointer of register
    forms (no memory operand: undefined) and both pointers of the control instructions, which
    do not update them (SDM vol. 1 §8.1.8); for the other instructions the status flags
    (Unicorn sets no exception flag but ZE and leaves C1) and, but for the compares, the
    undefined C0, C2, C3."""
    out = ["fop"]
    if form["kind"] != "mem":
        out.append("fdp")
    if is_control(key, form):
        out = ["fdp", "fip", "fop"]
    else:
        out.append("flags")
        if key not in COMPARES:
            out.append("cc")
    if key == "D9_D0":
        out.append("fip")  # FNOP updates FIP on Intel parts; Unicorn leaves it (README)
    return sorted(set(out))

def draw_x87(r, key, form, mode):
    """Draws one x87 test: registers, FPU state, code, memory operand and FPU pointers, as a
    dict (None when the operand would overlap the code). Shared with genqemu.py."""
    op = int(key[:2], 16)
    regs, segs = rand_regs(r)
    fpu = rand_fpu(r, form, mode)
    override = r.choice(SEGS) if r.random() < 0.2 else None
    rm = 0
    ram = {}
    membytes = b""
    operand = None
    if form["kind"] == "mem":
        reg = int(key[3])
        size = MEM_SIZE[form["mem"]]
        got = modrm_mem(r, reg, regs, segs, size, override)
        if got is None:
            return None
        modrm, lin = got
        operand = lin
        code = bytes([op]) + modrm
        if override:
            code = bytes([SEG_PREFIX[override]]) + code
        membytes = mem_value(r, form["mem"])
        for i, b in enumerate(membytes):
            ram[lin + i] = b
    elif form["kind"] == "reg":
        reg = int(key[3])
        rm = r.randrange(8)
        code = bytes([op, 0xC0 | (reg << 3) | rm])
    else:
        code = bytes([op, int(key[3:5], 16)])
    lin = regs["cs"] * 16 + regs["eip"]
    if any(lin <= a < lin + len(code) for a in ram):
        return None
    ptrs = dict(fip=r.getrandbits(20), fop=r.getrandbits(11), fdp=r.getrandbits(20))
    if form["mem"] in ("out14", "out94"):
        # Unicorn's FRSTOR does not load the pointers (they read 0 after it): FNSTENV and FNSAVE
        # start from zero pointers, which Intel's parts then store as loaded.
        ptrs = dict(fip=0, fop=0, fdp=0)
    return dict(regs=regs, fpu=fpu, code=code, ram=ram, membytes=membytes, rm=rm, ptrs=ptrs,
                lin=operand)

def record_x87(form, d):
    """Runs a drawn test in Unicorn: the test (without departures) and the final FNSAVE image,
    or None when the draw is dropped."""
    regs, code, ram = d["regs"], d["code"], d["ram"]
    img = fpu_image(*d["fpu"], **d["ptrs"])
    run = Run()
    run.load_fpu(img)
    got = run.run(regs, code, ram)
    if got is None:
        return None
    fin, init_ram, fin_ram, exc = got
    fin_img = run.save_fpu()
    init_fpu = fpu_json(img)
    name = form["name"]
    t = vector(name, code, regs, init_ram, fin, fin_ram, exc)
    t["initial"]["fpu"] = init_fpu
    t["final"]["fpu"] = fpu_json(fin_img)
    return t, fin_img

def x87_test(r, key, form, mode):
    d = draw_x87(r, key, form, mode)
    if d is None:
        return None
    got = record_x87(form, d)
    if got is None:
        return None
    t, fin_img = got
    regs, code, ram, fpu, rm, membytes = d["regs"], d["code"], d["ram"], d["fpu"], d["rm"], d["membytes"]
    fin = t["final"]["regs"]
    fin_ram = [tuple(x) for x in t["final"]["ram"]]
    name = form["name"]
    t["fpu_unchecked"] = fpu_unchecked(key, form)
    classes = operand_classes(form, fpu, rm, membytes)
    deps = x87_departures(key, form, classes, fpu, fin_img, membytes, name)
    if not form["pc"] and mode[1] != 3:
        # Precision control applies only to FADD, FSUB, FMUL, FDIV, FSQRT (SDM vol. 1 §8.1.5.2):
        # the same test under 64-bit precision must give the same result.
        fpu64 = (fpu[0] | 0x300,) + fpu[1:]
        img64 = fpu_image(*fpu64, fip=0, fop=0, fdp=0)
        run2 = Run()
        run2.load_fpu(img64)
        fin2, _, fin_ram2, _ = run2.run(regs, code, ram) or (None, None, None, None)
        f2 = run2.save_fpu()
        if f2[2:4] != fin_img[2:4] or f2[14:] != fin_img[14:] or fin_ram2 != fin_ram or fin2 != fin:
            if form["mem"] not in CONTROL:
                deps.append("precision-control")
    if deps:
        t["departures"] = sorted(set(deps))
    return t

def vector(name, code, regs, init_ram, fin, fin_ram, exc):
    return {"name": name, "bytes": list(code),
            "initial": {"regs": dict(regs), "ram": [list(x) for x in init_ram]},
            "final": {"regs": fin, "ram": [list(x) for x in fin_ram]},
            "exception": None if exc is None else {"vector": exc},
            "flags_mask": FLAGS_MASK}

# ---------------------------------------------------------------- the 486 instructions

def i486_forms():
    f = {}
    for pre in ["", "66", "67", "66_67", "F0", "F0_66", "F3", "26", "64"]:
        for op, n in [(0xC0, "xadd r/m8,r8"), (0xC1, "xadd r/m,r"), (0xB0, "cmpxchg r/m8,r8"),
                      (0xB1, "cmpxchg r/m,r")]:
            if op in (0xC0, 0xB0) and "66" in pre:
                continue
            f[(pre + "_" if pre else "") + "0F_%02X" % op] = dict(name=n, op=op, pre=pre)
    for pre in ["", "66", "F3"]:
        for r in range(8):
            f[(pre + "_" if pre else "") + "0F_%02X" % (0xC8 + r)] = dict(name="bswap r32", op=0xC8 + r, pre=pre)
    for pre in ["", "F3", "66"]:
        for op, n in [(0x08, "invd"), (0x09, "wbinvd")]:
            f[(pre + "_" if pre else "") + "0F_%02X" % op] = dict(name=n, op=op, pre=pre)
    return f

def i486_test(r, key, form):
    pre = [int(p, 16) for p in form["pre"].split("_") if p]
    op = form["op"]
    addr32 = 0x67 in pre
    regs, segs = rand_regs(r, addr32)
    ram = {}
    undefined = {}
    if op in (0xC0, 0xC1, 0xB0, 0xB1):
        size = 1 if op in (0xC0, 0xB0) else (2 if 0x66 not in pre else 4)
        reg = r.randrange(8)
        if r.random() < 0.5 or 0xF0 in pre and r.random() < 0.7:
            override = None
            seg_pre = [p for p in pre if p in SEG_PREFIX.values()]
            if seg_pre:
                override = [s for s, v in SEG_PREFIX.items() if v == seg_pre[0]][0]
            got = modrm_mem(r, reg, regs, segs, size, override, addr32)
            if got is None:
                return None
            modrm, lin = got
            for i in range(size):
                ram[lin + i] = r.getrandbits(8)
            if op in (0xB0, 0xB1) and r.random() < 0.5:
                # make the comparison succeed half the time
                acc = int.from_bytes(bytes(ram[lin + i] for i in range(size)), "little")
                regs["eax"] = (regs["eax"] & ~((1 << (8 * size)) - 1)) | acc
        else:
            modrm = bytes([0xC0 | (reg << 3) | r.randrange(8)])
            if op in (0xB0, 0xB1) and r.random() < 0.5:
                regs["eax"] = regs[GPR16[modrm[0] & 7]] if size > 1 or modrm[0] & 7 < 4 else regs["eax"]
        code = bytes(pre) + bytes([0x0F, op]) + modrm
    elif op >= 0xC8:
        code = bytes(pre) + bytes([0x0F, op])
        if 0x66 in pre:
            # BSWAP with a 16-bit operand: the result is undefined (SDM vol. 2, BSWAP)
            undefined[GPR16[op - 0xC8]] = 0xFFFF
    else:
        code = bytes(pre) + bytes([0x0F, op])
    got = Run().run(regs, code, ram)
    if got is None:
        return None
    fin, init_ram, fin_ram, exc = got
    t = vector(form["name"], code, regs, init_ram, fin, fin_ram, exc)
    if undefined:
        t["regs_undefined"] = undefined
    esc = len(pre)  # the 0F escape, then the opcode and the ModR/M byte
    if 0xF0 in pre and code[esc + 1] in (0xC0, 0xC1, 0xB0, 0xB1) and code[esc + 2] >= 0xC0 and exc != 6:
        # LOCK with a register destination raises #UD (SDM vol. 2, LOCK); Unicorn runs it
        t["departures"] = ["lock-register"]
    if exc is not None:
        t["final"]["regs"] = dict(regs)  # the state at the fault, before delivery
    return t

# ---------------------------------------------------------------- main

def gen_form(seed, key, count, family):
    r = random.Random("%d:%s" % (seed, key))
    tests = []
    tries = 0
    while len(tests) < count and tries < count * 20:
        tries += 1
        if family == "x87":
            form = X87[key]
            t = x87_test(r, key, form, PCS[len(tests) % len(PCS)])
        else:
            t = i486_test(r, key, I486[key])
        if t is not None:
            tests.append(t)
    return tests

X87 = x87_forms()
I486 = i486_forms()

def write(path, obj):
    data = json.dumps(obj, separators=(",", ":"), sort_keys=True).encode()
    with open(path, "wb") as fh:
        with gzip.GzipFile(fileobj=fh, mode="wb", mtime=0, filename="") as gz:
            gz.write(data)

def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--count", type=int, default=120, help="tests per x87 form (10 per rounding x precision mode)")
    ap.add_argument("--count486", type=int, default=100, help="tests per 486 form")
    ap.add_argument("--out", default="tests/vectors")
    ap.add_argument("--only", default=None, help="regex on form names")
    ap.add_argument("--list", action="store_true")
    a = ap.parse_args()
    for family, forms, count, sub in [("x87", X87, a.count, "x87"), ("486", I486, a.count486, "486-real")]:
        outdir = os.path.join(a.out, sub)
        os.makedirs(outdir, exist_ok=True)
        index = []
        for key in sorted(forms):
            if a.only and not re.search(a.only, key):
                continue
            if a.list:
                print(family, key, forms[key]["name"])
                continue
            tests = gen_form(a.seed, key, count, family)
            write(os.path.join(outdir, key + ".json.gz"), tests)
            deps = {}
            for t in tests:
                for d in t.get("departures", []):
                    deps[d] = deps.get(d, 0) + 1
            exc = {}
            for t in tests:
                if t["exception"]:
                    v = str(t["exception"]["vector"])
                    exc[v] = exc.get(v, 0) + 1
            index.append({"form": key, "description": forms[key]["name"], "tests": len(tests),
                          "departures": deps, "exceptions": exc})
            print(family, key, len(tests), deps, exc, file=sys.stderr)
        if not a.list and not a.only:
            with open(os.path.join(outdir, "index.json"), "w") as fh:
                json.dump({"seed": a.seed, "unicorn": UC_VERSION, "family": family,
                           "forms": index}, fh, indent=1, sort_keys=True)
                fh.write("\n")

if __name__ == "__main__":
    main()
