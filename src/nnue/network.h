// The network: a perspective network (768 -> hidden) x 2 -> 1, the architecture bullet's docs/
// start from and most engines of our class begin with (akimbo, Carp, Leorik: ../shared/
// networks.md); Stockfish's and Ethereal's networks take king-relative inputs. Each side sees the board
// from its own side: 768 inputs, one per (own or enemy, piece type, square), the board flipped
// for Black. The two halves of the hidden layer (the side to move's first) feed one output.
// The hidden layer's width is the file's: 256 neurons is where engines of our class start, and
// width pays as the data grows (Leorik at 5.7B positions: 256 -> 512 +35 Elo, 512 -> 1024 +10;
// wider nets on little data lost: ../shared/networks.md), and costs less than in proportion:
// the same search takes 1.14x the time at 512, 1.41x at 1024 (native; docs/results/networks.md).
// Two options of a network file, each paying where the data is small (../shared/networks.md):
// - output buckets: the output layer chosen by the number of pieces on the board (bullet's
//   MaterialCount buckets), so that an endgame weighs the hidden values otherwise than a
//   middlegame (akimbo and Carp measured +12 to +24 Elo);
// - king mirroring: a side whose king stands on files e-h sees the board with its files reversed,
//   so that its king is always on files a-d. Chess is symmetric that way but for castling rights,
//   which the inputs do not see; the weights of one half of the board serve both (horizontal
//   mirroring, about +17 in Leorik's and akimbo's logs). A king move across the middle redraws
//   that side's view: its first layer is computed again.
// - king buckets: a set of 768 inputs for each group of the side's own king squares (Stockfish's
//   HalfKA and Ethereal's networks take one for every square), so that a piece's worth can depend
//   on where the king it shields or attacks stands: a pawn storm means one thing against a
//   castled king and another against one in the centre. The file maps each king square, as its
//   side sees it, to a bucket; a king move into another bucket redraws that side's view. Pays
//   where the data is large (bullet's docs/; Leorik and akimbo add buckets last).
//
// Quantised as bullet quantises (docs/2-quantisation.md): the first layer's weights and biases are
// int16 scaled by QA, the output weights int16 scaled by QB, the output bias int32 scaled by
// QA * QB, and the output times SCALE is centipawns.
//
// The network file (docs/formats.md, one version): a header of the shape, QA, QB and SCALE, a
// one-line description of the recipe that made it, and the payload of weights with its FNV-1a
// checksum. The description says where the network comes from: its data by name and sha256, the
// training settings, the parent network by checksum, the trainer's commit (Stockfish's network
// files carry one the same way). The engine shows it at load and in `eval`. The checksum covers
// the payload alone: the same weights are the same network, whatever their description.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "position.h"

namespace nnue {

constexpr int INPUTS = 768;
// The hidden layer's widths a file may have: whole steps of the SIMD kernels' lanes
// (simd/nnue.h), up to MAX_HIDDEN; DEFAULT_HIDDEN is the trainer's unless told otherwise.
constexpr int HIDDEN_STEP = 32, MAX_HIDDEN = 1024, DEFAULT_HIDDEN = 256;
// The output scale of a new file, and the trainer's unit: the output times SCALE is centipawns.
// A file may carry another (gen11d was embedded at 312: docs/results/networks.md).
constexpr int DEFAULT_SCALE = 400;
constexpr std::size_t MAX_DESCRIPTION = 4096;
constexpr int MAX_OUTPUT_BUCKETS = 8, MAX_KING_BUCKETS = 16;

enum class Activation : std::uint32_t { CLIPPED_RELU = 0, SQUARED_CLIPPED_RELU = 1 };

// The input of `pc` on `s` as `perspective` sees it: its own pieces first, the board flipped
// for Black so that each side sees itself moving up the board, and its files reversed when the
// side's view is `mirrored` (king mirroring).
constexpr int featureIndex(Color perspective, Piece pc, Square s, bool mirrored = false) {
    return (colorOf(pc) != perspective) * 384 + (typeOf(pc) - 1) * 64 +
           (s ^ (perspective == WHITE ? 0 : 56) ^ (mirrored ? 7 : 0));
}

// Whether a king-mirroring network shows a side whose king is on `king` the board's files reversed.
constexpr bool kingOnMirroredHalf(Square king) { return fileOf(king) >= 4; }

// Which set of inputs a side's pieces go to, by its own king's square as the side sees it.
struct KingBuckets {
    int count = 1;
    std::array<std::uint8_t, SQUARE_NB> of{};  // by square, a1 first

