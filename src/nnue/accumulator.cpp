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
    root.computed[WHITE] = root.computed[BLACK] = true;
}

DirtyPieces& AccumulatorStack::push() {
    assert(top + 1 < int(entries.size()));
    Entry& e = entries[++top];
    e.computed[WHITE] = e.computed[BLACK] = false;
    e.changes.addedCount = e.changes.removedCount = 0;
    return e.changes;
}

void AccumulatorStack::update(Color perspective, bool mirrored, const Entry& from, Entry& to,
                              const Network& net) const {
    const DirtyPieces& c = to.changes;
    const std::int16_t *added[2], *removed[2];
    for (int i = 0; i < c.addedCount; ++i)
        added[i] = net.featureWeights[featureIndex(perspective, c.added[i].piece, c.added[i].square, mirrored)];
    for (int i = 0; i < c.removedCount; ++i)
        removed[i] = net.featureWeights[featureIndex(perspective, c.removed[i].piece, c.removed[i].square, mirrored)];
    simd::updateRows(to.values[perspective], from.values[perspective], added, c.addedCount, removed, c.removedCount,
                     HIDDEN);
    to.computed[perspective] = true;
}

Value AccumulatorStack::evaluate(const Position& pos, const Network& net) {
    for (Color perspective : {WHITE, BLACK}) {
        if (entries[top].computed[perspective]) continue;
        // The nearest entry below computed (the root always is), unless a move on the way
        // mirrored this side's view afresh; no king crossed since, so the view is the top's.
        int last = top;
        while (!entries[last].computed[perspective] && !net.remirrors(entries[last].changes, perspective)) --last;
        if (!entries[last].computed[perspective]) {
            net.refresh(pos, perspective, entries[top].values[perspective]);
            entries[top].computed[perspective] = true;
            continue;
        }
        const bool mirrored = net.mirrored(pos, perspective);
        for (; last < top; ++last) update(perspective, mirrored, entries[last], entries[last + 1], net);
    }
    const Color us = pos.sideToMove();
    return net.output(pos, entries[top].values[us], entries[top].values[~us]);
}

}  // namespace nnue
