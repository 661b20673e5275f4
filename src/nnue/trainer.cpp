#include "nnue/trainer.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <numbers>
#include <numeric>
#include <random>
#include <thread>

#include "buildinfo.h"
#include "bytes.h"
#include "datagen/gamefile.h"
#include "nnue/stream.h"
#include "eval/eval.h"
#include "eval/evalparams.h"
#include "fit.h"
#include "sha256.h"
#include "text.h"

namespace nnue {

namespace {

using Clock = std::chrono::steady_clock;

// The inputs of both sides, the side to move's first, as `net` sees them; returns how many each has.
int features(const FloatNetwork& net, const Sample& s, int (&us)[32], int (&them)[32]) {
    const Color stm = Color(s.sideToMove);
    Square squares[32];
    Piece pieces[32];
    InputView view[COLOR_NB] = {};
    int count = 0;
    for (Bitboard b = s.occupied; b; ++count) {
        squares[count] = s.mirrored ? flipFile(popLsb(b)) : popLsb(b);
        pieces[count] = Piece(s.pieces[count / 2] >> (4 * (count % 2)) & 15);
        if (typeOf(pieces[count]) == KING) {
            const Color side = colorOf(pieces[count]);
            view[side] = inputView(net.kingMirror, net.kingBuckets, side, squares[count]);
        }
    }
    for (int k = 0; k < count; ++k) {
        us[k] = featureIndex(stm, view[stm], pieces[k], squares[k]);
        them[k] = featureIndex(~stm, view[~stm], pieces[k], squares[k]);
    }
    return count;
}

// What the engine multiplies the network's output by (withKnowledge in eval.h): the scale factor
// for the side ahead. The engine takes the side the output favours; training takes the one the
// target favours, the same once the network has learnt, because a factor of 0 (the side could
// never win) would give a network that wrongly favours that side no gradient to mend it.
float knowledgeFactor(const Sample& s, float target) {
    return float(s.scale[target >= 0.5f ? 0 : 1]) / float(params::SCALE_NORMAL);
}

// The activation in float: the quantised network clamps to [0, QA], i.e. [0, 1] here.
float activate(Activation a, float x) {
    const float c = std::clamp(x, 0.0f, 1.0f);
    return a == Activation::CLIPPED_RELU ? c : c * c;
}
float activateSlope(Activation a, float x) {
    if (x <= 0.0f || x >= 1.0f) return 0.0f;
    return a == Activation::CLIPPED_RELU ? 1.0f : 2.0f * x;
}

// The first layer's values of one side: the biases plus one row per input.
void accumulate(const FloatNetwork& net, const int* inputs, int count, float* acc) {
    const int hidden = net.hidden;
    std::copy_n(net.params.data() + net.featureBiases(), hidden, acc);
    for (int k = 0; k < count; ++k) {
        const float* row = net.params.data() + net.featureWeights(inputs[k]);
        for (int i = 0; i < hidden; ++i) acc[i] += row[i];
    }
}

struct Forward {
    float acc[COLOR_NB][MAX_HIDDEN];  // [0] the side to move
    int bucket;
    float output;
};

void forward(const FloatNetwork& net, const int* us, const int* them, int count, Forward& f) {
    accumulate(net, us, count, f.acc[0]);
    accumulate(net, them, count, f.acc[1]);
    f.bucket = outputBucket(net.outputBuckets, count);
    const float* outputWeights = net.params.data() + net.outputWeights(f.bucket);
    float sum = net.params[net.outputBias(f.bucket)];
    for (int side = 0; side < 2; ++side)
        for (int i = 0; i < net.hidden; ++i)
            sum += activate(net.activation, f.acc[side][i]) * outputWeights[side * net.hidden + i];
    f.output = sum;
}

// The target: the game's result weighed `wdl`, the search's score (at the trainer's DEFAULT_SCALE)
// the rest.
float target(const Sample& s, double wdl) {
    return float(wdl * s.result / 2.0 + (1.0 - wdl) * fit::sigmoid(float(s.score) / float(DEFAULT_SCALE)));
}

// One sample's loss, and its gradient added to `grad`, touching only the rows of its inputs.
float backward(const FloatNetwork& net, const Sample& s, double wdl, std::vector<float>& grad) {
    int us[32], them[32];
    const int count = features(net, s, us, them);
    Forward f;
    forward(net, us, them, count, f);
    const float want = target(s, wdl), factor = knowledgeFactor(s, want);
    const float p = fit::sigmoid(factor * f.output), error = p - want;
    const float dOut = 2.0f * error * p * (1.0f - p) * factor;
    const float* outputWeights = net.params.data() + net.outputWeights(f.bucket);
    float* outputGrad = grad.data() + net.outputWeights(f.bucket);
    grad[net.outputBias(f.bucket)] += dOut;
    const int hidden = net.hidden;
    for (int side = 0; side < 2; ++side) {
        const int* inputs = side == 0 ? us : them;
        float dAcc[MAX_HIDDEN];
        for (int i = 0; i < hidden; ++i) {
            const float a = f.acc[side][i];
            outputGrad[side * hidden + i] += dOut * activate(net.activation, a);
            dAcc[i] = dOut * outputWeights[side * hidden + i] * activateSlope(net.activation, a);
            grad[net.featureBiases() + i] += dAcc[i];
        }
        for (int k = 0; k < count; ++k) {
            float* row = grad.data() + net.featureWeights(inputs[k]);
            for (int i = 0; i < hidden; ++i) row[i] += dAcc[i];
        }
    }
    return error * error;
}

double meanLoss(const FloatNetwork& net, const std::vector<Sample>& samples, int threads, double wdl) {
    if (samples.empty()) return 0;
    std::vector<double> sums(threads, 0.0);
    fit::parallelFor(threads, samples.size(), [&](int t, std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
            int us[32], them[32];
            const int count = features(net, samples[i], us, them);
            Forward f;
            forward(net, us, them, count, f);
            const float want = target(samples[i], wdl);
            const float e = fit::sigmoid(knowledgeFactor(samples[i], want) * f.output) - want;
            sums[t] += e * e;
        }
    });
    double total = 0;
    for (double s : sums) total += s;
    return total / double(samples.size());
}

// AdamW (Loshchilov and Hutter): Adam with the weight decay apart from the gradient, and the
// weights clipped for the quantisation (all but the output biases, the last parameters). The
// output weights are written in the file's SCALE units (FloatNetwork::quantise), so their bound
// is the file's: a network fine-tuned from one at SCALE 312 stores them 400/312 times larger.
struct AdamW : fit::Adam<float> {
    static constexpr float DECAY = 0.01f, CLIP = 1.98f;

