#!/usr/bin/env python3
"""Runs the CPU-bound programs of roms/bench under tandem and under DOSBox
0.74 (Debian's `dosbox`), side by side, and prints the ratio of whole-process
wall times (issue 17: tandem's goal is >= 1.5x DOSBox's normal core).

tandem:  target/release/tandem run --headless --cpu 386 PROG
         (headless tandem runs as fast as the host allows)
DOSBox:  a generated conf with core=normal, cputype=386, cycles=fixed 2000000
         (more cycles per millisecond than the host can give, so DOSBox too
         runs as fast as it can; 0.74's cputype values are auto, 386,
         386_slow, 486_slow, pentium_slow and 386_prefetch), SDL's dummy
         video and audio drivers, the
         program's folder mounted as C:, its output redirected to a file, exit.

Both must print the same line "NAME checksum XXXXXXXX": a mismatch (or a
missing checksum) is an error and the script exits 1. Each program is run
RUNS times under each emulator, interleaved (tandem, DOSBox, next program,
...; then the next round) so a host slowdown hits both; the table gives the
medians and the ratio DOSBox/tandem (above 1: tandem is faster).

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
core=normal
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


def checksum(text, who, prog):
    """The checksum line of a run's output, or an error."""
    m = CHECKSUM.search(text)
    if not m:
        raise RuntimeError(f"{prog}: no checksum from {who}: {text[-300:]!r}")
    return m.group(0)


def run_tandem(tandem, prog):
    """Wall time and checksum line of one tandem run."""
    start = time.monotonic()
    p = subprocess.run([tandem, "run", "--headless", "--cpu", "386", prog],
                       capture_output=True, text=True, stdin=subprocess.DEVNULL,
                       env=dict(os.environ, SDL_VIDEODRIVER="dummy",
                                SDL_AUDIODRIVER="dummy"), check=False)
    wall = time.monotonic() - start
    if p.returncode != 0:
        raise RuntimeError(f"{prog}: tandem exit {p.returncode}: {p.stderr[-300:]}")
    return wall, checksum(p.stdout, "tandem", prog)


def run_dosbox(dosbox, prog, work):
    """Wall time and checksum line of one DOSBox run (in a fresh folder)."""
    folder = tempfile.mkdtemp(dir=work)
    name = os.path.basename(prog).upper()
    shutil.copy(prog, os.path.join(folder, name))
    conf = os.path.join(folder, "dosbox.conf")
    with open(conf, "w", encoding="ascii") as f:
        f.write(DOSBOX_CONF.format(folder=folder, prog=name))
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    start = time.monotonic()
    p = subprocess.run([dosbox, "-conf", conf, "-exit", "-noconsole"],
                       capture_output=True, text=True, stdin=subprocess.DEVNULL,
                       env=env, cwd=folder, check=False)
    wall = time.monotonic() - start
    out = os.path.join(folder, "OUT.TXT")
    text = open(out, encoding="latin-1").read() if os.path.exists(out) else ""
    if p.returncode != 0 and not text:
        raise RuntimeError(f"{prog}: dosbox exit {p.returncode}: {p.stderr[-300:]}")
    return wall, checksum(text, "DOSBox", prog)


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
    times = {p: ([], []) for p in progs}
    with tempfile.TemporaryDirectory() as work:
        try:
            for _ in range(a.runs):
                for p in progs:
                    t, ct = run_tandem(a.tandem, p)
                    d, cd = run_dosbox(a.dosbox, p, work)
                    if ct != cd:
                        raise RuntimeError(f"{p}: checksums differ: tandem {ct!r}, DOSBox {cd!r}")
                    times[p][0].append(t)
                    times[p][1].append(d)
        except (RuntimeError, OSError) as e:
            print(f"side-by-side: error: {e}", file=sys.stderr)
            return 1
    if not a.json:
        print(f"{'program':10} {'tandem s':>9} {'DOSBox s':>9} {'DOSBox/tandem':>14}"
              f"   (median of {a.runs}, whole process)")
    for p in progs:
        t = statistics.median(times[p][0])
        d = statistics.median(times[p][1])
        name = os.path.splitext(os.path.basename(p))[0]
        if a.json:
            print(json.dumps({"program": name, "tandem_s": t, "dosbox_s": d,
                              "ratio": d / t, "runs": a.runs}))
        else:
            print(f"{name:10} {t:9.2f} {d:9.2f} {d / t:14.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
