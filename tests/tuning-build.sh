#!/bin/bash
# The tuning build against the normal one: every search constant is a UCI spin option, `tunables`
# prints the SPSA input, the defaults give the normal bench signature, and a changed constant a
# different one.
set -u
tuning=$1 normal=$2
fail() { echo "FAIL: $*"; exit 1; }
signature() { printf '%s\nbench 16 1 8\nquit\n' "$1" | "$2" 2>&1 | sed -n 's/^Nodes searched *: *//p'; }

"$tuning" uci < /dev/null | grep -q "option name RFP_MARGIN type spin default 75 min 30 max 150" ||
    fail "no RFP_MARGIN option"
"$tuning" tunables | grep -qx "LMR_DIVISOR, int, 230, 150, 400, 10, 0.002" || fail "no SPSA input line for LMR_DIVISOR"
base=$(signature "" "$normal")
same=$(signature "" "$tuning")
changed=$(signature "setoption name LMR_DIVISOR value 150" "$tuning")
echo "bench 8: normal $base, tuning build $same, with LMR_DIVISOR 150: $changed"
[ -n "$base" ] && [ "$base" = "$same" ] || fail "the tuning build's defaults search differently"
[ "$changed" != "$same" ] || fail "setting LMR_DIVISOR changed nothing"
"$normal" tunables > /dev/null 2>&1 && fail "the normal build has tunables"
echo OK
