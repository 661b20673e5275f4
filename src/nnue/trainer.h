// `quadbit train`: our own trainer of the network (network.h) on datagen's game files, sharing
// the engine's feature index, so that the two cannot disagree on an input.
//   train data FILE[,FILE...] out NET [epochs 10] [cycles 1] [batch 16384] [lr 0.001] [wdl 0.3]
//         [activation screlu|crelu] [threads N] [seed 1] [holdout 0.05] [maxheldout 1000000]
//         [minply 8] [positions N] [buffer 4000000] [stopafter N] [resume] [mirror]
//         [buckets 1] [kingmirror] [kingbuckets 1] [hidden 256] [from NET]
//   train data FILE[,FILE...] compare NET[,NET...] [wdl 0.3] [threads N] [holdout 0.05] [maxheldout N]
// The data streams (stream.h): memory holds one shuffle buffer of `buffer` positions as played
// (32 bytes each kept, twice that with `mirror`), whatever the files' size; each epoch is a pass
// over every file's chunks in an order of its own, the files mixed. `positions N` takes the
// first chunks (the files in turn) holding N positions as played. The held-out part is every
// (1 / holdout)-th chunk of each file, whole games, at most `maxheldout` positions. Each batch's
// target blends the game's result and the search's score: wdl * result + (1 - wdl) *
// sigmoid(score / SCALE). The loss is the squared error of sigmoid(output); AdamW with a cosine
// learning-rate schedule, restarted warm `cycles` times (each cycle's last network is also kept
// as NET-cycleK.nnue); the weights are clipped to +-1.98 so that the quantised network fits its
// integer types (bullet's docs/2-quantisation.md). The network is written after every epoch, with
// a description (the command, the data, the trainer's commit) and the training state
// (OUT.state): a run stopped at any time (or by `stopafter N`, to free the machine for a match)
// continues with the same command and `resume`, to the same network an uninterrupted run makes.
// `mirror` adds each training position's mirror image (a-file and h-file swapped, the same
// score): chess is symmetric that way but for castling, which the inputs do not see, so this
// doubles the data the network learns from; the held-out part stays as played.
// `buckets N` trains N output buckets by the number of pieces, `kingmirror` a king-mirroring
// network (network.h); such a network sees a position and its mirror image alike, so `mirror`
// would add nothing to it and is refused. `kingbuckets N` gives each side N sets of inputs by
// its king's square (KingBuckets::layout in network.h: 2, 4 or 8).
// `hidden N` trains a hidden layer of N neurons a side (network.h: 32 to 1024 in steps of 32).
// `from NET` starts from a network's weights instead of random ones (NET a file, or <embedded>),
// so that what it learnt from data since lost is kept and the new data adds to it: a network of
// one output bucket starts each of the run's buckets, one of one king bucket each of the run's
// king buckets (every king square sees the board as before, so the output is the network's),
// and the activation and king mirroring must be the run's. A narrower network is widened to the run's width keeping its function (net2net,
// Chen, Goodfellow and Shlens 2016): its neurons as they were, the new ones with small random
// input weights and no output weight, so that training starts where the narrower network stood
// and the new neurons grow into what it lacks. The file's description names the network it
// started from by its checksum.
// The seeds' knowledge is applied in training as in the engine (withKnowledge, eval.h): the
// output is scaled by the scale factor for the side it says is ahead, and the positions whose
// value the seeds know (or that are drawn whoever is ahead) are left out, so that the network
// learns what the knowledge leaves to it.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "nnue/network.h"
#include "nnue/stream.h"

