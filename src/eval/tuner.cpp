#include "eval/tuner.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>
#include <unordered_map>

#include "datagen/gamefile.h"
#include "eval/eval.h"
#include "eval/evalparams.h"
#include "text.h"

namespace tuner {

namespace {

using namespace params;

// Every tuned weight of evalparams.h, by the name it is declared with there.
enum class Kind {
    SCORE,    // middlegame and endgame
    MG_ONLY,  // a Score whose endgame part the evaluation never sets (pawn shelter and storm)
    INT_EG,   // a plain int added to the endgame (passed pawns' king distances)
    DANGER    // a plain int of king danger's sum (kept in the middlegame slot)
};
struct Tunable {
    const char* name;
    const void* first;
    int size;
    Kind kind;
};
const Tunable TUNABLES[] = {
    {"PIECE_VALUE", PIECE_VALUE, PIECE_TYPE_NB, Kind::SCORE},
    {"BISHOP_PAIR", &BISHOP_PAIR, 1, Kind::SCORE},
    {"KNIGHT_PER_PAWN", &KNIGHT_PER_PAWN, 1, Kind::SCORE},
    {"ROOK_PER_PAWN", &ROOK_PER_PAWN, 1, Kind::SCORE},
    {"PST", &PST[0][0], int(PIECE_TYPE_NB) * int(SQUARE_NB), Kind::SCORE},
    {"KNIGHT_MOBILITY", KNIGHT_MOBILITY, 9, Kind::SCORE},
    {"BISHOP_MOBILITY", BISHOP_MOBILITY, 14, Kind::SCORE},
    {"ROOK_MOBILITY", ROOK_MOBILITY, 15, Kind::SCORE},
    {"QUEEN_MOBILITY", QUEEN_MOBILITY, 28, Kind::SCORE},
    {"ISOLATED", &ISOLATED, 1, Kind::SCORE},
    {"DOUBLED", &DOUBLED, 1, Kind::SCORE},
    {"BACKWARD", &BACKWARD, 1, Kind::SCORE},
    {"CONNECTED", CONNECTED, 8, Kind::SCORE},
    {"PASSED", PASSED, 8, Kind::SCORE},
    {"CANDIDATE", CANDIDATE, 8, Kind::SCORE},
    {"PASSED_OWN_KING_DISTANCE", PASSED_OWN_KING_DISTANCE, 8, Kind::INT_EG},
    {"PASSED_ENEMY_KING_DISTANCE", PASSED_ENEMY_KING_DISTANCE, 8, Kind::INT_EG},
    {"PASSED_FREE_PATH", PASSED_FREE_PATH, 8, Kind::SCORE},
    {"PASSED_BLOCKED", &PASSED_BLOCKED, 1, Kind::SCORE},
    {"KNIGHT_OUTPOST", &KNIGHT_OUTPOST, 1, Kind::SCORE},
    {"BISHOP_OUTPOST", &BISHOP_OUTPOST, 1, Kind::SCORE},
    {"MINOR_BEHIND_PAWN", &MINOR_BEHIND_PAWN, 1, Kind::SCORE},
    {"BISHOP_PAWNS", &BISHOP_PAWNS, 1, Kind::SCORE},
    {"ROOK_ON_SEVENTH", &ROOK_ON_SEVENTH, 1, Kind::SCORE},
    {"ROOK_OPEN_FILE", &ROOK_OPEN_FILE, 1, Kind::SCORE},
    {"ROOK_SEMI_OPEN_FILE", &ROOK_SEMI_OPEN_FILE, 1, Kind::SCORE},
    {"THREAT_BY_PAWN", &THREAT_BY_PAWN, 1, Kind::SCORE},
    {"THREAT_BY_MINOR", THREAT_BY_MINOR, PIECE_TYPE_NB, Kind::SCORE},
    {"THREAT_BY_ROOK", THREAT_BY_ROOK, PIECE_TYPE_NB, Kind::SCORE},
    {"HANGING", &HANGING, 1, Kind::SCORE},
    {"THREAT_BY_PAWN_PUSH", &THREAT_BY_PAWN_PUSH, 1, Kind::SCORE},
    {"PAWN_SHELTER", &PAWN_SHELTER[0][0], 4 * 8, Kind::MG_ONLY},
    {"PAWN_STORM", PAWN_STORM, 8, Kind::MG_ONLY},
    {"TEMPO", &TEMPO, 1, Kind::SCORE},
    {"KING_ATTACK_WEIGHT", KING_ATTACK_WEIGHT, PIECE_TYPE_NB, Kind::DANGER},
    {"SAFE_CHECK", SAFE_CHECK, PIECE_TYPE_NB, Kind::DANGER},
    {"KING_RING_ATTACKS", &KING_RING_ATTACKS, 1, Kind::DANGER},
    {"WEAK_RING_SQUARE", &WEAK_RING_SQUARE, 1, Kind::DANGER},
    {"NO_ENEMY_QUEEN", &NO_ENEMY_QUEEN, 1, Kind::DANGER},
};

bool isInt(Kind k) { return k == Kind::INT_EG || k == Kind::DANGER; }

const void* elementAddress(const Tunable& t, int i) {
    return isInt(t.kind) ? static_cast<const void*>(static_cast<const int*>(t.first) + i)
                         : static_cast<const void*>(static_cast<const Score*>(t.first) + i);
}

// Element index of every weight's address.
const std::unordered_map<const void*, int>& elementIndex() {
    static const std::unordered_map<const void*, int> index = [] {
        std::unordered_map<const void*, int> m;
        for (const Tunable& t : TUNABLES)
            for (int i = 0; i < t.size; ++i) m.emplace(elementAddress(t, i), int(m.size()));
        return m;
    }();
    return index;
}

void accumulate(double& sum, double part) { sum += part; }
void accumulate(std::vector<double>& sum, const std::vector<double>& part) {
    for (std::size_t i = 0; i < sum.size(); ++i) sum[i] += part[i];
}

// Runs f(begin, end) on `threads` slices of [begin, end) and sums what they return.
template <typename F>
auto parallelSum(std::size_t begin, std::size_t end, int threads, F f) {
    using R = decltype(f(begin, end));
    std::vector<R> parts(std::size_t(std::max(1, threads)));
    fit::parallelFor(int(parts.size()), end - begin,
                     [&](int t, std::size_t b, std::size_t e) { parts[std::size_t(t)] = f(begin + b, begin + e); });
    R sum = parts[0];
    for (std::size_t t = 1; t < parts.size(); ++t) accumulate(sum, parts[t]);
    return sum;
}

// A tunable's initializer in evalparams.h, from its '=' to the ';' that ends it, and the values in
// it: ints, or S(mg, eg) for a Score. Throws when the header does not declare it as the tuner
// expects.
struct Initializer {
    std::size_t from, to;  // in the header
    struct Value {
        std::size_t position, length;  // in the initializer
        int mg, eg;                    // an int's value is in mg
    };
    std::vector<Value> values;
};
Initializer initializer(const std::string& header, const Tunable& t) {
    std::smatch decl;
    if (!std::regex_search(header, decl, std::regex("inline constexpr \\w+ " + std::string(t.name) + "\\b")))
        throw std::runtime_error(std::string("tuner: no declaration of ") + t.name + " in the header");
    Initializer init;
    init.from = header.find('=', std::size_t(decl.position(0)));
    init.to = header.find(';', init.from);
    const std::string text = header.substr(init.from, init.to - init.from);
    const std::regex value = isInt(t.kind) ? std::regex("(-?\\d+)") : std::regex("S\\(\\s*(-?\\d+),\\s*(-?\\d+)\\)");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), value); it != std::sregex_iterator(); ++it)
        init.values.push_back({std::size_t(it->position(0)), std::size_t(it->length(0)), std::stoi((*it)[1]),
                               isInt(t.kind) ? 0 : std::stoi((*it)[2])});
    if (int(init.values.size()) > t.size) throw std::runtime_error(std::string("tuner: too many values in ") + t.name);
    return init;
}

