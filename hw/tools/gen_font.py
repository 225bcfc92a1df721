#!/usr/bin/env python3
"""Builds hw/src/vga/font8x16.bin (256 glyphs x 16 rows, code page 437 order)
from Spleen 8x16 (BSD-2-clause, Frederic Cambus), as shipped by Debian's
`fonts-spleen` package in /usr/share/consolefonts/spleen-8x16.psfu.gz.

    apt-get download fonts-spleen && dpkg-deb -x fonts-spleen_*.deb x
    python3 hw/tools/gen_font.py x/usr/share/consolefonts/spleen-8x16.psfu.gz

Code points Spleen lacks get a fallback glyph (listed on stderr)."""
import gzip, sys, os

CP437 = ("\u0000\u263a\u263b\u2665\u2666\u2663\u2660\u2022\u25d8\u25cb\u25d9\u2642\u2640\u266a\u266b\u263c"
         "\u25ba\u25c4\u2195\u203c\u00b6\u00a7\u25ac\u21a8\u2191\u2193\u2192\u2190\u221f\u2194\u25b2\u25bc"
         + "".join(chr(c) for c in range(0x20, 0x7f)) + "\u2302"
         "\u00c7\u00fc\u00e9\u00e2\u00e4\u00e0\u00e5\u00e7\u00ea\u00eb\u00e8\u00ef\u00ee\u00ec\u00c4\u00c5"
         "\u00c9\u00e6\u00c6\u00f4\u00f6\u00f2\u00fb\u00f9\u00ff\u00d6\u00dc\u00a2\u00a3\u00a5\u20a7\u0192"
         "\u00e1\u00ed\u00f3\u00fa\u00f1\u00d1\u00aa\u00ba\u00bf\u2310\u00ac\u00bd\u00bc\u00a1\u00ab\u00bb"
         "\u2591\u2592\u2593\u2502\u2524\u2561\u2562\u2556\u2555\u2563\u2551\u2557\u255d\u255c\u255b\u2510"
         "\u2514\u2534\u252c\u251c\u2500\u253c\u255e\u255f\u255a\u2554\u2569\u2566\u2560\u2550\u256c\u2567"
         "\u2568\u2564\u2565\u2559\u2558\u2552\u2553\u256b\u256a\u2518\u250c\u2588\u2584\u258c\u2590\u2580"
         "\u03b1\u00df\u0393\u03c0\u03a3\u03c3\u00b5\u03c4\u03a6\u0398\u03a9\u03b4\u221e\u03c6\u03b5\u2229"
         "\u2261\u00b1\u2265\u2264\u2320\u2321\u00f7\u2248\u00b0\u2219\u00b7\u221a\u207f\u00b2\u25a0\u00a0")
assert len(CP437) == 256, len(CP437)

data = gzip.open(sys.argv[1]).read()
assert data[0:2] == b"\x36\x04", "not a PSF1 font"
mode, size = data[2], data[3]
assert size == 16
n = 512 if mode & 1 else 256
glyphs = [data[4 + i * 16: 4 + (i + 1) * 16] for i in range(n)]
table = {}
pos = 4 + n * 16
g = 0
while g < n and pos + 1 < len(data):
    u = data[pos] | data[pos + 1] << 8
    pos += 2
    if u == 0xFFFF:
        g += 1
    elif u != 0xFFFE:
        table.setdefault(u, g)
out = bytearray()
missing = []
for i, ch in enumerate(CP437):
    if i == 0 or i == 0x20 or i == 0xFF:
        out += bytes(16)
        continue
    gi = table.get(ord(ch))
    if gi is None:
        missing.append(f"{i:02X}:U+{ord(ch):04X}")
        gi = table.get(ord("?"))
    out += glyphs[gi]
dst = os.path.join(os.path.dirname(__file__), "..", "src", "vga", "font8x16.bin")
open(dst, "wb").write(out)
print("missing (fallback '?'):", " ".join(missing), file=sys.stderr)