    bool operator==(const KingBuckets&) const = default;
    // The layouts the trainer offers (`train ... kingbuckets N`), by the king's rank as its side
    // sees it: 2, its first rank (at home, castled) or not; 4, its first, second or third rank,
    // or any further one (in the open: an endgame king); 8, those four by the board's half, the
    // queen's side (files a-d) or the king's. Returns count 0 for another number.
    static KingBuckets layout(int count);
    // Why this map cannot be a network's (a bucket out of range or never used), or "".
    std::string invalid() const;
};

// How `perspective` sees the board while its king is on `king`: the first input of the king's
// bucket, and whether the files are reversed. Two squares of the same view share every input.
struct InputView {
    int base;
    bool mirrored;
    bool operator==(const InputView&) const = default;
};
constexpr InputView inputView(bool kingMirror, const KingBuckets& buckets, Color perspective, Square king) {
    const bool mirrored = kingMirror && kingOnMirroredHalf(king);
    return {buckets.of[king ^ (perspective == WHITE ? 0 : 56) ^ (mirrored ? 7 : 0)] * INPUTS, mirrored};
}
// The input of `pc` on `s` seen through `view`.
constexpr int featureIndex(Color perspective, InputView view, Piece pc, Square s) {
    return view.base + featureIndex(perspective, pc, s, view.mirrored);
}

// The output bucket of a board of `pieces` pieces (kings included) among `buckets`: equal
// ranges of the 2 to 32 pieces, as bullet's MaterialCount divides them.
constexpr int outputBucket(int buckets, int pieces) { return (pieces - 2) / ((32 + buckets - 1) / buckets); }

// Storage on 64-byte boundaries, where the SIMD kernels load whole rows.
template <typename T>
struct CacheAligned {
    using value_type = T;
    static constexpr std::align_val_t ALIGNMENT{64};
    CacheAligned() = default;
    template <typename U>
    CacheAligned(const CacheAligned<U>&) {}
    T* allocate(std::size_t n) { return static_cast<T*>(::operator new(n * sizeof(T), ALIGNMENT)); }
    void deallocate(T* p, std::size_t) { ::operator delete(p, ALIGNMENT); }
    bool operator==(const CacheAligned&) const = default;
};
using Int16Rows = std::vector<std::int16_t, CacheAligned<std::int16_t>>;

class Network {
public:
    // A network of `hidden` neurons a side (a multiple of HIDDEN_STEP up to MAX_HIDDEN) and
    // `kingBuckets`' inputs, its weights zero.
    explicit Network(int hidden = DEFAULT_HIDDEN, const KingBuckets& kingBuckets = {});

    Activation activation = Activation::SQUARED_CLIPPED_RELU;
    int qa = 255, qb = 64, scale = DEFAULT_SCALE;
    int outputBuckets = 1;    // 1 to MAX_OUTPUT_BUCKETS
    bool kingMirror = false;  // a side whose king is on files e-h sees the files reversed
    std::int32_t outputBias[MAX_OUTPUT_BUCKETS] = {};
    std::uint32_t checksum = 0;  // of the file's payload: identifies the network
    std::string description;     // where it comes from, one line

    int hidden() const { return width; }
    const KingBuckets& kingBuckets() const { return kings; }
    int inputs() const { return kings.count * INPUTS; }
    // The rows of `hidden` weights, each on a 64-byte boundary: an input's, the biases, and a
    // bucket's output weights of one half (side 0: the side to move's).
    std::int16_t* featureWeights(int feature) { return &weights[std::size_t(feature) * width]; }
    const std::int16_t* featureWeights(int feature) const { return &weights[std::size_t(feature) * width]; }
    std::int16_t* featureBiases() { return featureWeights(inputs()); }
    const std::int16_t* featureBiases() const { return featureWeights(inputs()); }
    std::int16_t* outputWeights(int bucket, int side) { return featureWeights(inputs() + 1 + 2 * bucket + side); }
    const std::int16_t* outputWeights(int bucket, int side) const {
        return featureWeights(inputs() + 1 + 2 * bucket + side);
    }

    // How `perspective` sees the board while its king is on `king`.
    InputView view(Color perspective, Square king) const { return inputView(kingMirror, kings, perspective, king); }
    // Whether the move that made `changes` took `perspective`'s king into another view (across
    // the board's middle, into another king bucket), so that its first layer is recomputed.
    bool redraws(const DirtyPieces& changes, Color perspective) const {
        return (kingMirror || kings.count > 1) && changes.removedCount &&
               changes.removed[0].piece == makePiece(perspective, KING) &&
               view(perspective, changes.removed[0].square) != view(perspective, changes.added[0].square);
    }
    // The first layer of `pos` from `perspective`, computed from every piece.
    void refresh(const Position& pos, Color perspective, std::int16_t* values) const;
    // Centipawns for the side to move of `pos`, from its accumulator and the other side's.
    Value output(const Position& pos, const std::int16_t* us, const std::int16_t* them) const;
    // Both, for a position with no accumulator (the `eval` command, tests).
    Value evaluate(const Position& pos) const;
    // The architecture in words, e.g. "(768 -> 256) x 2 -> 1 of 8 buckets, king mirroring" or
    // "(4 x 768 -> 512) x 2 -> 1 of 8 buckets" with king buckets.
    std::string shape() const;

private:
    int width;
    KingBuckets kings;
    Int16Rows weights;  // the rows above, in that order, every bucket's whether used or not
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
