#!/usr/bin/env bash
# Runs one libFuzzer target for a fixed time from its seeds: fuzz/run.sh TARGET SEEDS SECONDS.
# New inputs go to a scratch corpus, never into the seeds folder; a crash leaves its input in
# the current folder (crash-*) and fails.
set -euo pipefail
target="$1" seeds="$2" seconds="$3"
corpus="$(mktemp -d)"
trap 'rm -rf "$corpus"' EXIT
export ASAN_OPTIONS="allocator_may_return_null=1:detect_leaks=0"
"$target" "$corpus" "$seeds" -max_total_time="$seconds" -timeout=30 -rss_limit_mb=4096 -close_fd_mask=1 -print_final_stats=1 2>&1 | tail -20
