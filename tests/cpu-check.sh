#!/usr/bin/env bash
# An engine started on a CPU below its build's level says so in one line and exits with status 1,
# before anything else runs (src/cpucheck.cpp), instead of dying on an illegal instruction: the
# engine under qemu-x86_64 emulating a CPU of 2003 (SSE2 only). A build that needs no more than
# that (generic) runs there instead, and its bench must complete.
#   tests/cpu-check.sh ENGINE QEMU
set -uo pipefail
engine=$1 qemu=$2
features=$("$engine" compiler | sed -n 's/^Target: .*(\(.*\))$/\1/p')
[ -n "$features" ] || { echo "no Target line in '$engine compiler'"; exit 1; }
output=$("$qemu" -cpu qemu64,-ssse3,-sse4.1,-sse4.2,-popcnt "$engine" bench 2>&1)
status=$?
if [ "$features" = "x86-64 SSE2" ]; then
  echo "$output" | grep -q "^Nodes searched" || { echo "a generic build did not run: $output"; exit 1; }
  echo "a generic build runs on an SSE2-only CPU"
  exit 0
fi
lines=$(printf '%s\n' "$output" | wc -l)
if [ "$status" -ne 1 ] || [ "$lines" -ne 1 ] || ! echo "$output" | grep -q "cannot run on this CPU, which lacks"; then
  echo "expected one line and status 1 on an SSE2-only CPU, got status $status and:"
  echo "$output" | head -5
  exit 1
fi
echo "refused as it should: $output"
