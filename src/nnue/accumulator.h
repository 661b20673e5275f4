// The first layer's values along the search's line, one entry a ply, in a stack each search
// thread owns (not in StateInfo: a kilobyte a ply that only the network reads, and tied to the
// network the thread evaluates with). A move only records which pieces it put on and took off
// the board (DirtyPieces, filled by Position::makeMove); the values are brought up to date when
// a position is evaluated, from the nearest entry below that is (Ethereal's lazy updates), so a
// node that is cut off before its evaluation, or a null move, costs a few stores. Each side's
// half is brought up to date on its own: a side whose king changed its view since the nearest
// entry (across the board's middle with king mirroring, into another king bucket) is computed
// afresh from the position, the other side's half still updated (as Stockfish refreshes only the
// perspective whose king bucket changed).
// Such a recomputation starts from the last values computed in the same view, kept with the board
// they were computed for, and adds and removes only the pieces that differ (Stockfish's
// accumulator caches, the "Finny tables" of Koivisto's authors): a king that steps back into a
// bucket finds most of the board as it left it, so a few rows replace some thirty.
// The values are as wide as the network the search started with (reset): one block of rows, by
// ply and perspective, made again only when a network of another width starts a search.
#pragma once

#include <vector>

#include "nnue/network.h"

namespace nnue {

class AccumulatorStack {
public:
    AccumulatorStack();
    // The root of a search, computed from every piece; `net` is the one the search evaluates with.
    void reset(const Position& pos, const Network& net);
    // A new entry for the position a move leads to: the move fills in what it changed
    // (Position::makeMove), a null move leaves it empty.
    DirtyPieces& push();
    void pop() { --top; }
    // The evaluation of the top entry's position `pos`, in centipawns for the side to move.
    Value evaluate(const Position& pos, const Network& net);

private:
    struct Entry {
        DirtyPieces changes;  // from the entry below
        bool computed[COLOR_NB] = {};
    };
    // The first layer of entry `ply` from `perspective`.
    std::int16_t* values(int ply, Color perspective) {
        return &valueRows[(2 * std::size_t(ply) + perspective) * width];
    }
    void update(Color perspective, InputView view, int ply, const Network& net);
    // The top entry's values from `perspective`, whose king is in `view`, from the view's cache.
    void refresh(const Position& pos, Color perspective, InputView view, const Network& net);

    // A view's last values from one perspective, and the board they are of (by piece).
    struct CachedView {
        Bitboard pieces[PIECE_NB];
    };

    std::vector<Entry> entries;
    Int16Rows valueRows;  // entries' values, a row of `width` by ply and perspective
    std::vector<CachedView> cachedBoards;
    Int16Rows cachedRows;  // their values, a row of `width` by view and perspective
    int width = 0;
    int top = 0;
};

}  // namespace nnue
