// Self-play data generation end to end on a tiny budget: the format, the filters, determinism.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>

#include <catch2/catch.hpp>
#include "datagen/datagen.h"
#include "position.h"

namespace {

std::string tempPath(const std::string& name) {
    return (std::filesystem::temp_directory_path() / ("quadbit-test-" + name)).string();
}

std::vector<std::string> generate(const std::string& name, std::vector<std::string> args) {
    const std::string path = tempPath(name);
    std::filesystem::remove(path);
    args.insert(args.end(), {"out", path});
    std::string why = runDatagen(args, [](const std::string&) {});
    INFO(why);
    REQUIRE(why.empty());
    std::vector<std::string> lines;
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    std::filesystem::remove(path);
    return lines;
}

}  // namespace

TEST_CASE("datagen: quiet, scored, labelled positions, the same for the same seed", "[datagen]") {
    const std::vector<std::string> args = {"games", "3", "nodes", "400", "seed", "5", "randomplies", "6"};
    auto one = [&](const char* threads) {
        auto a = args;
        a.insert(a.end(), {"threads", threads});
        return generate(std::string("datagen-") + threads, a);
    };
    const auto lines = one("1");
    REQUIRE(lines.size() > 30);
    const std::regex format(R"((.+) \| (-?\d+) \| (1\.0|0\.5|0\.0))");
    for (const auto& line : lines) {
        INFO(line);
        std::smatch m;
        REQUIRE(std::regex_match(line, m, format));
        Position p;
        REQUIRE(p.setFen(m[1]).empty());
        REQUIRE(!p.inCheck());                                       // the filter: no position in check
        REQUIRE(std::abs(std::stoi(m[2])) < VALUE_MATE_IN_MAX_PLY);  // nor a mate score
    }
    REQUIRE(one("1") == lines);  // one thread: the same games in the same order
    auto sorted = lines, twoThreads = one("2");
    std::sort(sorted.begin(), sorted.end());
    std::sort(twoThreads.begin(), twoThreads.end());
    REQUIRE(twoThreads == sorted);  // each game is its own: threads change only the order
}

TEST_CASE("datagen: bad arguments change nothing", "[datagen]") {
    const std::string path = tempPath("datagen-existing");
    std::ofstream(path) << "keep me\n";
    const auto quiet = [](const std::string&) {};
    REQUIRE(!runDatagen({"out", path, "games", "1"}, quiet).empty());  // no overwrite without force
    REQUIRE(!runDatagen({"out", path, "nodes", "0", "force"}, quiet).empty());
    REQUIRE(!runDatagen({"out", path, "book", "/nonexistent.epd", "force"}, quiet).empty());
    REQUIRE(!runDatagen({"out", path, "colour", "blue", "force"}, quiet).empty());
    REQUIRE(!runDatagen({"games", "1"}, quiet).empty());
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    REQUIRE(line == "keep me");
    std::filesystem::remove(path);
}