    explicit AdamW(const FloatNetwork& net)
        : Adam(net.params.size()), outputs(net.outputWeights(0)), clipped(net.outputBias(0)),
          outputClip(CLIP * float(net.outputScale) / float(DEFAULT_SCALE)) {}

    void step(std::vector<float>& w, const std::vector<float>& grad, float lr, int threads) {
        start();
        fit::parallelFor(threads, w.size(), [&](int, std::size_t begin, std::size_t end) {
            for (std::size_t i = begin; i < end; ++i) {
                w[i] -= lr * (direction(i, grad[i]) + DECAY * w[i]);
                const float bound = i < outputs ? CLIP : outputClip;
                if (i < clipped) w[i] = std::clamp(w[i], -bound, bound);
            }
        });
    }

    std::size_t outputs, clipped;  // where the output weights start, and the parameters before this one
    float outputClip;
};

// Writes `data` beside `path` and renames it over, so that a run stopped mid-write leaves the
// previous file whole.
std::string writeWhole(const std::string& path, const std::string& data) {
    {
        std::ofstream out(path + ".tmp", std::ios::binary | std::ios::trunc);
        if (!out.write(data.data(), std::streamsize(data.size())) || !out.flush())
            return "train: cannot write " + path + ".tmp";
    }
    std::error_code ec;
    std::filesystem::rename(path + ".tmp", path, ec);
    return ec ? "train: cannot write " + path + ": " + ec.message() : "";
}

// The training state after an epoch (OUT.state beside the network): the float network, AdamW's
// moments and step count, and a fingerprint of the settings, so that `resume` continues exactly
// where an interrupted run stopped and refuses a state of other settings.
constexpr std::uint32_t STATE_MAGIC = 0x53544251;  // "QBTS" in file order

std::uint32_t fingerprint(const Recipe& recipe, const SampleStream& stream, const Network* start,
                          const std::string& dataSums) {
    const std::string key = recipeCommand(recipe) + dataSums + " " + std::to_string(stream.trainChunks()) + " " +
                            std::to_string(stream.trainPlies()) + " " + std::to_string(start ? start->checksum : 0);
    return bytes::checksum(key.data(), key.size());
}

void putFloats(std::string& out, const std::vector<float>& values) {
    for (float v : values) bytes::put(out, std::bit_cast<std::uint32_t>(v));
}

void getFloats(bytes::Cursor& c, std::vector<float>& values) {
    for (float& v : values) v = std::bit_cast<float>(c.get<std::uint32_t>());
}

std::string saveState(const std::string& path, std::uint32_t print, int epoch, const FloatNetwork& net,
                      const AdamW& adam) {
    std::string data;
    for (std::uint32_t field : {STATE_MAGIC, print, std::uint32_t(epoch), std::uint32_t(adam.steps)})
        bytes::put(data, field);
    putFloats(data, net.params);
    putFloats(data, adam.m);
    putFloats(data, adam.v);
    return writeWhole(path, data);
}

std::string loadState(const std::string& path, std::uint32_t print, int& epoch, FloatNetwork& net, AdamW& adam) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return "train: no state to resume from (" + path + ")";
    const std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    bytes::Cursor c{data.data(), data.data() + data.size()};
    if (c.get<std::uint32_t>() != STATE_MAGIC) return "train: " + path + " is not a training state";
    if (c.get<std::uint32_t>() != print) return "train: " + path + " is the state of other data or settings";
    epoch = int(c.get<std::uint32_t>());
    adam.steps = int(c.get<std::uint32_t>());
    getFloats(c, net.params);
    getFloats(c, adam.m);
    getFloats(c, adam.v);
    return c.ok && c.at == c.end ? "" : "train: " + path + " is cut short";
}

