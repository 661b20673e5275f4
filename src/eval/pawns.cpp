#include "eval/pawns.h"

#include "eval/evalparams.h"

namespace pawns {

namespace {

using namespace params;

Bitboard adjacentFiles(Bitboard b) {
    Bitboard files = fileFill(b);
    return shift<EAST>(files) | shift<WEST>(files);
}

template <Color Us>
Score evaluateSide(const Position& pos, Entry& e, EvalTrace* trace) {
    constexpr Color Them = ~Us;
    constexpr Direction Down = Us == WHITE ? SOUTH : NORTH;
    const Bitboard ours = pos.pieces(Us, PAWN), theirs = pos.pieces(Them, PAWN);
    const Bitboard theirAttacks = pawnAttacksBB<Them>(theirs);

    e.attacks[Us] = pawnAttacksBB<Us>(ours);
    e.attackSpan[Us] = Us == WHITE ? northFill(e.attacks[Us]) : southFill(e.attacks[Us]);

    // Squares an enemy pawn controls now or later: its front span and the files beside it.
    const Bitboard theirFront = frontSpan(Them, theirs);
    const Bitboard theirGuard = theirFront | shift<EAST>(theirFront) | shift<WEST>(theirFront);
    const Bitboard behindOwn = frontSpan(Them, ours);  // squares behind our pawns

    const Bitboard passed = ours & ~theirGuard & ~behindOwn;
    const Bitboard isolated = ours & ~adjacentFiles(ours);
    const Bitboard doubled = ours & behindOwn;
    // Backward: the stop square is taken by an enemy pawn and no own pawn can come to support it.
    const Bitboard backward = ours & ~isolated & shift<Down>(theirAttacks & ~e.attackSpan[Us]);
    const Bitboard supported = ours & e.attacks[Us];
    const Bitboard phalanx = ours & (shift<EAST>(ours) | shift<WEST>(ours));

    e.passed[Us] = passed;
    e.semiOpenFiles[Us] = 0xFF;
    for (Bitboard b = ours; b;) e.semiOpenFiles[Us] &= ~(1 << fileOf(popLsb(b)));

    Score score = ISOLATED * popcount(isolated) + DOUBLED * popcount(doubled) + BACKWARD * popcount(backward);
    if (trace) {
        trace->add(ISOLATED, Us, popcount(isolated));
        trace->add(DOUBLED, Us, popcount(doubled));
        trace->add(BACKWARD, Us, popcount(backward));
    }
    for (Bitboard b = ours; b;) {
        Square s = popLsb(b);
        int rank = relativeRank(Us, s);
        if (squareBB(s) & passed) {
            score += PASSED[rank];
            if (trace) trace->add(PASSED[rank], Us);
        }
        bool isSupported = supported & squareBB(s), isPhalanx = phalanx & squareBB(s);
        if (isSupported || isPhalanx) {
            score += CONNECTED[rank] * (1 + (isSupported && isPhalanx));
            if (trace) trace->add(CONNECTED[rank], Us, 1 + (isSupported && isPhalanx));
        }
        // Candidate: not passed, the file ahead is free of pawns, and the own pawns that can
        // support its advance outnumber the enemy pawns that can stop it.
        if (!(squareBB(s) & passed) && !(frontSpan(Us, squareBB(s)) & (ours | theirs))) {
            Bitboard sideFiles = adjacentFiles(squareBB(s));
            Bitboard ahead = frontSpan(Us, rankBB(s));
            int sentries = popcount(theirs & sideFiles & ahead);
            int helpers = popcount(ours & sideFiles & ~ahead);
            if (helpers >= sentries) {
                score += CANDIDATE[rank];
                if (trace) trace->add(CANDIDATE[rank], Us);
            }
        }
    }
    return score;
}

}  // namespace

Entry evaluate(const Position& pos, EvalTrace* trace) {
    Entry e;
    e.key = pos.pawnKey();
    e.sideScore[WHITE] = evaluateSide<WHITE>(pos, e, trace);
    e.sideScore[BLACK] = evaluateSide<BLACK>(pos, e, trace);
    e.score = e.sideScore[WHITE] - e.sideScore[BLACK];
    return e;
}

Entry& Table::probe(const Position& pos) {
    Entry& e = entries[pos.pawnKey() & (entries.size() - 1)];
    if (e.key != pos.pawnKey()) e = evaluate(pos, nullptr);
    return e;
}

}  // namespace pawns
