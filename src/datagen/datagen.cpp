#include "datagen/datagen.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>

#include "engine.h"
#include "movegen.h"
#include "prng.h"
#include "text.h"

namespace {

// Adjudication, on scores from White's view. A game is decided when both sides' searches have
// agreed on a decisive score for WIN_PLIES plies in a row (the rest of it teaches nothing new),
// and drawn when, after the opening, both have seen a near-zero score for DRAW_PLIES plies.
constexpr Value WIN_SCORE = 1000;
constexpr int WIN_PLIES = 6;
constexpr Value DRAW_SCORE = 10;
constexpr int DRAW_PLIES = 12, DRAW_AFTER_PLY = 80;
constexpr int MAX_GAME_PLIES = 600;
// An opening whose shallow search already says more than this is lopsided: drawn again.
constexpr Value OPENING_LIMIT = 400;
constexpr int OPENING_ATTEMPTS = 100;

struct Config {
    std::string out, book;
    std::uint64_t games = 100, positions = 0, nodes = 5000, seed = 1;
    long long threads = std::max(1u, std::thread::hardware_concurrency()), hashMB = 16, randomPlies = -1;
    bool force = false;
};

std::string parse(const std::vector<std::string>& args, Config& cfg) {
    text::KeywordArgs in("datagen", args, {"force"});
    in.string("out", cfg.out);
    in.string("book", cfg.book);
    in.integer("games", 1, 1LL << 40, cfg.games);
    in.integer("positions", 1, 1LL << 40, cfg.positions);
    in.integer("nodes", 1, 1LL << 40, cfg.nodes);
    in.integer("seed", 0, 1LL << 62, cfg.seed);
    in.integer("threads", 1, 1024, cfg.threads);
    in.integer("hash", 1, 65536, cfg.hashMB);
    in.integer("randomplies", 0, 40, cfg.randomPlies);
    cfg.force = in.flag("force");
    if (std::string why = in.error(); !why.empty()) return why;
    if (cfg.out.empty()) return "datagen: no output file (out FILE)";
    if (std::filesystem::exists(cfg.out) && !cfg.force)
        return "datagen: " + cfg.out + " exists; add 'force' to overwrite it";
    if (cfg.randomPlies < 0) cfg.randomPlies = cfg.book.empty() ? 8 : 2;
    return "";
}

// Every line of an EPD book whose first four fields make a legal position.
std::string readBook(const std::string& path, std::vector<std::string>& fens) {
    std::ifstream in(path);
    if (!in) return "datagen: cannot read the book '" + path + "'";
    Position p;
    for (std::string line; std::getline(in, line);) {
        std::istringstream fields(line);
        std::string fen, field;
        for (int i = 0; i < 4 && fields >> field; ++i) fen += (i ? " " : "") + field;
        if (!fen.empty() && p.setFen(fen).empty()) fens.push_back(p.fen());
    }
    return fens.empty() ? "datagen: no positions in the book '" + path + "'" : "";
}

struct Shared {
    Config cfg;
    std::vector<std::string> book;
    std::atomic<std::uint64_t> nextGame{0}, gamesDone{0}, positions{0};
    std::atomic<bool> done{false};
    std::mutex fileMutex;
    std::ofstream file;
};

// One engine playing both sides of one game after another.
class Player {
public:
    explicit Player(Shared& s) : shared(s) {
        engine.options().set("Hash", std::to_string(s.cfg.hashMB));
        SearchCallbacks callbacks;
        callbacks.onInfo = [this](const SearchInfo& info) {
            if (info.multiPV == 1 && !info.pv.empty()) score = info.score;
        };
        callbacks.onBestMove = [this](const std::string& best, const std::string&) { bestMove = best; };
        engine.setCallbacks(callbacks);
    }

    void run() {
        for (std::uint64_t game; !shared.done && (game = shared.nextGame++) < shared.cfg.games;) {
            std::string text;
            const std::size_t kept = play(game, text);
            std::lock_guard<std::mutex> lock(shared.fileMutex);
            shared.file << text << std::flush;
            shared.positions += kept;
            ++shared.gamesDone;
            if (shared.cfg.positions && shared.positions >= shared.cfg.positions) shared.done = true;
        }
    }

private:
    // The move and score (side to move's view) of a node-limited search.
    Value think(const std::string& fen, const std::vector<std::string>& moves) {
        engine.setPosition(fen, moves);
        SearchLimits limits;
        limits.nodes = shared.cfg.nodes;
        bestMove.clear();
        score = VALUE_NONE;
        engine.go(limits, now());
        engine.wait();
        return score;
    }

    // A varied start: a book line or the start position, then random legal plies, kept only if
    // the game can go on and a short search finds it roughly level.
    std::string opening(PRNG& rng) {
        for (int attempt = 0; attempt < OPENING_ATTEMPTS; ++attempt) {
            Position p;
            p.setFen(shared.book.empty() ? START_FEN : shared.book[rng.below(shared.book.size())]);
            bool ok = true;
            for (int ply = 0; ok && ply < shared.cfg.randomPlies; ++ply) {
                MoveList<LEGAL> moves(p);
                if ((ok = moves.size() > 0)) p.makeMove(*(moves.begin() + rng.below(std::uint64_t(moves.size()))));
            }
            const std::string fen = p.fen();
            if (!ok || MoveList<LEGAL>(p).size() == 0) continue;
            const Value v = think(fen, {});
            if (v != VALUE_NONE && std::abs(v) <= OPENING_LIMIT) return fen;
        }
        return START_FEN;
    }

