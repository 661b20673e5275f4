// Staged move ordering: the hash move first, then good captures by SEE, killers and the
// counter-move, quiet moves by history, and the losing captures last. Each stage generates only
// when it is reached, so a cutoff on the hash move costs no generation at all.
#pragma once

#include <cstdint>

#include "movegen.h"
#include "position.h"

constexpr int HISTORY_MAX = 16384;

using PieceToHistory = std::int16_t[PIECE_NB][SQUARE_NB];

// The earlier moves whose continuation histories order a quiet move, in plies back: the
// opponent's last move, our own last, and our own two and three moves ago (Stockfish 11), which
// remember the plans a move continues: a pawn storm, a piece's second step towards a square.
// Their weights in a quiet move's order (Stockfish 11's): the continuations count twice the
// butterfly history, but the oldest once.
constexpr int CONTINUATION_PLIES[] = {1, 2, 4, 6};
constexpr int CONTINUATION_WEIGHTS[] = {2, 2, 2, 1};
constexpr int CONTINUATION_NB = sizeof(CONTINUATION_PLIES) / sizeof(CONTINUATION_PLIES[0]);
static_assert(sizeof(CONTINUATION_WEIGHTS) == sizeof(CONTINUATION_PLIES), "a weight for each continuation");

// The statistics each search thread learns about moves.
struct MoveHistories {
    std::int16_t butterfly[COLOR_NB][SQUARE_NB][SQUARE_NB];    // quiet moves by from/to
    std::int16_t capture[PIECE_NB][SQUARE_NB][PIECE_TYPE_NB];  // captures by piece/to/victim
    Move counterMoves[PIECE_NB][SQUARE_NB];                    // refutation of the last move
    PieceToHistory continuation[PIECE_NB][SQUARE_NB];          // quiet move after a given move
};

// Moves a value towards the bonus, saturating at +-HISTORY_MAX.
inline void updateHistory(std::int16_t& entry, int bonus) {
    int clamped = bonus > HISTORY_MAX ? HISTORY_MAX : bonus < -HISTORY_MAX ? -HISTORY_MAX : bonus;
    entry += clamped - entry * (clamped < 0 ? -clamped : clamped) / HISTORY_MAX;
    assert(-HISTORY_MAX <= entry && entry <= HISTORY_MAX);
}

class MovePicker {
public:
    // Main search. `continuation` holds the continuation histories of CONTINUATION_PLIES.
    MovePicker(const Position& pos, Move ttMove, const MoveHistories& histories,
               const PieceToHistory* const* continuation, const Move* killers, Move counterMove);
    // Quiescence search: captures and queen promotions, then (withChecks) quiet checks; or
    // every evasion when in check.
    MovePicker(const Position& pos, Move ttMove, const MoveHistories& histories,
               const PieceToHistory* const* continuation, bool withChecks);
    // ProbCut: the captures and queen promotions whose exchange gains at least `threshold`.
    MovePicker(const Position& pos, Move ttMove, int threshold, const MoveHistories& histories);

    // The next move, or MOVE_NONE when exhausted.
    Move next();

private:
    struct ScoredMove {
        Move move;
        int score;
    };

    void scoreCaptures();
    void scoreQuiets();
    void scoreEvasions();
    Move bestFromRange(ScoredMove* begin, ScoredMove* end);
    static void sortBestFirst(ScoredMove* begin, ScoredMove* last);
    bool isRefutation(Move m) const;

    const Position& pos;
    const MoveHistories& histories;
    const PieceToHistory* const* continuation;
    Move ttMove;
    Move refutations[3] = {MOVE_NONE, MOVE_NONE, MOVE_NONE};
    int stage;
    int refutationIndex = 0;
    int threshold = 0;
    bool quietChecks = false;
    ScoredMove moves[MAX_MOVES];
    ScoredMove* cur = moves;
    ScoredMove* end = moves;
    ScoredMove* badCapturesEnd = moves;
};
