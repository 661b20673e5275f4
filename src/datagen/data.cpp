#include "datagen/data.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>

#include "datagen/gamefile.h"
#include "sha256.h"
#include "text.h"

namespace {

struct Totals {
    std::uint64_t chunks = 0, games = 0, plies = 0, kept = 0, corrupt = 0;
    std::uint64_t results[3] = {0, 0, 0};  // Black won, draw, White won
};

// Reads every game of `path`, handing the positions training keeps to `onPosition`.
std::string scan(const std::string& path, int minPly, Totals& t,
                 const std::function<void(const Position&, Value, double)>& onPosition) {
    std::uint64_t valid = 0;
    const std::string why = gamefile::read(
        path,
        [&](const gamefile::Chunk& chunk) {
            ++t.chunks;
            for (const gamefile::Game& g : chunk.games) {
                ++t.games;
                ++t.results[g.result];
                t.plies += g.plies.size();
                t.corrupt += !gamefile::forEachTrainingPosition(g, minPly, [&](const Position& p, Value v, double r) {
                    ++t.kept;
                    onPosition(p, v, r);
                });
            }
        },
        &valid);
    if (!why.empty()) return "data: " + why;
    if (valid < std::filesystem::file_size(path))
        return "data: " + path + " ends in a chunk cut short (" +
               std::to_string(std::filesystem::file_size(path) - valid) +
               " bytes; datagen drops it when it continues the file)";
    if (t.corrupt) return "data: " + std::to_string(t.corrupt) + " games of " + path + " hold an illegal move";
    return "";
}

std::string stats(const std::string& path, int minPly, const std::function<void(const std::string&)>& print) {
    Totals t;
    const std::string why = scan(path, minPly, t, [](const Position&, Value, double) {});
    const auto bytes = std::filesystem::exists(path) ? std::filesystem::file_size(path) : 0;
    char line[512];
    std::snprintf(line, sizeof line,
                  "%s: %llu chunks, %llu games (White won %llu, drawn %llu, Black won %llu), %llu positions "
                  "(%.1f a game, %.2f bytes each), %llu kept for training (minply %d)",
                  path.c_str(), (unsigned long long)t.chunks, (unsigned long long)t.games,
                  (unsigned long long)t.results[2], (unsigned long long)t.results[1], (unsigned long long)t.results[0],
                  (unsigned long long)t.plies, t.games ? double(t.plies) / double(t.games) : 0.0,
                  t.plies ? double(bytes) / double(t.plies) : 0.0, (unsigned long long)t.kept, minPly);
    print(line);
    return why;
}

std::string toText(const std::string& path, const std::string& out, int minPly, long long shuffleSeed, bool force,
                   const std::function<void(const std::string&)>& print) {
    if (std::filesystem::exists(out) && !force) return "data: " + out + " exists; add 'force' to overwrite it";
    std::vector<std::string> lines;
    Totals t;
    const auto resultText = [](double r) { return r == 1.0 ? "1.0" : r == 0.0 ? "0.0" : "0.5"; };
    if (std::string why =
            scan(path, minPly, t,
                 [&](const Position& p, Value white, double result) {
                     lines.push_back(p.fen() + " | " + std::to_string(white) + " | " + resultText(result));
                 });
        !why.empty())
        return why;
    if (shuffleSeed >= 0) std::shuffle(lines.begin(), lines.end(), std::mt19937_64(std::uint64_t(shuffleSeed)));
    std::ofstream file(out, std::ios::trunc);
    for (const std::string& line : lines) file << line << '\n';
    if (!file.flush()) return "data: cannot write " + out;
    print("data: " + std::to_string(lines.size()) + " positions of " + std::to_string(t.games) + " games -> " + out +
          (shuffleSeed >= 0 ? " (shuffled)" : ""));
    return "";
}

// Text lines to a game file: each position a game of one ply (gamefile::gameFromText), in
// chunks as datagen writes them (seed 0, nodes 0, so that datagen never continues such a file).
std::string fromText(const std::string& path, const std::string& out, bool force,
                     const std::function<void(const std::string&)>& print) {
    if (std::filesystem::exists(out) && !force) return "data: " + out + " exists; add 'force' to overwrite it";
    std::ifstream in(path);
    if (!in) return "data: cannot read " + path;
    std::ofstream file(out, std::ios::binary | std::ios::trunc);
    gamefile::Chunk chunk;
    std::uint64_t positions = 0, lineNumber = 0;
    const auto flush = [&] {
        file << gamefile::encode(chunk);
        chunk.games.clear();
        ++chunk.index;
    };
    for (std::string line; std::getline(in, line);) {
        ++lineNumber;
        if (line.empty()) continue;
        gamefile::Game game;
        if (std::string why = gamefile::gameFromText(line, game); !why.empty()) {
            file.close();
            std::filesystem::remove(out);
            return "data: " + path + " line " + std::to_string(lineNumber) + ": " + why;
        }
        chunk.games.push_back(std::move(game));
        ++positions;
        if (chunk.games.size() == gamefile::CHUNK_GAMES) flush();
    }
    if (!chunk.games.empty()) flush();
    if (!file.flush()) return "data: cannot write " + out;
    print("data: " + std::to_string(positions) + " positions -> " + out);
    return "";
}

// The whole chunks of a file datagen may still be writing, copied to `out` as they are now: the
// bytes that `datagen ... games N` with the same seed and nodes makes again (N the copy's games),
// a snapshot to train on while the run goes on. Says the copy's stats, bytes and sha256: a row
// of the manifest (perf/data.md).
std::string snapshot(const std::string& path, const std::string& out, bool force,
                     const std::function<void(const std::string&)>& print) {
    if (std::filesystem::exists(out) && !force) return "data: " + out + " exists; add 'force' to overwrite it";
    std::error_code ec;
    std::filesystem::copy_file(path, out, std::filesystem::copy_options::overwrite_existing, ec);
    if (ec) return "data: cannot copy " + path + " to " + out + ": " + ec.message();
    std::uint64_t valid = 0;
    if (std::string why = gamefile::read(
            out, [](const gamefile::Chunk&) {}, &valid);
        !why.empty()) {
        std::filesystem::remove(out);
        return "data: " + why;
    }
    std::filesystem::resize_file(out, valid, ec);
    if (ec) return "data: cannot cut " + out + " to its whole chunks: " + ec.message();
    if (std::string why = stats(out, 0, print); !why.empty()) return why;
    print("data: " + out + ": " + std::to_string(valid) + " bytes, sha256 " + sha256::ofFile(out));
    return "";
}

}  // namespace

