#!/usr/bin/env python3
"""Lists Rust functions longer than N lines (default 150) under the given folders:
   N=150 python3 tools/fnlen.py emu hw dos models frontend tests sst   (prints nothing when none)"""
import os, re, sys
N = int(os.environ.get("N", "150"))
pat = re.compile(r'^\s*(pub(\([^)]*\))?\s+)?(const\s+)?(async\s+)?(unsafe\s+)?fn\s+(\w+)')
for root in sys.argv[1:]:
    for dp, dn, fn in os.walk(root):
        if 'target' in dp: continue
        for f in fn:
            if not f.endswith('.rs'): continue
            p = os.path.join(dp, f)
            lines = open(p, encoding='utf-8', errors='replace').read().split('\n')
            i = 0
            while i < len(lines):
                m = pat.match(lines[i])
                if m:
                    depth = 0; started = False; j = i
                    while j < len(lines):
                        s = re.sub(r'"(\\.|[^"\\])*"', '""', lines[j])
                        s = re.sub(r"'(\\.|[^'\\])'", "''", s)
                        s = s.split('//')[0]
                        for ch in s:
                            if ch == '{': depth += 1; started = True
                            elif ch == '}': depth -= 1
                        if started and depth <= 0: break
                        if not started and s.rstrip().endswith(';'): break
                        j += 1
                    n = j - i + 1
                    if n > N: print(f"{n:5d} {p}:{i+1} {m.group(6)}")
                i += 1
