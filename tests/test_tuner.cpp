// The tuner: its trace is the evaluation, its model is the evaluation, and on data made from known
// weights it finds them again.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "bench.h"
#include "datagen/datagen.h"
#include "eval/eval.h"
#include "eval/evalparams.h"
#include "eval/tuner.h"
#include "movegen.h"
#include "prng.h"
#include "support.h"

namespace {

// Game-like and odd positions: random playouts from the bench positions.
std::vector<Position> playouts(int count, std::uint64_t seed) {
    PRNG rng(seed);
    std::vector<Position> out;
    while (int(out.size()) < count)
        for (const std::string& fen : benchPositions()) {
            Position p;
            p.setFen(fen);
            const int plies = int(rng.below(60));
            for (int i = 0; i < plies; ++i) {
                MoveList<LEGAL> moves(p);
                if (!moves.size()) break;
                p.makeMove(*(moves.begin() + rng.below(std::uint64_t(moves.size()))));
            }
            if (MoveList<LEGAL>(p).size()) out.push_back(p);
        }
    out.resize(std::size_t(count));
    return out;
}

double sigmoid(double x) { return 1 / (1 + std::exp(-x)); }

// Gives `model` the positions with the results `truth` expects (a soft label: the expected
// score), fits it for `steps` steps and returns its error after the fit over its error before.
double fitToTruth(tuner::Model& truth, tuner::Model& model, const std::vector<Position>& positions, int steps) {
    for (const Position& p : positions)
        if (truth.add(p, 0.5, 0)) model.add(p, sigmoid(model.scale * truth.predict(truth.size() - 1)), 0);
    const double before = model.error(0, model.size(), 2);
    for (int step = 0; step < steps; ++step) model.step(0, model.size(), 2, 1.0);
    return model.error(0, model.size(), 2) / before;
}

}  // namespace

TEST_CASE("tuner: the trace of every weight's uses adds up to the evaluation", "[tuner]") {
    int traced = 0, dangerous = 0;
    tuner::Model model;
    for (const Position& pos : playouts(400, 11)) {
        INFO(pos.fen());
        EvalTrace trace;
        const Value white = evaluateWeights(pos, trace);
        EvalCache cache;
        const Value v = evaluate(pos, cache);
        REQUIRE(white == (pos.sideToMove() == WHITE ? v : -v));  // tracing changes nothing
        if (trace.special) continue;
        // Every weight at its address, times its count, plus the remainder: the same integer
        // arithmetic as the evaluation's last line.
        int mg = mgValue(trace.fixed[WHITE]) - mgValue(trace.fixed[BLACK]);
        int eg = egValue(trace.fixed[WHITE]) - egValue(trace.fixed[BLACK]);
        for (const EvalTrace::Use& u : trace.uses) {
            const int sign = u.side == WHITE ? 1 : -1;
            if (u.endgameInt) eg += sign * u.count * *static_cast<const int*>(u.weight);
            else {
                const Score s = *static_cast<const Score*>(u.weight);
                mg += sign * u.count * mgValue(s);
                eg += sign * u.count * egValue(s);
            }
        }
        // Each attacked king's danger from its inputs, and its cost; `exactMg`/`exactEg` keep the
        // same sum without the evaluation's integer divisions, as the tuner's model computes it.
        double exactMg = mg, exactEg = eg;
        for (Color c : {WHITE, BLACK}) {
            if (!trace.attacked[c]) continue;
            int inputs = 0, shelter = 0;
            for (const EvalTrace::DangerUse& u : trace.danger[c])
                if (u.shelter) shelter += u.count * mgValue(*static_cast<const Score*>(u.weight));
                else inputs += u.count * *static_cast<const int*>(u.weight);
            const int danger = inputs - shelter / 2;            // the evaluation's integer half
            const double exactDanger = inputs - shelter / 2.0;  // the model's
            const int sign = c == WHITE ? 1 : -1;
            if (danger > 0) {
                mg -= sign * (danger * danger / params::KING_DANGER_MG_DIVISOR);
                eg -= sign * (danger / params::KING_DANGER_EG_DIVISOR);
                ++dangerous;
            }
            if (exactDanger > 0) {
                exactMg -= sign * exactDanger * exactDanger / params::KING_DANGER_MG_DIVISOR;
                exactEg -= sign * exactDanger / params::KING_DANGER_EG_DIVISOR;
            }
        }
        const int phase = trace.phase;
        REQUIRE((mg * phase + eg * (params::MAX_PHASE - phase)) / params::MAX_PHASE * trace.scale /
                    params::SCALE_NORMAL ==
                white);
        // The tuner's model, in floating point, gives the same value before the rounding.
        REQUIRE(model.add(pos, 0.5, 0));
        const double exact = (exactMg * phase + exactEg * (params::MAX_PHASE - phase)) / params::MAX_PHASE *
                             trace.scale / params::SCALE_NORMAL;
        REQUIRE(model.predict(model.size() - 1) == Approx(exact).margin(1e-6));
        // The evaluation truncates each king's shelter half and danger cost, the blend and the scale.
        REQUIRE(std::abs(exact - white) < 5);
        ++traced;
    }
    REQUIRE(traced > 300);
    REQUIRE(dangerous > 20);  // king danger took part often enough for the check to mean something
}

