"""Fit the model behind UCI_ShowWDL to Quadbit's own games: the chance that the side to move wins,
draws or loses, given Quadbit's score and the game ply.

    win(v, ply)  = 1 / (1 + exp((a - v) / b))        loss(v, ply) = win(-v, ply)
    a = a0 + a1 * m,  b = b0 + b1 * m,  m = min(ply, 240) / 64        draw = 1 - win - loss

a is the score at which a win is as likely as not, b how quickly the chance changes with the
score (Stockfish's form, src/uci.cpp win_rate_model). Every move Quadbit made in the PGNs (the
score in fastchess's move comments, from the mover's view) is one sample, labelled with the
game's result from the mover's view; mate scores and |score| > 1500 are left out. The fit
maximises the likelihood (Adam on the four parameters).

Usage: scripts/lab pgn fit-wdl [--name quadbit ...] PGN...   (prints the constants for src/wdl.cpp)
Self-play games name both engines: pass each name (--name quadbit --name quadbit-b).
"""
import argparse
import math
import re

from .core import pgn_games


def samples(paths, names):
    out = []
    for path in paths:
        for tags, comments, _ in pgn_games(path):
            result = tags.get("Result")
            if result not in ("1-0", "0-1", "1/2-1/2") or not names & {tags.get("White"), tags.get("Black")}:
                continue
            white_score = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[result]
            fen = tags.get("FEN", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").split()
            ply = 2 * (int(fen[5]) - 1) + (fen[1] == "b")
            for comment in comments:
                mover_white = ply % 2 == 0
                m = re.match(r"([+-]?\d+\.\d+)/\d+", comment.strip())
                ours = tags.get("White" if mover_white else "Black") in names
                if m and ours:
                    v = round(float(m.group(1)) * 100)
                    if abs(v) <= 1500:
                        outcome = white_score if mover_white else 1.0 - white_score
                        out.append((v, min(ply, 240) / 64.0, outcome))
                ply += 1
    return out


def sigmoid(x):
    return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, x))))


def loss_and_gradient(params, data):
    a0, a1, b0, b1 = params
    total, grad = 0.0, [0.0] * 4
    for v, m, outcome in data:
        a, b = a0 + a1 * m, max(1.0, b0 + b1 * m)
        pw, pl = sigmoid((v - a) / b), sigmoid((-v - a) / b)
        pd = max(1e-9, 1.0 - pw - pl)
        p = pw if outcome == 1.0 else pl if outcome == 0.0 else pd
        total -= math.log(max(p, 1e-9))
        # d(-log p)/d a and / d b, through the two sigmoids.
        dw_da, dl_da = -pw * (1 - pw) / b, -pl * (1 - pl) / b
        dw_db, dl_db = -pw * (1 - pw) * (v - a) / b ** 2, -pl * (1 - pl) * (-v - a) / b ** 2
        if outcome == 1.0:
            ga, gb = -dw_da / pw, -dw_db / pw
        elif outcome == 0.0:
            ga, gb = -dl_da / pl, -dl_db / pl
        else:
            ga, gb = (dw_da + dl_da) / pd, (dw_db + dl_db) / pd
        grad[0] += ga
        grad[1] += ga * m
        grad[2] += gb
        grad[3] += gb * m
    n = len(data)
    return total / n, [g / n for g in grad]


def fit(data, steps=400):
    params = [200.0, 0.0, 100.0, 0.0]
    mean, var = [0.0] * 4, [0.0] * 4
    rate = 2.0
    for step in range(1, steps + 1):
        loss, grad = loss_and_gradient(params, data)
        for i in range(4):
            mean[i] = 0.9 * mean[i] + 0.1 * grad[i]
            var[i] = 0.999 * var[i] + 0.001 * grad[i] ** 2
            params[i] -= rate * (mean[i] / (1 - 0.9 ** step)) / (math.sqrt(var[i] / (1 - 0.999 ** step)) + 1e-12)
        if step % 100 == 0:
            print(f"step {step}: mean log-loss {loss:.5f}")
    return params, loss_and_gradient(params, data)[0]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pgn", nargs="+")
    ap.add_argument("--name", action="append", help="Quadbit's name in the PGN tags (default quadbit)")
    args = ap.parse_args(argv)
    names = set(args.name or ["quadbit"])
    data = samples(args.pgn, names)
    if not data:
        raise SystemExit("no scored moves of " + ", ".join(sorted(names)) + " found")
    wins = sum(o == 1.0 for _, _, o in data)
    losses = sum(o == 0.0 for _, _, o in data)
    print(f"{len(data)} positions: {wins} from won games, {len(data) - wins - losses} drawn, {losses} lost")
    params, loss = fit(data)
    print(f"final mean log-loss {loss:.5f}")
    print("constexpr double A[2] = {%.2f, %.2f}, B[2] = {%.2f, %.2f};" % tuple(params))

