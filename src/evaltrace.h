// How one evaluation was made of the weights of evalparams.h, for the Texel tuner (tuner.cpp):
// each use of a weight with its side and count (the coefficients of a linear model), and what is
// not a weight times a count (king danger's square, unstoppable passers) as a fixed remainder.
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
    Score fixed[COLOR_NB] = {};  // each side's terms that are not linear in a weight
    int phase = 0, scale = 64;   // the blend and the endgame scale factor, as the evaluation used them
    bool special = false;        // a special endgame evaluator gave the value: no weight took part

    void add(const Score& w, Color c, int n = 1) {
        if (n) uses.push_back({&w, c, n, false});
    }
    void add(const int& w, Color c, int n) {
        if (n) uses.push_back({&w, c, n, true});
    }
};
