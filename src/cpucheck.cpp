// A build for a newer instruction set than the CPU's (the x86-64-v3 binary on an older machine, a
// native build copied elsewhere) would die on an illegal instruction, perhaps in the middle of a
// game. Before anything else runs (the first constructor, ahead of every static initialiser of
// the engine), the features the compiler was allowed to use are checked against the CPU's; one
// line says what is missing, and the engine exits with status 1.
#include <cstdio>
#include <cstdlib>

#if defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>
#endif

namespace {

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
// Compiled for the baseline, so that the check itself runs on any x86-64 CPU.
__attribute__((constructor(101), target("arch=x86-64"))) void requireBuildFeatures() {
    __builtin_cpu_init();  // constructors may run before libgcc's own initialiser
    // A macro, not a lambda: a lambda would be compiled for the build's level, not the baseline.
    char missing[160] = "";
    int length = 0;
#define need(present, name) \
    if (!(present)) \
    length += std::snprintf(missing + length, sizeof missing - std::size_t(length), "%s%s", length ? ", " : "", name)
#ifdef __SSSE3__
    need(__builtin_cpu_supports("ssse3"), "SSSE3");
#endif
#ifdef __SSE4_1__
    need(__builtin_cpu_supports("sse4.1"), "SSE4.1");
#endif
#ifdef __SSE4_2__
    need(__builtin_cpu_supports("sse4.2"), "SSE4.2");
#endif
#ifdef __POPCNT__
    need(__builtin_cpu_supports("popcnt"), "POPCNT");
#endif
#ifdef __AVX__
    need(__builtin_cpu_supports("avx"), "AVX");
#endif
#ifdef __AVX2__
    need(__builtin_cpu_supports("avx2"), "AVX2");
#endif
#ifdef __BMI__
    need(__builtin_cpu_supports("bmi"), "BMI1");
#endif
#ifdef __BMI2__
    need(__builtin_cpu_supports("bmi2"), "BMI2");
#endif
#ifdef __FMA__
    need(__builtin_cpu_supports("fma"), "FMA");
#endif
#ifdef __AVX512F__
    need(__builtin_cpu_supports("avx512f"), "AVX-512F");
#endif
#ifdef __AVX512BW__
    need(__builtin_cpu_supports("avx512bw"), "AVX-512BW");
#endif
#ifdef __AVX512VL__
    need(__builtin_cpu_supports("avx512vl"), "AVX-512VL");
#endif
#ifdef __AVX512VNNI__
    need(__builtin_cpu_supports("avx512vnni"), "AVX-512VNNI");
#endif
#undef need
    if (!length) return;
    const bool native = __builtin_strcmp(QUADBIT_ARCH_NAME, "native") == 0;  // built for another machine
    std::printf("Quadbit (built for %s) cannot run on this CPU, which lacks %s: %s\n", QUADBIT_ARCH_NAME, missing,
                native ? "build it on this machine (bash scripts/build)"
                       : "use a build for an older level (generic runs on every x86-64 CPU)");
    std::fflush(stdout);
    std::_Exit(1);
}
#elif defined(__aarch64__) && defined(__linux__) && defined(__ARM_FEATURE_DOTPROD)
__attribute__((constructor(101))) void requireBuildFeatures() {
    if (getauxval(AT_HWCAP) & HWCAP_ASIMDDP) return;
    std::printf("Quadbit (built for %s) cannot run on this CPU, which lacks the dot-product instructions: use the "
                "armv8 build\n",
                QUADBIT_ARCH_NAME);
    std::fflush(stdout);
    std::_Exit(1);
}
#endif

}  // namespace