std::string runData(const std::vector<std::string>& args, const std::function<void(const std::string&)>& print) {
    const std::string usage = "data: use 'data stats FILE [minply N]', 'data text FILE OUT [minply N] "
                              "[shuffle SEED] [force]', 'data binary TEXT OUT [force]' or 'data snapshot FILE OUT "
                              "[force]'";
    const std::string what = args.empty() ? "" : args[0];
    const bool writes = what == "text" || what == "binary" || what == "snapshot";
    const std::size_t files = writes ? 3 : 2;
    if (args.size() < files || (what != "stats" && !writes)) return usage;
    text::KeywordArgs in("data", std::vector<std::string>(args.begin() + long(files), args.end()), {"force"});
    int minPly = 0;
    long long shuffleSeed = -1;
    if (what == "stats" || what == "text") in.integer("minply", 0, 1000, minPly);
    if (what == "text") in.integer("shuffle", 0, 1LL << 62, shuffleSeed);
    const bool force = writes && in.flag("force");
    if (std::string why = in.error(); !why.empty()) return why;
    if (what == "binary") return fromText(args[1], args[2], force, print);
    if (what == "snapshot") return snapshot(args[1], args[2], force, print);
    return what == "text" ? toText(args[1], args[2], minPly, shuffleSeed, force, print) : stats(args[1], minPly, print);
}
