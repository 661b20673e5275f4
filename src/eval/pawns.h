// Pawn structure, computed set-wise from pawn spans and attack spans (seed pawnking.txt) and
// cached per thread by pawn key: passed, isolated, doubled, backward, connected and candidate
// pawns, and what the rest of the evaluation needs from the pawns (attacks, passers, files).
#pragma once

#include <vector>

#include "eval/evaltrace.h"
#include "position.h"

namespace pawns {

struct Entry {
    Key key;
    Score score;                // White's point of view
    Score sideScore[COLOR_NB];  // each side's own terms (score = white's - black's), for `eval`
    Bitboard passed[COLOR_NB];
    Bitboard attacks[COLOR_NB];
    Bitboard attackSpan[COLOR_NB];  // every square the pawns may attack as they advance
    int semiOpenFiles[COLOR_NB];    // bit f set: no own pawn on file f
    int passedCount(Color c) const { return popcount(passed[c]); }
};

// The entry computed afresh; with a trace, every weight it uses is recorded (the tuner).
Entry evaluate(const Position& pos, EvalTrace* trace);

class Table {
public:
    // Keys start at a value no pawn structure has, so that an empty slot is never believed.
    Table() : entries(16384, Entry{~Key(0), SCORE_ZERO, {}, {}, {}, {}, {}}) {}
    Entry& probe(const Position& pos);  // computes the entry on a miss

private:
    std::vector<Entry> entries;
};

// Squares in front of the pawns of colour c (their paths to promotion), not the pawns' squares.
inline Bitboard frontSpan(Color c, Bitboard b) { return c == WHITE ? northFill(b << 8) : southFill(b >> 8); }

// The square of promotion for a pawn of colour c on s.
inline Square promotionSquare(Color c, Square s) { return makeSquare(fileOf(s), c == WHITE ? 7 : 0); }

}  // namespace pawns
