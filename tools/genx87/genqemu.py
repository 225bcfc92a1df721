#!/usr/bin/env python3
"""genqemu: x87 test vectors whose final FPU state comes from QEMU 7.2's qemu-i386.

The initial states are drawn exactly as genx87.py draws them (its draw_x87) and recorded in
Unicorn as there (registers, the RAM the instruction reads, the final registers); then each
instruction runs again under qemu-i386 in 32-bit code (tools/genx87/harness.asm): FRSTOR of
the 32-bit image of the same state, the instruction with a 32-bit absolute memory operand,
FNSAVE. The final FPU state, the memory operand and EAX are QEMU's. QEMU 7.2 sets the status
flags, C1, DE, the invalid-encoding and SNaN classes per Intel, so only `fip`, `fdp`, `fop`
(16-bit real mode against 32-bit flat) and, but for the compares, C0/C2/C3 are unchecked;
`departures` lists only where QEMU 7.2 departs from Intel's SDM (README.md).
"""
import argparse
import gzip
import math
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from fractions import Fraction

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import genx87 as g  # noqa: E402

SEED = 0x80387
REC = 256
IMAGE32, EAX, CODE, OPERAND = 0, 108, 112, 128
# Forms not recorded (none: F2XM1, FYL2X, FPATAN, FYL2XP1, FPREM and FPREM1 are in since the
# core's versions were proven against mpmath, tests/tests/x87_transcendental.rs).
LEFT_OUT = set()
# QEMU 7.2 computes these with the host's double (53 bits) and no C2 for large operands.
HOST_DOUBLE = {"D9_F2", "D9_FB", "D9_FE", "D9_FF"}  # FPTAN, FSINCOS, FSIN, FCOS
STORES = ("st32", "st64", "st10", "st2", "st4", "st8", "out2")
# FLDENV/FRSTOR and FNSTENV/FNSTSAVE: the image in memory, 16-bit real mode in the test, 32-bit
# protected mode under QEMU (SDM vol. 1 figures 8-9, 8-10), converted both ways.
IMAGES = ("env", "save", "out14", "out94")
# The instructions that define C0, C2 and C3: the compares, FXAM, FPREM and FPREM1.
CC_DEFINED = set(g.COMPARES) | {"D9_F5", "D9_F8"}


# The instructions whose C1 QEMU 7.2 sets as Intel does: FXAM (the sign), FDECSTP and FINCSTP
# (cleared), FPREM (Q0 of the quotient; FPREM1 leaves it clear, `fprem1-quotient`).
C1_DONE = ("D9_E5", "D9_F6", "D9_F7", "D9_F8")


def build_harness(workdir):
    """Assembles and links harness.asm; returns the program and the address of `rec`."""
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "harness.asm")
    obj, exe = os.path.join(workdir, "harness.o"), os.path.join(workdir, "harness")
    subprocess.run(["nasm", "-f", "elf32", src, "-o", obj], check=True)
    subprocess.run(["ld", "-m", "elf_i386", "-N", "--no-warn-rwx-segments", "-o", exe, obj],
                   check=True)
    nm = subprocess.run(["nm", exe], check=True, capture_output=True, text=True).stdout
    rec = [int(line.split()[0], 16) for line in nm.splitlines() if line.endswith(" rec")]
    return exe, rec[0]


def to_image32(img16):
    """A 16-bit real-mode FSTENV/FSAVE image (14 or 94 bytes, SDM vol. 1 figure 8-10) in the
    32-bit protected-mode layout (28 or 108 bytes, figure 8-9): the same words and registers,
    the 20-bit pointers as offsets, the opcode beside a zero selector."""
    w = [int.from_bytes(img16[2 * i:2 * i + 2], "little") for i in range(7)]
    fip, fop, fdp = w[3] | (w[4] >> 12) << 16, w[4] & 0x7FF, w[5] | (w[6] >> 12) << 16
    head = b"".join(x.to_bytes(4, "little") for x in (w[0], w[1], w[2], fip, fop << 16, fdp, 0))
    return head + bytes(img16[14:])


def to_image16(img32, ptrs16):
    """The 32-bit image `img32` back in the 16-bit real-mode layout, with the pointer words of
    `ptrs16` (the 16-bit image the test started from: the control instructions keep them)."""
    words = b"".join(img32[4 * i:4 * i + 2] for i in range(3))
    return words + bytes(ptrs16[6:14]) + bytes(img32[28:])


