// Static evaluation, from the side to move's point of view.
#pragma once

#include <string>

#include "eval/evaltrace.h"
#include "eval/pawns.h"
#include "position.h"

// Per-thread caches the evaluation uses.
struct EvalCache {
    pawns::Table pawns;
};

Value evaluate(const Position& pos, EvalCache& cache);

// The evaluation from White's point of view with every use of a weight recorded in `weights`
// (the tuner's coefficients).
Value evaluateWeights(const Position& pos, EvalTrace& weights);

// Human-readable breakdown for the UCI `eval` command.
std::string evalTrace(const Position& pos);