TEST_CASE("tuner: on results made from known weights it finds the weights again", "[tuner]") {
    using namespace params;
    const auto positions = playouts(4000, 12);
    // The truth: a few weights moved well away from the engine's, whatever they are.
    tuner::Model truth;
    auto move = [&](const Score& w, int mg, int eg) { truth.setWeight(&w, mgValue(w) + mg, egValue(w) + eg); };
    move(BISHOP_PAIR, 40, -30);
    move(DOUBLED, -20, -30);
    move(ROOK_OPEN_FILE, -25, 35);
    move(TEMPO, 25, -12);
    tuner::Model model;
    // The bishop pair's endgame weight converges last: at 600 steps it was still 4-5 away, and
    // where it stopped depended on the build's floating point (-O3 against the sanitizers' -O0).
    REQUIRE(fitToTruth(truth, model, positions, 1200) < 1.0 / 50);
    for (const void* w : {static_cast<const void*>(&BISHOP_PAIR), static_cast<const void*>(&DOUBLED),
                          static_cast<const void*>(&ROOK_OPEN_FILE), static_cast<const void*>(&TEMPO)}) {
        const Score found = model.weight(w), expected = truth.weight(w);
        INFO(mgValue(found) << "," << egValue(found) << " vs " << mgValue(expected) << "," << egValue(expected));
        REQUIRE(std::abs(mgValue(found) - mgValue(expected)) <= 2);
        REQUIRE(std::abs(egValue(found) - egValue(expected)) <= 2);
    }
}

TEST_CASE("tuner: the ridge holds a weight few positions use, not one many use", "[tuner]") {
    using namespace params;
    const auto positions = playouts(4000, 14);
    int rare = 0;  // positions in which a knight stands on a8 (White's) or a1 (Black's)
    for (const Position& p : positions) {
        EvalTrace trace;
        evaluateWeights(p, trace);
        rare += std::any_of(trace.uses.begin(), trace.uses.end(),
                            [](const EvalTrace::Use& u) { return u.weight == &PST[KNIGHT][SQ_A8]; });
    }
    INFO(rare << " of " << positions.size() << " positions use the knight's a8");
    REQUIRE(rare >= 10);
    REQUIRE(rare * 50 < int(positions.size()));
    // The truth moves a common weight and a rare one by as much.
    tuner::Model truth;
    const Score pair = BISHOP_PAIR, corner = PST[KNIGHT][SQ_A8];
    truth.setWeight(&BISHOP_PAIR, mgValue(pair) + 60, egValue(pair) + 60);
    truth.setWeight(&PST[KNIGHT][SQ_A8], mgValue(corner) + 60, egValue(corner) + 60);
    auto moved = [](const tuner::Model& m, const Score& start, const Score& w) {
        const Score s = m.weight(&w);
        return (mgValue(s) - mgValue(start) + egValue(s) - egValue(start)) / 2;
    };
    tuner::Model plain, ridged;
    ridged.ridge = 3e-9;
    fitToTruth(truth, plain, positions, 600);
    fitToTruth(truth, ridged, positions, 600);
    INFO("moved without the ridge: pair " << moved(plain, pair, BISHOP_PAIR) << ", knight on a8 "
                                          << moved(plain, corner, PST[KNIGHT][SQ_A8]));
    INFO("moved with it: pair " << moved(ridged, pair, BISHOP_PAIR) << ", knight on a8 "
                                << moved(ridged, corner, PST[KNIGHT][SQ_A8]));
    // Without the ridge Adam takes both weights to the truth, the rare one as far as the common.
    REQUIRE(moved(plain, pair, BISHOP_PAIR) >= 50);
    REQUIRE(moved(plain, corner, PST[KNIGHT][SQ_A8]) >= 50);
    // With it the common weight still goes more than half the way, the rare one stays near its start.
    REQUIRE(moved(ridged, pair, BISHOP_PAIR) >= 30);
    REQUIRE(moved(ridged, corner, PST[KNIGHT][SQ_A8]) <= 15);
}

