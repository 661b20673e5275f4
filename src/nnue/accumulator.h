// The first layer's values along the search's line, one entry a ply, in a stack each search
// thread owns (not in StateInfo: a kilobyte a ply that only the network reads, and tied to the
// network the thread evaluates with). A move only records which pieces it put on and took off
// the board (DirtyPieces, filled by Position::makeMove); the values are brought up to date when
// a position is evaluated, from the nearest entry below that is (Ethereal's lazy updates), so a
// node that is cut off before its evaluation, or a null move, costs a few stores. Each side's
// half is brought up to date on its own: a king-mirroring network's side whose king crossed the
// board's middle since the nearest entry is computed afresh from the position, the other side's
// half still updated (as Stockfish refreshes only the perspective whose king bucket changed).
#pragma once

#include <vector>

#include "nnue/network.h"

namespace nnue {

class AccumulatorStack {
public:
    AccumulatorStack();
    // The root of a search, computed from every piece.
    void reset(const Position& pos, const Network& net);
    // A new entry for the position a move leads to: the move fills in what it changed
    // (Position::makeMove), a null move leaves it empty.
    DirtyPieces& push();
    void pop() { --top; }
    // The evaluation of the top entry's position `pos`, in centipawns for the side to move.
    Value evaluate(const Position& pos, const Network& net);

private:
    struct Entry {
        alignas(64) std::int16_t values[COLOR_NB][HIDDEN];  // by perspective
        DirtyPieces changes;                                // from the entry below
        bool computed[COLOR_NB] = {};
    };
    void update(Color perspective, bool mirrored, const Entry& from, Entry& to, const Network& net) const;

    std::vector<Entry> entries;
    int top = 0;
};

}  // namespace nnue
