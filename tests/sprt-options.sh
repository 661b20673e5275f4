#!/bin/bash
# scripts/sprt refuses an option its engines do not have, and --tuning tests a search constant on
# one commit (both engines built with the constants as UCI options).
#   sprt-options.sh SOURCE_DIR SCRATCH_DIR
# fastchess and the builds are stand-ins (scripts/sprt builds nothing when a commit's binary is
# already in the workdir): the stand-in engines list their options as the real builds do.
set -eu
src=$1 work=$2
rm -rf "$work" && mkdir -p "$work"
commit=$(git -C "$src" rev-parse --short HEAD 2>/dev/null) || { echo "not a git checkout: skipped"; exit 77; }
cat >"$work/fastchess" <<'SH'
#!/bin/sh
echo "$@" >fastchess-args.txt
echo "Games: 2, Wins: 1, Losses: 1, Draws: 0"
echo "Elo: 0.00 +/- 10.00, nElo: 0.00 +/- 10.00"
echo "LLR: 0.01 (-2.94, 2.94) [0.00, 10.00]"
echo '{}' >config.json  # stopped with no verdict: nothing is written to perf/sprt.csv
SH
engine() {  # engine DIR OPTION...: a stand-in that lists these options
  mkdir -p "$1" && { echo '#!/bin/sh'; echo 'echo "id name stand-in"'
    for o in "${@:2}"; do echo "echo \"option name $o type spin default 1 min 0 max 1000\""; done
    echo 'echo uciok'; } >"$1/quadbit" && chmod +x "$1/quadbit"
}
chmod +x "$work/fastchess"
engine "$work/sprt/build-$commit" Hash Threads
engine "$work/sprt/build-tuning-$commit" Hash Threads RFP_MARGIN
sprt() { python3 "$src/scripts/sprt" --fastchess "$work/fastchess" HEAD HEAD --workdir "$work/sprt" "$@"; }

if sprt --new-option RFP_MARGIN=90 >"$work/plain.txt" 2>&1; then
  echo "a constant was tested without --tuning, on engines that do not have it"; exit 1
fi
grep -q "NEW has no UCI option 'RFP_MARGIN' (a search constant is one only with --tuning)" "$work/plain.txt" ||
  { cat "$work/plain.txt"; exit 1; }
if sprt --tuning --base-option Contempt=10 >"$work/base.txt" 2>&1; then
  echo "BASE's unknown option was not refused"; exit 1
fi
grep -q "BASE has no UCI option 'Contempt'" "$work/base.txt" || { cat "$work/base.txt"; exit 1; }
sprt --tuning --new-option RFP_MARGIN=90 >"$work/tuning.txt" 2>&1 || { cat "$work/tuning.txt"; exit 1; }
args=$(cat "$work/sprt/fastchess-args.txt")
case "$args" in
  *"cmd=$work/sprt/build-tuning-$commit/quadbit name=new-$commit option.RFP_MARGIN=90 "*) ;;
  *) echo "the tuning builds were not played with the constant: $args"; exit 1 ;;
esac
# A test that ends appends one row to the ledger: its games, W/L/D, pentanomial, Elo and LLR as
# fastchess reported them last, and the verdict.
cat >"$work/fastchess" <<'SH'
#!/bin/sh
echo "Games: 20, Wins: 9, Losses: 5, Draws: 6, Points: 12.0 (60.00 %)"
echo "Ptnml(0-2): [1, 2, 3, 3, 1], WL/DD Ratio: 1.00"
echo "Elo: 70.44 +/- 150.00, nElo: 80.00 +/- 170.00"
echo "LLR: 2.95 (-2.94, 2.94) [0.00, 10.00]"
echo "H1 was accepted"
SH
sprt --tuning --new-option RFP_MARGIN=90 --elo1 10 --note "a note, with a comma" --ledger "$work/ledger.csv" \
  >"$work/ledger.txt" 2>&1 || { cat "$work/ledger.txt"; exit 1; }
python3 - "$work/ledger.csv" "$commit" <<'PY' || { cat "$work/ledger.txt"; exit 1; }
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
commit = sys.argv[2]
want = {"base": commit, "new": f"{commit} RFP_MARGIN=90", "bounds": "0 10", "games": "20", "wins": "9",
        "losses": "5", "draws": "6", "pentanomial": "1 2 3 3 1", "elo": "70.44", "elo_error": "150.00",
        "llr": "2.95", "verdict": "passed", "change": "a note, with a comma"}
assert len(rows) == 1 and all(rows[0][k] == v for k, v in want.items()), rows
PY
echo "an unknown option is refused; --tuning plays the tuning builds with the constant; a row is appended"
