// Tablebases at the root: every root move ranked by what the tables say of it, so that the
// search, which then chooses only among the best-ranked moves, never throws away a table win or
// draw and, with the fifty-move rule on, wins before the rule ends the game. After Stockfish's
// root_probe and root_probe_wdl (src/syzygy/tbprobe.cpp).
#pragma once

#include <vector>

#include "position.h"
#include "search.h"

namespace syzygy {

enum class RootRanking { NONE, WDL, DTZ };

// Sets every move's tbRank and tbScore and keeps only the best-ranked moves, best first. DTZ
// when the tables give every move's DTZ, else WDL when they give every move's WDL; a move they
// cannot judge (a promotion into a missing table) counts as keeping the root's own WDL value.
// NONE (the moves untouched) when the tables do not answer. `rule50`: the fifty-move rule counts
// (cursed wins and blessed losses are draws).
RootRanking rankRootMoves(Position& pos, std::vector<RootMove>& moves, bool rule50);

}  // namespace syzygy
