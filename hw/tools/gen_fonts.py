#!/usr/bin/env python3
"""Builds hw/src/vga/font8x8.bin, font8x14.bin and font8x16.bin: 256 glyphs
each in code page 437 order, one byte per row, bit 7 leftmost.

Source: the "VGA" console fonts of Debian's console-setup (package
`console-setup-linux`, /usr/share/consolefonts/*-VGA{8,14,16}.psf.gz). They
derive from u_vga16.bdf, Copyright (c) 2000, 2001 Dmitry Bolkhovityanov,
under an MIT-style licence (console-setup's copyright.fonts; its copyright
file adds "All console fonts are public domain by nature"). No single file
has all of CP437, so each code point is taken from the first file (sorted by
name, Uni2 first) whose (non-blank) glyph lists it as its primary Unicode
value, else from the first that lists it at all. The few glyphs none has are drawn
below (our own, `DRAWN`).

    apt-get download console-setup-linux && dpkg-deb -x console-setup-linux_*.deb x
    python3 hw/tools/gen_fonts.py x/usr/share/consolefonts
"""
import glob, gzip, os, struct, sys

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

# Glyphs no source file has, drawn here: (code, height) -> rows.
DRAWN = {
    (0x10, 16): "........ ........ #....... ##...... ###..... ####.... #####... #######. "
                "#####... ####.... ###..... ##...... #....... ........ ........ ........",
    (0x11, 16): "........ ........ ......#. .....##. ....###. ...####. ..#####. #######. "
                "..#####. ...####. ....###. .....##. ......#. ........ ........ ........",
    (0x10, 14): "........ #....... ##...... ###..... ####.... #####... #######. #####... "
                "####.... ###..... ##...... #....... ........ ........",
    (0x11, 14): "........ ......#. .....##. ....###. ...####. ..#####. #######. ..#####. "
                "...####. ....###. .....##. ......#. ........ ........",
    (0x10, 8): "#....... ###..... #####... #######. #####... ###..... #....... ........",
    (0x11, 8): "......#. ....###. ..#####. #######. ..#####. ....###. ......#. ........",
    (0x9E, 14): "........ ######.. .##..##. .##..##. .#####.. .##...#. .##..##. .##.####. "
                ".##..##. .##..##. ####..## ........ ........ ........",
    (0xA9, 14): "........ ........ ........ ........ ........ #######. ##...... ##...... "
                "##...... ##...... ........ ........ ........ ........",
    (0xEC, 14): "........ ........ ........ ........ .###.##. ##.##.## ##.##.## .##.###. "
                "........ ........ ........ ........ ........ ........",
    (0xEF, 14): "........ ........ ........ .#####.. ##...##. ##...##. ##...##. ##...##. "
                "##...##. ##...##. ##...##. ........ ........ ........",
    (0xF0, 14): "........ ........ ........ #######. ........ ........ #######. ........ "
                "........ #######. ........ ........ ........ ........",
    (0x9E, 8): "####.... ##.##... ####.#.. ##.###.. ##..#... ##..#.#. ##...##. ........",
    (0xA9, 8): "........ ........ ######.. ##...... ##...... ........ ........ ........",
    (0xEC, 8): "........ ........ .##.##.. #.##.##. #.##.##. .##.##.. ........ ........",
    (0xEF, 8): "........ .####... ##..##.. ##..##.. ##..##.. ##..##.. ##..##.. ........",
    (0xF0, 8): "........ ######.. ........ ######.. ........ ######.. ........ ........",
}


def load(path):
    """(height, glyphs, unicode lists) of a PSF1 or PSF2 file."""
    d = gzip.open(path).read()
    lists = []
    if d[:2] == b"\x36\x04":
        mode, h = d[2], d[3]
        n, hdr, bpg = (512 if mode & 1 else 256), 4, h
        pos, cur = hdr + n * bpg, []
        while len(lists) < n and pos + 1 < len(d):
            u = d[pos] | d[pos + 1] << 8
            pos += 2
            if u == 0xFFFF:
                lists.append(cur)
                cur = []
            else:
                cur.append(u)
    else:
        assert d[:4] == b"\x72\xb5\x4a\x86", path
        _, hdr, _, n, bpg, h, _ = struct.unpack("<7I", d[4:32])
        pos, cur = hdr + n * bpg, []
        while len(lists) < n and pos < len(d):
            b = d[pos]
            if b in (0xFF, 0xFE):
                pos += 1
                if b == 0xFF:
                    lists.append(cur)
                    cur = []
                else:
                    cur.append(0xFFFE)
                continue
            ln = 1 if b < 0x80 else 2 if b < 0xE0 else 3 if b < 0xF0 else 4
            cur.append(ord(d[pos:pos + ln].decode()))
            pos += ln
    # Code points after FFFEh are combining sequences, not single glyphs.
    lists = [l[:l.index(0xFFFE)] if 0xFFFE in l else l for l in lists]
    glyphs = [d[hdr + i * bpg: hdr + (i + 1) * bpg] for i in range(len(lists))]
    return h, glyphs, lists


def build(folder, height):
    files = sorted(glob.glob(os.path.join(folder, f"*-VGA{height}.psf.gz")),
                   key=lambda p: (not os.path.basename(p).startswith("Uni2"), p))
    if not files:
        sys.exit(f"no *-VGA{height}.psf.gz in {folder}")
    fonts = [load(p) for p in files]
    out = bytearray()
    for code, ch in enumerate(CP437):
        if code in (0x00, 0x20, 0xFF):
            out += bytes(height)
            continue
        if (code, height) in DRAWN:
            rows = DRAWN[(code, height)].split()
            assert len(rows) == height, (code, height)
            out += bytes(int(r.replace(".", "0").replace("#", "1"), 2) for r in rows)
            continue
        found = None
        for primary in (True, False):
            for _, glyphs, lists in fonts:
                for g, l in zip(glyphs, lists):
                    if any(g) and l and (l[0] == ord(ch) if primary else ord(ch) in l):
                        found = g
                        break
                if found is not None:
                    break
            if found is not None:
                break
        if found is None:
            sys.exit(f"no glyph for {code:02X} (U+{ord(ch):04X}) at height {height}")
        out += found
    return out


if __name__ == "__main__":
    folder = sys.argv[1]
    dst = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src", "vga")
    for height in (8, 14, 16):
        data = build(folder, height)
        assert len(data) == 256 * height
        with open(os.path.join(dst, f"font8x{height}.bin"), "wb") as f:
            f.write(data)