def image32(fpu, ptrs):
    """The 108-byte 32-bit FRSTOR image of a drawn state."""
    return to_image32(g.fpu_image(*fpu, **ptrs))


def code32(key, form, d, rec):
    """The instruction in 32-bit code: a memory operand as [disp32] at the record's operand (the
    segment prefix dropped); the register and fixed forms as drawn (no prefix, two bytes)."""
    if form["kind"] == "mem":
        return bytes([int(key[:2], 16), (int(key[3]) << 3) | 5]) + (rec + OPERAND).to_bytes(4, "little")
    return d["code"]


def record(d, key, form, rec, cw=None):
    """The input record of a draw (with control word `cw` if given)."""
    fpu = d["fpu"] if cw is None else (cw,) + d["fpu"][1:]
    out = bytearray(REC)
    out[IMAGE32:IMAGE32 + 108] = image32(fpu, d["ptrs"])
    out[EAX:EAX + 4] = d["regs"]["eax"].to_bytes(4, "little")
    mem = to_image32(d["membytes"]) if form["mem"] in ("env", "save") else d["membytes"]
    out[OPERAND:OPERAND + len(mem)] = mem
    code = code32(key, form, d, rec)
    out[CODE:CODE + 16] = code + b"\x90" * (16 - len(code))
    return bytes(out)


def run_qemu(exe, records):
    """Runs the records through the harness; the output records."""
    got = subprocess.run(["qemu-i386", exe], input=b"".join(records), capture_output=True, check=True)
    out = got.stdout
    if len(out) != REC * len(records):
        raise SystemExit("harness: %d bytes for %d records" % (len(out), len(records)))
    return [out[i * REC:(i + 1) * REC] for i in range(len(records))]


def fpu_json32(out, unicorn_final):
    """The final state in the test format: words and registers from QEMU's 32-bit image, the
    pointers (unchecked) from the Unicorn run, the opcode QEMU's."""
    w = [int.from_bytes(out[4 * i:4 * i + 4], "little") for i in range(7)]
    return {"cw": w[0] & 0xFFFF, "sw": w[1] & 0xFFFF, "tw": w[2] & 0xFFFF,
            "fip": unicorn_final["fip"], "fdp": unicorn_final["fdp"], "fop": (w[4] >> 16) & 0x7FF,
            "st": ["%020x" % int.from_bytes(out[28 + 10 * i:38 + 10 * i], "little") for i in range(8)]}


def sig_bits(kind, membytes):
    """The significant bits of an integer or m64fp memory operand (its span, lowest set to
    highest set)."""
    v = int.from_bytes(membytes, "little")
    if kind == "m64fp":
        e = (v >> 52) & 0x7FF
        m = v & ((1 << 52) - 1) | ((1 << 52) if e else 0)
    else:
        bits = 8 * len(membytes)
        m = abs(v - (1 << bits) if v >> (bits - 1) else v)
    if m == 0:
        return 0
    return m.bit_length() - ((m & -m).bit_length() - 1)


def st_in(fpu, i):
    """ST(i) of a drawn state (None when empty)."""
    _, _, top, phys, empty = fpu
    p = (top + i) & 7
    return None if empty[p] else phys[p]


def f80_value(v):
    """The exact value of a finite 80-bit encoding (denormals at exponent 1)."""
    e, m = (v >> 64) & 0x7FFF, v & ((1 << 64) - 1)
    x = Fraction(m) * Fraction(2) ** (max(e, 1) - 16383 - 63)
    return -x if v >> 79 else x


def unbiased_exponent(v):
    """The exponent of a finite nonzero 80-bit value once normalized."""
    m = v & ((1 << 64) - 1)
    return max((v >> 64) & 0x7FFF, 1) - (64 - m.bit_length())


def looks_signaling(v):
    """A pseudo-NaN (integer bit clear) whose bit 62 is clear too: softfloat's SNaN test."""
    return v is not None and g.classify80(v) == "pseudo-nan" and not (v >> 62) & 1


def is_nan80(v):
    """A NaN encoding (exponent all ones, fraction nonzero), pseudo-NaNs included."""
    return (v >> 64) & 0x7FFF == 0x7FFF and v & ((1 << 63) - 1) != 0


# FYL2XP1's domain: |x| < 1 - sqrt(2)/2 (SDM vol. 2 FYL2XP1); the bound is irrational.
FYL2XP1_BOUND = 1 - math.sqrt(2) / 2


