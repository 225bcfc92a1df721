#!/bin/sh
# Rebuilds every test program in roms/ from its nasm source:
# roms/devices/NAME.asm -> roms/devices/NAME.com (flat binary, org 100h),
# roms/devices/NAME.rom.asm -> roms/devices/NAME.rom (an option ROM whose
# checksum byte, the last of its declared length, is fixed here),
# roms/dos/NAME.asm -> roms/dos/NAME.com (DOS programs for the dos crate;
# startup.asm also -> startup.exe),
# roms/bench/NAME.asm -> roms/bench/NAME.com (CPU-bound speed benchmarks).
# Usage: roms/build.sh [OUTDIR]   (default: next to the sources; with
# OUTDIR the DOS programs go to OUTDIR/dos/, the benchmarks to OUTDIR/bench/)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-}
command -v nasm >/dev/null 2>&1 || { echo "build.sh: nasm not found (apt-get install nasm)" >&2; exit 1; }
for src in "$here"/devices/*.asm; do
    name=$(basename "$src" .asm)
    dir=${out:-$here/devices}
    mkdir -p "$dir"
    case "$name" in
    *.rom)
        nasm -f bin -I "$here/devices/" -o "$dir/$name" "$src"
        # Checksum: the byte at offset len-1 makes the sum 0 mod 256.
        len=$(( $(od -An -tu1 -j2 -N1 "$dir/$name") * 512 ))
        sum=$(od -An -tu1 -v -N $((len - 1)) "$dir/$name" | awk '{for(i=1;i<=NF;i++)s+=$i} END{print s%256}')
        fix=$(( (256 - sum) % 256 ))
        printf "$(printf '\\%03o' "$fix")" | dd of="$dir/$name" bs=1 seek=$((len - 1)) conv=notrunc status=none
        ;;
    *)
        nasm -f bin -I "$here/devices/" -o "$dir/$name.com" "$src"
        ;;
    esac
done
# build_com SUBDIR: roms/SUBDIR/NAME.asm -> NAME.com beside it (or in
# OUTDIR/SUBDIR/)
build_com() {
    for src in "$here/$1"/*.asm; do
        name=$(basename "$src" .asm)
        dir=${out:+$out/$1}
        dir=${dir:-$here/$1}
        mkdir -p "$dir"
        nasm -f bin -I "$here/$1/" -o "$dir/$name.com" "$src"
    done
}
build_com dos
# startup.asm a second time as an MZ program (-DEXE): startup.exe.
dosdir=${out:+$out/dos}
nasm -f bin -DEXE -I "$here/dos/" -o "${dosdir:-$here/dos}/startup.exe" "$here/dos/startup.asm"
build_com bench
# The replica (its own script: two layouts of one source).
sh "$here/replica/build.sh" ${out:+"$out/replica"}
