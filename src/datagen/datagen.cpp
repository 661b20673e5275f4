#include "datagen/datagen.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>

#include "datagen/gamefile.h"
#include "engine.h"
#include "movegen.h"
#include "platform.h"
#include "prng.h"
#include "syzygy/syzygy.h"
#include "text.h"

namespace {

// Adjudication, on scores from White's view. A game is decided when both sides' searches have
// agreed on a decisive score for WIN_PLIES plies in a row (the rest of it teaches nothing new),
// and drawn when, after the opening, both have seen a near-zero score for DRAW_PLIES plies.
constexpr Value WIN_SCORE = 1000;
constexpr int WIN_PLIES = 6;
constexpr Value DRAW_SCORE = 10;
constexpr int DRAW_PLIES = 12, DRAW_AFTER_PLY = 80;
// An opening whose shallow search already says more than this is lopsided: drawn again.
constexpr Value OPENING_LIMIT = 400;
constexpr int OPENING_ATTEMPTS = 100;

constexpr const char* HAND_WRITTEN = "none";  // `evalfile none`

// Each game thread's hash table: a search of a few thousand nodes fills a small part of even 1 MB,
// and a table that small stays in the core's own cache. 1 MB against 16 MB: 1,180 positions a
// second against 980 on 2 cores at 5000 nodes (perf/data.md).
constexpr long long HASH_MB = 1;

struct Config {
    std::string out, book, syzygy;               // syzygy: the tables' folders, as SyzygyPath takes them
    std::string evalFile = nnue::EMBEDDED_NAME;  // the network the games are played with; "none": hand-written
    std::uint64_t games = 100, positions = 0, nodes = 5000, seed = 1;  // positions: stored plies
    long long threads = std::max(1u, std::thread::hardware_concurrency()), hashMB = HASH_MB, randomPlies = -1;
    bool force = false;
    bool adjudicate = true;  // `noadjudication`: every game played to its end (to measure what adjudication saves)
    bool softNodes = false;  // `softnodes`: the budget stops searches between iterations

    // The node budget as a chunk records it.
    std::uint32_t budget() const {
        return std::uint32_t(nodes) | (softNodes ? gamefile::SOFT_NODES : 0) | (syzygy.empty() ? 0 : gamefile::SYZYGY);
    }
};

std::string describeBudget(std::uint32_t budget) {
    return "nodes " + std::to_string(budget & ~(gamefile::SOFT_NODES | gamefile::SYZYGY)) +
           (budget & gamefile::SOFT_NODES ? " softnodes" : "") + (budget & gamefile::SYZYGY ? " with syzygy" : "");
}

std::string parse(const std::vector<std::string>& args, Config& cfg) {
    text::KeywordArgs in("datagen", args, {"force", "noadjudication", "softnodes"});
    in.string("out", cfg.out);
    in.string("book", cfg.book);
    in.string("evalfile", cfg.evalFile);
    in.string("syzygy", cfg.syzygy);
    in.integer("games", 1, 1LL << 40, cfg.games);
    in.integer("positions", 1, 1LL << 40, cfg.positions);
    in.integer("nodes", 1, (1LL << 30) - 1, cfg.nodes);
    in.integer("seed", 0, 1LL << 62, cfg.seed);
    in.integer("threads", 1, 1024, cfg.threads);
    in.integer("hash", 1, 65536, cfg.hashMB);
    in.integer("randomplies", 0, 40, cfg.randomPlies);
    cfg.force = in.flag("force");
    cfg.adjudicate = !in.flag("noadjudication");
    cfg.softNodes = in.flag("softnodes");
    if (std::string why = in.error(); !why.empty()) return why;
    if (cfg.out.empty()) return "datagen: no output file (out FILE)";
    if (cfg.randomPlies < 0) cfg.randomPlies = cfg.book.empty() ? 8 : 2;
    if (cfg.evalFile != HAND_WRITTEN && cfg.evalFile != nnue::EMBEDDED_NAME) {
        nnue::Network net;
        if (std::string why = nnue::load(cfg.evalFile, net); !why.empty()) return "datagen: " + why;
    }
    // Each thread's engine has a table of its own; one it could not make would leave it
    // searching without one, and the games weaker than the command says.
    const long long machineMB = (long long)(platform::physicalMemory() / (1024 * 1024));
    if (machineMB && cfg.hashMB * cfg.threads > machineMB)
        return "datagen: hash " + std::to_string(cfg.hashMB) + " MB for each of " + std::to_string(cfg.threads) +
               " threads is more than this machine's " + std::to_string(machineMB) + " MB of memory";
    return "";
}

// The tables every game thread probes (they are the process's, shared by its engines): from a
// position they cover, each side plays only moves that keep the table value and a win is
// converted, so the game's result is the tables' and not a shallow search's misplay of the ending.
std::string loadTables(const Config& cfg, const std::function<void(const std::string&)>& progress) {
    std::string summary;
    if (std::string why = syzygy::init(cfg.syzygy, summary); !why.empty()) return "datagen: " + why;
    if (!syzygy::maxPieces()) return "datagen: no Syzygy tables in '" + cfg.syzygy + "'";
    progress("datagen: " + summary);
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
    std::vector<std::uint64_t> todo;  // the chunks still to play, in order
    std::atomic<std::size_t> nextTodo{0};
    std::atomic<std::uint64_t> gamesDone{0}, positions{0};  // this run's
    std::uint64_t positionsBefore = 0;                      // in the file when this run started
    std::uint64_t gamesToPlay = 0;                          // in the chunks of `todo`
    std::atomic<bool> done{false};
    std::mutex fileMutex;
    std::ofstream file;
    // Chunks played before an earlier one of `todo` was done, by their place in `todo`: they
    // wait, so that the file's chunks follow `todo` and a file made from scratch is the same
    // bytes whatever the threads (a manifest's sha256 then remakes it).
    struct Played {
        std::string bytes;
        std::uint64_t games, plies;
    };
    std::map<std::size_t, Played> waiting;
    std::size_t nextWrite = 0;
};

// One engine playing both sides of one game after another.
class Player {
public:
    explicit Player(Shared& s) : shared(s) {
        engine.options().set("Hash", std::to_string(s.cfg.hashMB));
        if (s.cfg.evalFile == HAND_WRITTEN) engine.options().set("Use NNUE", "false");
        else engine.options().set("EvalFile", s.cfg.evalFile);
        SearchCallbacks callbacks;
        callbacks.onInfo = [this](const SearchInfo& info) {
            if (info.multiPV == 1 && !info.pv.empty()) score = info.score;
        };
        callbacks.onBestMove = [this](const std::string& best, const std::string&) { bestMove = best; };
        engine.setCallbacks(callbacks);
    }