// The piece-square tables' style, S(%3d,%3d), rather than S(%d, %d): both fields three wide, or
// a value that outgrew its column with no space after the comma ("S( 38,-173)").
bool aligned(const std::string& token) {
    const std::size_t open = token.find('('), comma = token.find(','), close = token.find(')');
    return comma - open - 1 >= 3 && (close - comma - 1 == 3 || token[comma + 1] != ' ');
}

}  // namespace

Model::Model() {
    for (const Tunable& t : TUNABLES)
        for (int i = 0; i < t.size; ++i) {
            const void* a = elementAddress(t, i);
            const Score s = t.kind == Kind::INT_EG   ? S(0, *static_cast<const int*>(a))
                            : t.kind == Kind::DANGER ? S(*static_cast<const int*>(a), 0)
                                                     : *static_cast<const Score*>(a);
            weights.push_back(mgValue(s));
            weights.push_back(egValue(s));
            frozen.push_back(t.kind == Kind::INT_EG);
            frozen.push_back(t.kind == Kind::MG_ONLY || t.kind == Kind::DANGER);
        }
    start = weights;
    adam = fit::Adam<double>(weights.size());
}

bool Model::add(const Position& pos, double result, double score) {
    EvalTrace trace;
    evaluateWeights(pos, trace);
    if (trace.special) return false;
    auto indexOf = [](const void* weight) {
        auto it = elementIndex().find(weight);
        if (it == elementIndex().end())
            throw std::logic_error("tuner: a weight the evaluation uses is not in TUNABLES");
        return it->second;
    };
    std::unordered_map<int, int> net;
    for (const EvalTrace::Use& u : trace.uses) net[indexOf(u.weight)] += u.side == WHITE ? u.count : -u.count;
    Sample s{};
    s.result = float(result);
    s.score = float(score);
    s.fixedMg = float(mgValue(trace.fixed[WHITE]) - mgValue(trace.fixed[BLACK]));
    s.fixedEg = float(egValue(trace.fixed[WHITE]) - egValue(trace.fixed[BLACK]));
    s.phase = std::uint8_t(trace.phase);
    s.scaleFactor = std::uint8_t(trace.scale);
    s.begin = std::uint32_t(coefficients.size());
    std::vector<std::pair<int, int>> sorted(net.begin(), net.end());
    std::sort(sorted.begin(), sorted.end());
    for (auto [index, value] : sorted)
        if (value) coefficients.push_back({std::uint16_t(index), std::int16_t(value)});
    s.count = std::uint16_t(coefficients.size() - s.begin);
    // Each attacked king's danger inputs; a shelter weight's count is minus a half, written as
    // -1 with `shelter` set.
    for (Color c : {WHITE, BLACK}) {
        s.dangerBegin[c] = std::uint32_t(dangerCoefficients.size());
        if (trace.attacked[c])
            for (const EvalTrace::DangerUse& u : trace.danger[c])
                dangerCoefficients.push_back({std::uint16_t(indexOf(u.weight)), std::int16_t(u.count), u.shelter});
        s.dangerCount[c] = std::uint8_t(dangerCoefficients.size() - s.dangerBegin[c]);
    }
    samples.push_back(s);
    return true;
}

