#include "buildinfo.h"

#include <hwloc.h>

#include "simd/nnue.h"

#ifndef QUADBIT_ARCH_NAME
#define QUADBIT_ARCH_NAME "unknown"
#endif

namespace {

// The features the compiler was allowed to use, from its own predefined macros.
std::string features() {
    std::string list;
    const auto add = [&](bool on, const char* name) {
        if (on) list += std::string(list.empty() ? "" : " ") + name;
    };
#if defined(__x86_64__)
    add(true, "x86-64");
#endif
#if defined(__aarch64__)
    add(true, "aarch64");
#endif
#if defined(__SSE2__)
    add(true, "SSE2");
#endif
#if defined(__POPCNT__)
    add(true, "POPCNT");
#endif
#if defined(__AVX2__)
    add(true, "AVX2");
#endif
#if defined(__BMI2__)
    add(true, "BMI2");
#endif
#if defined(__AVX512BW__)
    add(true, "AVX-512BW");
#endif
#if defined(__ARM_NEON)
    add(true, "NEON");
#endif
#if defined(__ARM_FEATURE_DOTPROD)
    add(true, "dotprod");
#endif
#if defined(__ARM_FEATURE_ATOMICS)
    add(true, "LSE");
#endif
    return list;
}

}  // namespace

std::string buildDescription() {
    const bool pext =
#if defined(__BMI2__) && !defined(QUADBIT_NO_PEXT)
        true;
#else
        false;
#endif
    const bool sseBitCounts =
#if defined(__SSE2__) && !defined(__POPCNT__)
        true;
#else
        false;
#endif
    const unsigned hwloc = HWLOC_API_VERSION;
    return std::string("Compiled by g++ ") + __VERSION__ + "\nTarget: " + QUADBIT_ARCH_NAME + " (" + features() +
           ")\nSliders: " + (pext ? "PEXT" : "magic bitboards") +
           "; network kernels: " + simd::isaName(simd::BUILD_ISA) +
           "; perft bit counts: " + (sseBitCounts ? "SSE2, two sets at once" : "one instruction a set") +
           "\nThread placement: hwloc (API " + std::to_string(hwloc >> 16) + "." + std::to_string((hwloc >> 8) & 0xff) +
           ")";
}