def outside_domain(key, st0):
    """F2XM1 outside -1..+1, FYL2XP1 outside +-(1 - sqrt(2)/2): undefined (SDM vol. 2)."""
    if st0 is None or g.classify80(st0) != "normal":
        return False
    x = abs(f80_value(st0))
    return key == "D9_F0" and x > 1 or key == "D9_F9" and x > FYL2XP1_BOUND


def fprem1_quotient_bits(a, b):
    """Q2, Q1 of FPREM1's rounded quotient when the reduction completes (exponents within 64),
    else 0; a and b normal or denormal (SDM vol. 2 FPREM1)."""
    x, y = f80_value(a), f80_value(b)
    if x == 0 or y == 0 or unbiased_exponent(a) - unbiased_exponent(b) >= 64:
        return 0
    q = abs(x / y)
    n = math.floor(q)
    if q - n > Fraction(1, 2) or q - n == Fraction(1, 2) and n & 1:
        n += 1
    return n & 6


def departures(key, form, d, out, out64):
    """Where QEMU 7.2 departs from Intel's SDM for this test (README.md, QEMU table)."""
    deps = set()
    fpu = d["fpu"]
    classes = g.operand_classes(form, fpu, d["rm"], d["membytes"])
    cw_in = fpu[0]
    sw = int.from_bytes(out[4:6], "little")
    if key in HOST_DOUBLE:
        deps.add("transcendental")
    st0, st1 = st_in(fpu, 0), st_in(fpu, 1)
    if key in ("D9_F0", "D9_F9") and outside_domain(key, st0):
        deps.add("transcendental-domain")  # undefined (SDM vol. 2); QEMU 7.2 gives #IA
    if key in ("D9_F1", "D9_F3", "D9_F9") and any(looks_signaling(v) for v in (st0, st1)):
        # QEMU 7.2 tests for an SNaN before an invalid encoding and takes a pseudo-NaN with bit 62
        # clear for an SNaN, quieted; the 387 and later give #IA, the indefinite (SDM vol. 1
        # §8.2.2, table 8-3).
        deps.add("pseudo-nan-signaling")
    if key in ("D9_F5", "D9_F8") and is_nan80(int.from_bytes(out[28:38], "little")) \
            and fpu[1] & 0x4500:
        # A NaN result has no quotient: SDM vol. 2 FPREM, FPREM1 define C0, C3, C1 as its bits
        # and C2 by the reduction, and no value here. QEMU 7.2 clears them; the core keeps C0,
        # C2, C3.
        deps.add("fprem-special-cc")
    if key == "D9_F5" and st0 is not None and st1 is not None \
            and all(g.classify80(v) in ("normal", "denormal") for v in (st0, st1)):
        q = fprem1_quotient_bits(st0, st1)
        if (q & 4) << 6 | (q & 2) << 13 != sw & 0x4100:
            deps.add("fprem1-quotient")  # QEMU 7.2's FPREM1 leaves C0, C3, C1 clear
    if "empty" in classes or "push-full" in classes:
        deps.add("stack-fault")
    # QEMU 7.2 stores the masked response for an unmasked exception and raises UE only with PE
    # (IEEE's masked rule), where Intel's part withholds or rebiases the result and raises UE on
    # tininess alone (SDM vol. 1 §8.5, §8.5.5.2).
    if sw & 0x3F & ~cw_in & 0x3F or (not g.is_control(key, form) and ~cw_in & 0x3F):
        deps.add("unmasked-exception")
    # QEMU 7.2 (its softfloat since 6.0) raises DE for few denormal operands (SDM vol. 1 §8.5.2):
    # where it leaves DE clear the test is marked; the moves, which raise no DE, are checked.
    if any(c in ("denormal", "pseudo-denormal") for c in classes) and not sw & 0x02 \
            and key not in g.SNAN_QUIET:
        deps.add("denormal-flag")
    if key == "D9.6" and ~cw_in & 0x3F:
        deps.add("fnstenv-masking")  # Intel masks every exception after FNSTENV; QEMU does not
    loaded_cw = int.from_bytes(d["membytes"][:2], "little")
    if form["mem"] in ("cw", "env", "save") and loaded_cw & g.CW_RESERVED != g.CW_RESERVED_VALUE:
        deps.add("reserved-control-bits")  # QEMU keeps them as loaded (SDM vol. 1 §8.1.5)
    if form["mem"] == "m80bcd" and form["name"].startswith("fbld"):
        v = int.from_bytes(d["membytes"], "little")
        if any(((v >> (4 * i)) & 0xF) > 9 for i in range(18)):
            deps.add("bcd-invalid-digit")
    pc = (cw_in >> 8) & 3
    if form["pc"] and form["mem"] in ("m32int", "m64fp", "m16int") and pc != 3 \
            and sig_bits(form["mem"], d["membytes"]) > (24 if pc == 0 else 53):
        # QEMU 7.2 rounds such an operand to PC before the operation (double rounding, PE),
        # where Intel converts it exactly (SDM vol. 1 §8.1.5.2: PC rounds only the result).
        deps.add("precision-control")
    if out64 is not None and (out64[4:6] != out[4:6] or out64[28:108] != out[28:108]
                              or out64[OPERAND:CODE] != out[OPERAND:CODE]):
        deps.add("precision-control")
    return sorted(deps)