TEST_CASE("tuner: it finds king danger's weights through the square", "[tuner]") {
    using namespace params;
    const auto positions = playouts(6000, 13);
    tuner::Model truth;
    truth.setWeight(&KING_ATTACK_WEIGHT[QUEEN], 40, 0);
    truth.setWeight(&SAFE_CHECK[KNIGHT], 130, 0);
    truth.setWeight(&KING_RING_ATTACKS, 14, 0);
    tuner::Model model;
    REQUIRE(fitToTruth(truth, model, positions, 800) < 1.0 / 20);
    for (const int* w : {&KING_ATTACK_WEIGHT[QUEEN], &SAFE_CHECK[KNIGHT], &KING_RING_ATTACKS}) {
        const int found = mgValue(model.weight(w)), expected = mgValue(truth.weight(w));
        INFO(found << " vs " << expected << " (the engine's " << *w << ")");
        REQUIRE(std::abs(found - expected) <= std::max(2, expected / 10));
    }
}

TEST_CASE("tuner: K is fitted on the results, whatever share the search's score has", "[tuner]") {
    const auto positions = playouts(2000, 12);
    constexpr double trueScale = 0.0065;
    tuner::Model evaluation, model;  // the evaluation as the tuner sees it; the data to fit
    for (const Position& p : positions) {
        if (!evaluation.add(p, 0.5, 0)) continue;
        const double eval = evaluation.predict(evaluation.size() - 1);
        // Results as K expects them; the search's score sharper than the evaluation, as deeper
        // searches' scores are.
        model.add(p, sigmoid(trueScale * eval), 2 * eval);
    }
    model.lambda = 0.5;
    model.scale = 0.01;
    const double fitted = model.fitScale(0, model.size(), 2);
    INFO(fitted);
    REQUIRE(std::abs(fitted - trueScale) < 0.0002);
    REQUIRE(model.lambda == 0.5);  // the target used afterwards still blends in the scores
}

