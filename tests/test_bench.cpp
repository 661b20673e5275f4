#include <catch2/catch.hpp>

#include <fstream>

#include "bench.h"
#include "engine_process.h"
#include "position.h"

TEST_CASE("bench: the node count equals the one recorded in the repository", "[bench]") {
    // Update tests/bench.expected whenever a change alters the search or the embedded network (and
    // say so in the commit). The default evaluation is the network, so the count also checks that
    // the accumulators follow the search's moves exactly.
    std::ifstream expectedFile(QUADBIT_SOURCE_DIR "/tests/bench.expected");
    REQUIRE(expectedFile);
    std::string expected;
    expectedFile >> expected;

    EngineProcess e({"bench"});
    std::string nodes;
    for (const auto& line : e.readUntil("Nodes searched", 120000))
        if (line.rfind("Nodes searched  : ", 0) == 0) nodes = line.substr(18);
    REQUIRE(nodes == expected);
    REQUIRE(e.readLine().rfind("Nodes/second    : ", 0) == 0);
    REQUIRE(e.waitExit() == 0);
}

TEST_CASE("bench: with the hand-written evaluation, the node count equals the one recorded in the repository",
          "[bench][eval]") {
    // Update tests/bench-handwritten.expected whenever the search or the hand-written evaluation
    // changes.
    std::ifstream expectedFile(QUADBIT_SOURCE_DIR "/tests/bench-handwritten.expected");
    REQUIRE(expectedFile);
    std::string expected;
    expectedFile >> expected;

    EngineProcess e;
    e.send("setoption name Use NNUE value false");
    e.send("bench");
    std::string nodes;
    for (const auto& line : e.readUntil("Nodes searched", 120000))
        if (line.rfind("Nodes searched  : ", 0) == 0) nodes = line.substr(18);
    REQUIRE(nodes == expected);
    e.send("quit");
    REQUIRE(e.waitExit() == 0);
}

TEST_CASE("bench: every bench and speedtest position is a valid FEN", "[bench]") {
    for (const auto* list : {&benchPositions(), &speedtestPositions()})
        for (const std::string& fen : *list) {
            Position pos;
            INFO(fen);
            REQUIRE(pos.setFen(fen) == "");
        }
}
