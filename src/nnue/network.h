// The network: a perspective network (768 -> HIDDEN) x 2 -> 1, the architecture bullet's docs/
// start from and most engines of our class begin with (akimbo, Carp, Leorik: ../shared/
// networks.md); Stockfish's and Ethereal's networks take king-relative inputs. Each side sees the board
// from its own side: 768 inputs, one per (own or enemy, piece type, square), the board flipped
// for Black. The two halves of the hidden layer (the side to move's first) feed one output.
//
// Quantised as bullet quantises (docs/2-quantisation.md): the first layer's weights and biases are
// int16 scaled by QA, the output weights int16 scaled by QB, the output bias int32 scaled by
// QA * QB, and the output times SCALE is centipawns.
//
// A network file, all integers little-endian:
//   u32 magic "QBNN" | u32 format version | u32 architecture (1: the one above) | u32 inputs |
//   u32 hidden | u32 activation (0 clipped ReLU, 1 squared clipped ReLU) | i32 QA | i32 QB |
//   i32 SCALE | u32 description bytes | description | u32 payload bytes |
//   u32 FNV-1a checksum of the payload | payload:
//   int16 feature weights [768][hidden] | int16 feature biases [hidden] |
//   int16 output weights [2][hidden] (the side to move's half first) | int32 output bias
// The description (format version 2 on; version 1 files have none) is one line of text, at most
// MAX_DESCRIPTION bytes, that says where the network comes from: the trainer's command, its data
// and commit. The engine shows it at load and in `eval`, so a network's provenance travels with it
// (Stockfish's network files carry one the same way). The checksum covers the payload alone: the
// same weights are the same network, whatever their description.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "position.h"

namespace nnue {

constexpr int INPUTS = 768;
constexpr int HIDDEN = 256;
constexpr std::size_t MAX_DESCRIPTION = 1024;

enum class Activation : std::uint32_t { CLIPPED_RELU = 0, SQUARED_CLIPPED_RELU = 1 };

// The input of `pc` on `s` as `perspective` sees it: its own pieces first, the board flipped
// for Black so that each side sees itself moving up the board.
constexpr int featureIndex(Color perspective, Piece pc, Square s) {
    return (colorOf(pc) != perspective) * 384 + (typeOf(pc) - 1) * 64 + (perspective == WHITE ? s : s ^ 56);
}

struct Network {
    Activation activation = Activation::SQUARED_CLIPPED_RELU;
    int qa = 255, qb = 64, scale = 400;
    alignas(64) std::int16_t featureWeights[INPUTS][HIDDEN];
    alignas(64) std::int16_t featureBiases[HIDDEN];
    alignas(64) std::int16_t outputWeights[COLOR_NB][HIDDEN];  // [0]: the side to move's half
    std::int32_t outputBias = 0;
    std::uint32_t checksum = 0;  // of the file's payload: identifies the network
    std::string description;     // where it comes from, one line

    // The first layer of `pos` from `perspective`, computed from every piece.
    void refresh(const Position& pos, Color perspective, std::int16_t* values) const;
    // Centipawns for the side to move, from its accumulator and the other side's.
    Value output(const std::int16_t* us, const std::int16_t* them) const;
    // Both, for a position with no accumulator (the `eval` command, tests).
    Value evaluate(const Position& pos) const;
};

// The file's bytes; the description cut to MAX_DESCRIPTION bytes, line breaks made spaces.
std::string encode(const Network& net);
// Reads a network from a file's bytes; returns why it cannot (and leaves `net` unchanged).
std::string decode(const std::string& bytes, Network& net);
// Reads a network file; returns why it cannot.
std::string load(const std::string& path, Network& net);

// The network built into the binary (src/nnue/default.nnue), the one EvalFile names by default.
constexpr const char* EMBEDDED_NAME = "<embedded>";
const Network& embedded();

}  // namespace nnue