TEST_CASE("tuner: it rewrites evalparams.h in place, and only the values", "[tuner]") {
    std::ifstream in(std::string(QUADBIT_SOURCE_DIR) + "/src/eval/evalparams.h");
    const std::string header((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    tuner::Model model;
    REQUIRE(model.rewrite(header) == header);  // untouched weights: the same file, byte for byte
    model.setWeight(&params::PST[KNIGHT][SQ_A1], -91, -61);
    model.setWeight(&params::HANGING, 31, 17);
    const std::string changed = model.rewrite(header);
    REQUIRE(changed.find("S(-91,-61)") != std::string::npos);
    REQUIRE(changed.find("HANGING = S(31, 17)") != std::string::npos);
    REQUIRE(changed.size() == header.size());  // the same widths: nothing else moved
    // A value wider than its column keeps the table's layout, and rewriting again changes nothing.
    model.setWeight(&params::PST[KNIGHT][SQ_A1], 38, -173);
    const std::string wide = model.rewrite(header);
    REQUIRE(wide.find("S( 38,-173)") != std::string::npos);
    REQUIRE(model.rewrite(wide) == wide);
    // King danger's weights are plain ints.
    model.setWeight(&params::KING_RING_ATTACKS, 17, 0);
    model.setWeight(&params::SAFE_CHECK[ROOK], 104, 0);
    const std::string danger = model.rewrite(header);
    REQUIRE(danger.find("KING_RING_ATTACKS = 17;") != std::string::npos);
    using params::SAFE_CHECK;
    const std::string checks = "SAFE_CHECK[PIECE_TYPE_NB] = {0, 0, " + std::to_string(SAFE_CHECK[KNIGHT]) + ", " +
                               std::to_string(SAFE_CHECK[BISHOP]) + ", 104, " + std::to_string(SAFE_CHECK[QUEEN]) +
                               ", 0};";
    REQUIRE(danger.find(checks) != std::string::npos);
}

TEST_CASE("tuner: a fit starts from the weights of the header it is given", "[tuner]") {
    std::ifstream in(std::string(QUADBIT_SOURCE_DIR) + "/src/eval/evalparams.h");
    const std::string header((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    tuner::Model edited;
    edited.setWeight(&params::PST[KNIGHT][SQ_A8], -91, -61);
    edited.setWeight(&params::SAFE_CHECK[ROOK], 104, 0);
    edited.setWeight(&params::PASSED_OWN_KING_DISTANCE[3], 0, 33);
    tuner::Model model;
    model.read(edited.rewrite(header));
    REQUIRE(model.weight(&params::PST[KNIGHT][SQ_A8]) == S(-91, -61));
    REQUIRE(model.weight(&params::SAFE_CHECK[ROOK]) == S(104, 0));
    REQUIRE(model.weight(&params::PASSED_OWN_KING_DISTANCE[3]) == S(0, 33));
    REQUIRE(model.weight(&params::BISHOP_PAIR) == params::BISHOP_PAIR);  // the others as compiled in
    REQUIRE(model.rewrite(header) == edited.rewrite(header));
    // The ridge pulls toward the header's weights, not the compiled-in ones: from between the two
    // it goes the header's way.
    const int compiled = mgValue(params::PST[KNIGHT][SQ_A8]), between = (compiled - 91) / 2;
    REQUIRE(compiled < between - 10);
    model.setWeight(&params::PST[KNIGHT][SQ_A8], between, -61);
    for (const Position& p : playouts(20, 15)) model.add(p, 0.5, 0);
    model.ridge = 1;  // far stronger than the data's pull
    for (int step = 0; step < 10; ++step) model.step(0, model.size(), 1, 0.5);
    REQUIRE(mgValue(model.weight(&params::PST[KNIGHT][SQ_A8])) > between + 2);
    CHECK_THROWS_WITH(model.read("inline constexpr Score TEMPO = S(1, 2);"),
                      Catch::Contains("no declaration of PIECE_VALUE"));
}

TEST_CASE("tuner: bad arguments are refused with the reason", "[tuner]") {
    const auto quiet = [](const std::string&) {};
    const std::string params = std::string(QUADBIT_SOURCE_DIR) + "/src/eval/evalparams.h";
    REQUIRE(tuner::run({"data", "x.txt", "params", params, "rate", "-1"}, quiet) ==
            "tune: rate must be a number from 0 to 100, got '-1'");
    REQUIRE(tuner::run({"data", "x.txt", "params", params, "lambda", "1.5"}, quiet) ==
            "tune: lambda must be a number from 0 to 1, got '1.5'");
    REQUIRE(tuner::run({"data", "x.txt", "params", params, "threads", "0"}, quiet) ==
            "tune: threads must be a whole number from 1 to 1024, got '0'");
    REQUIRE(tuner::run({"data", "x.txt", "params", params, "colour", "blue"}, quiet) ==
            "tune: unknown argument 'colour'");
    REQUIRE(tuner::run({"data", "x.txt", "params"}, quiet) == "tune: 'params' needs a value");
    REQUIRE(tuner::run({"DATA", "/nonexistent.txt", "Params", params}, quiet) == "tune: cannot read /nonexistent.txt");
}

TEST_CASE("tuner: tune runs end to end on datagen's output", "[tuner][datagen]") {
    const std::string data = tempPath("tune.txt"), out = tempPath("evalparams.h");
    std::filesystem::remove(data);
    const auto quiet = [](const std::string&) {};
    REQUIRE(runDatagen({"out", data, "games", "2", "nodes", "300", "threads", "1"}, quiet).empty());
    std::vector<std::string> log;
    const std::string why =
        tuner::run({"data", data, "params", std::string(QUADBIT_SOURCE_DIR) + "/src/eval/evalparams.h", "out", out,
                    "epochs", "20", "threads", "2"},
                   [&](const std::string& line) { log.push_back(line); });
    INFO(why);
    REQUIRE(why.empty());
    REQUIRE(std::filesystem::exists(out));
    REQUIRE(log.back().find("wrote") != std::string::npos);
    REQUIRE(!tuner::run({"data", data}, quiet).empty());  // no params
    REQUIRE(!tuner::run({"data", data, "params", out, "rate", "fast"}, quiet).empty());

    // `only`: the other declarations come out as they went in (where a fit of all would move them).
    const std::string params = std::string(QUADBIT_SOURCE_DIR) + "/src/eval/evalparams.h";
    auto changedLines = [&](const std::vector<std::string>& extra) {
        std::vector<std::string> args = {"data", data, "params", params, "out", out, "epochs", "20", "validation", "0"};
        args.insert(args.end(), extra.begin(), extra.end());
        REQUIRE(tuner::run(args, quiet).empty());
        std::ifstream a(params), b(out);
        std::vector<std::string> changed;
        for (std::string x, y; std::getline(a, x) && std::getline(b, y);)
            if (x != y) changed.push_back(y);
        return changed;
    };
    auto named = [](const std::string& line) {
        return line.find("KING_RING_ATTACKS =") != std::string::npos || line.find("SAFE_CHECK[") != std::string::npos;
    };
    const auto all = changedLines({});
    REQUIRE(std::any_of(all.begin(), all.end(), [&](const std::string& line) { return !named(line); }));
    for (const std::string& line : changedLines({"only", "KING_RING_ATTACKS,SAFE_CHECK"})) {
        INFO(line);
        REQUIRE(named(line));
    }
    REQUIRE(!tuner::run({"data", data, "params", params, "out", out, "only", "KING_SAFETY"}, quiet).empty());
    std::filesystem::remove(data);
    std::filesystem::remove(out);
}