std::string save(const FloatNetwork& net, const std::string& path, const std::string& description) {
    Network quantised = net.quantise();
    quantised.description = description;
    return writeWhole(path, encode(quantised));
}

// Each data file by name and sha256 (the manifest's, perf/data.md): "; data A sha256 ..., B ...".
std::string dataSums(const StreamConfig& data) {
    std::string sums;
    for (const std::string& path : data.files)
        sums += (sums.empty() ? "; data " : ", ") + std::filesystem::path(path).filename().string() + " sha256 " +
                sha256::ofFile(path);
    return sums;
}

// The network's provenance: the command that makes it again, how much data, each data file by
// sha256, the network it started from by checksum, and the trainer's commit. No path of the
// machine that made it.
std::string describe(const Recipe& recipe, const SampleStream& stream, const Network* start, const std::string& sums) {
    char from[64] = "";
    if (start) std::snprintf(from, sizeof from, "; from network %08x", unsigned(start->checksum));
    return "quadbit " + recipeCommand(recipe) + " (" + std::to_string(stream.trainPlies()) +
           " positions as played in " + std::to_string(stream.trainChunks()) + " chunks" + sums + from + "; trainer " +
           buildCommit() + ")";
}

// The network `from` names, if it can start the run: the same activation and king mirroring,
// one output bucket or the run's number, one king bucket or the run's, and the run's width or a
// narrower one.
std::string loadStart(const Recipe& cfg, Network& start) {
    if (cfg.from == EMBEDDED_NAME) start = embedded();
    else if (std::string why = load(cfg.from, start); !why.empty()) return "train: from " + cfg.from + ": " + why;
    const auto shape = "train: from " + cfg.from + ": a network of " + start.shape() + ", ";
    if (start.activation != cfg.activation) return shape + "another activation than the run's";
    if (start.kingMirror != cfg.kingMirror)
        return shape + (cfg.kingMirror ? "the run has king mirroring" : "the run has no king mirroring");
    if (start.outputBuckets != 1 && start.outputBuckets != cfg.outputBuckets)
        return shape + "the run has " + std::to_string(cfg.outputBuckets) + " buckets";
    if (start.kingBuckets().count != 1 && start.kingBuckets() != cfg.kingBuckets)
        return shape + "the run has " + std::to_string(cfg.kingBuckets.count) + " king buckets of its own";
    if (start.hidden() > cfg.hidden)
        return shape + "wider than the run's " + std::to_string(cfg.hidden) + " neurons (hidden " +
               std::to_string(start.hidden()) + " keeps its width)";
    return "";
}

