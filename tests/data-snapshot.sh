#!/usr/bin/env bash
# tests/data-snapshot.sh DIR ENGINE: scripts/data-snapshot on a file of two chunks and a third cut
# short (a run still writing it) gives the row of the two whole chunks, and its copy is the very
# bytes that datagen makes again from scratch for their 16 games.
set -euo pipefail
dir=$1 engine=$2
rm -rf "$dir" && mkdir -p "$dir"
"$engine" datagen out "$dir/g.bin" games 24 nodes 300 seed 9 threads 2 >/dev/null 2>&1
truncate -s -5 "$dir/g.bin"
"$(dirname "$0")/../scripts/data-snapshot" "$dir/g.bin" --copy "$dir/snap" --engine "$engine" | tee "$dir/row"
"$engine" datagen out "$dir/again.bin" games 16 nodes 300 seed 9 threads 1 >/dev/null 2>&1
cmp "$dir/again.bin" "$dir/snap/g-c2.bin"
grep -q "| 2 | 16 (White won" "$dir/row"
grep -q "$(sha256sum "$dir/again.bin" | cut -c1-64)" "$dir/row"
echo "data-snapshot: the row and the copy are the 16 games' bytes"
