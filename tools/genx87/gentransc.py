#!/usr/bin/env python3
"""gentransc: reference cases for the x87 transcendentals and FPREM/FPREM1, from mpmath.

Writes tests/vectors/x87-transc.txt.gz (see README.md, "Transcendental references"): one
case a line, the instruction's inputs and Intel's result for them, computed from the
definitions in the SDM (vol. 2 per instruction, vol. 1 §8.3.10) at 400 bits with mpmath and
rounded here to the 80-bit format; FPREM and FPREM1 in exact integer arithmetic.
Deterministic: each instruction draws from random.Random("<seed>:<name>"); gzip has mtime=0.
"""
import argparse
import gzip
import os
import random

from mpmath import mp, mpf

mp.prec = 400
SEED = 0x80487
ONE = (0x3FFF << 64) | (1 << 63)
INDEFINITE = (0xFFFF << 64) | (0xC << 60)
M64 = (1 << 64) - 1
# The x87's 66-bit pi (SDM vol. 1 §8.3.10): pi66 = PI66 * 2^-64; pi66/2 = PI66 * 2^-65.
PI66 = 0x3243F6A8885A308D3
# Status word bits.
IE, DE, ZE, OE, UE, PE, SF = 1, 2, 4, 8, 16, 32, 64
C0, C1, C2, C3 = 1 << 8, 1 << 9, 1 << 10, 1 << 14

OPS = {"F2XM1": 0xF0, "FYL2X": 0xF1, "FPTAN": 0xF2, "FPATAN": 0xF3, "FPREM1": 0xF5,
       "FPREM": 0xF8, "FYL2XP1": 0xF9, "FSINCOS": 0xFB, "FSIN": 0xFE, "FCOS": 0xFF}

# ------------------------------------------------------------------ 80-bit values

def parts(v):
    return v >> 79, (v >> 64) & 0x7FFF, v & M64

def make(sign, exp, sig):
    return (sign << 79) | (exp << 64) | sig

def is_nan(v):
    s, e, m = parts(v)
    return e == 0x7FFF and m != 1 << 63

def is_snan(v):
    return is_nan(v) and not (v >> 62) & 1

def is_inf(v):
    s, e, m = parts(v)
    return e == 0x7FFF and m == 1 << 63

def is_zero(v):
    return v & ((1 << 79) - 1) == 0

def is_denormal(v):
    s, e, m = parts(v)
    return e == 0 and m != 0

def unsupported(v):
    s, e, m = parts(v)
    return e != 0 and not m >> 63

def value(v):
    """The exact value of a finite 80-bit operand."""
    s, e, m = parts(v)
    x = mp.ldexp(mpf(m), max(e, 1) - 16383 - 63)
    return -x if s else x

def rounded(x, rc):
    """x rounded to the 80-bit format under RC: (bits, inexact, rounded up, tiny, overflow)."""
    if x == 0:
        return 0, False, False, False, False
    neg, man, exp, _ = x._mpf_  # |x| = man * 2^exp, exactly (mpf arithmetic would round)
    e = exp + man.bit_length() - 1
    q = max(e, -16382) - 63  # the quantum: 2^q
    if exp >= q:
        n, rem, half = man << (exp - q), 0, 1
    else:
        sh = q - exp
        n, rem, half = man >> sh, man & ((1 << sh) - 1), 1 << (sh - 1)
    up = False
    if rem:
        if rc == 0:
            up = rem > half or (rem == half and n & 1)
        elif rc == 1:
            up = neg
        elif rc == 2:
            up = not neg
        n += up
    if n >> 64:
        n >>= 1
        q += 1
    biased = q + 63 + 16383 if n >> 63 else 0
    if biased >= 0x7FFF:
        to_inf = rc == 0 or (rc == 1 and neg) or (rc == 2 and not neg)
        bits = make(neg, 0x7FFF, 1 << 63) if to_inf else make(neg, 0x7FFE, M64)
        return bits, True, to_inf, False, True
    return make(neg, biased, n), rem != 0, up, biased == 0, False

