// The trainer's data as a stream, in memory bounded by a shuffle buffer whatever the data's size
// (Leela Chess Zero's training loader shuffles chunks, then positions, the same way: docs/loader.md
// in LeelaChessZero/lczero-training). The game files' chunks are indexed once; each pass over the
// data takes them in an order of its own, mixing the files, reads the next chunks of that order
// into a buffer of some million positions, shuffles the buffer and hands it to training. The
// chunks of eight games are small against the buffer, so a batch holds positions of thousands of
// games from every file.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "position.h"

namespace nnue {

// A training position in 32 bytes: the occupied squares, then each piece in square order (a
// nibble each), the search's score and the game's result (both for the side to move), whether
// the network is shown the board's mirror image (a-file and h-file swapped), and the seeds'
// scale factor the engine applies to the network's output: [0] when the side to move is ahead,
// [1] when the other side is.
struct Sample {
    Bitboard occupied;
    std::uint8_t pieces[16];
    std::int16_t score;
    std::uint8_t result;  // the side to move's points times two
    std::uint8_t sideToMove;
    std::uint8_t mirrored;
    std::uint8_t scale[2];
    std::uint8_t padding;
};
static_assert(sizeof(Sample) == 32);

// `pos` with White's score and result, the seeds' scale factors left at normal.
Sample pack(const Position& pos, Value whiteScore, double whiteResult);

// Which positions a run learns from and holds out, and how they are shuffled: part of what makes
// a network (trainer.h, Recipe), so no setting of the machine's.
struct StreamConfig {
    std::vector<std::string> files;
    int minPly = 8;
    double holdoutShare = 0.05;  // every (1 / holdoutShare)-th chunk of a file is held out, whole games
    std::uint64_t seed = 1;
    std::uint64_t maxPositions = 0;    // the first chunks (files in turn) holding this many positions as played; 0: all
    std::uint64_t buffer = 4'000'000;  // positions as played read into one shuffle buffer
    std::uint64_t maxHeldOut = 1'000'000;  // held-out positions kept at most
    bool mirror = false;                   // each training position and its mirror image
};

class SampleStream {
public:
    // Indexes the files' chunks, to be read by `threads` threads; returns why it cannot.
    // `progress` hears of a file that ends in a chunk cut short (a run still writing it): it is
    // read up to there.
    std::string open(const StreamConfig& config, int threads, const std::function<void(const std::string&)>& progress);

    // The held-out positions, read afresh.
    std::vector<Sample> heldOut() const;

    // One pass over the training chunks in pass `number`'s order: onBuffer(buffer, done) for
    // each shuffled buffer, `done` the part of the pass's positions read once it is trained on.
    // The same pass gives the same buffers whatever the threads. The positions whose value the
    // seeds know, or that are drawn whoever is ahead, are left out (counted in `known`).
    void pass(int number, const std::function<void(std::vector<Sample>&, double done)>& onBuffer);

    std::uint64_t trainPlies() const { return trainPlies_; }
    std::size_t trainChunks() const { return train.size(); }
    // Of the last pass (or heldOut()).
    std::size_t trainPositions = 0, knownPositions = 0;

private:
    struct Ref {
        std::uint32_t file;
        std::uint64_t offset;
        std::uint32_t plies;
    };
    // The refs' training positions in the refs' order, read by the threads.
    std::vector<Sample> read(const std::vector<Ref>& refs, bool training, std::size_t& known) const;

    StreamConfig cfg;
    int threads = 1;
    std::vector<Ref> train, held;
    std::uint64_t trainPlies_ = 0;
};

}  // namespace nnue
