// The total of the bit counts of several bitboards. Perft's last ply counts each piece's moves as
// the bit count of its target set (src/movegen.cpp). With POPCNT (the native build) a set costs
// one instruction; the x86-64 baseline (our `generic` build, the level Debian builds for) has no
// POPCNT, and the software count costs a dozen instructions a set. The SSE2 path counts two sets
// at once, adds two such pairs before splitting the counts into bytes, and sums the bytes with
// psadbw once. The portable scalar twin counts one set at a time.
// tests/test_perft.cpp checks that the two agree; perf/bench_core.cpp measures them.
// BitCountSum is what the move generator's counting sink uses.
#pragma once

#include <cassert>

#include "bitboard.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace simd {

inline int popcountSumScalar(const Bitboard* sets, int n) {
    int total = 0;
    for (int i = 0; i < n; ++i) total += popcount(sets[i]);
    return total;
}

#if defined(__SSE2__)
// At most 60 sets: a byte of the running sum takes 16 a group of four sets, and holds 255.
inline int popcountSumSse2(const Bitboard* sets, int n) {
    assert(n <= 60);
    const __m128i m1 = _mm_set1_epi8(0x55), m2 = _mm_set1_epi8(0x33), m4 = _mm_set1_epi8(0x0F);
    // The software count of each 64-bit lane down to one count a nibble (at most 4), so that
    // two pairs of sets are added before the split into bytes (at most 8 a nibble); psadbw
    // adds the bytes once at the end.
    auto nibbleCounts = [&](const Bitboard* pair) {
        __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(pair));
        v = _mm_sub_epi8(v, _mm_and_si128(_mm_srli_epi64(v, 1), m1));
        return _mm_add_epi8(_mm_and_si128(v, m2), _mm_and_si128(_mm_srli_epi64(v, 2), m2));
    };
    __m128i bytes = _mm_setzero_si128();
    auto accumulate = [&](__m128i nibbles) {
        bytes = _mm_add_epi8(bytes,
                             _mm_add_epi8(_mm_and_si128(nibbles, m4), _mm_and_si128(_mm_srli_epi64(nibbles, 4), m4)));
    };
    int i = 0;
    for (; i + 3 < n; i += 4) accumulate(_mm_add_epi8(nibbleCounts(sets + i), nibbleCounts(sets + i + 2)));
    if (i + 1 < n) {
        accumulate(nibbleCounts(sets + i));
        i += 2;
    }
    if (i < n) {
        const Bitboard last[2] = {sets[i], 0};
        accumulate(nibbleCounts(last));
    }
    __m128i sum = _mm_sad_epu8(bytes, _mm_setzero_si128());
    return _mm_cvtsi128_si32(sum) + _mm_cvtsi128_si32(_mm_unpackhi_epi64(sum, sum));
}
#endif

// Sums the bit counts of up to Capacity sets, the build's own way. Without POPCNT the sets are
// kept and counted together at the end, two at a time; with it each is counted as it comes
// (keeping them would cost more than POPCNT itself: native perft 0.96x).
#if defined(__SSE2__) && !defined(__POPCNT__)
#define QUADBIT_SSE2_BIT_COUNTS 1
template <int Capacity>
class BitCountSum {
public:
    void add(Bitboard b) {
        assert(count < Capacity);
        sets[count++] = b;
    }
    int total() const { return popcountSumSse2(sets, count); }

private:
    Bitboard sets[Capacity];
    int count = 0;
};
#else
template <int Capacity>
class BitCountSum {
public:
    void add(Bitboard b) { counted += popcount(b); }
    int total() const { return counted; }

private:
    int counted = 0;
};
#endif

}  // namespace simd