// A new neuron's first-layer weights: small and random, so that with some 30 inputs on a
// first-layer value starts near 0.3.
std::normal_distribution<float> newFeatureWeights() { return std::normal_distribution<float>(0.0f, 0.05f); }

// Small random weights of the run's shape.
FloatNetwork randomNetwork(const Recipe& cfg) {
    FloatNetwork net(cfg.hidden, cfg.outputBuckets, cfg.kingMirror, cfg.kingBuckets);
    net.activation = cfg.activation;
    std::mt19937_64 rng(cfg.data.seed);
    auto featureInit = newFeatureWeights();
    std::uniform_real_distribution<float> outputInit(-0.05f, 0.05f);
    for (std::size_t i = 0; i < net.featureBiases(); ++i) net.params[i] = featureInit(rng);
    for (std::size_t i = net.outputWeights(0); i < net.outputBias(0); ++i) net.params[i] = outputInit(rng);
    return net;
}

// The float network of `start`'s weights for the run: its neurons first, the new ones of a wider
// run with random input weights (from `seed`) and no bias nor output weight, so that the output
// is the narrower network's (net2net); its one output layer copied to each of the run's buckets,
// its one set of inputs to each of the run's king buckets, and its file's SCALE kept.
FloatNetwork startingNetwork(const Network& start, const Recipe& cfg) {
    const FloatNetwork source = FloatNetwork::dequantise(start);
    if (source.outputBuckets == cfg.outputBuckets && source.hidden == cfg.hidden &&
        source.kingBuckets == cfg.kingBuckets)
        return source;
    FloatNetwork net(cfg.hidden, cfg.outputBuckets, source.kingMirror, cfg.kingBuckets);
    net.activation = source.activation;
    net.outputScale = source.outputScale;
    std::mt19937_64 rng(cfg.data.seed);
    auto featureInit = newFeatureWeights();
    const int kept = source.hidden;
    for (int row = 0; row <= net.inputs(); ++row) {  // the inputs' rows, then the biases'
        const int from = row == net.inputs() ? source.inputs() : row % source.inputs();
        std::copy_n(source.params.begin() + source.featureWeights(from), kept,
                    net.params.begin() + net.featureWeights(row));
        if (row < net.inputs())
            for (int i = kept; i < net.hidden; ++i) net.params[net.featureWeights(row) + i] = featureInit(rng);
    }
    for (int bucket = 0; bucket < cfg.outputBuckets; ++bucket) {
        const int from = source.outputBuckets == 1 ? 0 : bucket;
        for (int side = 0; side < 2; ++side)
            std::copy_n(source.params.begin() + source.outputWeights(from) + side * kept, kept,
                        net.params.begin() + net.outputWeights(bucket) + side * net.hidden);
        net.params[net.outputBias(bucket)] = source.params[source.outputBias(from)];
    }
    return net;
}

// NET-cycleK.nnue beside NET (its extension, if any, kept last).
std::string cycleName(const std::string& out, int cycle) {
    std::filesystem::path p(out);
    return (p.parent_path() / (p.stem().string() + "-cycle" + std::to_string(cycle) + p.extension().string())).string();
}

}  // namespace

