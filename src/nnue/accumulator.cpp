#include "nnue/accumulator.h"

#include <algorithm>

#include "simd/nnue.h"

namespace nnue {

// One entry for the root and one for every ply the search can reach.
AccumulatorStack::AccumulatorStack() : entries(MAX_PLY + 2) {}

namespace {

// A view's slot in the cache: by king bucket, mirrored or not, and perspective.
int cacheSlot(InputView view, Color perspective) {
    return (view.base / INPUTS * 2 + view.mirrored) * COLOR_NB + perspective;
}

}  // namespace

void AccumulatorStack::reset(const Position& pos, const Network& net) {
    if (width != net.hidden()) {
        width = net.hidden();
        valueRows.assign(entries.size() * COLOR_NB * std::size_t(width), 0);
    }
    // Every view's cache empty: the biases, of a board without pieces (a network that only
    // starts a search may be another one of the same width).
    const std::size_t slots = std::size_t(net.kingBuckets().count) * 2 * COLOR_NB;
    cachedBoards.assign(slots, CachedView{});
    cachedRows.resize(slots * width);
    for (std::size_t slot = 0; slot < slots; ++slot) std::copy_n(net.featureBiases(), width, &cachedRows[slot * width]);
    top = 0;
    net.refresh(pos, WHITE, values(0, WHITE));
    net.refresh(pos, BLACK, values(0, BLACK));
    entries[0].computed[WHITE] = entries[0].computed[BLACK] = true;
}

void AccumulatorStack::refresh(const Position& pos, Color perspective, InputView view, const Network& net) {
    const int slot = cacheSlot(view, perspective);
    Bitboard* was = cachedBoards[slot].pieces;
    std::int16_t* cached = &cachedRows[std::size_t(slot) * width];
    const std::int16_t *added[32], *removed[32];
    int addedCount = 0, removedCount = 0;
    for (Color c : {WHITE, BLACK})
        for (PieceType pt = PAWN; pt <= KING; pt = PieceType(pt + 1)) {
            const Piece pc = makePiece(c, pt);
            const Bitboard now = pos.pieces(c, pt);
            for (Bitboard b = now & ~was[pc]; b;)
                added[addedCount++] = net.featureWeights(featureIndex(perspective, view, pc, popLsb(b)));
            for (Bitboard b = was[pc] & ~now; b;)
                removed[removedCount++] = net.featureWeights(featureIndex(perspective, view, pc, popLsb(b)));
            was[pc] = now;
        }
    simd::updateRows(cached, cached, added, addedCount, removed, removedCount, width);
    std::copy_n(cached, width, values(top, perspective));
}

DirtyPieces& AccumulatorStack::push() {
    assert(top + 1 < int(entries.size()));
    Entry& e = entries[++top];
    e.computed[WHITE] = e.computed[BLACK] = false;
    e.changes.addedCount = e.changes.removedCount = 0;
    return e.changes;
}

// Entry `ply`'s values from `perspective`, from the entry below's and the pieces its move changed.
void AccumulatorStack::update(Color perspective, InputView view, int ply, const Network& net) {
    const DirtyPieces& c = entries[ply].changes;
    const std::int16_t *added[2], *removed[2];
    for (int i = 0; i < c.addedCount; ++i)
        added[i] = net.featureWeights(featureIndex(perspective, view, c.added[i].piece, c.added[i].square));
    for (int i = 0; i < c.removedCount; ++i)
        removed[i] = net.featureWeights(featureIndex(perspective, view, c.removed[i].piece, c.removed[i].square));
    simd::updateRows(values(ply, perspective), values(ply - 1, perspective), added, c.addedCount, removed,
                     c.removedCount, width);
    entries[ply].computed[perspective] = true;
}

Value AccumulatorStack::evaluate(const Position& pos, const Network& net) {
    assert(net.hidden() == width);
    for (Color perspective : {WHITE, BLACK}) {
        if (entries[top].computed[perspective]) continue;
        // The nearest entry below computed (the root always is), unless a move on the way
        // changed this side's view; no king changed it since, so the view is the top's.
        int last = top;
        while (!entries[last].computed[perspective] && !net.redraws(entries[last].changes, perspective)) --last;
        const InputView view = net.view(perspective, pos.kingSquare(perspective));
        if (!entries[last].computed[perspective]) {
            refresh(pos, perspective, view, net);
            entries[top].computed[perspective] = true;
            continue;
        }
        while (last < top) update(perspective, view, ++last, net);
    }
    const Color us = pos.sideToMove();
    return net.output(pos, values(top, us), values(top, ~us));
}

}  // namespace nnue
