#include "simd/nnue.h"

#include <algorithm>

#if defined(__x86_64__)
#include <immintrin.h>
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

// One body per instruction set: the same loop over registers of 8, 16 or 32 lanes. The
// accumulator rows are short (a few hundred lanes), so the loops stay simple and the rows' loads
// dominate.
#define QUADBIT_UPDATE_ROWS(Reg, load, store, add, sub, lanes) \
    for (int i = 0; i < n; i += lanes) { \
        Reg v = load(reinterpret_cast<const Reg*>(from + i)); \
        for (int k = 0; k < addedCount; ++k) v = add(v, load(reinterpret_cast<const Reg*>(added[k] + i))); \
        for (int k = 0; k < removedCount; ++k) v = sub(v, load(reinterpret_cast<const Reg*>(removed[k] + i))); \
        store(reinterpret_cast<Reg*>(to + i), v); \
    }

__attribute__((target("sse2"))) void updateRowsSse2(std::int16_t* to, const std::int16_t* from,
                                                    const std::int16_t* const* added, int addedCount,
                                                    const std::int16_t* const* removed, int removedCount, int n) {
    QUADBIT_UPDATE_ROWS(__m128i, _mm_load_si128, _mm_store_si128, _mm_add_epi16, _mm_sub_epi16, 8)
}

__attribute__((target("avx2"))) void updateRowsAvx2(std::int16_t* to, const std::int16_t* from,
                                                    const std::int16_t* const* added, int addedCount,
                                                    const std::int16_t* const* removed, int removedCount, int n) {
    QUADBIT_UPDATE_ROWS(__m256i, _mm256_load_si256, _mm256_store_si256, _mm256_add_epi16, _mm256_sub_epi16, 16)
}

__attribute__((target("avx512f,avx512bw"))) void updateRowsAvx512(std::int16_t* to, const std::int16_t* from,
                                                                  const std::int16_t* const* added, int addedCount,
                                                                  const std::int16_t* const* removed, int removedCount,
                                                                  int n) {
    QUADBIT_UPDATE_ROWS(__m512i, _mm512_load_si512, _mm512_store_si512, _mm512_add_epi16, _mm512_sub_epi16, 32)
}

#undef QUADBIT_UPDATE_ROWS

// The dot products: madd multiplies int16 pairs and adds neighbours into int32 lanes. The
// squared activation multiplies c * w first (in int16, see the header) and then madds with c.
__attribute__((target("sse2"))) std::int32_t sumSse2(__m128i v) {
    v = _mm_add_epi32(v, _mm_shuffle_epi32(v, 0x4e));
    v = _mm_add_epi32(v, _mm_shuffle_epi32(v, 0xb1));
    return _mm_cvtsi128_si32(v);
}

__attribute__((target("sse2"))) std::int32_t dotClippedSse2(const std::int16_t* a, const std::int16_t* w, int n,
                                                            int limit) {
    const __m128i zero = _mm_setzero_si128(), top = _mm_set1_epi16(std::int16_t(limit));
    __m128i sum = zero;
    for (int i = 0; i < n; i += 8) {
        __m128i c = _mm_min_epi16(_mm_max_epi16(_mm_load_si128(reinterpret_cast<const __m128i*>(a + i)), zero), top);
        sum = _mm_add_epi32(sum, _mm_madd_epi16(c, _mm_load_si128(reinterpret_cast<const __m128i*>(w + i))));
    }
    return sumSse2(sum);
}

__attribute__((target("sse2"))) std::int32_t dotSquaredClippedSse2(const std::int16_t* a, const std::int16_t* w, int n,
                                                                   int limit) {
    const __m128i zero = _mm_setzero_si128(), top = _mm_set1_epi16(std::int16_t(limit));
    __m128i sum = zero;
    for (int i = 0; i < n; i += 8) {
        __m128i c = _mm_min_epi16(_mm_max_epi16(_mm_load_si128(reinterpret_cast<const __m128i*>(a + i)), zero), top);
        __m128i cw = _mm_mullo_epi16(c, _mm_load_si128(reinterpret_cast<const __m128i*>(w + i)));
        sum = _mm_add_epi32(sum, _mm_madd_epi16(cw, c));
    }
    return sumSse2(sum);
}

