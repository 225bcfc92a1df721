#!/usr/bin/env python3
"""Runs the CPU-bound programs of roms/bench under tandem and under DOSBox
0.74 (Debian's `dosbox`) with its normal core and its dynamic recompiler,
side by side, and prints the ratios of the emulation times (issue 31's bar:
at least 3x DOSBox's normal core and 0.5x its dynamic core).

tandem:  target/release/tandem run --headless --cpu 386 PROG
         (headless tandem runs as fast as the host allows)
DOSBox:  a generated conf with core=normal (or dynamic), cputype=386,
         cycles=fixed 2000000
         (more cycles per millisecond than the host can give, so DOSBox too
         runs as fast as it can; 0.74's cputype values are auto, 386,
         386_slow, 486_slow, pentium_slow and 386_prefetch), SDL's dummy
         video and audio drivers, the
         program's folder mounted as C:, its output redirected to a file, exit.

Start-up is not emulation: each emulator also runs a program that exits
at once (MOV AX,4C00h / INT 21h, written to the work folder), RUNS times
interleaved with the rest, and the median of those start-up times is
subtracted from each emulator's median (the raw whole-process medians are
printed too, and given in --json).

Both must print the same line "NAME checksum XXXXXXXX": a mismatch (or a
missing checksum) is an error and the script exits 1. Each program is run
RUNS times under each emulator, interleaved (tandem, DOSBox, next program,
...; then the next round) so a host slowdown hits both; the table gives the
medians, start-up subtracted, and the ratios DOSBox/tandem (above 1:
tandem is faster).

The corpus's benchmarks (mips/MIPS.COM, topbench/TOPBENCH.EXE) are not run:
both time their own loops by the PIT/BIOS clock and report a rate on an
interactive screen, so they run for a fixed emulated time and wait for a
key; their whole-process time measures nothing about the core.

Usage (from the repository root, after cargo build --release):
  tools/speed/side-by-side.py [--runs 5] [--tandem PATH] [--dosbox PATH]
                              [--json] [PROGRAM.com ...]
Timing is wall time of the whole process; other load on the host shows up
in both columns, so compare the ratio rather than the seconds.
"""

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT_PROGRAMS = ["alu", "mem", "str", "calls", "b32"]
CHECKSUM = re.compile(r"(\w+) checksum ([0-9A-F]{8})")

DOSBOX_CONF = """[sdl]
output=surface
[cpu]
core={core}
cputype=386
cycles=fixed 2000000
[mixer]
nosound=true
[speaker]
pcspeaker=false
[autoexec]
mount c "{folder}"
c:
{prog} > OUT.TXT
exit
"""
CORES = ["normal", "dynamic"]
# MOV AX,4C00h; INT 21h: the program that measures start-up.
EXIT_AT_ONCE = bytes([0xB8, 0x00, 0x4C, 0xCD, 0x21])


def checksum(text, who, prog):
    """The checksum line of a run's output, or an error."""
    m = CHECKSUM.search(text)
    if not m:
        raise RuntimeError(f"{prog}: no checksum from {who}: {text[-300:]!r}")
    return m.group(0)


def run_tandem(tandem, prog, want_checksum=True):
    """Wall time and checksum line of one tandem run."""
    start = time.monotonic()
    p = subprocess.run([tandem, "run", "--headless", "--cpu", "386", prog],
                       capture_output=True, text=True, stdin=subprocess.DEVNULL,
                       env=dict(os.environ, SDL_VIDEODRIVER="dummy",
                                SDL_AUDIODRIVER="dummy"), check=False)
    wall = time.monotonic() - start
    if p.returncode != 0:
        raise RuntimeError(f"{prog}: tandem exit {p.returncode}: {p.stderr[-300:]}")
    return wall, checksum(p.stdout, "tandem", prog) if want_checksum else ""