float FloatNetwork::output(const Position& pos, bool mirrored) const {
    int us[32], them[32];
    Sample s = pack(pos, 0, 0.5);
    s.mirrored = mirrored;
    const int count = features(*this, s, us, them);
    Forward f;
    forward(*this, us, them, count, f);
    return f.output;
}

// The float network and the integer one share their layout (FloatNetwork's parts are Network's
// rows, in the same order), so each converts row by row.
Network FloatNetwork::quantise() const {
    Network net(hidden, kingBuckets);
    net.activation = activation;
    net.outputBuckets = outputBuckets;
    net.kingMirror = kingMirror;
    net.scale = outputScale;
    const auto q = [](float x, float factor) { return std::int16_t(std::lround(x * factor)); };
    // The output layer in the file's SCALE units, the trainer's being DEFAULT_SCALE's.
    const float toFile = float(DEFAULT_SCALE) / float(outputScale);
    std::int16_t* rows = net.featureWeights(0);
    for (std::size_t i = 0; i < outputWeights(0); ++i) rows[i] = q(params[i], float(net.qa));
    for (std::size_t i = outputWeights(0); i < outputBias(0); ++i) rows[i] = q(params[i] * toFile, float(net.qb));
    for (int bucket = 0; bucket < outputBuckets; ++bucket)
        net.outputBias[bucket] =
            std::int32_t(std::lround(params[outputBias(bucket)] * toFile * float(net.qa * net.qb)));
    return net;
}

FloatNetwork FloatNetwork::dequantise(const Network& net) {
    FloatNetwork f(net.hidden(), net.outputBuckets, net.kingMirror, net.kingBuckets());
    f.activation = net.activation;
    f.outputScale = net.scale;
    // The output is in units of the file's SCALE; the trainer's targets are in DEFAULT_SCALE's.
    const float rescale = float(net.scale) / float(DEFAULT_SCALE);
    const std::int16_t* rows = net.featureWeights(0);
    for (std::size_t i = 0; i < f.outputWeights(0); ++i) f.params[i] = float(rows[i]) / float(net.qa);
    for (std::size_t i = f.outputWeights(0); i < f.outputBias(0); ++i)
        f.params[i] = float(rows[i]) / float(net.qb) * rescale;
    for (int bucket = 0; bucket < net.outputBuckets; ++bucket)
        f.params[f.outputBias(bucket)] = float(net.outputBias[bucket]) / float(net.qa * net.qb) * rescale;
    return f;
}

std::string recipeCommand(const Recipe& r) {
    std::string names;
    for (const std::string& path : r.data.files)
        names += (names.empty() ? "" : ",") + std::filesystem::path(path).filename().string();
    char settings[512];
    std::snprintf(settings, sizeof settings,
                  " epochs %d cycles %d batch %d lr %g wdl %g activation %s hidden %d buckets %d%s kingbuckets %d%s "
                  "minply %d holdout %g maxheldout %llu buffer %llu seed %llu",
                  r.epochs, r.cycles, r.batch, r.lr, r.wdl,
                  r.activation == Activation::CLIPPED_RELU ? "crelu" : "screlu", r.hidden, r.outputBuckets,
                  r.kingMirror ? " kingmirror" : "", r.kingBuckets.count, r.data.mirror ? " mirror" : "", r.data.minPly,
                  r.data.holdoutShare, (unsigned long long)r.data.maxHeldOut, (unsigned long long)r.data.buffer,
                  (unsigned long long)r.data.seed);
    std::string command = "train data " + names + settings;
    if (r.data.maxPositions) command += " positions " + std::to_string(r.data.maxPositions);
    if (!r.from.empty())
        command += " from " + (r.from == EMBEDDED_NAME ? r.from : std::filesystem::path(r.from).filename().string());
    return command;
}

double learningRate(const Recipe& cfg, double done) {
    // Cosine down to 2% over each cycle: one cycle is the classic schedule, several restart it
    // warm (Loshchilov and Hutter's SGDR), each cycle ending on a network worth keeping.
    // A cycle runs over (k, k + 1] of done * cycles: its last batch is at its lowest rate.
    const double x = done * cfg.cycles, inCycle = x <= 0 ? 0 : std::clamp(x - (std::ceil(x - 1e-9) - 1), 0.0, 1.0);
    return cfg.lr * (0.02 + 0.98 * 0.5 * (1 + std::cos(std::numbers::pi * inCycle)));
}

