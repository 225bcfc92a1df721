#!/usr/bin/env bash
# Prints the final state hash of a fixed set of runs: the replica on each CPU,
# corpus programs, a save-state resumption and a record/replay run. A change
# that must not alter behaviour (a refactor, a faster core) leaves every line
# of this table unchanged:
#   tools/state-hashes.sh > /tmp/after.txt && diff tests/state-hashes.txt /tmp/after.txt
# Usage: tools/state-hashes.sh [TANDEM_BINARY]   (run from the repository root)
set -euo pipefail
T=${1:-target/release/tandem}
CORPUS=${CORPUS:-../shared/corpus}
[ -x "$T" ] || { echo "state-hashes: $T: not built (cargo build --release)" >&2; exit 2; }
[ -d "$CORPUS" ] || { echo "state-hashes: $CORPUS: missing" >&2; exit 2; }
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
hash() { # NAME ARGS...: one line "NAME hash cycle frame"
  local name=$1; shift
  local line
  line=$(SDL_VIDEODRIVER=dummy "$T" run --headless "$@" </dev/null 2>&1 >/dev/null | grep 'state hash' || true)
  echo "$name ${line#*state hash }"
}
hash replica-386 --cpu 386 --seconds 10 --state-hash
hash replica-286 --cpu 286 --seconds 5 --state-hash
hash replica-8086 --cpu 8086 --seconds 3 --state-hash
for p in digger:DIGGER.EXE:8086:8 tank:TANK.EXE:386:5 invaders:INVADERS.COM:286:5; do
  IFS=: read -r dir prog cpu secs <<<"$p"
  f=$(ls "$CORPUS/$dir" | grep -i "^$prog$" | head -1)
  rm -rf "$W/$dir"; cp -r "$CORPUS/$dir" "$W/$dir"
  hash "$dir-$cpu" --cpu "$cpu" --seconds "$secs" --state-hash --mount "$W/$dir" "$W/$dir/$f"
done
# Save state after 2 s, resume for 3 s.
SDL_VIDEODRIVER=dummy "$T" run --headless --cpu 386 --seconds 2 --save-state "$W/s.state" </dev/null >/dev/null 2>&1 || true
hash resume-386 --seconds 3 --load-state "$W/s.state" --state-hash
# Record keys, then replay the record.
SDL_VIDEODRIVER=dummy "$T" run --headless --cpu 386 --seconds 4 --press 1:space --press 2:a --record "$W/r.jsonl" </dev/null >/dev/null 2>&1 || true
hash replay-386 --cpu 386 --seconds 4 --replay "$W/r.jsonl" --state-hash