double Model::danger(const Sample& s, Color king) const {
    double sum = 0;
    for (std::uint32_t k = s.dangerBegin[king]; k < s.dangerBegin[king] + s.dangerCount[king]; ++k) {
        const DangerCoefficient& d = dangerCoefficients[k];
        sum += d.count * weights[2 * d.index] * (d.shelter ? -0.5 : 1.0);
    }
    return sum;
}

double Model::predict(std::size_t i) const {
    const Sample& s = samples[i];
    double mg = s.fixedMg, eg = s.fixedEg;
    for (std::uint32_t k = s.begin; k < s.begin + s.count; ++k) {
        mg += coefficients[k].value * weights[2 * coefficients[k].index];
        eg += coefficients[k].value * weights[2 * coefficients[k].index + 1];
    }
    for (Color c : {WHITE, BLACK}) {
        const double d = s.dangerCount[c] ? danger(s, c) : 0, sign = c == WHITE ? 1 : -1;
        if (d > 0) {
            mg -= sign * d * d / KING_DANGER_MG_DIVISOR;
            eg -= sign * d / KING_DANGER_EG_DIVISOR;
        }
    }
    return (mg * s.phase + eg * (MAX_PHASE - s.phase)) / MAX_PHASE * s.scaleFactor / SCALE_NORMAL;
}

