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

void AccumulatorStack::push(const Position& pos, Move m) {
    assert(top + 1 < int(entries.size()));
    Entry& e = entries[++top];
    e.computed = false;
    e.addedCount = e.removedCount = 0;
    if (m == MOVE_NULL) return;

    const Color us = pos.sideToMove();
    const Square from = fromSq(m), to = toSq(m);
    const Piece moved = pos.movedPiece(m);
    if (typeOf(m) == CASTLING) {
        // Encoded as the king taking its own rook; in Chess960 a square may be both a from and
        // a to square, which the sum of the changes handles.
        const bool kingSide = to > from;
        e.removed[0] = {moved, from};
        e.removed[1] = {pos.pieceOn(to), to};
        e.added[0] = {moved, castlingKingTo(us, kingSide)};
        e.added[1] = {pos.pieceOn(to), castlingRookTo(us, kingSide)};
        e.addedCount = e.removedCount = 2;
        return;
    }
    e.removed[e.removedCount++] = {moved, from};
    e.added[e.addedCount++] = {typeOf(m) == PROMOTION ? makePiece(us, promotionType(m)) : moved, to};
    if (typeOf(m) == EN_PASSANT) {
        const Square captured = Square(to - pawnPush(us));
        e.removed[e.removedCount++] = {pos.pieceOn(captured), captured};
    } else if (!pos.empty(to)) e.removed[e.removedCount++] = {pos.pieceOn(to), to};
}

void AccumulatorStack::update(const Entry& from, Entry& to, const Network& net) const {
    for (Color perspective : {WHITE, BLACK}) {
        const std::int16_t *added[2], *removed[2];
        for (int i = 0; i < to.addedCount; ++i)
            added[i] = net.featureWeights[featureIndex(perspective, to.added[i].piece, to.added[i].square)];
        for (int i = 0; i < to.removedCount; ++i)
            removed[i] = net.featureWeights[featureIndex(perspective, to.removed[i].piece, to.removed[i].square)];
        simd::updateRows(to.values[perspective], from.values[perspective], added, to.addedCount, removed,
                         to.removedCount, HIDDEN);
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
