// The network's data-parallel kernels (src/nnue/): the accumulator's row updates and the output
// layer's dot products over int16 lanes. Each has an SSE2 path (the x86-64 baseline, Debian's
// level and our `generic` build), AVX2 and AVX-512 paths, a NEON path (every 64-bit Arm), and a
// portable scalar twin.
// tests/test_nnue.cpp checks that every path the CPU runs equals the scalar twin;
// perf/bench_eval.cpp measures each against it.
#pragma once

#include <cstdint>

namespace simd {

enum class Isa { SCALAR, SSE2, AVX2, AVX512, NEON };

// The widest path this build's target runs; the engine calls it directly.
constexpr Isa BUILD_ISA =
#if defined(__AVX512BW__)
    Isa::AVX512;
#elif defined(__AVX2__)
    Isa::AVX2;
#elif defined(__SSE2__)
    Isa::SSE2;
#elif defined(__ARM_NEON)
    Isa::NEON;
#else
    Isa::SCALAR;
#endif

// Lengths are multiples of LANE_MULTIPLE int16 values (one AVX-512 register); rows are aligned
// to 64 bytes.
constexpr int LANE_MULTIPLE = 32;

struct NnueKernels {
    // to[i] = from[i] + sum of added[k][i] - sum of removed[k][i], for i < n.
    void (*updateRows)(std::int16_t* to, const std::int16_t* from, const std::int16_t* const* added, int addedCount,
                       const std::int16_t* const* removed, int removedCount, int n);
    // Sum of clamp(a[i], 0, limit) * w[i] (a clipped ReLU), for i < n.
    std::int32_t (*dotClipped)(const std::int16_t* a, const std::int16_t* w, int n, int limit);
    // Sum of clamp(a[i], 0, limit)^2 * w[i] (a squared clipped ReLU). It is computed as
    // (c * w) * c with c * w in int16, so |limit * w| must stay below 32768: the trainer clips
    // the weights for that.
    std::int32_t (*dotSquaredClipped)(const std::int16_t* a, const std::int16_t* w, int n, int limit);
};

const char* isaName(Isa isa);
bool cpuSupports(Isa isa);
// Any path, whatever the build targets, for tests and benchmarks; call it only when
// cpuSupports(isa).
const NnueKernels& nnueKernels(Isa isa);

// The build's own path.
void updateRows(std::int16_t* to, const std::int16_t* from, const std::int16_t* const* added, int addedCount,
                const std::int16_t* const* removed, int removedCount, int n);
std::int32_t dotClipped(const std::int16_t* a, const std::int16_t* w, int n, int limit);
std::int32_t dotSquaredClipped(const std::int16_t* a, const std::int16_t* w, int n, int limit);

}  // namespace simd
