// Static evaluation, from the side to move's point of view.
#pragma once

#include <string>

#include "pawns.h"
#include "position.h"

// Per-thread caches the evaluation uses.
struct EvalCache {
    pawns::Table pawns;
};

Value evaluate(const Position& pos, EvalCache& cache);

// Human-readable breakdown for the UCI `eval` command.
std::string evalTrace(const Position& pos);