__attribute__((target("avx2"))) std::int32_t sumAvx2(__m256i v) {
    __m128i s = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4e));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xb1));
    return _mm_cvtsi128_si32(s);
}

__attribute__((target("avx2"))) std::int32_t dotClippedAvx2(const std::int16_t* a, const std::int16_t* w, int n,
                                                            int limit) {
    const __m256i zero = _mm256_setzero_si256(), top = _mm256_set1_epi16(std::int16_t(limit));
    __m256i sum = zero;
    for (int i = 0; i < n; i += 16) {
        __m256i c =
            _mm256_min_epi16(_mm256_max_epi16(_mm256_load_si256(reinterpret_cast<const __m256i*>(a + i)), zero), top);
        sum = _mm256_add_epi32(sum, _mm256_madd_epi16(c, _mm256_load_si256(reinterpret_cast<const __m256i*>(w + i))));
    }
    return sumAvx2(sum);
}

__attribute__((target("avx2"))) std::int32_t dotSquaredClippedAvx2(const std::int16_t* a, const std::int16_t* w, int n,
                                                                   int limit) {
    const __m256i zero = _mm256_setzero_si256(), top = _mm256_set1_epi16(std::int16_t(limit));
    __m256i sum = zero;
    for (int i = 0; i < n; i += 16) {
        __m256i c =
            _mm256_min_epi16(_mm256_max_epi16(_mm256_load_si256(reinterpret_cast<const __m256i*>(a + i)), zero), top);
        __m256i cw = _mm256_mullo_epi16(c, _mm256_load_si256(reinterpret_cast<const __m256i*>(w + i)));
        sum = _mm256_add_epi32(sum, _mm256_madd_epi16(cw, c));
    }
    return sumAvx2(sum);
}

__attribute__((target("avx512f,avx512bw"))) std::int32_t dotClippedAvx512(const std::int16_t* a, const std::int16_t* w,
                                                                          int n, int limit) {
    const __m512i zero = _mm512_setzero_si512(), top = _mm512_set1_epi16(std::int16_t(limit));
    __m512i sum = zero;
    for (int i = 0; i < n; i += 32) {
        __m512i c = _mm512_min_epi16(_mm512_max_epi16(_mm512_load_si512(a + i), zero), top);
        sum = _mm512_add_epi32(sum, _mm512_madd_epi16(c, _mm512_load_si512(w + i)));
    }
    return _mm512_reduce_add_epi32(sum);
}

__attribute__((target("avx512f,avx512bw"))) std::int32_t
dotSquaredClippedAvx512(const std::int16_t* a, const std::int16_t* w, int n, int limit) {
    const __m512i zero = _mm512_setzero_si512(), top = _mm512_set1_epi16(std::int16_t(limit));
    __m512i sum = zero;
    for (int i = 0; i < n; i += 32) {
        __m512i c = _mm512_min_epi16(_mm512_max_epi16(_mm512_load_si512(a + i), zero), top);
        __m512i cw = _mm512_mullo_epi16(c, _mm512_load_si512(w + i));
        sum = _mm512_add_epi32(sum, _mm512_madd_epi16(cw, c));
    }
    return _mm512_reduce_add_epi32(sum);
}

#endif

constexpr NnueKernels SCALAR_KERNELS{updateRowsScalar, dotClippedScalar, dotSquaredClippedScalar};
#if defined(__x86_64__)
constexpr NnueKernels SSE2_KERNELS{updateRowsSse2, dotClippedSse2, dotSquaredClippedSse2};
constexpr NnueKernels AVX2_KERNELS{updateRowsAvx2, dotClippedAvx2, dotSquaredClippedAvx2};
constexpr NnueKernels AVX512_KERNELS{updateRowsAvx512, dotClippedAvx512, dotSquaredClippedAvx512};
#endif

}  // namespace

const char* isaName(Isa isa) {
    switch (isa) {
    case Isa::SSE2: return "sse2";
    case Isa::AVX2: return "avx2";
    case Isa::AVX512: return "avx512";
    default: return "scalar";
    }
}

bool cpuSupports(Isa isa) {
#if defined(__x86_64__)
    switch (isa) {
    case Isa::SSE2: return true;
    case Isa::AVX2: return __builtin_cpu_supports("avx2");
    case Isa::AVX512: return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw");
    default: return true;
    }
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
