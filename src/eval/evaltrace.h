// How one evaluation was made of the weights of evalparams.h, for the Texel tuner (tuner.cpp):
// each use of a weight with its side and count (the coefficients of a linear model), the inputs
// of each king's danger (a sum of weights whose square is the penalty), and what depends on no
// weight (unstoppable passers) as a fixed remainder.
// The tuner recomputes the evaluation from this for any weights; Ethereal's tuner works from the
// same kind of trace (src/evaluate.c, src/tuner.c).
#pragma once

#include <vector>

#include "types.h"

struct EvalTrace {
    struct Use {
        const void* weight;  // the address of the weight in evalparams.h
        Color side;
        int count;
        bool endgameInt;  // the weight is a plain int added to the endgame part, not a Score
    };
    std::vector<Use> uses;
    // King danger (eval.cpp kingSafety) of each side's king, when enough pieces attack it to
    // count: the sum of int weights times counts, less half the middlegame part of the king's
    // shelter (whose uses are listed again here, `shelter` set). When it is positive the side
    // loses danger^2 / 720 in the middlegame and danger / 16 in the endgame.
    struct DangerUse {
        const void* weight;  // an int of the danger sum, or a shelter Score
        int count;
        bool shelter;
    };
    std::vector<DangerUse> danger[COLOR_NB];
    bool attacked[COLOR_NB] = {};
    Score fixed[COLOR_NB] = {};  // each side's terms that depend on no weight
    int phase = 0, scale = 64;   // the blend and the endgame scale factor, as the evaluation used them
    bool special = false;        // a special endgame evaluator gave the value: no weight took part

    void add(const Score& w, Color c, int n = 1) {
        if (n) uses.push_back({&w, c, n, false});
    }
    void add(const int& w, Color c, int n) {
        if (n) uses.push_back({&w, c, n, true});
    }
};
