#include "nnue/stream.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>

#include "datagen/gamefile.h"
#include "eval/eval.h"
#include "eval/evalparams.h"
#include "fit.h"

namespace nnue {

Sample pack(const Position& pos, Value whiteScore, double whiteResult) {
    Sample s{
        pos.pieces(), {}, 0, 0, std::uint8_t(pos.sideToMove()), 0, {params::SCALE_NORMAL, params::SCALE_NORMAL}, 0};
    int k = 0;
    for (Bitboard b = pos.pieces(); b; ++k) s.pieces[k / 2] |= pos.pieceOn(popLsb(b)) << (4 * (k % 2));
    const bool white = pos.sideToMove() == WHITE;
    s.score = std::int16_t(white ? whiteScore : -whiteScore);
    s.result = std::uint8_t(std::lround(2 * (white ? whiteResult : 1 - whiteResult)));
    return s;
}

std::string SampleStream::open(const StreamConfig& config, int readers,
                               const std::function<void(const std::string&)>& progress) {
    cfg = config;
    threads = readers;
    train.clear();
    held.clear();
    trainPlies_ = 0;
    const std::uint64_t every =
        cfg.holdoutShare > 0 ? std::max<std::uint64_t>(1, std::llround(1 / cfg.holdoutShare)) : 0;
    std::uint64_t plies = 0;
    for (std::uint32_t f = 0; f < cfg.files.size() && !(cfg.maxPositions && plies >= cfg.maxPositions); ++f) {
        std::vector<gamefile::ChunkSpan> spans;
        std::uint64_t valid = 0;
        if (std::string why = gamefile::index(cfg.files[f], spans, &valid); !why.empty()) return "train: " + why;
        if (valid < std::filesystem::file_size(cfg.files[f]))
            progress("train: " + cfg.files[f] +
                     " ends in a chunk cut short (a run still writing it); read up to there");
        for (const gamefile::ChunkSpan& span : spans) {
            if (cfg.maxPositions && plies >= cfg.maxPositions) break;
            plies += span.plies;
            // Held out by the chunk's number in its run, so the same games whatever else is read.
            const bool out = every && span.index % every == 0;
            (out ? held : train).push_back({f, span.offset, span.plies});
            if (!out) trainPlies_ += span.plies;
        }
    }
    return train.empty() ? "train: no training positions in the data" : "";
}

std::vector<Sample> SampleStream::read(const std::vector<Ref>& refs, bool training, std::size_t& known) const {
    std::vector<std::vector<Sample>> parts(threads);
    std::vector<std::size_t> knownParts(threads, 0);
    fit::parallelFor(threads, refs.size(), [&](int t, std::size_t begin, std::size_t end) {
        std::vector<std::ifstream> files(cfg.files.size());
        EvalCache cache;
        gamefile::Chunk chunk;
        for (std::size_t i = begin; i < end; ++i) {
            std::ifstream& in = files[refs[i].file];
            if (!in.is_open()) in.open(cfg.files[refs[i].file], std::ios::binary);
            if (!gamefile::readAt(in, refs[i].offset, chunk)) continue;  // the file changed since open()
            for (const gamefile::Game& g : chunk.games)
                gamefile::forEachTrainingPosition(g, cfg.minPly, [&](const Position& pos, Value v, double r) {
                    // The engine never asks the network about what the seeds know exactly, and
                    // scales its answer elsewhere: training does the same, so that the network
                    // learns what the knowledge leaves to it, not the knowledge twice.
                    Sample s = pack(pos, v, r);
                    for (Color leader : {pos.sideToMove(), ~pos.sideToMove()})
                        s.scale[leader != pos.sideToMove()] = std::uint8_t(knownScale(pos, cache, leader));
                    if ((!s.scale[0] && !s.scale[1]) || knownValue(pos) != VALUE_NONE) {
                        ++knownParts[t];
                        return;
                    }
                    parts[t].push_back(s);
                    if (training && cfg.mirror) {
                        parts[t].push_back(s);
                        parts[t].back().mirrored = 1;
                    }
                });
        }
    });
    std::vector<Sample> samples;
    for (int t = 0; t < threads; ++t) {
        samples.insert(samples.end(), parts[t].begin(), parts[t].end());
        known += knownParts[t];
    }
    return samples;
}

std::vector<Sample> SampleStream::heldOut() const {
    std::vector<Ref> refs;
    std::uint64_t plies = 0;
    for (const Ref& r : held) {
        if (plies >= cfg.maxHeldOut) break;
        refs.push_back(r);
        plies += r.plies;
    }
    std::size_t known = 0;
    std::vector<Sample> samples = read(refs, false, known);
    if (samples.size() > cfg.maxHeldOut) samples.resize(cfg.maxHeldOut);
    return samples;
}

void SampleStream::pass(int number, const std::function<void(std::vector<Sample>&, double)>& onBuffer) {
    // The chunks of every file in one order of this pass's own, so that each buffer mixes the files
    // in proportion to their size.
    std::vector<Ref> order = train;
    std::mt19937_64 rng(cfg.seed * 1000003 + std::uint64_t(number));
    std::shuffle(order.begin(), order.end(), rng);
    trainPositions = knownPositions = 0;
    std::uint64_t readPlies = 0;
    for (std::size_t first = 0; first < order.size();) {
        std::vector<Ref> refs;
        std::uint64_t plies = 0;
        for (; first < order.size() && (refs.empty() || plies < cfg.buffer); ++first) {
            refs.push_back(order[first]);
            plies += order[first].plies;
        }
        std::vector<Sample> buffer = read(refs, true, knownPositions);
        std::shuffle(buffer.begin(), buffer.end(), rng);
        trainPositions += buffer.size();
        readPlies += plies;
        onBuffer(buffer, double(readPlies) / double(trainPlies_));
    }
}

}  // namespace nnue
