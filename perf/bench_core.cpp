// Micro-benchmarks of the core: move generation, make/unmake, slider lookups, perft.
#include <benchmark/benchmark.h>

#include <random>

#include "attacks.h"
#include "eval/kpk.h"
#include "eval/material.h"
#include "movegen.h"
#include "perft.h"
#include "simd/pext.h"
#include "simd/popcount.h"

namespace {

const char* const POSITIONS[] = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
};

// Tables for every benchmark in this folder (each init is idempotent).
struct Init {
    Init() {
        attacks::init();
        Position::init();
#if defined(__x86_64__)
        simd::initPext();
#endif
        kpk::init();
        material::init();
    }
} init;

void BM_GenerateLegal(benchmark::State& state) {
    Position pos;
    pos.setFen(POSITIONS[state.range(0)]);
    for (auto _ : state) {
        MoveList<LEGAL> list(pos);
        benchmark::DoNotOptimize(list.size());
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_GenerateLegal)->DenseRange(0, 4);

void BM_CountLegal(benchmark::State& state) {
    Position pos;
    pos.setFen(POSITIONS[state.range(0)]);
    for (auto _ : state) benchmark::DoNotOptimize(countLegalMoves(pos));
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_CountLegal)->DenseRange(0, 4);

void BM_MakeUnmake(benchmark::State& state) {
    Position pos;
    pos.setFen(POSITIONS[1]);
    MoveList<LEGAL> list(pos);
    for (auto _ : state) {
        for (Move m : list) {
            pos.makeMove(m);
            pos.unmakeMove(m);
        }
    }
    state.SetItemsProcessed(state.iterations() * list.size());
}
BENCHMARK(BM_MakeUnmake);

std::vector<Bitboard> occupancies() {
    std::mt19937_64 rng(1);
    std::vector<Bitboard> v(4096);
    for (Bitboard& b : v) b = rng() & rng();
    return v;
}

// One slider lookup per iteration over varied squares and occupancies.
template <Bitboard (*Lookup)(Square, Bitboard)>
void BM_Slider(benchmark::State& state) {
    auto occ = occupancies();
    size_t i = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(Lookup(Square(i & 63), occ[i & 4095]));
        ++i;
    }
}
BENCHMARK(BM_Slider<attacks::magicRookAttacks>)->Name("BM_RookMagic");
BENCHMARK(BM_Slider<attacks::magicBishopAttacks>)->Name("BM_BishopMagic");
#if defined(__x86_64__)
// PEXT where the CPU runs BMI2 (x86-64 only).
template <Bitboard (*Lookup)(Square, Bitboard)>
void BM_SliderBmi2(benchmark::State& state) {
    if (!simd::cpuHasBmi2()) return state.SkipWithError("no BMI2 on this CPU");
    BM_Slider<Lookup>(state);
}
BENCHMARK(BM_SliderBmi2<simd::pextRookAttacksAnyBuild>)->Name("BM_RookPext");
BENCHMARK(BM_SliderBmi2<simd::pextBishopAttacksAnyBuild>)->Name("BM_BishopPext");
#endif

// The bit counts of 18 target sets summed (the most a side's moves make at perft's last ply),
// by each path: in the generic build the scalar twin is the software count.
template <int (*Sum)(const Bitboard*, int)>
void BM_PopcountSum(benchmark::State& state) {
    auto sets = occupancies();
    size_t i = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(Sum(&sets[i & 4064], 18));
        i += 32;
    }
}
BENCHMARK(BM_PopcountSum<simd::popcountSumScalar>)->Name("BM_PopcountSumScalar");
#if defined(__SSE2__)
BENCHMARK(BM_PopcountSum<simd::popcountSumSse2>)->Name("BM_PopcountSumSse2");
#endif

void BM_PerftStart5(benchmark::State& state) {
    Position pos;
    std::uint64_t nodes = 0;
    for (auto _ : state) nodes += perft(pos, 5);
    state.counters["nodes/s"] = benchmark::Counter(double(nodes), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_PerftStart5)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
