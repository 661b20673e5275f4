#include "nnue/accumulator.h"

#include "simd/nnue.h"

namespace nnue {

// One entry for the root and one for every ply the search can reach.
AccumulatorStack::AccumulatorStack() : entries(MAX_PLY + 2) {}

void AccumulatorStack::reset(const Position& pos, const Network& net) {
    if (width != net.hidden()) {
        width = net.hidden();
        valueRows.assign(entries.size() * COLOR_NB * std::size_t(width), 0);
    }
    top = 0;
    net.refresh(pos, WHITE, values(0, WHITE));
    net.refresh(pos, BLACK, values(0, BLACK));
    entries[0].computed[WHITE] = entries[0].computed[BLACK] = true;
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
        if (!entries[last].computed[perspective]) {
            net.refresh(pos, perspective, values(top, perspective));
            entries[top].computed[perspective] = true;
            continue;
        }
        const InputView view = net.view(perspective, pos.kingSquare(perspective));
        while (last < top) update(perspective, view, ++last, net);
    }
    const Color us = pos.sideToMove();
    return net.output(pos, values(top, us), values(top, ~us));
}

}  // namespace nnue
