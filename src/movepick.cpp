#include "movepick.h"

#include <algorithm>

namespace {

enum Stage {
    MAIN_TT,
    CAPTURE_INIT,
    GOOD_CAPTURE,
    REFUTATION,
    QUIET_INIT,
    QUIET,
    BAD_CAPTURE,
    EVASION_TT,
    EVASION_INIT,
    EVASION,
    QSEARCH_TT,
    QCAPTURE_INIT,
    QCAPTURE,
    QCHECK_INIT,
    QCHECK,
    PROBCUT_TT,
    PROBCUT_INIT,
    PROBCUT,
    DONE
};

// Victim values for ordering captures (most valuable victim first).
constexpr const int* ORDER_VALUE = SIMPLE_VALUE;

// A stored move (hash, killer, counter) is only tried if it is legal here.
bool usable(const Position& pos, Move m) { return m != MOVE_NONE && pos.isPseudoLegal(m) && pos.isLegal(m); }

// What quiescence and ProbCut generate outside check: captures and queen promotions.
bool noisy(const Position& pos, Move m) {
    return pos.isCapture(m) || (typeOf(m) == PROMOTION && promotionType(m) == QUEEN);
}

}  // namespace

MovePicker::MovePicker(const Position& p, Move tt, const MoveHistories& h, const PieceToHistory* const* cont,
                       const Move* killers, Move counterMove)
    : pos(p), histories(h), continuation(cont), ttMove(usable(p, tt) ? tt : MOVE_NONE) {
    stage = (pos.inCheck() ? EVASION_TT : MAIN_TT) + (ttMove == MOVE_NONE);
    refutations[0] = killers[0];
    refutations[1] = killers[1];
    refutations[2] = counterMove;
}

MovePicker::MovePicker(const Position& p, Move tt, const MoveHistories& h, const PieceToHistory* const* cont,
                       bool withChecks)
    : pos(p), histories(h), continuation(cont), quietChecks(withChecks) {
    // Outside check, quiescence search looks only at noisy moves, the hash move included.
    ttMove = usable(p, tt) && (pos.inCheck() || noisy(p, tt)) ? tt : MOVE_NONE;
    stage = (pos.inCheck() ? EVASION_TT : QSEARCH_TT) + (ttMove == MOVE_NONE);
}

MovePicker::MovePicker(const Position& p, Move tt, int th, const MoveHistories& h)
    : pos(p), histories(h), continuation(nullptr), threshold(th) {
    assert(!pos.inCheck());
    ttMove = usable(p, tt) && noisy(p, tt) && pos.seeGe(tt, threshold) ? tt : MOVE_NONE;
    stage = PROBCUT_TT + (ttMove == MOVE_NONE);
}

void MovePicker::scoreCaptures() {
    for (ScoredMove* m = cur; m != end; ++m) {
        Piece moved = pos.movedPiece(m->move);
        PieceType victim = pos.capturedType(m->move);
        m->score = 16 * ORDER_VALUE[victim] + histories.capture[moved][toSq(m->move)][victim] / 16;
        if (typeOf(m->move) == PROMOTION) m->score += 16 * ORDER_VALUE[promotionType(m->move)];
    }
}

void MovePicker::scoreQuiets() {
    const Color us = pos.sideToMove();
    for (ScoredMove* m = cur; m != end; ++m) {
        Piece pc = pos.movedPiece(m->move);
        Square from = fromSq(m->move), to = toSq(m->move);
        m->score = histories.butterfly[us][from][to];
        for (int i = 0; i < CONTINUATION_NB; ++i) m->score += CONTINUATION_WEIGHTS[i] * (*continuation[i])[pc][to];
        if (typeOf(m->move) == PROMOTION) m->score -= 4 * HISTORY_MAX;  // under-promotions last
    }
}

void MovePicker::scoreEvasions() {
    const Color us = pos.sideToMove();
    for (ScoredMove* m = cur; m != end; ++m) {
        if (pos.isCapture(m->move)) {
            PieceType victim = pos.capturedType(m->move);
            m->score = (1 << 28) + 16 * ORDER_VALUE[victim] - ORDER_VALUE[typeOf(pos.movedPiece(m->move))];
        } else
            m->score = histories.butterfly[us][fromSq(m->move)][toSq(m->move)] +
                       (*continuation[0])[pos.movedPiece(m->move)][toSq(m->move)];
    }
}

