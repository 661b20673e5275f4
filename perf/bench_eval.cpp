// Micro-benchmarks of the evaluation: the material-table lookup and scale step, and a whole
// evaluation.
#include <benchmark/benchmark.h>

#include <vector>

#include "eval/eval.h"
#include "eval/material.h"
#include "movegen.h"

namespace {

// Positions with many different material configurations: every position reached in two plies
// from a few middlegames and endgames.
std::vector<Position> samplePositions() {
    const char* fens[] = {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                          "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
                          "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
                          "4k3/8/4b3/8/3P4/8/3N4/4K3 w - - 0 1"};
    std::vector<Position> positions;
    for (const char* fen : fens) {
        Position root;
        root.setFen(fen);
        for (Move m : MoveList<LEGAL>(root)) {
            Position p = root;
            p.makeMove(m);
            positions.push_back(p);
        }
    }
    return positions;
}

void BM_MaterialLookup(benchmark::State& state) {
    auto positions = samplePositions();
    size_t i = 0;
    for (auto _ : state) {
        material::Entry e = material::probe(positions[i++ % positions.size()]);
        benchmark::DoNotOptimize(e);
    }
}
BENCHMARK(BM_MaterialLookup);

// The whole scale step of the evaluation: lookup, the leader's factor, one multiply.
void BM_ScaleStep(benchmark::State& state) {
    auto positions = samplePositions();
    size_t i = 0;
    int value = 137;
    for (auto _ : state) {
        material::Entry e = material::probe(positions[i++ % positions.size()]);
        value = value * e.scale[value > 0 ? WHITE : BLACK] / 64 + 137;
        benchmark::DoNotOptimize(value);
    }
}
BENCHMARK(BM_ScaleStep);

void BM_Evaluate(benchmark::State& state) {
    auto positions = samplePositions();
    EvalCache cache;
    size_t i = 0;
    for (auto _ : state) benchmark::DoNotOptimize(evaluate(positions[i++ % positions.size()], cache));
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Evaluate);

}  // namespace
