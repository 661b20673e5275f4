// Tunable constants (Stormphrax's src/tunable.h, Stockfish's src/tune.h): each declared once with
// its range and SPSA step. In a normal build a TUNABLE is a compile-time constant; in a tuning
// build (cmake -DQUADBIT_TUNING=ON) it is a variable with a UCI spin option of the same name, so
// that SPSA (fastchess, OpenBench) can set it, and `tunables` prints the SPSA input.
#pragma once

#include <string>
#include <vector>

namespace tunable {

struct Param {
    const char* name;
    int* value;
    int defaultValue, min, max, step;
};

// The tuning build's parameters in declaration order; empty in a normal build.
std::vector<Param>& params();
bool add(const char* name, int* value, int defaultValue, int min, int max, int step);
// OpenBench's SPSA input: `NAME, int, VALUE, MIN, MAX, STEP, 0.002` per parameter.
std::string spsaInput();

}  // namespace tunable

#ifdef QUADBIT_TUNING
#define TUNABLE(NAME, VALUE, MIN, MAX, STEP) \
    inline int NAME = VALUE; \
    inline const bool NAME##Registered = ::tunable::add(#NAME, &NAME, VALUE, MIN, MAX, STEP)
#else
#define TUNABLE(NAME, VALUE, MIN, MAX, STEP) \
    constexpr int NAME = VALUE; \
    static_assert((MIN) <= (VALUE) && (VALUE) <= (MAX) && (STEP) > 0, #NAME " lies outside its range")
#endif
