// Micro-benchmarks of the evaluation: the material-table lookup and scale step, a whole
// hand-written evaluation, and the network's parts (a move's update of the accumulators, the
// output layer) with each SIMD path against the scalar twin.
#include <benchmark/benchmark.h>

#include <vector>

#include "eval/eval.h"
#include "eval/material.h"
#include "movegen.h"
#include "nnue/accumulator.h"
#include "simd/nnue.h"

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

// A move as the search makes it, evaluated: push, lazy update of both sides, output, pop.
void BM_NetworkMoveAndEvaluate(benchmark::State& state) {
    Position root;
    root.setFen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    const MoveList<LEGAL> moves(root);
    nnue::AccumulatorStack stack;
    stack.reset(root, nnue::embedded());
    size_t i = 0;
    for (auto _ : state) {
        const Move m = *(moves.begin() + i++ % moves.size());
        root.makeMove(m, root.givesCheck(m), stack.push());
        benchmark::DoNotOptimize(stack.evaluate(root, nnue::embedded()));
        root.unmakeMove(m);
        stack.pop();
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_NetworkMoveAndEvaluate);

// The kernels of one path: a quiet move's update (one row in, one out) of one side, and the
// output layer of both sides.
void BM_NetworkUpdate(benchmark::State& state) {
    const simd::Isa isa = simd::Isa(state.range(0));
    if (!simd::cpuSupports(isa)) return state.SkipWithError("not supported by this CPU");
    const nnue::Network& net = nnue::embedded();
    alignas(64) std::int16_t from[nnue::MAX_HIDDEN] = {}, to[nnue::MAX_HIDDEN];
    const std::int16_t* added[1] = {net.featureWeights(100)};
    const std::int16_t* removed[1] = {net.featureWeights(200)};
    for (auto _ : state) {
        simd::nnueKernels(isa).updateRows(to, from, added, 1, removed, 1, net.hidden());
        benchmark::DoNotOptimize(to);
    }
    state.SetLabel(simd::isaName(isa));
}
BENCHMARK(BM_NetworkUpdate)->DenseRange(0, int(simd::Isa::NEON));

void BM_NetworkOutput(benchmark::State& state) {
    const simd::Isa isa = simd::Isa(state.range(0));
    if (!simd::cpuSupports(isa)) return state.SkipWithError("not supported by this CPU");
    const nnue::Network& net = nnue::embedded();
    Position pos;
    pos.setFen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    alignas(64) std::int16_t values[COLOR_NB][nnue::MAX_HIDDEN];
    net.refresh(pos, WHITE, values[WHITE]);
    net.refresh(pos, BLACK, values[BLACK]);
    for (auto _ : state)
        benchmark::DoNotOptimize(
            simd::nnueKernels(isa).dotSquaredClipped(values[WHITE], net.outputWeights(0, 0), net.hidden(), net.qa) +
            simd::nnueKernels(isa).dotSquaredClipped(values[BLACK], net.outputWeights(0, 1), net.hidden(), net.qa));
    state.SetLabel(simd::isaName(isa));
}
BENCHMARK(BM_NetworkOutput)->DenseRange(0, int(simd::Isa::NEON));

}  // namespace