// Quiet moves best first, equal scores in generation order: a stable sort, as std::stable_sort
// gives, but by insertion, which needs no buffer (std::stable_sort allocates one at every node)
// and is quick on lists of a few dozen moves.
void MovePicker::sortBestFirst(ScoredMove* begin, ScoredMove* last) {
    for (ScoredMove* p = begin + 1; p < last; ++p) {
        const ScoredMove moving = *p;
        ScoredMove* q = p;
        for (; q != begin && (q - 1)->score < moving.score; --q) *q = *(q - 1);
        *q = moving;
    }
}

// Selection of the best remaining move: cheaper than sorting when a cutoff comes early.
Move MovePicker::bestFromRange(ScoredMove* begin, ScoredMove* last) {
    std::swap(*begin, *std::max_element(begin, last,
                                        [](const ScoredMove& a, const ScoredMove& b) { return a.score < b.score; }));
    return begin->move;
}

bool MovePicker::isRefutation(Move m) const {
    return m == refutations[0] || m == refutations[1] || m == refutations[2];
}

Move MovePicker::next() {
    Move buffer[MAX_MOVES];
    auto fill = [&](Move* last) {
        end = cur;
        for (Move* m = buffer; m != last; ++m) (end++)->move = *m;
    };

    switch (stage) {
    case MAIN_TT:
    case EVASION_TT:
    case QSEARCH_TT:
    case PROBCUT_TT: ++stage; return ttMove;

    case CAPTURE_INIT:
    case QCAPTURE_INIT:
    case PROBCUT_INIT:
        cur = badCapturesEnd = moves;
        fill(generate<NOISY>(pos, buffer));
        scoreCaptures();
        ++stage;
        return next();

    case GOOD_CAPTURE:
        while (cur < end) {
            Move m = bestFromRange(cur, end);
            ScoredMove current = *cur++;
            if (m == ttMove) continue;
            if (pos.seeGe(m, -current.score / 32)) return m;
            *badCapturesEnd++ = current;  // losing capture: tried after the quiet moves
        }
        ++stage;
        [[fallthrough]];

    case REFUTATION:
        while (refutationIndex < 3) {
            Move m = refutations[refutationIndex++];
            bool duplicate = (refutationIndex == 2 && m == refutations[0]) ||
                             (refutationIndex == 3 && (m == refutations[0] || m == refutations[1]));
            if (m != ttMove && !duplicate && usable(pos, m) && !pos.isCaptureOrPromotion(m)) return m;
        }
        ++stage;
        [[fallthrough]];

    case QUIET_INIT:
        cur = badCapturesEnd;
        fill(generate<QUIETS>(pos, buffer));
        scoreQuiets();
        sortBestFirst(cur, end);
        ++stage;
        [[fallthrough]];

    case QUIET:
        while (cur < end) {
            Move m = (cur++)->move;
            if (m != ttMove && !(isRefutation(m) && !pos.isCaptureOrPromotion(m))) return m;
        }
        cur = moves;
        ++stage;
        [[fallthrough]];

    case BAD_CAPTURE:
        while (cur < badCapturesEnd) {
            Move m = (cur++)->move;
            if (m != ttMove) return m;
        }
        stage = DONE;
        return MOVE_NONE;

    case EVASION_INIT:
        cur = moves;
        fill(generate<LEGAL>(pos, buffer));
        scoreEvasions();
        ++stage;
        [[fallthrough]];

    case EVASION:
        while (cur < end) {
            Move m = bestFromRange(cur, end);
            ++cur;
            if (m != ttMove) return m;
        }
        stage = DONE;
        return MOVE_NONE;

    case QCAPTURE:
        while (cur < end) {
            Move m = bestFromRange(cur, end);
            ++cur;
            if (m != ttMove) return m;
        }
        if (!quietChecks) {
            stage = DONE;
            return MOVE_NONE;
        }
        ++stage;
        [[fallthrough]];

    case QCHECK_INIT:
        cur = moves;
        fill(generate<QUIETS>(pos, buffer));
        ++stage;
        [[fallthrough]];

    case QCHECK:
        while (cur < end) {
            Move m = (cur++)->move;
            if (m != ttMove && typeOf(m) != PROMOTION && pos.givesCheck(m)) return m;
        }
        stage = DONE;
        return MOVE_NONE;

    case PROBCUT:
        while (cur < end) {
            Move m = bestFromRange(cur, end);
            ++cur;
            if (m != ttMove && pos.seeGe(m, threshold)) return m;
        }
        stage = DONE;
        return MOVE_NONE;

    default: return MOVE_NONE;
    }
}
