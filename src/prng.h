// splitmix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", 2014):
// one 64-bit state, every seed good, fast. Zobrist keys, skill-level picks and the like.
#pragma once

#include <cstdint>

class PRNG {
public:
    explicit PRNG(std::uint64_t seed) : state(seed) {}

    std::uint64_t next() {
        std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }
    // A number in [0, n), n > 0.
    std::uint64_t below(std::uint64_t n) { return next() % n; }

private:
    std::uint64_t state;
};
