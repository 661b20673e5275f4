"""A manifest row (perf/data.md) for a game file of `quadbit datagen`: its whole chunks, games,
positions, bytes and the sha256 of those bytes. A run still writing the file may have a chunk cut
short at its end: the row covers the whole chunks before it, the bytes that `datagen ... games N`
with the same seed and nodes makes again from scratch (N the row's games). With --copy DIR those
bytes are kept as DIR/NAME-cCHUNKS.bin, a snapshot that training reads while datagen goes on
writing the file.

Usage: scripts/lab data snapshot FILE [--copy DIR] [--engine build/quadbit]

The engine reads the file (`quadbit data snapshot`): it copies the whole chunks, checks every
chunk's checksum and replays every move, and gives their counts, bytes and sha256.
"""
import argparse
import datetime
import os
import re
import shutil
import sys
import tempfile

from .core import ENGINE, tool


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("file")
    ap.add_argument("--copy", metavar="DIR", help="keep the whole chunks as DIR/NAME-cCHUNKS.bin")
    ap.add_argument("--engine", default=ENGINE)
    args = ap.parse_args(argv)
    name = os.path.splitext(os.path.basename(args.file))[0]
    with tempfile.TemporaryDirectory() as tmp:
        copy = os.path.join(tmp, f"{name}.bin")
        code, said = tool([args.engine, "data", "snapshot", args.file, copy])
        m = re.search(r": (\d+) chunks, (\d+) games \(White won (\d+), drawn (\d+), Black won (\d+)\), (\d+) positions", said)
        sums = re.search(r": (\d+) bytes, sha256 ([0-9a-f]{64})", said)
        if code != 0 or not m or not sums:
            sys.exit(f"data snapshot: the engine did not read the whole chunks of {args.file}: {said.strip()}")
        chunks, games, white, drawn, black, positions = (int(x) for x in m.groups())
        size, sha256 = int(sums.group(1)), sums.group(2)
        if args.copy:
            os.makedirs(args.copy, exist_ok=True)
            kept = os.path.join(args.copy, f"{name}-c{chunks}.bin")
            shutil.move(copy, kept)
    at = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M")
    print("| at (UTC) | chunks | games | positions | bytes | sha256 |")
    print("|---|---|---|---|---|---|")
    print(f"| {at} | {chunks:,} | {games:,} (White won {white:,}, drawn {drawn:,}, Black won {black:,}) | "
          f"{positions:,} | {size:,} | `{sha256}` |")
    if args.copy:
        print(f"copied to {kept}")