std::string train(const TrainConfig& config, TrainReport& report,
                  const std::function<void(const std::string&)>& progress) {
    const Recipe& cfg = config.recipe;
    const RunSettings& run = config.run;
    if (cfg.epochs % cfg.cycles) return "train: the epochs must be a multiple of the cycles";
    std::unique_ptr<Network> origin;  // read before the data, so that a bad one costs nothing
    if (!cfg.from.empty()) {
        origin = std::make_unique<Network>();
        if (std::string why = loadStart(cfg, *origin); !why.empty()) return why;
    }
    SampleStream stream;
    if (std::string why = stream.open(cfg.data, run.threads, progress); !why.empty()) return why;
    const std::vector<Sample> validation = stream.heldOut();
    report.validationPositions = validation.size();
    progress("train: " + std::to_string(stream.trainChunks()) + " chunks of training games, " +
             std::to_string(stream.trainPlies()) + " positions as played; " + std::to_string(validation.size()) +
             " positions held out");

    FloatNetwork& net = report.network;
    net = origin ? startingNetwork(*origin, cfg) : randomNetwork(cfg);
    if (origin && !run.resume) {  // a resumed run reads its weights from the state
        char line[256];
        std::snprintf(line, sizeof line, "train: from network %08x (%s): held-out loss %.6f",
                      unsigned(origin->checksum), origin->shape().c_str(),
                      meanLoss(net, validation, run.threads, cfg.wdl));
        progress(line);
    }

    AdamW adam(net);
    const std::string sums = dataSums(cfg.data);  // once: the files are large
    const std::uint32_t print = fingerprint(cfg, stream, origin.get(), sums);
    const std::string statePath = run.out + ".state";
    int firstEpoch = 1;
    if (run.resume) {
        int done = 0;
        if (std::string why = loadState(statePath, print, done, net, adam); !why.empty()) return why;
        firstEpoch = done + 1;
        progress("train: resuming after epoch " + std::to_string(done));
    }
    std::vector<std::vector<float>> grads(run.threads, std::vector<float>(net.params.size()));
    const auto start = Clock::now();
    auto lastReport = start;
    for (int epoch = firstEpoch; epoch <= cfg.epochs; ++epoch) {
        const auto epochStart = Clock::now();
        double lossSum = 0, passDone = 0;
        std::size_t trained = 0;
        // Each pass's order depends on the seed and the epoch only, so that a resumed run
        // continues as the uninterrupted one would have.
        stream.pass(epoch, [&](std::vector<Sample>& samples, double bufferDone) {
            const std::size_t batches = (samples.size() + cfg.batch - 1) / cfg.batch;
            for (std::size_t b = 0; b < batches; ++b) {
                const std::size_t first = b * cfg.batch,
                                  size = std::min<std::size_t>(cfg.batch, samples.size() - first);
                std::vector<double> losses(run.threads, 0.0);
                fit::parallelFor(run.threads, size, [&](int t, std::size_t begin, std::size_t end) {
                    std::fill(grads[t].begin(), grads[t].end(), 0.0f);
                    for (std::size_t i = begin; i < end; ++i)
                        losses[t] += backward(net, samples[first + i], cfg.wdl, grads[t]);
                });
                // The threads' gradients, summed in a fixed order (the same run gives the same network).
                fit::parallelFor(run.threads, grads[0].size(), [&](int, std::size_t begin, std::size_t end) {
                    for (int t = 1; t < run.threads; ++t)
                        for (std::size_t i = begin; i < end; ++i) grads[0][i] += grads[t][i];
                    for (std::size_t i = begin; i < end; ++i) grads[0][i] /= float(size);
                });
                for (double l : losses) lossSum += l;
                trained += size;
                const double inPass = passDone + (bufferDone - passDone) * double(b + 1) / double(batches);
                const double done = (epoch - 1 + inPass) / cfg.epochs;
                adam.step(net.params, grads[0], float(learningRate(cfg, done)), run.threads);

                const auto now = Clock::now();
                if (now - lastReport > std::chrono::seconds(10)) {
                    lastReport = now;
                    const double elapsed = std::chrono::duration<double>(now - epochStart).count();
                    progress("train: epoch " + std::to_string(epoch) + "/" + std::to_string(cfg.epochs) + ", " +
                             std::to_string(int(100 * inPass)) + "%, loss " +
                             std::to_string(lossSum / double(trained)) + ", " +
                             std::to_string(std::llround(double(trained) / elapsed)) + " positions/s, about " +
                             text::duration(elapsed / inPass * (cfg.epochs - epoch + 1 - inPass)) + " left");
                }
            }
            passDone = bufferDone;
        });
        report.trainPositions = stream.trainPositions;
        report.knownPositions = stream.knownPositions;
        if (!trained)
            return "train: no training positions in the data (minply " + std::to_string(cfg.data.minPly) + ")";
        const double seconds = std::chrono::duration<double>(Clock::now() - epochStart).count();
        EpochReport e{lossSum / double(trained), meanLoss(net, validation, run.threads, cfg.wdl),
                      double(trained) / seconds};
        report.epochs.push_back(e);
        char line[256];
        std::snprintf(line, sizeof line,
                      "train: epoch %d/%d: training loss %.6f, held-out loss %.6f, %zu positions, %.0f positions/s",
                      epoch, cfg.epochs, e.trainLoss, e.validationLoss, trained, e.positionsPerSecond);
        progress(line);
        if (!run.out.empty()) {
            const std::string about = describe(cfg, stream, origin.get(), sums);
            if (std::string why = save(net, run.out, about); !why.empty()) return why;
            if (std::string why = saveState(statePath, print, epoch, net, adam); !why.empty()) return why;
            if (cfg.cycles > 1 && epoch % (cfg.epochs / cfg.cycles) == 0) {
                const std::string kept = cycleName(run.out, epoch / (cfg.epochs / cfg.cycles));
                if (std::string why = save(net, kept, about); !why.empty()) return why;
                progress("train: cycle's network kept as " + kept);
            }
        }
        if (epoch == run.stopAfter && epoch < cfg.epochs) {
            progress("train: stopped after epoch " + std::to_string(epoch) + "; add 'resume' to continue");
            return "";
        }
    }
    if (!run.out.empty()) progress("train: network written to " + run.out);
    return "";
}