def quad(x):
    """x rounded to nearest in IEEE quad, as 32 hex digits (the reference for ulp errors)."""
    if x == 0:
        return "%032X" % 0
    neg, man, exp, _ = x._mpf_
    e = max(exp + man.bit_length() - 1, -16382)
    q = e - 112
    if exp >= q:
        n, rem, half = man << (exp - q), 0, 1
    else:
        sh = q - exp
        n, rem, half = man >> sh, man & ((1 << sh) - 1), 1 << (sh - 1)
    n += rem > half or (rem == half and n & 1)
    if n >> 113:
        n >>= 1
        q += 1
    biased = q + 112 + 16383 if n >> 112 else 0
    if biased >= 0x7FFF:
        biased, n = 0x7FFF, 0
    return "%032X" % ((neg << 127) | (biased << 112) | (n & ((1 << 112) - 1)))

# ------------------------------------------------------------------ the model

class Unit:
    """The registers a case touches and the status word, as the x87 leaves them."""

    def __init__(self, cw, st0, st1, full):
        self.rc = (cw >> 10) & 3
        self.st = [st0, st1] + [None] * 5 + [ONE if full else None]
        self.sw = 0
        self.refs = {}

    def push(self, v):
        self.st = [v] + self.st[:7]

    def pop(self):
        self.st = self.st[1:] + [None]

    def invalid(self):
        self.sw |= IE
        return INDEFINITE

    def stack_fault(self, overflow):
        self.sw = (self.sw & ~C1) | IE | SF | (C1 if overflow else 0)

    def check(self, ops):
        """The common operand checks: None, or the result that ends the operation."""
        if any(unsupported(v) for v in ops):
            return self.invalid()
        if any(is_nan(v) for v in ops):
            if len(ops) == 2 and is_nan(ops[0]) and is_nan(ops[1]):
                a, b = ops
                # SDM vol. 1 table 4-7: an SNaN and a QNaN give the QNaN;
                # two of a kind, the larger significand.
                if is_snan(a) != is_snan(b):
                    keep = a if is_snan(b) else b
                else:
                    keep = b if (b & ~(1 << 62) & M64) > (a & ~(1 << 62) & M64) else a
            else:
                keep = next(v for v in ops if is_nan(v))
            if any(is_snan(v) for v in ops):
                self.sw |= IE
            return keep | (1 << 62)
        if any(is_denormal(v) for v in ops):
            self.sw |= DE
        return None

    def out(self, slot, x):
        """Delivers the exact value x, rounded, with its flags; C1 = rounded up."""
        bits, inexact, up, tiny, over = rounded(x, self.rc)
        self.sw &= ~C1
        if over:
            self.sw |= OE
        if inexact:
            self.sw |= PE | (C1 if up else 0)
            if tiny:
                self.sw |= UE
        if inexact and not over:
            self.refs[slot] = quad(x)
        return bits


TINY = mpf(2) ** -100


def neg(x):
    """-x exactly (mpf negation rounds to the working precision)."""
    return mp.fneg(x, exact=True)


def cube(r):
    return mp.fmul(mp.fmul(r, r, exact=True), r, exact=True)


def sin_cos_tan(r):
    """sin, cos, tan of r; below 2^-100 their first two terms summed exactly, so that a
    tiny argument still shows on which side of r (or 1) the value lies."""
    if abs(r) >= TINY:
        return mp.sin(r), mp.cos(r), mp.tan(r)
    s = mp.fsub(r, cube(r) / 6, exact=True)
    c = mp.fsub(1, mp.fmul(r, r, exact=True) / 2, exact=True)
    t = mp.fadd(r, cube(r) / 3, exact=True)
    return s, c, t


def reduce(x):
    """x = r + k * pi66/2, k nearest: (r exactly, k mod 4), |x| < 2^63."""
    s, e, m = parts(x)
    e -= 16383
    if e < -1:
        return value(x), 0
    n = m << (e + 2)
    k, rem = divmod(n, PI66)
    if 2 * rem > PI66:
        k, rem = k + 1, rem - PI66
    r = mp.ldexp(mpf(rem), -65)
    return (neg(r), (-k) % 4) if s else (r, k % 4)


