#!/bin/bash
# scripts/sprt --keep: a test stopped on one machine resumes on another from the kept record.
#   sprt-keep.sh SOURCE_DIR SCRATCH_DIR
# fastchess is played by a stand-in that counts games and, stopped by SIGINT as fastchess is,
# saves its count as its record (config.json in its folder); the engine builds are stand-ins too
# (scripts/sprt builds nothing when a commit's binary is already in the workdir).
set -eu
src=$1 work=$2
rm -rf "$work" && mkdir -p "$work"
# scripts/sprt names its builds by commit: outside a git checkout it cannot run, and the test skips.
commit=$(git -C "$src" rev-parse --short HEAD 2>/dev/null) || { echo "not a git checkout: skipped"; exit 77; }
cat >"$work/fastchess" <<'PY'
#!/usr/bin/env python3
import json, signal, sys, time
games = 0
if "-config" in sys.argv:
    games = json.load(open(sys.argv[sys.argv.index("-config") + 1].split("=", 1)[1]))["games"]
stopped = False
def stop(*_):
    global stopped
    stopped = True
signal.signal(signal.SIGINT, stop)
while not stopped:
    games += 2
    print(f"Games: {games}, Wins: {games // 2}, Losses: {games // 2}, Draws: 0", flush=True)
    print("Elo: 0.00 +/- 10.00, nElo: 0.00 +/- 10.00", flush=True)
    print("LLR: 0.01 (-2.94, 2.94) [0.00, 10.00]", flush=True)
    time.sleep(0.05)
json.dump({"games": games}, open("config.json", "w"))
PY
chmod +x "$work/fastchess"

# Runs the test with a fresh stand-in build of HEAD until it has reported games, then stops it.
play() {
  mkdir -p "$work/sprt/build-$commit" && touch "$work/sprt/build-$commit/quadbit"
  python3 "$src/scripts/sprt" --fastchess "$work/fastchess" HEAD HEAD --workdir "$work/sprt" \
    --keep "$work/kept.json" >"$work/$1.txt" 2>&1 &
  local pid=$!
  for _ in $(seq 300); do grep -q "^games [1-9]" "$work/$1.txt" && break; sleep 0.1; done
  kill -TERM "$pid"
  wait "$pid"
}
kept() { python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["games"])' "$work/kept.json"; }
first_report() { sed -n 's/^games \([0-9]*\).*/\1/p' "$work/$1.txt" | head -1; }

play first
[ -f "$work/kept.json" ] || { echo "the stopped test left no record in --keep's file"; cat "$work/first.txt"; exit 1; }
before=$(kept)
rm -rf "$work/sprt"  # another machine: the workdir and its record are gone
play second
grep -q "resuming the test saved in" "$work/second.txt" ||
  { echo "the test did not resume from the kept record"; cat "$work/second.txt"; exit 1; }
[ "$(first_report second)" -gt "$before" ] ||
  { echo "the resumed test started from $(first_report second) games, not after $before"; exit 1; }
[ "$(kept)" -gt "$before" ] || { echo "the kept record was not brought up to date: $(kept) games"; exit 1; }
echo "stopped at $before games, resumed elsewhere from the kept record, stopped again at $(kept)"
