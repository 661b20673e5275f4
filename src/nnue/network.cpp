#include "nnue/network.h"

#include <cstdlib>
#include <fstream>
#include <iterator>

#include "bytes.h"
#include "simd/nnue.h"

namespace nnue {

namespace {

constexpr std::uint32_t MAGIC = 0x4e4e4251;  // "QBNN" in file order
// Version 1: no description; 2: no output buckets nor king mirroring.
constexpr std::uint32_t VERSION = 3, ARCHITECTURE = 1;

constexpr std::size_t payloadBytes(int buckets) {
    return sizeof(std::int16_t) * (INPUTS * HIDDEN + HIDDEN + buckets * COLOR_NB * HIDDEN) +
           sizeof(std::int32_t) * buckets;
}

static_assert(HIDDEN % simd::LANE_MULTIPLE == 0);

}  // namespace

void Network::refresh(const Position& pos, Color perspective, std::int16_t* values) const {
    const std::int16_t* rows[32];
    const bool flip = mirrored(pos, perspective);
    int count = 0;
    for (Bitboard b = pos.pieces(); b;) {
        const Square s = popLsb(b);
        rows[count++] = featureWeights[featureIndex(perspective, pos.pieceOn(s), s, flip)];
    }
    simd::updateRows(values, featureBiases, rows, count, nullptr, 0, HIDDEN);
}

Value Network::output(const Position& pos, const std::int16_t* us, const std::int16_t* them) const {
    const int bucket = outputBucket(outputBuckets, popcount(pos.pieces()));
    const auto& weights = outputWeights[bucket];
    std::int64_t sum;
    if (activation == Activation::CLIPPED_RELU)
        sum =
            std::int64_t(simd::dotClipped(us, weights[0], HIDDEN, qa)) + simd::dotClipped(them, weights[1], HIDDEN, qa);
    else  // squared: QA * QA * QB, brought back to QA * QB
        sum = (std::int64_t(simd::dotSquaredClipped(us, weights[0], HIDDEN, qa)) +
               simd::dotSquaredClipped(them, weights[1], HIDDEN, qa)) /
              qa;
    return Value((sum + outputBias[bucket]) * scale / (qa * qb));
}

Value Network::evaluate(const Position& pos) const {
    alignas(64) std::int16_t values[COLOR_NB][HIDDEN];
    refresh(pos, WHITE, values[WHITE]);
    refresh(pos, BLACK, values[BLACK]);
    const Color us = pos.sideToMove();
    return output(pos, values[us], values[~us]);
}

std::string Network::shape() const {
    return "(" + std::to_string(INPUTS) + " -> " + std::to_string(HIDDEN) + ") x 2 -> 1" +
           (outputBuckets > 1 ? " of " + std::to_string(outputBuckets) + " buckets" : "") +
           (kingMirror ? ", king mirroring" : "");
}

std::string encode(const Network& net) {
    std::string payload;
    payload.reserve(payloadBytes(net.outputBuckets));
    for (const auto& row : net.featureWeights)
        for (std::int16_t w : row) bytes::put(payload, w);
    for (std::int16_t b : net.featureBiases) bytes::put(payload, b);
    for (int bucket = 0; bucket < net.outputBuckets; ++bucket)
        for (const auto& half : net.outputWeights[bucket])
            for (std::int16_t w : half) bytes::put(payload, w);
    for (int bucket = 0; bucket < net.outputBuckets; ++bucket) bytes::put(payload, net.outputBias[bucket]);

    std::string out;
    for (std::uint32_t field :
         {MAGIC, VERSION, ARCHITECTURE, std::uint32_t(INPUTS), std::uint32_t(HIDDEN), std::uint32_t(net.activation),
          std::uint32_t(net.outputBuckets), std::uint32_t(net.kingMirror)})
        bytes::put(out, field);
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
    if (version < 1 || version > VERSION)
        return "network format version " + std::to_string(version) + ", this engine reads 1 to " +
               std::to_string(VERSION);
    const std::uint32_t architecture = c.get<std::uint32_t>(), inputs = c.get<std::uint32_t>(),
                        hidden = c.get<std::uint32_t>(), activation = c.get<std::uint32_t>();
    const std::uint32_t buckets = version >= 3 ? c.get<std::uint32_t>() : 1,
                        mirror = version >= 3 ? c.get<std::uint32_t>() : 0;
    if (architecture != ARCHITECTURE || inputs != INPUTS || hidden != HIDDEN || activation > 1 || buckets < 1 ||
        buckets > MAX_OUTPUT_BUCKETS || mirror > 1)
        return "network architecture " + std::to_string(architecture) + " (" + std::to_string(inputs) + " -> " +
               std::to_string(hidden) + ") x 2 -> " + std::to_string(buckets) + " buckets, activation " +
               std::to_string(activation) + ", king mirroring " + std::to_string(mirror) +
               "; this engine runs architecture 1, (768 -> " + std::to_string(HIDDEN) + ") x 2 -> 1 to " +
               std::to_string(MAX_OUTPUT_BUCKETS) + " buckets";
    const std::int32_t qa = c.get<std::int32_t>(), qb = c.get<std::int32_t>(), scale = c.get<std::int32_t>();
    if (qa <= 0 || qa > 32767 || qb <= 0 || scale <= 0) return "network quantisation out of range";
    std::string description;
    if (version >= 2) {
        const std::uint32_t length = c.get<std::uint32_t>();
        if (!c.ok || length > MAX_DESCRIPTION || std::size_t(c.end - c.at) < length)
            return "network description cut short or too long";
        description.assign(c.at, length);
        c.at += length;
        if (description.find_first_of("\r\n") != std::string::npos) return "network description of several lines";
    }
    const std::uint32_t size = c.get<std::uint32_t>(), sum = c.get<std::uint32_t>();
    if (!c.ok || size != payloadBytes(int(buckets)) || std::size_t(c.end - c.at) != size)
        return "network file cut short or too long (" + std::to_string(data.size()) + " bytes)";
    if (bytes::checksum(c.at, size) != sum) return "network file checksum mismatch";

    auto loaded = std::make_unique<Network>();
    loaded->activation = Activation(activation);
    loaded->qa = qa;
    loaded->qb = qb;
    loaded->scale = scale;
    loaded->outputBuckets = int(buckets);
    loaded->kingMirror = mirror;
    loaded->checksum = sum;
    loaded->description = description;
    for (auto& row : loaded->featureWeights)
        for (std::int16_t& w : row) w = c.get<std::int16_t>();
    for (std::int16_t& b : loaded->featureBiases) b = c.get<std::int16_t>();
    for (int bucket = 0; bucket < loaded->outputBuckets; ++bucket)
        for (auto& half : loaded->outputWeights[bucket])
            for (std::int16_t& w : half) w = c.get<std::int16_t>();
    for (int bucket = 0; bucket < loaded->outputBuckets; ++bucket) loaded->outputBias[bucket] = c.get<std::int32_t>();
    // The squared activation multiplies in int16 (simd/nnue.h): QA times a weight must fit.
    if (loaded->activation == Activation::SQUARED_CLIPPED_RELU)
        for (const auto& bucket : loaded->outputWeights)
            for (const auto& half : bucket)
                for (std::int16_t w : half)
                    if (std::abs(w) * qa > 32767) return "network output weight " + std::to_string(w) + " too large";
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
