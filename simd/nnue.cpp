#include "simd/nnue.h"

#include <algorithm>

#if defined(__x86_64__)
#include <immintrin.h>
#elif defined(__ARM_NEON)
#include <arm_neon.h>
#endif

namespace simd {

namespace {

// The scalar twin: the reference every other path is tested against.
void updateRowsScalar(std::int16_t* to, const std::int16_t* from, const std::int16_t* const* added, int addedCount,
                      const std::int16_t* const* removed, int removedCount, int n) {
    for (int i = 0; i < n; ++i) {
        int v = from[i];
        for (int k = 0; k < addedCount; ++k) v += added[k][i];
        for (int k = 0; k < removedCount; ++k) v -= removed[k][i];
        to[i] = std::int16_t(v);
    }
}

std::int32_t dotClippedScalar(const std::int16_t* a, const std::int16_t* w, int n, int limit) {
    std::int32_t sum = 0;
    for (int i = 0; i < n; ++i) sum += std::clamp<int>(a[i], 0, limit) * w[i];
    return sum;
}

std::int32_t dotSquaredClippedScalar(const std::int16_t* a, const std::int16_t* w, int n, int limit) {
    std::int32_t sum = 0;
    for (int i = 0; i < n; ++i) {
        const int c = std::clamp<int>(a[i], 0, limit);
        sum += std::int16_t(c * w[i]) * c;
    }
    return sum;
}

#if defined(__x86_64__)

// Aligned loads and stores, but unaligned ones on Windows: MinGW's GCC cannot promise a stack
// variable more than Windows' 16-byte alignment (GCC bug 54412), so an `alignas(64)` array of
// the evaluation's may sit anywhere, and an aligned access there faults. On aligned data the
// unaligned forms cost nothing with AVX; with SSE2 they cost the folded load.
#ifdef _WIN32
#define QUADBIT_LOAD(mm, si) mm##_loadu_##si
#define QUADBIT_STORE(mm, si) mm##_storeu_##si
#else
#define QUADBIT_LOAD(mm, si) mm##_load_##si
#define QUADBIT_STORE(mm, si) mm##_store_##si
#endif

// Horizontal sums of int32 lanes, each width by halves down to the last.
__attribute__((target("sse2"))) std::int32_t sumSse2(__m128i v) {
    v = _mm_add_epi32(v, _mm_shuffle_epi32(v, 0x4e));
    v = _mm_add_epi32(v, _mm_shuffle_epi32(v, 0xb1));
    return _mm_cvtsi128_si32(v);
}

__attribute__((target("avx2"))) std::int32_t sumAvx2(__m256i v) {
    return sumSse2(_mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1)));
}

// Through memory: GCC 12's headers for _mm512_reduce_add_epi32 and for the 512-to-256-bit
// extracts warn of an uninitialised variable in every build that inlines them. Once an
// evaluation, the store costs nothing measurable.
__attribute__((target("avx512f"))) std::int32_t sumAvx512(__m512i v) {
    alignas(64) std::int32_t lanes[16];
    QUADBIT_STORE(_mm512, si512)(lanes, v);
    std::int32_t sum = 0;
    for (std::int32_t lane : lanes) sum += lane;
    return sum;
}

// The three kernels, written once for every instruction set: the intrinsics' names differ only
// in their prefix (_mm, _mm256, _mm512) and register width (si128, si256, si512). The dot
// products madd int16 pairs into int32 lanes; the squared activation multiplies c * w first (in
// int16, see the header) and then madds with c. The rows are a few hundred lanes, so the loops
// stay simple and the loads dominate.
#define QUADBIT_NNUE_KERNELS(Name, target_, Reg, mm, si, lanes, sum) \
    __attribute__((target(target_))) void updateRows##Name( \
        std::int16_t* to, const std::int16_t* from, const std::int16_t* const* added, int addedCount, \
        const std::int16_t* const* removed, int removedCount, int n) { \
        for (int i = 0; i < n; i += lanes) { \
            Reg v = QUADBIT_LOAD(mm, si)(reinterpret_cast<const Reg*>(from + i)); \
            for (int k = 0; k < addedCount; ++k) \
                v = mm##_add_epi16(v, QUADBIT_LOAD(mm, si)(reinterpret_cast<const Reg*>(added[k] + i))); \
            for (int k = 0; k < removedCount; ++k) \
                v = mm##_sub_epi16(v, QUADBIT_LOAD(mm, si)(reinterpret_cast<const Reg*>(removed[k] + i))); \
            QUADBIT_STORE(mm, si)(reinterpret_cast<Reg*>(to + i), v); \
        } \
    } \
    template <bool Squared> \
    __attribute__((target(target_))) \
    std::int32_t dot##Name(const std::int16_t* a, const std::int16_t* w, int n, int limit) { \
        const Reg zero = mm##_setzero_##si(), top = mm##_set1_epi16(std::int16_t(limit)); \
        Reg total = zero; \
        for (int i = 0; i < n; i += lanes) { \
            const Reg c = \
                mm##_min_epi16(mm##_max_epi16(QUADBIT_LOAD(mm, si)(reinterpret_cast<const Reg*>(a + i)), zero), top); \
            const Reg weights = QUADBIT_LOAD(mm, si)(reinterpret_cast<const Reg*>(w + i)); \
            total = mm##_add_epi32(total, Squared ? mm##_madd_epi16(mm##_mullo_epi16(c, weights), c) \
                                                  : mm##_madd_epi16(c, weights)); \
        } \
        return sum(total); \
    }

