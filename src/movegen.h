// Legal move generation. Pins and checks are handled with masks (a check mask of the squares
// that resolve the check, a line mask for each pinned piece), never by making the move.
#pragma once

#include "position.h"

// NOISY: captures and queen promotions (the moves quiescence search looks at).
// QUIETS: all other moves (non-captures, castling, under-promotions).
// LEGAL: both together. In check, every type yields only check evasions.
enum GenType { NOISY, QUIETS, LEGAL };

constexpr int MAX_MOVES = 256;

template <GenType T>
Move* generate(const Position& pos, Move* list);

// Number of legal moves, without writing them out (the last ply of perft).
int countLegalMoves(const Position& pos);

template <GenType T>
struct MoveList {
    explicit MoveList(const Position& pos) : last(generate<T>(pos, moves)) {}
    const Move* begin() const { return moves; }
    const Move* end() const { return last; }
    int size() const { return int(last - moves); }

private:
    Move moves[MAX_MOVES];
    Move* last;
};
