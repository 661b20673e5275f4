#include "buildinfo.h"

#ifndef _WIN32
#include <hwloc.h>
#endif

#include <thread>

#include "attacks.h"
#include "commit.h"
#include "platform.h"
#include "simd/nnue.h"
#include "simd/popcount.h"

#ifndef QUADBIT_ARCH_NAME
#define QUADBIT_ARCH_NAME "unknown"
#endif

namespace {

// The features the compiler was allowed to use, from its own predefined macros.
std::string features() {
    std::string list;
    const auto add = [&](const char* name) { list += std::string(list.empty() ? "" : " ") + name; };
#if defined(__x86_64__)
    add("x86-64");
#endif
#if defined(__aarch64__)
    add("aarch64");
#endif
#if defined(__SSE2__)
    add("SSE2");
#endif
#if defined(__POPCNT__)
    add("POPCNT");
#endif
#if defined(__AVX2__)
    add("AVX2");
#endif
#if defined(__BMI2__)
    add("BMI2");
#endif
#if defined(__AVX512BW__)
    add("AVX-512BW");
#endif
#if defined(__ARM_NEON)
    add("NEON");
#endif
#if defined(__ARM_FEATURE_DOTPROD)
    add("dotprod");
#endif
#if defined(__ARM_FEATURE_ATOMICS)
    add("LSE");
#endif
    return list;
}

}  // namespace

std::string buildCommit() { return QUADBIT_COMMIT; }

std::string buildDescription() {
    // The choices as attacks.h and simd/popcount.h make them.
#ifdef QUADBIT_USE_PEXT
    const char* sliders = "PEXT";
#else
    const char* sliders = "magic bitboards";
#endif
#ifdef QUADBIT_SSE2_BIT_COUNTS
    const char* bitCounts = "SSE2, two sets at once";
#else
    const char* bitCounts = "one instruction a set";
#endif
#if defined(__clang__)
    const char* compiler = "clang++ ";
#else
    const char* compiler = "g++ ";
#endif
#ifdef QUADBIT_PROFILE_GUIDED
    const char* profile = ", profile-guided (scripts/build --pgo)";
#else
    const char* profile = "";
#endif
    // Measured in a thread as the search's are made: the deepest lines recurse some 250 plies.
    std::size_t threadStack = 0;
    std::thread([&] { threadStack = platform::threadStackBytes(); }).join();
#ifdef _WIN32
    const std::string placement = "Windows processor groups (Win32)";
#else
    const unsigned hwloc = HWLOC_API_VERSION;
    const std::string placement =
        "hwloc (API " + std::to_string(hwloc >> 16) + "." + std::to_string((hwloc >> 8) & 0xff) + ")";
#endif
    return std::string("Commit: ") + buildCommit() + "\nCompiled by " + compiler + __VERSION__ + profile +
           "\nTarget: " + QUADBIT_ARCH_NAME + " (" + features() + ")\nSliders: " + sliders +
           "; network kernels: " + simd::isaName(simd::BUILD_ISA) + "; perft bit counts: " + bitCounts +
           "\nThread placement: " + placement + "\nThread stack: " + std::to_string(threadStack / 1024) +
           " KB (a search thread's)";
}