def trig(u, name, x):
    """FSIN, FCOS, FSINCOS, FPTAN on an in-range x: (new ST(0), the pushed value)."""
    if is_inf(x):
        v = u.invalid()
        return v, (v if name in ("FPTAN", "FSINCOS") else None)
    if is_zero(x):
        s, c, t = x, ONE, x
    else:
        r, k = reduce(x)
        s, c, t = sin_cos_tan(r)
        t = t if k % 2 == 0 else neg(c / s)
        s, c = [(s, c), (c, neg(s)), (neg(s), neg(c)), (neg(c), s)][k]
        if name == "FPTAN":
            return u.out(1, t), ONE
        if name == "FSINCOS":
            return u.out(1, s), u.out(0, c)
        return u.out(0, s if name == "FSIN" else c), None
    return {"FPTAN": (t, ONE), "FSINCOS": (s, c), "FSIN": (s, None), "FCOS": (c, None)}[name]


def f2xm1(u, x):
    if is_zero(x):
        return x
    if is_inf(x):
        return make(1, 0x3FFF, 1 << 63) if x >> 79 else x
    v = value(x)
    if v == int(v):
        return u.out(0, mpf(2) ** int(v) - 1)
    return u.out(0, mp.expm1(v * mp.ln2))


def y_log2(u, y, x, plus_one):
    """FYL2X, FYL2XP1: y * log2(x) or y * log2(1 + x), the SDM's tables for the specials."""
    neg_x = x >> 79
    # lg: ("inf", sign), ("zero", sign), or a finite non-zero mpf.
    if plus_one:
        if is_zero(x):
            lg = ("zero", neg_x)
        elif is_inf(x) and not neg_x:
            lg = ("inf", 0)
        elif is_inf(x) or value(x) < -1:
            return u.invalid()
        elif value(x) == -1:
            lg = ("inf", 1)
        else:
            lg = mp.log1p(value(x)) / mp.ln2
    elif neg_x and not is_zero(x):
        return u.invalid()
    elif is_zero(x):
        lg = ("inf", 1)
    elif is_inf(x):
        lg = ("inf", 0)
    else:
        m, e = norm(x)
        if m == 1 << 63:
            lg = mpf(e) if e else ("zero", 0)
        else:
            lg = mp.log(value(x), 2)
    ys, y_zero, y_inf = y >> 79, is_zero(y), is_inf(y)
    if lg == ("inf", 1) and not y_zero and not y_inf:
        u.sw |= ZE
        return make(ys ^ 1, 0x7FFF, 1 << 63)
    if isinstance(lg, tuple):
        kind, ls = lg
        if (kind == "inf" and y_zero) or (kind == "zero" and y_inf):
            return u.invalid()
        big = kind == "inf" or y_inf
        return make(ys ^ ls, 0x7FFF if big else 0, (1 << 63) if big else 0)
    if y_inf or y_zero:
        return make(ys ^ (lg < 0), 0x7FFF if y_inf else 0, (1 << 63) if y_inf else 0)
    return u.out(0, value(y) * lg)


def atan2(u, y, x):
    ys, xs = y >> 79, x >> 79
    pi = mp.pi
    if is_zero(y):
        v = pi if xs else mpf(0)
    elif is_inf(y) and is_inf(x):
        v = 3 * pi / 4 if xs else pi / 4
    elif is_inf(y) or is_zero(x):
        v = pi / 2
    elif is_inf(x):
        v = pi if xs else mpf(0)
    else:
        t = abs(value(y)) / abs(value(x))
        if t < TINY:
            a = mp.fsub(t, cube(t) / 3, exact=True)
            v = mp.pi - a if xs else a
        else:
            v = mp.atan2(abs(value(y)), value(x))
    if v == 0:
        return make(ys, 0, 0)
    return u.out(0, neg(v) if ys else v)


def prem(u, a, b, ieee):
    """FPREM/FPREM1 in integers: the SDM's partial remainder, N = 32 + (D mod 32)."""
    if is_inf(a) or is_zero(b):
        u.sw &= ~C2
        return u.invalid()
    ma, ea = norm(a)
    mb, eb = norm(b)
    d = ea - eb
    if is_inf(b) or is_zero(a) or d < -1 or (d == -1 and not ieee):
        u.sw &= ~(C0 | C1 | C2 | C3)
        return a
    partial = d >= 64
    n = 32 + d % 32 if partial else d
    # |a| = ma * 2^(ea-63), |b| * 2^(d-n) = mb * 2^(ea-n-63): divide the integers ma*2^n / mb.
    num = ma << (n + 1)
    den = mb << 1
    qq, r = divmod(num, den)
    sign = a >> 79
    if ieee and not partial and (2 * r > den or (2 * r == den and qq & 1)):
        qq, r, sign = qq + 1, den - r, sign ^ 1
    u.sw &= ~(C0 | C1 | C2 | C3)
    if partial:
        u.sw |= C2
    else:
        u.sw |= (C0 if qq & 4 else 0) | (C3 if qq & 2 else 0) | (C1 if qq & 1 else 0)
    if r == 0:
        return make(a >> 79, 0, 0)
    bits, inexact, _, _, _ = rounded(mp.ldexp(mpf(r), ea - n - 64), 0)
    assert not inexact
    return bits | (sign << 79)