double Model::target(const Sample& s, double resultShare) const {
    return resultShare * s.result + (1 - resultShare) * fit::sigmoid(scale * s.score);
}

double Model::error(std::size_t begin, std::size_t end, int threads, double resultShare) const {
    if (end <= begin) return 0;
    double sum = parallelSum(begin, end, threads, [this, resultShare](std::size_t b, std::size_t e) {
        double total = 0;
        for (std::size_t i = b; i < e; ++i) {
            const double d = fit::sigmoid(scale * predict(i)) - target(samples[i], resultShare);
            total += d * d;
        }
        return total;
    });
    return sum / double(end - begin);
}

double Model::fitScale(std::size_t begin, std::size_t end, int threads) {
    // K says how the evaluation's centipawns turn into results, so it is fitted on the results
    // alone. With the search's score in the target (lambda < 1) K would stand on both sides of the
    // error and the fit would shrink it (0.0043 instead of 0.0065 on our self-play data); the
    // weights then grow to make up for it (10% at a refit), against the search's margins.
    // Golden-section search: the error is unimodal in K.
    double lo = 0.0005, hi = 0.05;
    const double g = (std::sqrt(5.0) - 1) / 2;
    auto at = [&](double k) {
        scale = k;
        return error(begin, end, threads, 1.0);
    };
    double a = hi - g * (hi - lo), b = lo + g * (hi - lo), fa = at(a), fb = at(b);
    for (int i = 0; i < 40; ++i) {
        if (fa < fb) hi = b, b = a, fb = fa, a = hi - g * (hi - lo), fa = at(a);
        else lo = a, a = b, fa = fb, b = lo + g * (hi - lo), fb = at(b);
    }
    return scale = (lo + hi) / 2;
}

void Model::step(std::size_t begin, std::size_t end, int threads, double rate) {
    std::vector<double> gradient = parallelSum(begin, end, threads, [this](std::size_t b, std::size_t e) {
        std::vector<double> g(weights.size(), 0.0);
        for (std::size_t i = b; i < e; ++i) {
            const Sample& s = samples[i];
            const double p = fit::sigmoid(scale * predict(i));
            // d(error)/d(eval), then through the phase blend and the scale factor.
            const double d = 2 * (p - target(s, lambda)) * p * (1 - p) * scale * s.scaleFactor / SCALE_NORMAL;
            const double dMg = d * s.phase / MAX_PHASE, dEg = d * (MAX_PHASE - s.phase) / MAX_PHASE;
            for (std::uint32_t k = s.begin; k < s.begin + s.count; ++k) {
                g[2 * coefficients[k].index] += dMg * coefficients[k].value;
                g[2 * coefficients[k].index + 1] += dEg * coefficients[k].value;
            }
            // King danger: the penalty's derivative in the danger, times each input's count.
            for (Color c : {WHITE, BLACK}) {
                const double danger = s.dangerCount[c] ? this->danger(s, c) : 0, sign = c == WHITE ? 1 : -1;
                if (danger <= 0) continue;
                const double dDanger =
                    -sign * (dMg * 2 * danger / KING_DANGER_MG_DIVISOR + dEg / KING_DANGER_EG_DIVISOR);
                for (std::uint32_t k = s.dangerBegin[c]; k < s.dangerBegin[c] + s.dangerCount[c]; ++k) {
                    const DangerCoefficient& d = dangerCoefficients[k];
                    g[2 * d.index] += dDanger * d.count * (d.shelter ? -0.5 : 1.0);
                }
            }
        }
        return g;
    });
    adam.start();
    const double n = double(end - begin);
    for (std::size_t i = 0; i < weights.size(); ++i)
        if (!frozen[i]) weights[i] -= rate * adam.direction(i, gradient[i] / n + 2 * ridge * (weights[i] - start[i]));
}