std::string compare(const TrainConfig& config, const std::vector<std::string>& networks,
                    std::vector<HeldOutLoss>& losses, const std::function<void(const std::string&)>& progress) {
    const Recipe& cfg = config.recipe;
    const int threads = config.run.threads;
    // Every file read before any position is, so that a bad name costs nothing.
    std::vector<std::unique_ptr<Network>> nets;
    for (const std::string& path : networks) {
        nets.push_back(std::make_unique<Network>());
        if (std::string why = load(path, *nets.back()); !why.empty()) return "train: " + path + ": " + why;
    }
    StreamConfig heldOutOnly = cfg.data;  // every file's held-out chunks, however many positions train
    heldOutOnly.maxPositions = 0;
    heldOutOnly.mirror = false;
    SampleStream stream;
    if (std::string why = stream.open(heldOutOnly, threads, progress); !why.empty()) return why;
    const std::vector<Sample> heldOut = stream.heldOut();
    if (heldOut.empty())
        return "train: no held-out positions in the data (holdout " + std::to_string(cfg.data.holdoutShare) + ")";
    losses.clear();
    for (std::size_t n = 0; n < nets.size(); ++n) {
        const FloatNetwork net = FloatNetwork::dequantise(*nets[n]);
        losses.push_back({meanLoss(net, heldOut, threads, cfg.wdl), meanLoss(net, heldOut, threads, 0.0),
                          meanLoss(net, heldOut, threads, 1.0), heldOut.size()});
        char line[512];
        std::snprintf(line, sizeof line,
                      "train: %s: held-out loss %.6f at wdl %.2f, %.6f against the scores, %.6f against the "
                      "results, %zu positions",
                      networks[n].c_str(), losses.back().atWdl, cfg.wdl, losses.back().scores, losses.back().results,
                      heldOut.size());
        progress(line);
    }
    return "";
}

