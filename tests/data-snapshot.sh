#!/usr/bin/env bash
# tests/data-snapshot.sh DIR ENGINE: scripts/data-snapshot on a file of two chunks and a third cut
# short (a run still writing it) gives the row of the two whole chunks, and its copy is the very
# bytes that datagen makes again from scratch for their 16 games. Without --copy, while datagen
# completes the third chunk meanwhile (before the engine reads), the row is still the two chunks'.
set -euo pipefail
dir=$1 engine=$2
rm -rf "$dir" && mkdir -p "$dir"
"$engine" datagen out "$dir/g.bin" games 24 nodes 300 seed 9 threads 2 >/dev/null 2>&1
cp "$dir/g.bin" "$dir/whole.bin"
truncate -s -5 "$dir/g.bin"
"$(dirname "$0")/../scripts/data-snapshot" "$dir/g.bin" --copy "$dir/snap" --engine "$engine" | tee "$dir/row"
"$engine" datagen out "$dir/again.bin" games 16 nodes 300 seed 9 threads 1 >/dev/null 2>&1
cmp "$dir/again.bin" "$dir/snap/g-c2.bin"
grep -q "| 2 | 16 (White won" "$dir/row"
grep -q "$(sha256sum "$dir/again.bin" | cut -c1-64)" "$dir/row"

# An engine that reads only after datagen has written the rest of the third chunk.
cat > "$dir/late-engine" <<EOF
#!/usr/bin/env bash
cp "$dir/whole.bin" "$dir/g.bin"
exec "$engine" "\$@"
EOF
chmod +x "$dir/late-engine"
"$(dirname "$0")/../scripts/data-snapshot" "$dir/g.bin" --engine "$dir/late-engine" | tee "$dir/row-live"
cmp "$dir/g.bin" "$dir/whole.bin"  # the file did grow under the snapshot
[ "$(tail -n 1 "$dir/row-live" | cut -d'|' -f3-)" = "$(sed -n 3p "$dir/row" | cut -d'|' -f3-)" ]
echo "data-snapshot: the row and the copy are the 16 games' bytes, the file growing or not"
