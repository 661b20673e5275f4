#!/bin/sh
# Multi-threaded searches of the bench positions under ThreadSanitizer: bench with 4 and then 8
# threads (hash 16 MB, depth 8), plus a search stopped while running. Fails on any report.
set -e
engine="$1"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1"
"$engine" bench 16 4 8 >/dev/null 2>"$log" || { cat "$log"; exit 1; }
"$engine" bench 16 8 7 >/dev/null 2>>"$log" || { cat "$log"; exit 1; }
(printf 'setoption name Threads value 8\ngo infinite\n'; sleep 2; printf 'stop\nisready\n'; sleep 1; printf 'quit\n') \
  | "$engine" >/dev/null 2>>"$log" || { cat "$log"; exit 1; }
if grep -q "ThreadSanitizer" "$log"; then cat "$log"; exit 1; fi
echo "ThreadSanitizer: no reports"