def norm(v):
    s, e, m = parts(v)
    sh = 64 - m.bit_length()
    return m << sh, max(e, 1) - 16383 - sh


def execute(name, cw, st0, st1, full):
    """Runs one instruction on the model: (unit, top change)."""
    u = Unit(cw, st0, st1, full)
    one_in = name in ("F2XM1", "FSIN", "FCOS", "FPTAN", "FSINCOS")
    pushes = name in ("FPTAN", "FSINCOS")
    if pushes and (st0 is None or full):
        u.stack_fault(st0 is not None)
        u.st[0] = INDEFINITE
        u.push(INDEFINITE)
        return u, -1
    if one_in and st0 is None or not one_in and (st0 is None or st1 is None):
        u.stack_fault(False)
        if name.startswith("FPREM"):
            u.sw &= ~C2
        if one_in or name.startswith("FPREM"):
            u.st[0] = INDEFINITE
            return u, 0
        u.st[1] = INDEFINITE
        u.pop()
        return u, 1
    if name in ("FSIN", "FCOS", "FPTAN", "FSINCOS"):
        u.sw &= ~C2
        s, e, m = parts(st0)
        if not is_nan(st0) and not is_inf(st0) and e >= 16383 + 63:
            u.sw |= C2
            return u, 0
    ops = [st0] if one_in else [st0, st1]
    nan = u.check(ops)
    if name.startswith("FPREM"):
        if nan is not None:
            # A NaN result ends the reduction: C2 = 0; C0, C1, C3 are kept.
            u.sw &= ~C2
            u.st[0] = nan
        else:
            u.st[0] = prem(u, st0, st1, name == "FPREM1")
        return u, 0
    if one_in:
        if nan is not None:
            a, b = nan, (nan if pushes else None)
        elif name == "F2XM1":
            a, b = f2xm1(u, st0), None
        else:
            a, b = trig(u, name, st0)
        u.st[0] = a
        if pushes:
            u.push(b)
            return u, -1
        return u, 0
    if nan is not None:
        r = nan
    elif name == "FPATAN":
        r = atan2(u, st1, st0)
    else:
        r = y_log2(u, st1, st0, name == "FYL2XP1")
    u.st[1] = r
    u.pop()
    return u, 1

# ------------------------------------------------------------------ operands

def rnd_normal(rng, lo, hi):
    """A random normal with unbiased exponent in lo..hi, random sign."""
    return make(rng.getrandbits(1), 16383 + rng.randint(lo, hi), (1 << 63) | rng.getrandbits(63))

def from_mpf(x):
    return rounded(x, 0)[0]

EDGES = [0, 1 << 79, make(0, 0x7FFF, 1 << 63), make(1, 0x7FFF, 1 << 63),
         make(0, 0x7FFF, 0xC000000000000001), make(1, 0x7FFF, 0xA000000000000000),  # QNaN, SNaN
         INDEFINITE, make(0, 0, 1), make(1, 0, 0x0000123456789ABC), make(0, 0x4000, 0x4000000000000000),
         make(0, 0x7FFE, M64), make(0, 1, 1 << 63)]


def near_pi_multiple(rng):
    """An operand close to k * pi66/2 for a random k, up to 2^63 (the worst cases of FSIN)."""
    k = rng.choice([1, 2, 3, 4, rng.randint(5, 1000), rng.getrandbits(rng.randint(10, 61))])
    n = k * PI66  # x * 2^65
    e = n.bit_length() - 64
    x = min(max((n >> e) + rng.randint(-3, 3), 1 << 63), M64)
    return make(rng.getrandbits(1), 16383 + e - 65 + 63, x)


