#!/bin/sh
# Multi-threaded searches of the bench positions under ThreadSanitizer: bench with 4 and then 8
# threads (hash 16 MB, depth 8), 4 threads with the hand-written evaluation, a search stopped while running, and, given the Syzygy folder as
# the second argument, 8 threads probing the tables from their first (lazy) opening on. Fails on
# any report.
set -e
engine="$1"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1"
"$engine" bench 16 4 8 >/dev/null 2>"$log" || { cat "$log"; exit 1; }
"$engine" bench 16 8 7 >/dev/null 2>>"$log" || { cat "$log"; exit 1; }
printf 'setoption name Use NNUE value false\nbench 16 4 7\nquit\n' | "$engine" >/dev/null 2>>"$log" || { cat "$log"; exit 1; }
(printf 'setoption name Threads value 8\ngo infinite\n'; sleep 2; printf 'stop\nisready\n'; sleep 1; printf 'quit\n') \
  | "$engine" >/dev/null 2>>"$log" || { cat "$log"; exit 1; }
if [ -n "$2" ]; then
  out=$(mktemp)
  # K+R+P v K+R is not in the tables; every capture leads into them. Quit once the move is
  # played (a loaded machine may take seconds to start the instrumented engine).
  (printf 'setoption name SyzygyPath value %s\nsetoption name Threads value 8\n' "$2"
   printf 'position fen 8/8/4k3/8/2r5/8/3RP3/4K3 w - - 0 1\ngo movetime 3000\n'
   for _ in $(seq 600); do grep -q bestmove "$out" && break; sleep 0.1; done; printf 'quit\n') \
    | "$engine" >"$out" 2>>"$log" || { cat "$log"; exit 1; }
  grep -q "tbhits [1-9]" "$out" || { echo "no table was probed:"; cat "$out"; exit 1; }
  rm -f "$out"
fi
if grep -q "ThreadSanitizer" "$log"; then cat "$log"; exit 1; fi
echo "ThreadSanitizer: no reports"
