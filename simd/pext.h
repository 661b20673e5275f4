// PEXT (BMI2) slider lookups: the occupancy bits under a square's mask are extracted directly into
// a dense index, so no multiply and no per-square shift are needed. The portable scalar twin is the
// fancy-magic lookup in src/attacks.h; tests/test_attacks.cpp checks that the two agree and
// perf/bench_core.cpp measures which is faster (PEXT is microcoded and slow on AMD Zen 1/2).
#pragma once

#include "bitboard.h"

#if defined(__BMI2__)
#include <immintrin.h>
#endif

// BMI2 is x86-64's: elsewhere (AArch64) the sliders are the magic lookups alone.
#if defined(__x86_64__)
namespace simd {

struct PextSlider {
    Bitboard mask;
    Bitboard* table;
};

extern PextSlider rookPext[SQUARE_NB];
extern PextSlider bishopPext[SQUARE_NB];

// Builds the tables from the magic ones (attacks::init() first), with a software bit extract so
// that it runs on any CPU; idempotent.
void initPext();

// Does this CPU execute BMI2 instructions?
bool cpuHasBmi2();

// Out-of-line lookups compiled for BMI2 whatever the build targets, for tests and benchmarks;
// call them only when cpuHasBmi2().
Bitboard pextRookAttacksAnyBuild(Square s, Bitboard occupied);
Bitboard pextBishopAttacksAnyBuild(Square s, Bitboard occupied);

#if defined(__BMI2__)
inline Bitboard pextRookAttacks(Square s, Bitboard occupied) {
    return rookPext[s].table[_pext_u64(occupied, rookPext[s].mask)];
}
inline Bitboard pextBishopAttacks(Square s, Bitboard occupied) {
    return bishopPext[s].table[_pext_u64(occupied, bishopPext[s].mask)];
}
#endif

}  // namespace simd
#endif