QUADBIT_NNUE_KERNELS(Sse2, "sse2", __m128i, _mm, si128, 8, sumSse2)
QUADBIT_NNUE_KERNELS(Avx2, "avx2", __m256i, _mm256, si256, 16, sumAvx2)
QUADBIT_NNUE_KERNELS(Avx512, "avx512f,avx512bw", __m512i, _mm512, si512, 32, sumAvx512)

#undef QUADBIT_NNUE_KERNELS
#undef QUADBIT_LOAD
#undef QUADBIT_STORE

#endif

#if defined(__ARM_NEON)

// NEON, every 64-bit Arm: eight int16 lanes a register. Arm has no madd, so the products are
// widened into int32 lanes by vmlal (the low four lanes) and vmlal_high (the high four), into
// two accumulators. Dot-product instructions (armv8.2 sdot) multiply int8, not int16: they do
// not serve these kernels.
void updateRowsNeon(std::int16_t* to, const std::int16_t* from, const std::int16_t* const* added, int addedCount,
                    const std::int16_t* const* removed, int removedCount, int n) {
    for (int i = 0; i < n; i += 8) {
        int16x8_t v = vld1q_s16(from + i);
        for (int k = 0; k < addedCount; ++k) v = vaddq_s16(v, vld1q_s16(added[k] + i));
        for (int k = 0; k < removedCount; ++k) v = vsubq_s16(v, vld1q_s16(removed[k] + i));
        vst1q_s16(to + i, v);
    }
}

template <bool Squared>
std::int32_t dotNeon(const std::int16_t* a, const std::int16_t* w, int n, int limit) {
    const int16x8_t zero = vdupq_n_s16(0), top = vdupq_n_s16(std::int16_t(limit));
    int32x4_t low = vdupq_n_s32(0), high = vdupq_n_s32(0);
    for (int i = 0; i < n; i += 8) {
        const int16x8_t c = vminq_s16(vmaxq_s16(vld1q_s16(a + i), zero), top);
        const int16x8_t weights = vld1q_s16(w + i);
        const int16x8_t first = Squared ? vmulq_s16(c, weights) : weights;  // c * w wraps in int16 as on x86
        low = vmlal_s16(low, vget_low_s16(first), vget_low_s16(c));
        high = vmlal_high_s16(high, first, c);
    }
    return vaddvq_s32(vaddq_s32(low, high));
}

#endif

constexpr NnueKernels SCALAR_KERNELS{updateRowsScalar, dotClippedScalar, dotSquaredClippedScalar};
#if defined(__x86_64__)
constexpr NnueKernels SSE2_KERNELS{updateRowsSse2, dotSse2<false>, dotSse2<true>};
constexpr NnueKernels AVX2_KERNELS{updateRowsAvx2, dotAvx2<false>, dotAvx2<true>};
constexpr NnueKernels AVX512_KERNELS{updateRowsAvx512, dotAvx512<false>, dotAvx512<true>};
#elif defined(__ARM_NEON)
constexpr NnueKernels NEON_KERNELS{updateRowsNeon, dotNeon<false>, dotNeon<true>};
#endif

}  // namespace

const char* isaName(Isa isa) {
    switch (isa) {
    case Isa::SSE2: return "sse2";
    case Isa::AVX2: return "avx2";
    case Isa::AVX512: return "avx512";
    case Isa::NEON: return "neon";
    default: return "scalar";
    }
}

bool cpuSupports(Isa isa) {
#if defined(__x86_64__)
    switch (isa) {
    case Isa::SSE2: return true;
    case Isa::AVX2: return __builtin_cpu_supports("avx2");
    case Isa::AVX512: return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw");
    case Isa::NEON: return false;
    default: return true;
    }
#elif defined(__ARM_NEON)
    return isa == Isa::SCALAR || isa == Isa::NEON;  // NEON is part of every AArch64 CPU
#else
    return isa == Isa::SCALAR;
#endif
}

const NnueKernels& nnueKernels(Isa isa) {
#if defined(__x86_64__)
    switch (isa) {
    case Isa::SSE2: return SSE2_KERNELS;
    case Isa::AVX2: return AVX2_KERNELS;
    case Isa::AVX512: return AVX512_KERNELS;
    default: return SCALAR_KERNELS;
    }
#elif defined(__ARM_NEON)
    return isa == Isa::NEON ? NEON_KERNELS : SCALAR_KERNELS;
#else
    return SCALAR_KERNELS;
#endif
}

void updateRows(std::int16_t* to, const std::int16_t* from, const std::int16_t* const* added, int addedCount,
                const std::int16_t* const* removed, int removedCount, int n) {
    nnueKernels(BUILD_ISA).updateRows(to, from, added, addedCount, removed, removedCount, n);
}

std::int32_t dotClipped(const std::int16_t* a, const std::int16_t* w, int n, int limit) {
    return nnueKernels(BUILD_ISA).dotClipped(a, w, n, limit);
}

std::int32_t dotSquaredClipped(const std::int16_t* a, const std::int16_t* w, int n, int limit) {
    return nnueKernels(BUILD_ISA).dotSquaredClipped(a, w, n, limit);
}

}  // namespace simd