def gen_form(exe, rec, seed, key, count):
    form = g.X87[key]
    r = random.Random("%d:%s" % (seed, key))
    drawn = []
    tries = 0
    while len(drawn) < count and tries < count * 20:
        tries += 1
        d = g.draw_x87(r, key, form, g.PCS[len(drawn) % len(g.PCS)])
        if d is None:
            continue
        got = g.record_x87(form, d)
        if got is not None:
            drawn.append((d, got[0]))
    outs = run_qemu(exe, [record(d, key, form, rec) for d, _ in drawn])
    # Precision control applies only to FADD, FSUB, FMUL, FDIV, FSQRT (SDM vol. 1 §8.1.5.2):
    # the others run again under 64-bit precision and must give the same result.
    check_pc = not form["pc"] and not g.is_control(key, form)
    outs64 = run_qemu(exe, [record(d, key, form, rec, d["fpu"][0] | 0x300) for d, _ in drawn]) \
        if check_pc else [None] * len(drawn)
    tests = []
    for (d, t), out, out64 in zip(drawn, outs, outs64):
        t["final"]["fpu"] = fpu_json32(out, t["final"]["fpu"])
        t["final"]["regs"]["eax"] = int.from_bytes(out[EAX:EAX + 4], "little")
        if form["mem"] in STORES + ("out14", "out94"):
            size = g.MEM_SIZE[form["mem"]]
            stored = out[OPERAND:OPERAND + size]
            if form["mem"] in ("out14", "out94"):
                stored = to_image16(out[OPERAND:OPERAND + size + 14],
                                    g.fpu_image(*d["fpu"], **d["ptrs"]))
            ram = dict(tuple(x) for x in t["final"]["ram"])
            for i in range(size):
                ram[d["lin"] + i] = stored[i]
            t["final"]["ram"] = [list(x) for x in sorted(ram.items())]
        unchecked = ["fdp", "fip", "fop"]
        if key not in CC_DEFINED and not g.is_control(key, form):
            unchecked.append("cc")  # C0, C2, C3 undefined (SDM vol. 2, "FPU Flags Affected")
        if key not in C1_DONE and not g.is_control(key, form):
            unchecked.append("c1")  # QEMU 7.2 keeps C1 (README.md)
        t["fpu_unchecked"] = sorted(unchecked)
        deps = departures(key, form, d, out, out64 if out64 is not None and d["fpu"][0] & 0x300 != 0x300 else None)
        if deps:
            t["departures"] = deps
        tests.append(t)
    return tests


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--count", type=int, default=36, help="tests per form (3 per rounding x precision)")
    ap.add_argument("--out", default="tests/vectors")
    ap.add_argument("--only", default=None, help="regex on form names")
    a = ap.parse_args()
    if not shutil.which("qemu-i386"):
        raise SystemExit("qemu-i386 not found (Debian: apt-get install qemu-user)")
    outdir = os.path.join(a.out, "x87-qemu")
    os.makedirs(outdir, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        exe, rec = build_harness(tmp)
        for key in sorted(g.X87):
            if key in LEFT_OUT or (a.only and not re.search(a.only, key)):
                continue
            tests = gen_form(exe, rec, a.seed, key, a.count)
            g.write(os.path.join(outdir, key + ".json.gz"), tests)
            deps = {}
            for t in tests:
                for x in t.get("departures", []):
                    deps[x] = deps.get(x, 0) + 1
            print(key, len(tests), deps, file=sys.stderr)


if __name__ == "__main__":
    main()
