// The expected outcome of a score (UCI_ShowWDL): win, draw and loss chances for the side to move,
// from a model fitted to Quadbit's own games (scripts/lab pgn fit-wdl; data and fit in docs/results/endgames.md).
#pragma once

#include "types.h"

namespace wdl {

struct Chances {
    int win, draw, loss;  // per mille, summing to 1000
};

// `ply` is the game ply of the position (the model's scale changes as the game goes on).
Chances fromScore(Value v, int ply);

}  // namespace wdl
