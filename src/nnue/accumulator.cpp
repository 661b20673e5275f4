#include "nnue/accumulator.h"

#include "simd/nnue.h"

namespace nnue {

// One entry for the root and one for every ply the search can reach.
AccumulatorStack::AccumulatorStack() : entries(MAX_PLY + 2) {}

void AccumulatorStack::reset(const Position& pos, const Network& net) {
    top = 0;
    Entry& root = entries[0];
    net.refresh(pos, WHITE, root.values[WHITE]);
    net.refresh(pos, BLACK, root.values[BLACK]);
    root.computed = true;
}

DirtyPieces& AccumulatorStack::push() {
    assert(top + 1 < int(entries.size()));
    Entry& e = entries[++top];
    e.computed = false;
    e.changes.addedCount = e.changes.removedCount = 0;
    return e.changes;
}

void AccumulatorStack::update(const Entry& from, Entry& to, const Network& net) const {
    const DirtyPieces& c = to.changes;
    for (Color perspective : {WHITE, BLACK}) {
        const std::int16_t *added[2], *removed[2];
        for (int i = 0; i < c.addedCount; ++i)
            added[i] = net.featureWeights[featureIndex(perspective, c.added[i].piece, c.added[i].square)];
        for (int i = 0; i < c.removedCount; ++i)
            removed[i] = net.featureWeights[featureIndex(perspective, c.removed[i].piece, c.removed[i].square)];
        simd::updateRows(to.values[perspective], from.values[perspective], added, c.addedCount, removed, c.removedCount,
                         HIDDEN);
    }
    to.computed = true;
}

Value AccumulatorStack::evaluate(const Position& pos, const Network& net) {
    int last = top;
    while (!entries[last].computed) --last;  // the root entry always is
    for (; last < top; ++last) update(entries[last], entries[last + 1], net);
    const Color us = pos.sideToMove();
    return net.output(entries[top].values[us], entries[top].values[~us]);
}

}  // namespace nnue