void Model::fitOnly(const std::vector<std::string>& names) {
    std::vector<bool> chosen(weights.size(), false);
    for (const std::string& name : names) {
        const Tunable* t =
            std::find_if(std::begin(TUNABLES), std::end(TUNABLES), [&](const Tunable& u) { return name == u.name; });
        if (t == std::end(TUNABLES)) throw std::runtime_error("tune: no weight named '" + name + "' in the tuner");
        const int first = elementIndex().at(elementAddress(*t, 0));
        std::fill(chosen.begin() + 2 * first, chosen.begin() + 2 * (first + t->size), true);
    }
    for (std::size_t i = 0; i < weights.size(); ++i) frozen[i] = frozen[i] || !chosen[i];
}

Score Model::weight(const void* address) const {
    const int i = elementIndex().at(address);
    return S(int(std::lround(weights[2 * i])), int(std::lround(weights[2 * i + 1])));
}

void Model::setWeight(const void* address, int mg, int eg) {
    const int i = elementIndex().at(address);
    weights[2 * i] = mg;
    weights[2 * i + 1] = eg;
}

void Model::read(const std::string& header) {
    for (const Tunable& t : TUNABLES) {
        const Initializer init = initializer(header, t);
        // Leading elements the header leaves out (PST's `{}` for no piece) keep their values.
        const int skip = t.size - int(init.values.size());
        for (std::size_t k = 0; k < init.values.size(); ++k) {
            const Initializer::Value& v = init.values[k];
            if (t.kind == Kind::INT_EG) setWeight(elementAddress(t, skip + int(k)), 0, v.mg);
            else setWeight(elementAddress(t, skip + int(k)), v.mg, v.eg);
        }
    }
    start = weights;
}

std::string Model::rewrite(const std::string& header) const {
    std::string out = header;
    for (const Tunable& t : TUNABLES) {
        const Initializer init = initializer(out, t);
        const std::string text = out.substr(init.from, init.to - init.from);
        const int skip = t.size - int(init.values.size());
        std::string replaced;
        std::size_t last = 0;
        for (std::size_t k = 0; k < init.values.size(); ++k) {
            const Score s = weight(elementAddress(t, skip + int(k)));
            const Initializer::Value& v = init.values[k];
            char buf[40];
            if (t.kind == Kind::INT_EG) std::snprintf(buf, sizeof buf, "%d", egValue(s));
            else if (t.kind == Kind::DANGER) std::snprintf(buf, sizeof buf, "%d", mgValue(s));
            else if (aligned(text.substr(v.position, v.length)))
                std::snprintf(buf, sizeof buf, "S(%3d,%3d)", mgValue(s), egValue(s));
            else std::snprintf(buf, sizeof buf, "S(%d, %d)", mgValue(s), egValue(s));
            replaced += text.substr(last, v.position - last) + buf;
            last = v.position + v.length;
        }
        replaced += text.substr(last);
        out.replace(init.from, init.to - init.from, replaced);
    }
    return out;
}

