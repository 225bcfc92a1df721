#!/usr/bin/env python3
"""Counts the window's audio underruns: runs the replica and each corpus
program in the SDL window (under Xvfb) for 60 emulated seconds with SDL's
`disk` audio driver, which drains the audio device in real time (its 1024-
sample buffers every 23 ms, about 1% faster than 44100 Hz, so the run must
follow the device's clock), with the corpus's keys, one run at a time.

Usage: python3 tools/window-sound.py [--seconds S] [--only NAME,...]
Prints one line per program: NAME, seconds of sound, underruns, wall time.
Exit 1 if any run had an underrun or did not report its sound.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
T = os.path.join(ROOT, "target/release/tandem")
CORPUS = os.environ.get("CORPUS", os.path.join(ROOT, "../shared/corpus"))


def runs():
    yield "replica", [], None
    with open(os.path.join(ROOT, "tests/corpus/corpus.toml"), "rb") as f:
        manifest = tomllib.load(f)
    for p in manifest["program"]:
        args = ["--cpu", str(p["cpu"])]
        if "mhz" in p:
            args += ["--mhz", str(p["mhz"])]
        for k in p.get("presses", []):
            args += ["--press", k]
        yield p["name"], args, p


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--only", default="")
    a = ap.parse_args()
    only = set(filter(None, a.only.split(",")))
    if not os.access(T, os.X_OK):
        sys.exit(f"window-sound: {T}: not built (cargo build --release)")
    bad = 0
    for name, args, p in runs():
        if only and name not in only:
            continue
        work = tempfile.mkdtemp(prefix="tandem-ws-")
        try:
            cmd = [T, "run", "--seconds", str(a.seconds)] + args
            if p is not None:
                sub = p.get("install")
                dest = os.path.join(work, sub) if sub else os.path.join(work, "c")
                shutil.copytree(os.path.join(CORPUS, p["folder"]), dest)
                mount = work if sub else dest
                cmd += ["--mount", mount, os.path.join(dest, p["program"])]
            env = dict(os.environ, SDL_AUDIODRIVER="disk",
                       SDL_DISKAUDIOFILE=os.path.join(work, "audio.raw"))
            t0 = time.monotonic()
            r = subprocess.run(["xvfb-run", "-a"] + cmd, env=env, cwd=work,
                               stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, encoding="utf-8",
                               errors="replace", timeout=a.seconds * 3 + 60)
            wall = time.monotonic() - t0
            m = re.search(r"sound: ([\d.]+) s, (\d+) underruns", r.stderr)
            if m is None:
                bad += 1
                print(f"{name:10} no sound reported (exit {r.returncode}): {r.stderr.strip()[-200:]}")
                continue
            secs, under = float(m.group(1)), int(m.group(2))
            bad += under > 0
            print(f"{name:10} {secs:6.1f} s of sound  {under:3} underruns  {wall:6.1f} s wall", flush=True)
        finally:
            shutil.rmtree(work, ignore_errors=True)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
