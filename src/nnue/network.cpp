#include "nnue/network.h"

#include <cassert>
#include <cstdlib>
#include <fstream>
#include <iterator>

#include "bytes.h"
#include "simd/nnue.h"

namespace nnue {

namespace {

constexpr std::uint32_t MAGIC = 0x4e4e4251;  // "QBNN" in file order
// Version 1: no description; 2: no output buckets nor king mirroring; 3: no king buckets.
constexpr std::uint32_t VERSION = 4, ARCHITECTURE = 1;

constexpr std::size_t payloadBytes(int hidden, int kingBuckets, int buckets) {
    return sizeof(std::int16_t) * std::size_t(kingBuckets * INPUTS + 1 + buckets * COLOR_NB) * hidden +
           sizeof(std::int32_t) * buckets;
}

constexpr bool validWidth(std::uint32_t hidden) { return hidden && hidden <= MAX_HIDDEN && hidden % HIDDEN_STEP == 0; }

// Every row starts on a 64-byte boundary and the kernels run whole steps.
static_assert(HIDDEN_STEP % simd::LANE_MULTIPLE == 0 && HIDDEN_STEP * sizeof(std::int16_t) % 64 == 0);

}  // namespace

KingBuckets KingBuckets::layout(int count) {
    KingBuckets buckets;
    buckets.count = count == 1 || count == 2 || count == 4 || count == 8 ? count : 0;
    for (int s = 0; s < SQUARE_NB; ++s) {
        const int rank = rankOf(Square(s)), byRank = count == 2 ? rank > 0 : std::min(rank, 3);
        buckets.of[s] = std::uint8_t(count == 1 ? 0 : count == 8 ? byRank + 4 * (fileOf(Square(s)) >= 4) : byRank);
    }
    return buckets;
}

std::string KingBuckets::invalid() const {
    if (count < 1 || count > MAX_KING_BUCKETS)
        return std::to_string(count) + " king buckets (1 to " + std::to_string(MAX_KING_BUCKETS) + ")";
    std::array<bool, MAX_KING_BUCKETS> used{};
    for (std::uint8_t bucket : of) {
        if (bucket >= count) return "king bucket " + std::to_string(bucket) + " of " + std::to_string(count);
        used[bucket] = true;
    }
    for (int bucket = 0; bucket < count; ++bucket)
        if (!used[bucket]) return "king bucket " + std::to_string(bucket) + " has no square";
    return "";
}

Network::Network(int hidden, const KingBuckets& kingBuckets)
    : width(hidden), kings(kingBuckets),
      weights(std::size_t(kingBuckets.count * INPUTS + 1 + MAX_OUTPUT_BUCKETS * COLOR_NB) * hidden) {
    assert(validWidth(std::uint32_t(hidden)) && kingBuckets.invalid().empty());
}

void Network::refresh(const Position& pos, Color perspective, std::int16_t* values) const {
    const std::int16_t* rows[32];
    const InputView v = view(perspective, pos.kingSquare(perspective));
    int count = 0;
    for (Bitboard b = pos.pieces(); b;) {
        const Square s = popLsb(b);
        rows[count++] = featureWeights(featureIndex(perspective, v, pos.pieceOn(s), s));
    }
    simd::updateRows(values, featureBiases(), rows, count, nullptr, 0, width);
}

Value Network::output(const Position& pos, const std::int16_t* us, const std::int16_t* them) const {
    const int bucket = outputBucket(outputBuckets, popcount(pos.pieces()));
    const std::int16_t *ours = outputWeights(bucket, 0), *theirs = outputWeights(bucket, 1);
    std::int64_t sum;
    if (activation == Activation::CLIPPED_RELU)
        sum = std::int64_t(simd::dotClipped(us, ours, width, qa)) + simd::dotClipped(them, theirs, width, qa);
    else  // squared: QA * QA * QB, brought back to QA * QB
        sum = (std::int64_t(simd::dotSquaredClipped(us, ours, width, qa)) +
               simd::dotSquaredClipped(them, theirs, width, qa)) /
              qa;
    return Value((sum + outputBias[bucket]) * scale / (qa * qb));
}

Value Network::evaluate(const Position& pos) const {
    alignas(64) std::int16_t values[COLOR_NB][MAX_HIDDEN];
    refresh(pos, WHITE, values[WHITE]);
    refresh(pos, BLACK, values[BLACK]);
    const Color us = pos.sideToMove();
    return output(pos, values[us], values[~us]);
}

std::string Network::shape() const {
    return "(" + (kings.count > 1 ? std::to_string(kings.count) + " x " : "") + std::to_string(INPUTS) + " -> " +
           std::to_string(width) + ") x 2 -> 1" +
           (outputBuckets > 1 ? " of " + std::to_string(outputBuckets) + " buckets" : "") +
           (kingMirror ? ", king mirroring" : "");
}

std::string encode(const Network& net) {
    std::string payload;
    const int hidden = net.hidden();
    const KingBuckets& kings = net.kingBuckets();
    payload.reserve(payloadBytes(hidden, kings.count, net.outputBuckets));
    // The rows in file order are the network's own, up to the buckets it uses.
    const std::int16_t* rows = net.featureWeights(0);
    for (std::size_t i = 0; i < std::size_t(net.inputs() + 1 + 2 * net.outputBuckets) * hidden; ++i)
        bytes::put(payload, rows[i]);
    for (int bucket = 0; bucket < net.outputBuckets; ++bucket) bytes::put(payload, net.outputBias[bucket]);

    std::string out;
    for (std::uint32_t field :
         {MAGIC, VERSION, ARCHITECTURE, std::uint32_t(INPUTS), std::uint32_t(hidden), std::uint32_t(net.activation),
          std::uint32_t(net.outputBuckets), std::uint32_t(net.kingMirror), std::uint32_t(kings.count)})
        bytes::put(out, field);
    for (std::uint8_t bucket : kings.of) bytes::put(out, bucket);
    for (std::int32_t field : {net.qa, net.qb, net.scale}) bytes::put(out, field);
    std::string description = net.description.substr(0, MAX_DESCRIPTION);
    for (char& c : description)
        if (c == '\n' || c == '\r') c = ' ';
    bytes::put(out, std::uint32_t(description.size()));
    out += description;
    bytes::put(out, std::uint32_t(payload.size()));
    bytes::put(out, bytes::checksum(payload.data(), payload.size()));
    return out + payload;
}

std::string decode(const std::string& data, Network& net) {
    bytes::Cursor c{data.data(), data.data() + data.size()};
    if (c.get<std::uint32_t>() != MAGIC) return "not a Quadbit network file";
    const std::uint32_t version = c.get<std::uint32_t>();
    if (version != VERSION)
        return "network format version " + std::to_string(version) + ", this engine reads version " +
               std::to_string(VERSION);
    const std::uint32_t architecture = c.get<std::uint32_t>(), inputs = c.get<std::uint32_t>(),
                        hidden = c.get<std::uint32_t>(), activation = c.get<std::uint32_t>(),
                        buckets = c.get<std::uint32_t>(), mirror = c.get<std::uint32_t>();
    if (architecture != ARCHITECTURE || inputs != INPUTS || !validWidth(hidden) || activation > 1 || buckets < 1 ||
        buckets > MAX_OUTPUT_BUCKETS || mirror > 1)
        return "network architecture " + std::to_string(architecture) + " (" + std::to_string(inputs) + " -> " +
               std::to_string(hidden) + ") x 2 -> " + std::to_string(buckets) + " buckets, activation " +
               std::to_string(activation) + ", king mirroring " + std::to_string(mirror) +
               "; this engine runs architecture 1, (768 -> " + std::to_string(HIDDEN_STEP) + " to " +
               std::to_string(MAX_HIDDEN) + " in steps of " + std::to_string(HIDDEN_STEP) + ") x 2 -> 1 to " +
               std::to_string(MAX_OUTPUT_BUCKETS) + " buckets";
    KingBuckets kings;
    const std::uint32_t count = c.get<std::uint32_t>();
    if (count < 1 || count > MAX_KING_BUCKETS)
        return "network of " + std::to_string(count) + " king buckets, this engine runs 1 to " +
               std::to_string(MAX_KING_BUCKETS);
    kings.count = int(count);
    for (std::uint8_t& bucket : kings.of) bucket = c.get<std::uint8_t>();
    if (std::string why = kings.invalid(); c.ok && !why.empty()) return "network of " + why;
    const std::int32_t qa = c.get<std::int32_t>(), qb = c.get<std::int32_t>(), scale = c.get<std::int32_t>();
    if (qa <= 0 || qa > 32767 || qb <= 0 || scale <= 0) return "network quantisation out of range";
    const std::uint32_t length = c.get<std::uint32_t>();
    if (!c.ok || length > MAX_DESCRIPTION || std::size_t(c.end - c.at) < length)
        return "network description cut short or too long";
    const std::string description(c.at, length);
    c.at += length;
    if (description.find_first_of("\r\n") != std::string::npos) return "network description of several lines";
    const std::uint32_t size = c.get<std::uint32_t>(), sum = c.get<std::uint32_t>();
    if (!c.ok || size != payloadBytes(int(hidden), kings.count, int(buckets)) || std::size_t(c.end - c.at) != size)
        return "network file cut short or too long (" + std::to_string(data.size()) + " bytes)";
    if (bytes::checksum(c.at, size) != sum) return "network file checksum mismatch";

    auto loaded = std::make_unique<Network>(int(hidden), kings);
    loaded->activation = Activation(activation);
    loaded->qa = qa;
    loaded->qb = qb;
    loaded->scale = scale;
    loaded->outputBuckets = int(buckets);
    loaded->kingMirror = mirror;
    loaded->checksum = sum;
    loaded->description = description;
    std::int16_t* rows = loaded->featureWeights(0);
    for (std::size_t i = 0; i < std::size_t(loaded->inputs() + 1 + 2 * buckets) * hidden; ++i)
        rows[i] = c.get<std::int16_t>();
    for (int bucket = 0; bucket < loaded->outputBuckets; ++bucket) loaded->outputBias[bucket] = c.get<std::int32_t>();
    // The squared activation multiplies in int16 (simd/nnue.h): QA times a weight must fit.
    if (loaded->activation == Activation::SQUARED_CLIPPED_RELU)
        for (int bucket = 0; bucket < loaded->outputBuckets; ++bucket)
            for (int side = 0; side < COLOR_NB; ++side)
                for (int i = 0; i < int(hidden); ++i)
                    if (const int w = loaded->outputWeights(bucket, side)[i]; std::abs(w) * qa > 32767)
                        return "network output weight " + std::to_string(w) + " too large";
    net = *loaded;
    return "";
}

std::string load(const std::string& path, Network& net) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return "cannot open network file " + path;
    const std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::string why = decode(data, net);
    return why.empty() ? why : path + ": " + why;
}

}  // namespace nnue