std::string run(const std::vector<std::string>& args, const std::function<void(const std::string&)>& progress) {
    std::string data, params, out, only;
    long long epochs = 400, validation = 10, threads = std::max(1u, std::thread::hardware_concurrency()), limit = 0;
    double rate = 0.5, lambda = 1.0, ridge = 0;
    text::KeywordArgs arguments("tune", args, {});
    arguments.string("data", data);
    arguments.string("params", params);
    arguments.string("out", out);
    arguments.string("only", only);
    arguments.integer("epochs", 0, 1LL << 40, epochs);
    arguments.integer("validation", 0, 99, validation);
    arguments.integer("threads", 1, 1024, threads);
    arguments.integer("limit", 0, 1LL << 40, limit);
    arguments.real("rate", 0, 100, rate);
    arguments.real("lambda", 0, 1, lambda);
    arguments.real("ridge", 0, 100, ridge);
    if (std::string why = arguments.error(); !why.empty()) return why;
    if (data.empty() || params.empty()) return "tune: needs 'data FILE' and 'params src/eval/evalparams.h'";
    if (out.empty()) out = params;
    std::ifstream headerIn(params);
    if (!headerIn) return "tune: cannot read " + params;
    const std::string header((std::istreambuf_iterator<char>(headerIn)), std::istreambuf_iterator<char>());
    Model model;
    try {
        model.read(header);  // the fit starts from the header's weights, which must all be there
        if (!only.empty()) model.fitOnly(text::split(only, ','));
    } catch (const std::exception& e) {
        return e.what();
    }
    std::ifstream in(data);
    if (!in) return "tune: cannot read " + data;

    // In file order, so that the held-out part is the last games. A game file of datagen gives
    // the positions training keeps (gamefile.h); a text file one `FEN | score | result` a line.
    std::size_t bad = 0;
    if (gamefile::isGameFile(data)) {
        std::string why = gamefile::read(data, [&](const gamefile::Chunk& chunk) {
            for (const gamefile::Game& g : chunk.games)
                gamefile::forEachTrainingPosition(g, 0, [&](const Position& pos, Value white, double result) {
                    if (!limit || (long long)model.size() < limit) model.add(pos, result, white);
                });
        });
        if (!why.empty()) return "tune: " + why;
    } else
        for (std::string line; std::getline(in, line) && (!limit || (long long)model.size() < limit);) {
            gamefile::Game game;
            if (!gamefile::gameFromText(line, game).empty()) {
                ++bad;
                continue;
            }
            gamefile::forEachTrainingPosition(
                game, 0, [&](const Position& pos, Value white, double result) { model.add(pos, result, white); });
        }
    model.lambda = lambda;
    model.ridge = ridge;
    const std::size_t n = model.size(), trainEnd = n - n * std::size_t(validation) / 100;
    if (trainEnd == 0) return "tune: no usable positions in " + data;
    progress("tune: " + std::to_string(n) + " positions (" + std::to_string(bad) + " unreadable lines skipped), " +
             std::to_string(n - trainEnd) + " held out");
    const double k = model.fitScale(0, trainEnd, int(threads));
    char buf[256];
    auto report = [&](long long epoch) {
        std::snprintf(buf, sizeof buf, "tune: epoch %lld  K %.5f  training error %.6f  held-out error %.6f", epoch, k,
                      model.error(0, trainEnd, int(threads)), model.error(trainEnd, n, int(threads)));
        progress(buf);
    };
    // Early stopping: the weights written are those of the epoch with the least held-out error.
    double best = model.error(trainEnd, n, int(threads));
    std::string bestHeader = model.rewrite(header);
    long long bestEpoch = 0;
    report(0);
    for (long long epoch = 1; epoch <= epochs; ++epoch) {
        model.step(0, trainEnd, int(threads), rate);
        if (epoch % 10 == 0 && trainEnd < n) {
            const double heldOut = model.error(trainEnd, n, int(threads));
            if (heldOut < best) best = heldOut, bestHeader = model.rewrite(header), bestEpoch = epoch;
        }
        if (epoch % 50 == 0 || epoch == epochs) report(epoch);
    }
    if (trainEnd == n) bestHeader = model.rewrite(header), bestEpoch = epochs;
    std::snprintf(buf, sizeof buf, "tune: the weights of epoch %lld (held-out error %.6f)", bestEpoch, best);
    progress(buf);
    std::ofstream file(out);
    file << bestHeader;
    if (!file) return "tune: cannot write " + out;
    progress("tune: wrote " + out);
    return "";
}

}  // namespace tuner
