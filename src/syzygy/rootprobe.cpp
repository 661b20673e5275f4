#include "syzygy/rootprobe.h"

#include <algorithm>

#include "movegen.h"
#include "syzygy/syzygy.h"

namespace syzygy {

namespace {

// Ranks are distances folded so that higher is better: a win the fifty-move rule cannot spoil
// ranks MAX_DTZ whatever its distance (the search chooses among such wins; the rule's count
// forces progress), a win it may spoil ranks by its distance, and so on for losses.
constexpr int MAX_DTZ = 1 << 18;

bool isMate(Position& pos) { return pos.inCheck() && MoveList<LEGAL>(pos).size() == 0; }

// The move's DTZ from the root, in plies; false if the tables do not answer. `zeroing`: the
// move is a capture or a pawn move.
bool dtzAfter(Position& pos, Move m, int& dtz, bool& zeroing) {
    pos.makeMove(m);
    bool known = true;
    zeroing = pos.rule50() == 0;
    if (zeroing) {
        Wdl wdl;
        known = probeWdl(pos, wdl);
        dtz = dtzBeforeZeroing(Wdl(-wdl));
    } else if (isMate(pos)) dtz = 1;
    else {
        int reply = 0;
        known = probeDtz(pos, reply);
        dtz = reply < 0 ? 1 - reply : reply > 0 ? -reply - 1 : 0;
        // A mating move that a table stores with a rounded distance is still mate in one.
        if (dtz == 2 && isMate(pos)) dtz = 1;
    }
    pos.unmakeMove(m);
    return known;
}

// Wins ranked from MAX_DTZ down, with at least 1.5 cp for a cursed win, growing to 50 cp as the
// win comes within the fifty-move rule's reach.
Value scoreOfRank(int rank, bool rule50) {
    const int bound = rule50 ? MAX_DTZ - 100 : 1;
    if (rank >= bound) return VALUE_TB_WIN;
    if (rank > 0) return Value(std::max(3, rank - (MAX_DTZ - 200)) / 2);
    if (rank == 0) return VALUE_DRAW;
    if (rank > -bound) return Value(std::min(-3, rank + (MAX_DTZ - 200)) / 2);
    return -VALUE_TB_WIN;
}

// A move the tables cannot judge (a promotion into a table that is not there, as in KBPvKN
// without KBQvKN) is given the root's own value, the most any move can keep: the search, which
// sees what follows, then decides between it and the moves that surely keep that value.
bool rankByDtz(Position& pos, std::vector<RootMove>& moves, bool rule50, const Wdl* rootWdl) {
    const int count50 = pos.rule50();
    // A winner who has already repeated must take the shortest way: another repetition is a draw.
    const bool repeated = pos.hasRepeated();
    int unknown = 0;
    for (RootMove& rm : moves) {
        int dtz;
        bool zeroing;
        if (!dtzAfter(pos, rm.move(), dtz, zeroing)) {
            // Only a zeroing move may be unknown: else the root's own DTZ table is missing.
            if (!zeroing || !rootWdl) return false;
            dtz = dtzBeforeZeroing(*rootWdl);
            ++unknown;
        }
        rm.tbRank = dtz > 0   ? (dtz + count50 <= 99 && !repeated ? MAX_DTZ : MAX_DTZ - (dtz + count50))
                    : dtz < 0 ? (-dtz * 2 + count50 < 100 ? -MAX_DTZ : -MAX_DTZ + (-dtz + count50))
                              : 0;
        rm.tbScore = scoreOfRank(rm.tbRank, rule50);
    }
    return unknown < int(moves.size());
}

bool rankByWdl(Position& pos, std::vector<RootMove>& moves, bool rule50, const Wdl* rootWdl) {
    static constexpr int RANK[] = {-MAX_DTZ, -MAX_DTZ + 101, 0, MAX_DTZ - 101, MAX_DTZ};
    int unknown = 0;
    for (RootMove& rm : moves) {
        Wdl wdl;
        pos.makeMove(rm.move());
        const bool known = probeWdl(pos, wdl);
        pos.unmakeMove(rm.move());
        if (!known && !rootWdl) return false;
        unknown += !known;
        const int ours = known ? -int(wdl) : int(*rootWdl);
        rm.tbRank = RANK[ours + 2];
        // Without the rule a cursed win is a win; with it, a draw a shade better than the others.
        rm.tbScore = ours == 0                        ? VALUE_DRAW
                     : std::abs(ours) == 2 || !rule50 ? (ours > 0 ? VALUE_TB_WIN : -VALUE_TB_WIN)
                                                      : Value(2 * ours);
    }
    return unknown < int(moves.size());
}

}  // namespace

RootRanking rankRootMoves(Position& pos, std::vector<RootMove>& moves, bool rule50) {
    if (moves.empty()) return RootRanking::NONE;
    Wdl root;
    const Wdl* rootWdl = probeWdl(pos, root) ? &root : nullptr;
    RootRanking ranking = rankByDtz(pos, moves, rule50, rootWdl)   ? RootRanking::DTZ
                          : rankByWdl(pos, moves, rule50, rootWdl) ? RootRanking::WDL
                                                                   : RootRanking::NONE;
    if (ranking == RootRanking::NONE) {
        for (RootMove& rm : moves) rm.tbRank = 0, rm.tbScore = VALUE_NONE;
        return ranking;
    }
    std::stable_sort(moves.begin(), moves.end(),
                     [](const RootMove& a, const RootMove& b) { return a.tbRank > b.tbRank; });
    const int best = moves[0].tbRank;
    moves.erase(std::find_if(moves.begin(), moves.end(), [&](const RootMove& rm) { return rm.tbRank < best; }),
                moves.end());
    return ranking;
}

}  // namespace syzygy
