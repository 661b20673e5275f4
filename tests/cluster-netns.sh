#!/usr/bin/env bash
# The cluster engine across two hosts made of network namespaces (scripts/netns-cluster), Open MPI
# speaking TCP between them over a link of 0.1 ms each way (netem, or the user-space switch where
# the kernel has none): a GUI's session (uci, isready, a search to a depth), then host 1's link
# cut in the middle of `go infinite`. The root must say so
# in an `info string error`, still give the search's bestmove, and end, mpirun with it: never a
# hang. Skipped (status 77, which CTest shows as skipped) where this machine does not let us make
# network namespaces: not root, or a container without the right.
#   tests/cluster-netns.sh QUADBIT_MPI NETNS_CLUSTER
set -uo pipefail
engine="$1"
netns="$2"
if ! reason=$("$netns" check 2>&1); then
    echo "skipped: $reason"
    exit 77
fi
trap '"$netns" down' EXIT
"$netns" up 2 --delay 0.1 || exit 1

coproc ENGINE { exec "$netns" mpirun "$engine" 2>&1; }
pid=$ENGINE_PID
exec {to}>&"${ENGINE[1]}" {from}<&"${ENGINE[0]}"
send() { echo "$1" >&"$to"; }
# Reads the engine's lines until one matches PATTERN, for at most SECONDS; the line in $line.
expect() {
    local pattern="$1" deadline=$((SECONDS + $2))
    while [ "$SECONDS" -lt "$deadline" ] && IFS= read -r -t "$((deadline - SECONDS))" line <&"$from"; do
        [[ "$line" =~ $pattern ]] && return 0
    done
    echo "FAILED: no line matching '$pattern' within $2 s"
    kill -9 "$pid" 2>/dev/null
    exit 1
}

start=$SECONDS
send uci
expect '^uciok$' 60
send isready
expect '^readyok$' 60
send "position startpos moves e2e4 c7c5"
send "go depth 8"
expect '^bestmove [a-h][1-8][a-h][1-8]' 60
echo "two hosts over TCP: $line ($((SECONDS - start)) s from the start)"

send "go infinite"
expect '^info depth 3 ' 30
"$netns" cut 1
cut=$SECONDS
expect '^info string error: cluster: ' 120
echo "$((SECONDS - cut)) s after the cut: $line"
expect '^bestmove [a-h][1-8][a-h][1-8]' 5
echo "then: $line"
for ((i = 0; i < 30; i++)); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 1
done
if kill -0 "$pid" 2>/dev/null; then
    echo "FAILED: the engine (mpirun) still runs 30 s after its bestmove"
    kill -9 "$pid"
    exit 1
fi
echo "the engine ended $((SECONDS - cut)) s after the cut"
