#include <catch2/catch.hpp>

#include <random>

#include "attacks.h"
#include "simd/pext.h"

namespace {

// Occupancies of every density: sparse, dense and in between.
std::vector<Bitboard> randomOccupancies(int n) {
    std::mt19937_64 rng(20261121);
    std::vector<Bitboard> occ;
    for (int i = 0; i < n; ++i) {
        Bitboard a = rng(), b = rng(), c = rng();
        occ.push_back(i % 3 == 0 ? a & b & c : i % 3 == 1 ? a & b : a | b);
    }
    return occ;
}

}  // namespace

TEST_CASE("attacks: magic lookups equal the ray walk on every square", "[attacks]") {
    auto occs = randomOccupancies(3000);
    for (Square s = SQ_A1; s <= SQ_H8; ++s)
        for (Bitboard occ : occs) {
            REQUIRE(attacks::magicRookAttacks(s, occ) == attacks::slidingAttacks(ROOK, s, occ));
            REQUIRE(attacks::magicBishopAttacks(s, occ) == attacks::slidingAttacks(BISHOP, s, occ));
        }
}

#if defined(__x86_64__)  // no PEXT elsewhere
TEST_CASE("attacks: PEXT lookups equal the magic lookups on every square", "[attacks][simd]") {
    if (!simd::cpuHasBmi2()) {
        WARN("this CPU has no BMI2: PEXT back end not checked");
        return;
    }
    simd::initPext();
    auto occs = randomOccupancies(3000);
    for (Square s = SQ_A1; s <= SQ_H8; ++s)
        for (Bitboard occ : occs) {
            REQUIRE(simd::pextRookAttacksAnyBuild(s, occ) == attacks::magicRookAttacks(s, occ));
            REQUIRE(simd::pextBishopAttacksAnyBuild(s, occ) == attacks::magicBishopAttacks(s, occ));
        }
}
#endif

TEST_CASE("attacks: the engine's lookups equal the ray walk", "[attacks]") {
    auto occs = randomOccupancies(500);
    for (Square s = SQ_A1; s <= SQ_H8; ++s)
        for (Bitboard occ : occs) {
            REQUIRE(rookAttacks(s, occ) == attacks::slidingAttacks(ROOK, s, occ));
            REQUIRE(bishopAttacks(s, occ) == attacks::slidingAttacks(BISHOP, s, occ));
        }
}

TEST_CASE("attacks: leapers, between and line", "[attacks]") {
    REQUIRE(knightAttacks(SQ_A1) == (squareBB(SQ_B3) | squareBB(SQ_C2)));
    REQUIRE(popcount(knightAttacks(SQ_D4)) == 8);
    REQUIRE(popcount(kingAttacks(SQ_H8)) == 3);
    REQUIRE(pawnAttacks(WHITE, SQ_E4) == (squareBB(SQ_D5) | squareBB(SQ_F5)));
    REQUIRE(pawnAttacks(BLACK, SQ_A5) == squareBB(SQ_B4));
    REQUIRE(betweenBB(SQ_A1, SQ_D4) == (squareBB(SQ_B2) | squareBB(SQ_C3)));
    REQUIRE(betweenBB(SQ_A1, SQ_B3) == 0);
    REQUIRE(lineBB(SQ_C3, SQ_E5) == (squareBB(SQ_A1) | squareBB(SQ_B2) | squareBB(SQ_C3) | squareBB(SQ_D4) |
                                     squareBB(SQ_E5) | squareBB(SQ_F6) | squareBB(SQ_G7) | squareBB(SQ_H8)));
    REQUIRE(lineBB(SQ_A1, SQ_B3) == 0);
    REQUIRE(aligned(SQ_A1, SQ_H1, SQ_E1));
}