    // Plays game number `index`; appends its kept positions to `out` and returns how many.
    std::size_t play(std::uint64_t index, std::string& out) {
        PRNG rng(shared.cfg.seed * 0x9E3779B97F4A7C15ULL + index);
        engine.newGame();
        const std::string start = opening(rng);
        engine.newGame();
        Position pos;
        pos.setFen(start);
        std::vector<std::string> moves;
        std::vector<std::pair<std::string, Value>> kept;  // FEN, White's score
        int winRun = 0, drawRun = 0;
        double result = 0.5;
        for (int ply = 0;; ++ply) {
            if (MoveList<LEGAL>(pos).size() == 0) {
                result = !pos.inCheck() ? 0.5 : pos.sideToMove() == WHITE ? 0.0 : 1.0;
                break;
            }
            if (pos.isDraw(0) || pos.isDeadPosition() || ply >= MAX_GAME_PLIES) break;
            const Value v = think(start, moves);
            const Move m = pos.parseUciMove(bestMove);
            if (m == MOVE_NONE || v == VALUE_NONE) break;  // cannot happen with legal moves left
            const Value white = pos.sideToMove() == WHITE ? v : -v;
            // What a Texel fit of a static evaluation can use: quiet positions with a real score.
            if (!pos.inCheck() && !pos.isCaptureOrPromotion(m) && !isMateScore(v)) kept.emplace_back(pos.fen(), white);

            winRun = white >= WIN_SCORE ? std::max(winRun, 0) + 1 : white <= -WIN_SCORE ? std::min(winRun, 0) - 1 : 0;
            drawRun = ply >= DRAW_AFTER_PLY && std::abs(white) <= DRAW_SCORE ? drawRun + 1 : 0;
            if (std::abs(winRun) >= WIN_PLIES) {
                result = winRun > 0 ? 1.0 : 0.0;
                break;
            }
            if (drawRun >= DRAW_PLIES) break;
            pos.makeMove(m);
            moves.push_back(bestMove);
        }
        const char* resultText = result == 1.0 ? "1.0" : result == 0.0 ? "0.0" : "0.5";
        for (const auto& [fen, white] : kept) out += fen + " | " + std::to_string(white) + " | " + resultText + "\n";
        return kept.size();
    }

    Shared& shared;
    Engine engine;
    std::string bestMove;
    Value score = VALUE_NONE;
};

std::string duration(double seconds) {
    char buf[32];
    const long s = long(seconds);
    std::snprintf(buf, sizeof buf, "%ldh%02ldm%02lds", s / 3600, s / 60 % 60, s % 60);
    return buf;
}

}  // namespace

std::string runDatagen(const std::vector<std::string>& args, const std::function<void(const std::string&)>& progress) {
    Shared shared;
    if (std::string why = parse(args, shared.cfg); !why.empty()) return why;
    const Config& cfg = shared.cfg;
    if (!cfg.book.empty())
        if (std::string why = readBook(cfg.book, shared.book); !why.empty()) return why;
    shared.file.open(cfg.out, std::ios::trunc);
    if (!shared.file) return "datagen: cannot write " + cfg.out;

    const auto start = std::chrono::steady_clock::now();
    std::vector<std::thread> workers;
    for (long long i = 0; i < cfg.threads; ++i)
        workers.emplace_back([&shared] {
            Player player(shared);
            player.run();
        });

    std::atomic<bool> finished{false};
    std::mutex m;
    std::condition_variable cv;
    std::thread reporter([&] {
        std::unique_lock<std::mutex> lock(m);
        while (!cv.wait_for(lock, std::chrono::seconds(10), [&] { return finished.load(); })) {
            const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            const double games = double(shared.gamesDone), positions = double(shared.positions);
            double fraction = games / double(cfg.games);
            if (cfg.positions) fraction = std::max(fraction, positions / double(cfg.positions));
            progress("datagen: games " + std::to_string(shared.gamesDone.load()) + "/" + std::to_string(cfg.games) +
                     ", positions " + std::to_string(shared.positions.load()) + ", " +
                     std::to_string(long(positions / elapsed)) + " positions/s, " +
                     (fraction > 0 ? "about " + duration(elapsed * (1 - fraction) / fraction) + " left" : "starting"));
        }
    });
    for (std::thread& t : workers) t.join();
    {
        std::lock_guard<std::mutex> lock(m);
        finished = true;
    }
    cv.notify_one();
    reporter.join();
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    progress("datagen: done, " + std::to_string(shared.gamesDone.load()) + " games, " +
             std::to_string(shared.positions.load()) + " positions in " + duration(elapsed) + " -> " + cfg.out);
    return "";
}
