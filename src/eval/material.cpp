#include "eval/material.h"

#include <algorithm>
#include <vector>

#include "eval/evalparams.h"

namespace material {

using namespace materialindex;
using namespace params;

namespace {

std::vector<Entry> table;  // SIZE in-range entries; OVERFLOW_INDEX is never stored

// One side's material, in the terms the rules below speak of.
struct Side {
    int pawns, knights, lightBishops, darkBishops, rooks, queens;
    int bishops() const { return lightBishops + darkBishops; }
    int minors() const { return knights + bishops(); }
    int pieces() const { return minors() + rooks + queens; }
    int pieceValue() const {
        return SIMPLE_VALUE[KNIGHT] * knights + SIMPLE_VALUE[BISHOP] * bishops() + SIMPLE_VALUE[ROOK] * rooks +
               SIMPLE_VALUE[QUEEN] * queens;
    }
    // Bishops only, all on squares of one colour: they can never mate (seed: colour-bound pieces).
    bool colourBound() const {
        return bishops() > 0 && !knights && !rooks && !queens && (!lightBishops || !darkBishops);
    }
    // Can these pieces (no pawns) force mate against a bare king?
    bool canForceMate() const {
        if (rooks || queens) return true;
        if (colourBound()) return false;
        if (knights == 2 && !bishops()) return false;  // two knights cannot force mate
        return minors() >= 2;
    }
    bool bare() const { return !pawns && !pieces(); }
};

Side sideOf(const int counts[SLOT_NB]) {
    return {counts[PAWNS], counts[KNIGHTS], counts[LIGHT_BISHOPS], counts[DARK_BISHOPS], counts[ROOKS], counts[QUEENS]};
}

// Pair-o-Max's "no mating potential": pawnless, in a 1:0, 1:1, 2:0 or 2:1 piece situation and
// less than MATING_POTENTIAL_MARGIN ahead in piece material; or pieces that can never force mate
// (two knights, colour-bound bishops).
bool lacksMatingPotential(const Side& us, const Side& them) {
    if (!us.canForceMate()) return true;
    bool smallSituation = us.pieces() <= 2 && them.pieces() <= 1;
    return smallSituation && us.pieceValue() - them.pieceValue() < MATING_POTENTIAL_MARGIN;
}

// The scale factor for `us` when it is ahead, and the special endgame that refines it, if any.
int scaleFor(const Side& us, const Side& them, endgame::Id& special) {
    special = endgame::NONE;

    if (!us.pawns) {
        // A single minor cannot win, whatever pawns the other side has (draw evaluation).
        if (us.pieces() == 1 && us.minors() == 1) return SCALE_DRAW;
        if (!us.pieces()) return SCALE_DRAW;
        // Against a bare king (or king and pawns) what can force mate is a plain win.
        if (!them.pieces()) {
            if (us.knights == 2 && !us.bishops() && !us.rooks && !us.queens && them.pawns) {
                special = endgame::KNNKP;  // the pawn makes mate possible (Troitzky)
                return SCALE_NO_MATING_POTENTIAL;
            }
            // Colour-bound bishops never mate; two knights against a bare king mate only if the
            // king helps (../shared/seeds/mating-potential.txt): both draws, whatever the
            // material count says.
            if (!us.canForceMate()) return us.colourBound() || them.bare() ? SCALE_DRAW : SCALE_NO_MATING_POTENTIAL;
            if (us.pieces() == 1 && us.queens == 1 && them.pawns == 1) special = endgame::KQKP;
            if (us.pieces() == 1 && us.rooks == 1 && them.pawns == 1) special = endgame::KRKP;
            return SCALE_NORMAL;
        }
        // Two minors against one (or a minor against two knights): a draw unless the bishop pair
        // faces a knight (draw evaluation, with Syzygy's numbers for the exception).
        if (!us.rooks && !us.queens && !them.rooks && !them.queens && us.minors() == 2 && them.minors() == 1) {
            bool bishopPairVsKnight = us.lightBishops && us.darkBishops && them.knights;
            if (them.knights && !bishopPairVsKnight) special = endgame::MINORS_KN;
            return bishopPairVsKnight ? SCALE_MATING_IN_JEOPARDY : SCALE_NEAR_DRAW;
        }
        if (!us.rooks && !us.queens && !them.rooks && !them.queens && us.minors() == 1 && them.minors() >= 1)
            return SCALE_NEAR_DRAW;  // minor against minor(s)
        if (us.pieces() == 1 && us.rooks == 1 && them.pieces() == 1 && them.knights == 1 && !them.pawns)
            special = endgame::KRKN;
        if (us.pieces() == 1 && us.rooks == 1 && them.pieces() == 1 && them.bishops() == 1 && !them.pawns)
            special = endgame::KRKB;
        if (us.pieces() == 1 && us.queens == 1 && them.pieces() == 1 && them.rooks == 1 && them.pawns == 1)
            special = endgame::KQKRP;
        if (us.pieces() == 1 && us.queens == 1 && them.pieces() == 1 && them.rooks == 1 && !them.pawns)
            special = endgame::KQKR;
        if (lacksMatingPotential(us, them)) return SCALE_NO_MATING_POTENTIAL;
        // A rook against two minors: not enough either way.
        if (us.pieces() == 1 && us.rooks == 1 && them.pieces() == 2 && !them.rooks && !them.queens)
            return SCALE_NO_MATING_POTENTIAL;
        return SCALE_PAWNLESS_LEADER;
    }

    // The last pawn against a lone minor: it queens if nothing catches it, else the path rule.
    if (us.pawns == 1 && !us.pieces() && them.pieces() == 1 && them.minors() == 1 && !them.pawns) {
        special = endgame::LAST_PAWN;
        return SCALE_NORMAL;
    }

    // Mating potential in jeopardy: the last pawn, with a piece the defender can give for it
    // and leave no mating potential behind.
    if (us.pawns == 1 && us.pieces() >= 1 && us.pieces() <= 2 && them.pieces() >= 1 && them.pieces() <= 2) {
        Side after = them;
        if (after.knights) --after.knights;  // the defender gives its cheapest piece
        else if (after.lightBishops) --after.lightBishops;
        else if (after.darkBishops) --after.darkBishops;
        else if (after.rooks) --after.rooks;
        else --after.queens;
        Side usAfter = us;
        usAfter.pawns = 0;
        if (lacksMatingPotential(usAfter, after)) {
            if (us.pieces() == 1 && them.pieces() == 1 && us.minors() == 1 && them.minors() == 1)
                special = endgame::LAST_PAWN;  // the path rule refines it
            return SCALE_MATING_IN_JEOPARDY;
        }
    }

    // Opposite-coloured bishops: drawish by the number of passed pawns (a scaler counts them).
    if (us.bishops() == 1 && them.bishops() == 1 && us.lightBishops != them.lightBishops) {
        special = endgame::OCB;
        return SCALE_NORMAL;
    }
    // Bishop and pawns against a bare king or king and pawns: the wrong rook pawn.
    if (us.pieces() == 1 && us.bishops() == 1 && !them.pieces()) {
        special = endgame::KBPSK;
        return SCALE_NORMAL;
    }
    if (us.pieces() == 1 && us.knights == 1 && us.pawns == 1 && them.bare()) {
        special = endgame::KNPK;
        return SCALE_NORMAL;
    }
    if (us.pieces() == 1 && us.rooks == 1 && us.pawns == 1 && them.pieces() == 1 && them.rooks == 1 && !them.pawns) {
        special = endgame::KRPKR;
        return SCALE_NORMAL;
    }
    return SCALE_NORMAL;
}

Score imbalanceOf(const Side& s, Color c = WHITE, EvalTrace* trace = nullptr) {
    Score score = SCORE_ZERO;
    const int bishopPair = s.lightBishops && s.darkBishops;
    if (bishopPair) score += BISHOP_PAIR;
    score += KNIGHT_PER_PAWN * (s.knights * (s.pawns - 5)) + ROOK_PER_PAWN * (s.rooks * (s.pawns - 5));
    if (trace) {
        trace->add(BISHOP_PAIR, c, bishopPair);
        trace->add(KNIGHT_PER_PAWN, c, s.knights * (s.pawns - 5));
        trace->add(ROOK_PER_PAWN, c, s.rooks * (s.pawns - 5));
    }
    return score;
}

}  // namespace

Entry compute(const int counts[COLOR_NB][SLOT_NB]) {
    const Side side[COLOR_NB] = {sideOf(counts[WHITE]), sideOf(counts[BLACK])};
    Entry e{};
    e.imbalance = imbalanceOf(side[WHITE]) - imbalanceOf(side[BLACK]);
    int phase = 0;
    for (const Side& s : side)
        phase += PHASE_WEIGHT[KNIGHT] * s.knights + PHASE_WEIGHT[BISHOP] * s.bishops() + PHASE_WEIGHT[ROOK] * s.rooks +
                 PHASE_WEIGHT[QUEEN] * s.queens;
    e.phase = std::uint8_t(std::min(phase, MAX_PHASE));

    endgame::Id special[COLOR_NB];
    for (Color c : {WHITE, BLACK}) e.scale[c] = std::uint8_t(scaleFor(side[c], side[~c], special[c]));

    // Evaluators: exact knowledge against a bare king.
    for (Color c : {WHITE, BLACK}) {
        const Side &us = side[c], &them = side[~c];
        if (!them.bare()) continue;
        if (!us.pawns && us.pieces() == 2 && us.knights == 1 && us.bishops() == 1) special[c] = endgame::KBNK;
        else if (!us.pawns && us.canForceMate()) special[c] = endgame::KXK;
        else if (us.pawns == 1 && !us.pieces()) special[c] = endgame::KPK;
        else if (us.pawns >= 2 && !us.pieces()) special[c] = endgame::KPSK;
    }
    if (side[WHITE].pawns == 1 && side[BLACK].pawns == 1 && !side[WHITE].pieces() && !side[BLACK].pieces())
        special[WHITE] = endgame::KPKP;
    // One special per configuration (for one side, or both when symmetric, like opposite
    // bishops); where the two sides would have different ones, White's is kept.
    endgame::Id id = special[WHITE] != endgame::NONE ? special[WHITE] : special[BLACK];
    e.special = std::uint8_t(id);
    for (Color c : {WHITE, BLACK})
        if (id != endgame::NONE && special[c] == id) e.special |= std::uint8_t(1 << (5 + c));
    return e;
}

void init() {
    if (!table.empty()) return;
    table.resize(SIZE);
    for (int index = 0; index < SIZE; ++index) {
        int counts[COLOR_NB][SLOT_NB];
        int rest = index;
        for (int c = 0; c < COLOR_NB; ++c)
            for (int slot = 0; slot < SLOT_NB; ++slot) {
                counts[c][slot] = rest % (maxCount[slot] + 1);
                rest /= maxCount[slot] + 1;
            }
        table[index] = compute(counts);
    }
}

namespace {

void countsOf(const Position& pos, int counts[COLOR_NB][SLOT_NB]) {
    for (Color c : {WHITE, BLACK}) {
        counts[c][PAWNS] = pos.count(c, PAWN);
        counts[c][KNIGHTS] = pos.count(c, KNIGHT);
        counts[c][LIGHT_BISHOPS] = pos.lightBishops(c);
        counts[c][DARK_BISHOPS] = pos.count(c, BISHOP) - pos.lightBishops(c);
        counts[c][ROOKS] = pos.count(c, ROOK);
        counts[c][QUEENS] = pos.count(c, QUEEN);
    }
}

}  // namespace

Entry probe(const Position& pos) {
    int index = pos.materialIndex();
    assert(index >= 0 && index <= OVERFLOW_INDEX && table.size() == std::size_t(SIZE));
    if (index != OVERFLOW_INDEX) return table[index];
    int counts[COLOR_NB][SLOT_NB];
    countsOf(pos, counts);
    return compute(counts);
}

void traceImbalance(const Position& pos, EvalTrace& trace) {
    int counts[COLOR_NB][SLOT_NB];
    countsOf(pos, counts);
    for (Color c : {WHITE, BLACK}) imbalanceOf(sideOf(counts[c]), c, &trace);
}

}  // namespace material
