#include "simd/pext.h"

#if defined(__x86_64__)
#include <immintrin.h>

#include "attacks.h"

namespace simd {

PextSlider rookPext[SQUARE_NB];
PextSlider bishopPext[SQUARE_NB];

namespace {

Bitboard rookTable[0x19000];   // sum over squares of 2^(rook mask bits)
Bitboard bishopTable[0x1480];  // the same for bishops

// Bit extract in software: the bits of `value` under `mask`, packed to the low end.
unsigned softwarePext(Bitboard value, Bitboard mask) {
    unsigned result = 0;
    for (unsigned bit = 0; mask; mask &= mask - 1, ++bit)
        if (value & mask & -mask) result |= 1u << bit;
    return result;
}

void build(PieceType pt, PextSlider* sliders, Bitboard* table) {
    Bitboard* next = table;
    for (Square s = SQ_A1; s <= SQ_H8; ++s) {
        PextSlider& slider = sliders[s];
        slider.mask = attacks::relevantMask(pt, s);
        slider.table = next;
        Bitboard subset = 0;
        do {  // Carry-Rippler walk over every subset of the mask
            slider.table[softwarePext(subset, slider.mask)] =
                pt == ROOK ? attacks::magicRookAttacks(s, subset) : attacks::magicBishopAttacks(s, subset);
            subset = (subset - slider.mask) & slider.mask;
        } while (subset);
        next += 1ULL << popcount(slider.mask);
    }
}

}  // namespace

void initPext() {
    static bool done = false;
    if (done) return;
    build(ROOK, rookPext, rookTable);
    build(BISHOP, bishopPext, bishopTable);
    done = true;
}

bool cpuHasBmi2() { return __builtin_cpu_supports("bmi2"); }

__attribute__((target("bmi2"))) Bitboard pextRookAttacksAnyBuild(Square s, Bitboard occupied) {
    return rookPext[s].table[_pext_u64(occupied, rookPext[s].mask)];
}

__attribute__((target("bmi2"))) Bitboard pextBishopAttacksAnyBuild(Square s, Bitboard occupied) {
    return bishopPext[s].table[_pext_u64(occupied, bishopPext[s].mask)];
}

}  // namespace simd
#endif
