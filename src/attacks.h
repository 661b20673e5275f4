// Attack tables: leapers, fancy-magic sliders (or PEXT, see simd/pext.h) and square relations.
#pragma once

#include "bitboard.h"

#if defined(__BMI2__) && !defined(QUADBIT_NO_PEXT)
#define QUADBIT_USE_PEXT 1
#include "simd/pext.h"
#endif

namespace attacks {

// One square's fancy magic: the relevant occupancy mask, the multiplier, the shift and where its
// slice of the shared attack table starts.
struct Magic {
    Bitboard mask;
    Bitboard magic;
    Bitboard* table;
    unsigned shift;
    unsigned index(Bitboard occupied) const { return unsigned(((occupied & mask) * magic) >> shift); }
};

extern Magic rookMagics[SQUARE_NB];
extern Magic bishopMagics[SQUARE_NB];
extern Bitboard pawnAttacks[COLOR_NB][SQUARE_NB];
extern Bitboard knightAttacks[SQUARE_NB];
extern Bitboard kingAttacks[SQUARE_NB];
extern Bitboard emptyBoardAttacks[PIECE_TYPE_NB][SQUARE_NB];  // bishop, rook, queen rays
extern Bitboard between[SQUARE_NB][SQUARE_NB];
extern Bitboard line[SQUARE_NB][SQUARE_NB];
extern std::uint8_t knightDistance[SQUARE_NB][SQUARE_NB];

// Builds every table; idempotent, and fast enough to run at every start.
void init();

// Slow ray walk used to build and check the fast tables.
Bitboard slidingAttacks(PieceType pt, Square s, Bitboard occupied);
// The squares whose occupancy matters to a slider on s: its rays without their last square.
Bitboard relevantMask(PieceType pt, Square s);

inline Bitboard magicBishopAttacks(Square s, Bitboard occupied) {
    const Magic& m = bishopMagics[s];
    return m.table[m.index(occupied)];
}
inline Bitboard magicRookAttacks(Square s, Bitboard occupied) {
    const Magic& m = rookMagics[s];
    return m.table[m.index(occupied)];
}

}  // namespace attacks

inline Bitboard bishopAttacks(Square s, Bitboard occupied) {
#ifdef QUADBIT_USE_PEXT
    return simd::pextBishopAttacks(s, occupied);
#else
    return attacks::magicBishopAttacks(s, occupied);
#endif
}

inline Bitboard rookAttacks(Square s, Bitboard occupied) {
#ifdef QUADBIT_USE_PEXT
    return simd::pextRookAttacks(s, occupied);
#else
    return attacks::magicRookAttacks(s, occupied);
#endif
}

inline Bitboard queenAttacks(Square s, Bitboard occupied) {
    return bishopAttacks(s, occupied) | rookAttacks(s, occupied);
}

inline Bitboard pawnAttacks(Color c, Square s) { return attacks::pawnAttacks[c][s]; }
inline Bitboard knightAttacks(Square s) { return attacks::knightAttacks[s]; }
inline Bitboard kingAttacks(Square s) { return attacks::kingAttacks[s]; }
// A slider's rays on an empty board: the squares it could ever reach from s.
inline Bitboard emptyBoardAttacks(PieceType pt, Square s) { return attacks::emptyBoardAttacks[pt][s]; }

// Attacks of a non-pawn piece type from s.
inline Bitboard attacksBB(PieceType pt, Square s, Bitboard occupied) {
    switch (pt) {
    case KNIGHT: return knightAttacks(s);
    case BISHOP: return bishopAttacks(s, occupied);
    case ROOK: return rookAttacks(s, occupied);
    case QUEEN: return queenAttacks(s, occupied);
    default: return kingAttacks(s);
    }
}

// Squares strictly between a and b when they share a line, else empty.
inline Bitboard betweenBB(Square a, Square b) { return attacks::between[a][b]; }
// The whole line (edge to edge) through a and b when they share one, else empty.
inline Bitboard lineBB(Square a, Square b) { return attacks::line[a][b]; }
inline bool aligned(Square a, Square b, Square c) { return (lineBB(a, b) & squareBB(c)) != 0; }
// Knight moves from a to b on an empty board.
inline int knightDistance(Square a, Square b) { return attacks::knightDistance[a][b]; }
