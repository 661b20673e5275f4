// Weaker play on request (Skill Level, UCI_LimitStrength + UCI_Elo) that still looks like chess:
// the search runs as usual on several lines, and at a depth that grows with the level one of the
// good moves is chosen at random, the more likely the closer it is to the best. Stockfish's rule
// (src/search.cpp, Skill::pick_best); the Elo of each level is measured (docs/results/endgames.md).
#pragma once

#include <cstddef>
#include <vector>

#include "prng.h"
#include "types.h"

struct RootMove;

class Skill {
public:
    static constexpr int MAX_LEVEL = 20;     // full strength
    static constexpr std::size_t LINES = 4;  // candidates searched as MultiPV lines
    // UCI_Elo's range: the measured strength of level 0 and of level MAX_LEVEL - 1.
    static constexpr int MIN_ELO = 1049, MAX_ELO = 2069;

    explicit Skill(int skillLevel, std::uint64_t seed) : level(skillLevel), rng(seed) {}
    // The level that plays at `elo`, by the measured table.
    static int levelForElo(int elo);

    bool enabled() const { return level < MAX_LEVEL; }
    // The iteration at which the move is chosen.
    bool timeToPick(int depth) const { return depth == 1 + level; }
    // Chooses among the first `lines` root moves (sorted, with exact scores).
    Move pick(const std::vector<RootMove>& rootMoves, std::size_t lines);
    Move chosen() const { return best; }

private:
    int level;
    PRNG rng;
    Move best = MOVE_NONE;
};