namespace nnue {

// What makes a network: its data and how it is read and shuffled (StreamConfig), the schedule,
// the target, the shape and the network it starts from. The same recipe on the same data makes
// the same network, whatever the machine; the network's description (the command that makes it
// again, the data by sha256) and the fingerprint a resumed run checks are both written from it.
struct Recipe {
    StreamConfig data;
    int epochs = 10, cycles = 1, batch = 16384;
    double lr = 0.001;  // the cosine schedule's peak (learningRate)
    double wdl = 0.3;   // the game's result's weight in the target, the search's score's the rest
    Activation activation = Activation::SQUARED_CLIPPED_RELU;
    int hidden = DEFAULT_HIDDEN;  // neurons a side
    int outputBuckets = 1;        // by the number of pieces (network.h)
    bool kingMirror = false;      // each side sees its king on files a-d
    KingBuckets kingBuckets;      // one set of inputs by default
    std::string from;             // the network whose weights the run starts from (empty: random ones)
};

// How this machine runs a recipe: nothing here changes the network.
struct RunSettings {
    std::string out;      // the network, written after every epoch, and its training state OUT.state
    int threads = 1;      // training and reading the data
    int stopAfter = 0;    // stop after this epoch, to resume later (0: run to the end)
    bool resume = false;  // continue from OUT.state
};

struct TrainConfig {
    Recipe recipe;
    RunSettings run;
};

// The recipe as the command that makes it again, every setting spelt out and its files by name:
// `train data A,B epochs 4 cycles 1 ...`.
std::string recipeCommand(const Recipe& recipe);

// The trainer's network, in floats: the first layer's weights, its biases, each bucket's output
// weights (the side to move's half first), then each bucket's output bias, one after another.
class FloatNetwork {
public:
    explicit FloatNetwork(int hidden = DEFAULT_HIDDEN, int outputBuckets = 1, bool kingMirror = false,
                          const KingBuckets& kingBuckets = {})
        : hidden(hidden), outputBuckets(outputBuckets), kingMirror(kingMirror), kingBuckets(kingBuckets),
          params(std::size_t(inputs() + 1 + 2 * outputBuckets) * hidden + outputBuckets) {}
    Activation activation = Activation::SQUARED_CLIPPED_RELU;
    int hidden;  // neurons a side
    int outputBuckets;
    bool kingMirror;
    KingBuckets kingBuckets;
    // The SCALE its file is written with: a run from a network keeps that network's, so that
    // weights an epoch did not move are written as they were read. The output is in
    // DEFAULT_SCALE's units whatever it is.
    int outputScale = DEFAULT_SCALE;
    std::vector<float> params;

    int inputs() const { return kingBuckets.count * INPUTS; }
    // Where each part starts in `params`.
    std::size_t featureWeights(int feature) const { return std::size_t(feature) * hidden; }
    std::size_t featureBiases() const { return featureWeights(inputs()); }
    std::size_t outputWeights(int bucket) const { return featureWeights(inputs() + 1 + 2 * bucket); }
    std::size_t outputBias(int bucket) const { return outputWeights(outputBuckets) + bucket; }

    // The output in SCALE units (centipawns / SCALE) for the side to move; of the board's
    // mirror image (a-file and h-file swapped) if `mirrored`, as the trainer's `mirror` shows it.
    float output(const Position& pos, bool mirrored = false) const;
    // The engine's integer network.
    Network quantise() const;
    // The engine's network in floats: quantise() undone (exactly: every integer weight is a
    // float), its output in the trainer's units whatever the file's SCALE.
    static FloatNetwork dequantise(const Network& net);
};

struct EpochReport {
    double trainLoss, validationLoss, positionsPerSecond;
};

struct TrainReport {
    std::size_t trainPositions = 0, validationPositions = 0;
    std::size_t knownPositions = 0;  // left out of training: the seeds know their value, or it is a draw
                                     // whoever is ahead
    std::vector<EpochReport> epochs;
    FloatNetwork network;
};

// Trains as `config` says, writing the network to config.out after each epoch (unless empty);
// returns why it cannot.
std::string train(const TrainConfig& config, TrainReport& report,
                  const std::function<void(const std::string&)>& progress);

// A network's loss on the held-out positions of a config's data: at the config's wdl, as training
// reports it, and against the search's scores alone (wdl 0) and the games' results alone (wdl 1).
struct HeldOutLoss {
    double atWdl, scores, results;
    std::size_t positions;
};

// `train data FILE[,FILE...] compare NET[,NET...]`: each network file measured on the same
// held-out positions (the chunks training holds out of these files), so that networks made
// otherwise (other data, wdl or shape) are ranked before they play. A network trained on these
// files with another `holdout` has seen some of these positions. Returns why it cannot.
std::string compare(const TrainConfig& config, const std::vector<std::string>& networks,
                    std::vector<HeldOutLoss>& losses, const std::function<void(const std::string&)>& progress);

// The learning rate at `done` (0 to 1) of the run: cosine from lr down to 2% of it over each of
// the recipe's cycles.
double learningRate(const Recipe& recipe, double done);

std::string runTrain(const std::vector<std::string>& args, const std::function<void(const std::string&)>& progress);

}  // namespace nnue