    // Plays whole chunks and appends each as one write, in the order of `todo`, so that a stopped
    // run loses at most the chunks in play or waiting for an earlier one.
    void run() {
        for (std::size_t t; !shared.done && (t = shared.nextTodo++) < shared.todo.size();) {
            gamefile::Chunk chunk{shared.todo[t], shared.cfg.seed, shared.cfg.budget(), {}};
            std::uint64_t plies = 0;
            for (int i = 0; i < gamefile::CHUNK_GAMES && !shared.done; ++i) {
                chunk.games.push_back(play(chunk.index * gamefile::CHUNK_GAMES + i));
                plies += chunk.games.back().plies.size();
            }
            if (shared.done) return;  // a part chunk is not written: the next run plays it whole
            std::lock_guard<std::mutex> lock(shared.fileMutex);
            shared.waiting[t] = {gamefile::encode(chunk), chunk.games.size(), plies};
            for (auto next = shared.waiting.begin();
                 !shared.done && next != shared.waiting.end() && next->first == shared.nextWrite;
                 next = shared.waiting.erase(next), ++shared.nextWrite) {
                shared.file << next->second.bytes << std::flush;
                shared.gamesDone += next->second.games;
                shared.positions += next->second.plies;
                if (shared.cfg.positions && shared.positionsBefore + shared.positions >= shared.cfg.positions)
                    shared.done = true;
            }
        }
    }

private:
    // The move and score (side to move's view) of a node-limited search.
    Value think(const std::string& fen, const std::vector<std::string>& moves) {
        engine.setPosition(fen, moves);
        SearchLimits limits;
        limits.nodes = shared.cfg.softNodes ? shared.cfg.nodes * SOFT_NODES_CAP : shared.cfg.nodes;
        limits.softNodes = shared.cfg.softNodes ? shared.cfg.nodes : 0;
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

    // Plays game number `index` of the run: every move with its search score.
    gamefile::Game play(std::uint64_t index) {
        PRNG rng(shared.cfg.seed * 0x9E3779B97F4A7C15ULL + index);
        engine.newGame();
        gamefile::Game game;
        game.startFen = opening(rng);
        engine.newGame();
        Position pos;
        pos.setFen(game.startFen);
        std::vector<std::string> moves;
        int winRun = 0, drawRun = 0;
        for (int ply = 0;; ++ply) {
            if (gameOver(pos, ply)) {
                if (MoveList<LEGAL>(pos).size() == 0)
                    game.result = !pos.inCheck() ? 1 : pos.sideToMove() == WHITE ? 0 : 2;
                break;
            }
            const Value v = think(game.startFen, moves);
            const Move m = pos.parseUciMove(bestMove);
            if (m == MOVE_NONE || v == VALUE_NONE) break;  // cannot happen with legal moves left
            game.plies.push_back({m, std::int16_t(v)});

            const Value white = pos.sideToMove() == WHITE ? v : -v;
            winRun = white >= WIN_SCORE ? std::max(winRun, 0) + 1 : white <= -WIN_SCORE ? std::min(winRun, 0) - 1 : 0;
            drawRun = ply >= DRAW_AFTER_PLY && std::abs(white) <= DRAW_SCORE ? drawRun + 1 : 0;
            if (shared.cfg.adjudicate && std::abs(winRun) >= WIN_PLIES) {
                game.result = winRun > 0 ? 2 : 0;
                break;
            }
            if (shared.cfg.adjudicate && drawRun >= DRAW_PLIES) break;
            pos.makeMove(m);
            moves.push_back(bestMove);
        }
        return game;
    }

    Shared& shared;
    Engine engine;
    std::string bestMove;
    Value score = VALUE_NONE;
};

// Which chunks this run plays: all of them, or with an existing file (and no `force`) those it
// lacks, after dropping a chunk cut short at its end. A file of another seed or node budget is
// not continued: its games would not be the ones this run would play.
std::string planChunks(Shared& shared, const std::function<void(const std::string&)>& progress) {
    const Config& cfg = shared.cfg;
    const std::uint64_t chunks = (cfg.games + gamefile::CHUNK_GAMES - 1) / gamefile::CHUNK_GAMES;
    std::vector<bool> have(chunks, false);
    if (std::filesystem::exists(cfg.out) && !cfg.force) {
        std::uint64_t valid = 0, games = 0;
        std::string mismatch;
        std::string why = gamefile::read(
            cfg.out,
            [&](const gamefile::Chunk& c) {
                if (c.seed != cfg.seed || c.nodes != cfg.budget())
                    mismatch = "datagen: " + cfg.out + " holds games of seed " + std::to_string(c.seed) + ", " +
                               describeBudget(c.nodes) + "; continue it with those, or add 'force' to overwrite it";
                if (c.index < chunks) have[c.index] = true;
                games += c.games.size();
                for (const auto& g : c.games) shared.positionsBefore += g.plies.size();
            },
            &valid);
        if (!why.empty()) return "datagen: " + why + "; add 'force' to overwrite it";
        if (!mismatch.empty()) return mismatch;
        if (valid < std::filesystem::file_size(cfg.out)) {
            progress("datagen: dropping " + std::to_string(std::filesystem::file_size(cfg.out) - valid) +
                     " bytes of a chunk cut short at the end of " + cfg.out);
            std::filesystem::resize_file(cfg.out, valid);
        }
        if (games) progress("datagen: continuing " + cfg.out + ": " + std::to_string(games) + " games there");
    } else std::ofstream(cfg.out, std::ios::trunc);
    for (std::uint64_t c = 0; c < chunks; ++c)
        if (!have[c]) {
            shared.todo.push_back(c);
            shared.gamesToPlay += gamefile::CHUNK_GAMES;
        }
    return "";
}

}  // namespace

bool gameOver(const Position& pos, int ply) {
    return MoveList<LEGAL>(pos).size() == 0 || pos.isDraw(0) || pos.isDeadPosition() || ply >= MAX_GAME_PLIES;
}

std::string runDatagen(const std::vector<std::string>& args, const std::function<void(const std::string&)>& progress) {
    Shared shared;
    if (std::string why = parse(args, shared.cfg); !why.empty()) return why;
    const Config& cfg = shared.cfg;
    if (!cfg.syzygy.empty())
        if (std::string why = loadTables(cfg, progress); !why.empty()) return why;
    if (!cfg.book.empty())
        if (std::string why = readBook(cfg.book, shared.book); !why.empty()) return why;
    if (std::string why = planChunks(shared, progress); !why.empty()) return why;
    shared.file.open(cfg.out, std::ios::binary | std::ios::app);
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
            double fraction = games / double(std::max<std::uint64_t>(1, shared.gamesToPlay));
            if (cfg.positions)
                fraction = std::max(
                    fraction, positions / double(std::max<std::uint64_t>(
                                              1, cfg.positions - std::min(cfg.positions, shared.positionsBefore))));
            progress(
                "datagen: games " + std::to_string(shared.gamesDone.load()) + "/" + std::to_string(shared.gamesToPlay) +
                ", positions " + std::to_string(shared.positions.load()) + ", " +
                std::to_string(long(positions / elapsed)) + " positions/s, " +
                (fraction > 0 ? "about " + text::duration(elapsed * (1 - fraction) / fraction) + " left" : "starting"));
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
             std::to_string(shared.positions.load()) + " positions in " + text::duration(elapsed) + " -> " + cfg.out);
    return "";
}