std::string runTrain(const std::vector<std::string>& args, const std::function<void(const std::string&)>& progress) {
    TrainConfig config;
    Recipe& cfg = config.recipe;
    RunSettings& run = config.run;
    run.threads = int(std::max(1u, std::thread::hardware_concurrency()));
    text::KeywordArgs in("train", args, {"resume", "mirror", "kingmirror"});
    std::string data, activation = "screlu", networks;
    in.string("data", data);
    in.string("compare", networks);
    in.string("out", run.out);
    in.integer("epochs", 1, 100000, cfg.epochs);
    in.integer("cycles", 1, 100000, cfg.cycles);
    in.integer("buffer", 1, (1LL << 40), cfg.data.buffer);
    in.integer("maxheldout", 0, (1LL << 40), cfg.data.maxHeldOut);
    in.integer("batch", 1, 1 << 24, cfg.batch);
    in.integer("threads", 1, 1024, run.threads);
    in.integer("minply", 0, 1000, cfg.data.minPly);
    in.integer("seed", 0, (1LL << 62), cfg.data.seed);
    in.integer("positions", 0, (1LL << 62), cfg.data.maxPositions);
    in.real("lr", 1e-7, 1.0, cfg.lr);
    in.real("wdl", 0.0, 1.0, cfg.wdl);
    in.real("holdout", 0.0, 0.5, cfg.data.holdoutShare);
    in.string("activation", activation);
    in.integer("stopafter", 1, 100000, run.stopAfter);
    in.integer("buckets", 1, MAX_OUTPUT_BUCKETS, cfg.outputBuckets);
    in.integer("hidden", HIDDEN_STEP, MAX_HIDDEN, cfg.hidden);
    int kingBuckets = 1;
    in.integer("kingbuckets", 1, MAX_KING_BUCKETS, kingBuckets);
    in.string("from", cfg.from);
    run.resume = in.flag("resume");
    cfg.data.mirror = in.flag("mirror");
    cfg.kingMirror = in.flag("kingmirror");
    if (std::string why = in.error(); !why.empty()) return why;
    if (activation != "screlu" && activation != "crelu") return "train: activation must be screlu or crelu";
    if (cfg.hidden % HIDDEN_STEP)
        return "train: hidden must be a multiple of " + std::to_string(HIDDEN_STEP) + " (the SIMD kernels' step)";
    if (cfg.data.mirror && cfg.kingMirror)
        return "train: a king-mirroring network sees a position and its mirror image alike: mirror adds nothing";
    cfg.kingBuckets = KingBuckets::layout(kingBuckets);
    if (!cfg.kingBuckets.count) return "train: kingbuckets must be 1, 2, 4 or 8 (network.h: KingBuckets::layout)";
    if (kingBuckets == 8 && cfg.kingMirror)
        return "train: kingbuckets 8 splits the king's squares by the board's half, which kingmirror already does";
    cfg.activation = activation == "crelu" ? Activation::CLIPPED_RELU : Activation::SQUARED_CLIPPED_RELU;
    if (!networks.empty() && !(run.out.empty() && cfg.from.empty()))
        return "train: compare measures networks and trains none: no out, no from";
    if (data.empty() || (run.out.empty() && networks.empty()))
        return "train: needs data FILE[,FILE...] and out NET (or compare NET[,NET...])";
    cfg.data.files = text::split(data, ',');
    for (const std::string& path : cfg.data.files)
        if (!gamefile::isGameFile(path)) return "train: " + path + " is not a game file of datagen";
    if (!networks.empty()) {
        std::vector<HeldOutLoss> losses;
        return compare(config, text::split(networks, ','), losses, progress);
    }
    TrainReport report;
    return train(config, report, progress);
}

}  // namespace nnue
