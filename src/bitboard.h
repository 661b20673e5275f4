// Bitboard primitives: bit counting, scanning, shifts and the fixed file/rank masks.
#pragma once

#include "types.h"

constexpr Bitboard FILE_A_BB = 0x0101010101010101ULL;
constexpr Bitboard FILE_H_BB = FILE_A_BB << 7;
constexpr Bitboard RANK_1_BB = 0xFFULL;
constexpr Bitboard RANK_8_BB = RANK_1_BB << 56;
constexpr Bitboard LIGHT_SQUARES = 0x55AA55AA55AA55AAULL;
constexpr Bitboard DARK_SQUARES = ~LIGHT_SQUARES;

constexpr Bitboard squareBB(Square s) { return 1ULL << s; }
constexpr Bitboard fileBB(int file) { return FILE_A_BB << file; }
constexpr Bitboard fileBB(Square s) { return fileBB(fileOf(s)); }
constexpr Bitboard rankBB(int rank) { return RANK_1_BB << (8 * rank); }
constexpr Bitboard rankBB(Square s) { return rankBB(rankOf(s)); }

constexpr bool moreThanOne(Bitboard b) { return (b & (b - 1)) != 0; }

// Baseline x86-64 has no POPCNT instruction; the SWAR count is faster than libgcc's call there.
inline int popcount(Bitboard b) {
#if defined(__POPCNT__)
    return __builtin_popcountll(b);
#else
    b = b - ((b >> 1) & 0x5555555555555555ULL);
    b = (b & 0x3333333333333333ULL) + ((b >> 2) & 0x3333333333333333ULL);
    b = (b + (b >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return int((b * 0x0101010101010101ULL) >> 56);
#endif
}

inline Square lsb(Bitboard b) { return Square(__builtin_ctzll(b)); }
inline Square msb(Bitboard b) { return Square(63 ^ __builtin_clzll(b)); }

inline Square popLsb(Bitboard& b) {
    Square s = lsb(b);
    b &= b - 1;
    return s;
}

template <Direction D>
constexpr Bitboard shift(Bitboard b) {
    switch (D) {
    case NORTH: return b << 8;
    case SOUTH: return b >> 8;
    case EAST: return (b & ~FILE_H_BB) << 1;
    case WEST: return (b & ~FILE_A_BB) >> 1;
    case NORTH_EAST: return (b & ~FILE_H_BB) << 9;
    case NORTH_WEST: return (b & ~FILE_A_BB) << 7;
    case SOUTH_EAST: return (b & ~FILE_H_BB) >> 7;
    case SOUTH_WEST: return (b & ~FILE_A_BB) >> 9;
    }
    return 0;
}

template <Color C>
constexpr Bitboard pawnAttacksBB(Bitboard pawns) {
    return C == WHITE ? shift<NORTH_WEST>(pawns) | shift<NORTH_EAST>(pawns)
                      : shift<SOUTH_WEST>(pawns) | shift<SOUTH_EAST>(pawns);
}

inline Bitboard pawnAttacksBB(Color c, Bitboard pawns) {
    return c == WHITE ? pawnAttacksBB<WHITE>(pawns) : pawnAttacksBB<BLACK>(pawns);
}

// Fills: every square a bit can reach going north or south (used for pawn spans and files).
constexpr Bitboard northFill(Bitboard b) {
    b |= b << 8;
    b |= b << 16;
    return b | (b << 32);
}
constexpr Bitboard southFill(Bitboard b) {
    b |= b >> 8;
    b |= b >> 16;
    return b | (b >> 32);
}
constexpr Bitboard fileFill(Bitboard b) { return northFill(b) | southFill(b); }

constexpr int fileDistance(Square a, Square b) {
    return fileOf(a) > fileOf(b) ? fileOf(a) - fileOf(b) : fileOf(b) - fileOf(a);
}
constexpr int rankDistance(Square a, Square b) {
    return rankOf(a) > rankOf(b) ? rankOf(a) - rankOf(b) : rankOf(b) - rankOf(a);
}
// King-move (Chebyshev) distance.
constexpr int distance(Square a, Square b) {
    return fileDistance(a, b) > rankDistance(a, b) ? fileDistance(a, b) : rankDistance(a, b);
}