def operand(rng, name):
    """(ST(0), ST(1)) for one case of `name`."""
    if rng.random() < 0.08:
        return rng.choice(EDGES), rng.choice(EDGES + [ONE, rnd_normal(rng, -3, 3)])
    y = rnd_normal(rng, -20, 20) if rng.random() < 0.8 else rnd_normal(rng, -16000, 16000)
    pick = rng.random()
    if name == "F2XM1":
        x = rnd_normal(rng, -70, -1) if pick < 0.7 else (
            rnd_normal(rng, -16382, -60) if pick < 0.85 else from_mpf(mpf(rng.choice([-1, 1])) * mpf(rng.random())))
    elif name == "FYL2XP1":
        lim = 1 - mp.sqrt(2) / 2
        x = from_mpf(lim * (2 * mpf(rng.random()) - 1)) if pick < 0.6 else rnd_normal(rng, -16382, -3)
    elif name == "FYL2X":
        x = rnd_normal(rng, -16000, 16000) if pick < 0.4 else rnd_normal(rng, -2, 2)
        x &= ~(1 << 79)
        if pick > 0.9:
            x = make(0, 16383 + rng.randint(-100, 100), (1 << 63) | rng.getrandbits(2))
    elif name == "FPATAN":
        x = rnd_normal(rng, -30, 30) if pick < 0.8 else rnd_normal(rng, -16000, 16000)
        if pick > 0.9:
            x = make(rng.getrandbits(1), 16383 + rng.randint(-5, 5), 1 << 63)
    elif name.startswith("FPREM"):
        x = rnd_normal(rng, -5, 200) if pick < 0.8 else rnd_normal(rng, -16000, 16000)
        y = rnd_normal(rng, -5, 10) if pick < 0.8 else rnd_normal(rng, -16000, 16000)
        return x, y  # ST(0) the dividend, ST(1) the divisor
    else:
        x = (rnd_normal(rng, -3, 3) if pick < 0.35 else rnd_normal(rng, 3, 62) if pick < 0.55
             else near_pi_multiple(rng) if pick < 0.85 else rnd_normal(rng, -16382, -20))
        if rng.random() < 0.02:
            x = rnd_normal(rng, 63, 70)
    return x, y


def in_domain(name, x):
    """Operands Intel defines a result for (F2XM1 and FYL2XP1 are undefined outside their
    ranges); the specials and unsupported encodings are always in."""
    if x is None or is_nan(x) or is_inf(x) or unsupported(x) or is_zero(x):
        return True
    if name == "F2XM1":
        return abs(value(x)) <= 1
    if name == "FYL2XP1":
        return abs(value(x)) < 1 - mp.sqrt(2) / 2
    return True


def cases(name, count, seed):
    rng = random.Random("%d:%s" % (seed, name))
    out = []
    for i in range(count):
        st0, st1 = operand(rng, name)
        while not in_domain(name, st0):
            st0, st1 = operand(rng, name)
        if rng.random() < 0.02:
            st0 = None
        elif rng.random() < 0.02:
            st1 = None
        full = name in ("FPTAN", "FSINCOS") and rng.random() < 0.03
        rc, pc = i % 4, rng.choice([0, 2, 3])
        cw = 0x007F | (pc << 8) | (rc << 10)
        u, dtop = execute(name, cw, st0, st1, full)
        h = lambda v: "-" if v is None else "%020X" % v
        refs = " ".join(u.refs.get(k, "=") for k in (0, 1))
        out.append("%s %04X %s %s %d %d %s %s %s %04X %s" % (
            name, cw, h(st0), h(st1), full, dtop, h(u.st[0]), h(u.st[1]), h(u.st[2]), u.sw, refs))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", default="tests/vectors/x87-transc.txt.gz")
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--count", type=int, default=700, help="cases per instruction")
    a = ap.parse_args()
    lines = ["# name cw st0 st1 st7-full | top-change st0 st1 st2 sw ref0 ref1 (see README.md)"]
    for name in OPS:
        lines += cases(name, a.count, a.seed)
    data = ("\n".join(lines) + "\n").encode()
    with open(a.out, "wb") as f:
        with gzip.GzipFile(fileobj=f, mode="wb", mtime=0, filename="") as g:
            g.write(data)
    print("%d cases, %d bytes -> %s (%d bytes)" % (len(lines) - 1, len(data), a.out, os.path.getsize(a.out)))


if __name__ == "__main__":
    main()
