// Texel's method: the evaluation written as a linear model of the weights of evalparams.h (the
// coefficients from an evaluation trace, evaltrace.h), fitted by gradient descent (Adam) so that
// a sigmoid of it predicts the results of Quadbit's own games (datagen.h). King danger, the
// square of a sum of weights, is fitted through that sum (the way Ethereal's tuner fits its king
// safety): the gradient goes through the square to each input. Terms that depend on no weight
// (unstoppable passers, the scale factors of the material table, the special endgame evaluators)
// are kept as they are: the seeds' endgame knowledge is exact and is not refitted on middlegame
// data.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "fit.h"
#include "position.h"

namespace tuner {

class Model {
public:
    Model();

    // Adds a position and its target, White's expected score (1 win, 0.5 draw, 0 loss) and the
    // search's score (White's view); false (nothing added) when no weight takes part in its
    // evaluation (a special endgame evaluator decides it).
    bool add(const Position& pos, double result, double score);
    std::size_t size() const { return samples.size(); }

    // The evaluation of sample i (White's view, centipawns) with the current weights.
    double predict(std::size_t i) const;
    // Mean squared error of sigmoid(K * eval) against the targets over samples [begin, end).
    double error(std::size_t begin, std::size_t end, int threads) const { return error(begin, end, threads, lambda); }
    // Finds the K of the sigmoid that fits the current weights to the results best (before any
    // weight moves).
    double fitScale(std::size_t begin, std::size_t end, int threads);
    // One full-batch Adam step on samples [begin, end).
    void step(std::size_t begin, std::size_t end, int threads, double rate);

    double scale = 0.0065;  // K: sigmoid(K * eval) is the expected score
    double lambda = 1.0;    // weight of the game result in the target; the rest is the search's score
    // L2 regularisation: ridge x the sum of each weight's squared distance from its starting
    // value (centipawns) is added to the error the steps descend. Adam moves every weight at the
    // same speed however rarely it is used, so without it a weight of a square a piece seldom
    // stands on (a knight on a8) follows the noise of the few positions that use it; with it a
    // weight moves only as far as the positions that use it outweigh the pull.
    double ridge = 0;

    // Fits only the weights declared under these names (`KING_RING_ATTACKS`, `PST`); the others
    // stay as they are. Throws on a name the tuner does not know.
    void fitOnly(const std::vector<std::string>& names);
    // A weight's current value, rounded, by its address in evalparams.h; and setting it.
    Score weight(const void* address) const;
    void setWeight(const void* address, int mg, int eg);
    // Takes every tuned weight's value from the text of an evalparams.h (not the compiled-in one:
    // a fit can start where another ended) and makes them the starting weights the ridge pulls
    // toward. Throws when the text lacks a weight.
    void read(const std::string& header);
    // The text of evalparams.h with every tuned weight replaced by its current value.
    std::string rewrite(const std::string& header) const;

private:
    struct Coefficient {
        std::uint16_t index;  // of the weight element
        std::int16_t value;   // White's uses minus Black's
    };
    struct DangerCoefficient {
        std::uint16_t index;  // of the weight element
        std::int16_t count;
        bool shelter;  // a shelter weight: it takes away half its middlegame part
    };
    struct Sample {
        float result, score;
        float fixedMg, fixedEg;  // the terms that are not tuned, White's view
        std::uint8_t phase, scaleFactor;
        std::uint32_t begin;  // its coefficients: coefficients[begin, begin + count)
        std::uint16_t count;
        // Each king's danger inputs, dangerCoefficients[dangerBegin, + dangerCount); none for a
        // king too few pieces attack.
        std::uint8_t dangerCount[COLOR_NB];
        std::uint32_t dangerBegin[COLOR_NB];
    };
    // The danger to `king`'s king in sample s with the current weights.
    double danger(const Sample& s, Color king) const;
    // The target blends the result (its share `resultShare`) with the search's score.
    double target(const Sample& s, double resultShare) const;
    double error(std::size_t begin, std::size_t end, int threads, double resultShare) const;

    std::vector<double> weights;  // element i: weights[2i] middlegame, weights[2i + 1] endgame
    std::vector<double> start;    // the weights the fit started from, which the ridge pulls toward
    std::vector<bool> frozen;     // parts a term does not have (a shelter's endgame part)
    fit::Adam<double> adam;
    std::vector<Sample> samples;
    std::vector<Coefficient> coefficients;
    std::vector<DangerCoefficient> dangerCoefficients;
};

// `tune data FILE params EVALPARAMS_H [out FILE] [epochs N] [rate R] [lambda L] [validation PCT]
// [threads N] [limit N] [ridge R] [only NAME,NAME...]`: loads the data (`FEN | score | result`
// lines, datagen's format), keeps the last PCT percent (10) as a held-out set, fits K, then all
// weights together (or only the named ones) starting from those of `params`; reports both errors
// as it goes and writes the new evalparams.h (to `out`, by default over `params`).
std::string run(const std::vector<std::string>& args, const std::function<void(const std::string&)>& progress);

}  // namespace tuner