def run_dosbox(dosbox, prog, work, core, want_checksum=True):
    """Wall time and checksum line of one DOSBox run (in a fresh folder)."""
    folder = tempfile.mkdtemp(dir=work)
    name = os.path.basename(prog).upper()
    shutil.copy(prog, os.path.join(folder, name))
    conf = os.path.join(folder, "dosbox.conf")
    with open(conf, "w", encoding="ascii") as f:
        f.write(DOSBOX_CONF.format(folder=folder, prog=name, core=core))
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    start = time.monotonic()
    p = subprocess.run([dosbox, "-conf", conf, "-exit", "-noconsole"],
                       capture_output=True, text=True, stdin=subprocess.DEVNULL,
                       env=env, cwd=folder, check=False)
    wall = time.monotonic() - start
    out = os.path.join(folder, "OUT.TXT")
    text = open(out, encoding="latin-1").read() if os.path.exists(out) else ""
    if p.returncode != 0 and (want_checksum and not text):
        raise RuntimeError(f"{prog}: dosbox exit {p.returncode}: {p.stderr[-300:]}")
    return wall, checksum(text, f"DOSBox ({core})", prog) if want_checksum else ""


def net(raw, startup):
    """A median with the start-up median taken off (never below 1 ms)."""
    return max(raw - startup, 0.001)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("programs", nargs="*", help=".COM programs (default: roms/bench/*)")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--tandem", default=os.path.join(ROOT, "target/release/tandem"))
    ap.add_argument("--dosbox", default=shutil.which("dosbox") or "dosbox")
    ap.add_argument("--json", action="store_true", help="one JSON object per program")
    a = ap.parse_args()
    progs = a.programs or [os.path.join(ROOT, "roms/bench", p + ".com")
                           for p in DEFAULT_PROGRAMS]
    # times[prog]["tandem" | core] = [seconds per run]; prog None = start-up.
    times = {p: {k: [] for k in ["tandem"] + CORES} for p in [None] + progs}
    with tempfile.TemporaryDirectory() as work:
        exit_prog = os.path.join(work, "exit.com")
        with open(exit_prog, "wb") as f:
            f.write(EXIT_AT_ONCE)
        try:
            for _ in range(a.runs):
                times[None]["tandem"].append(run_tandem(a.tandem, exit_prog, False)[0])
                for core in CORES:
                    times[None][core].append(run_dosbox(a.dosbox, exit_prog, work, core, False)[0])
                for p in progs:
                    t, ct = run_tandem(a.tandem, p)
                    times[p]["tandem"].append(t)
                    for core in CORES:
                        d, cd = run_dosbox(a.dosbox, p, work, core)
                        if ct != cd:
                            raise RuntimeError(f"{p}: checksums differ: tandem {ct!r}, "
                                               f"DOSBox {core} {cd!r}")
                        times[p][core].append(d)
        except (RuntimeError, OSError) as e:
            print(f"side-by-side: error: {e}", file=sys.stderr)
            return 1
    med = {p: {k: statistics.median(v) for k, v in ks.items()} for p, ks in times.items()}
    up = med[None]
    if not a.json:
        print(f"start-up (median of {a.runs}): tandem {up['tandem']:.3f} s, DOSBox normal "
              f"{up['normal']:.3f} s, dynamic {up['dynamic']:.3f} s (subtracted below)")
        print(f"{'program':10} {'tandem s':>9} {'normal s':>9} {'dynamic s':>10}"
              f" {'normal/tandem':>14} {'dynamic/tandem':>15}")
    for p in progs:
        m = med[p]
        t, n, d = (net(m[k], up[k]) for k in ["tandem", "normal", "dynamic"])
        name = os.path.splitext(os.path.basename(p))[0]
        if a.json:
            print(json.dumps({"program": name, "runs": a.runs,
                              "tandem_s": t, "normal_s": n, "dynamic_s": d,
                              "ratio_normal": n / t, "ratio_dynamic": d / t,
                              "raw": m, "startup": up}))
        else:
            print(f"{name:10} {t:9.2f} {n:9.2f} {d:10.2f} {n / t:14.2f} {d / t:15.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
