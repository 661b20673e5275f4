// Lazy SMP: placement on synthetic machines, many threads searching, stopping and resizing.
#include <catch2/catch.hpp>

#include <hwloc.h>
#include <hwloc/export.h>

#include <algorithm>
#include <chrono>
#include <set>
#include <thread>

#include "engine_process.h"
#include "topology.h"

namespace {

// A synthetic machine described to hwloc, exported to XML and loaded back from it.
std::string syntheticXml(const char* description) {
    hwloc_topology_t t;
    REQUIRE(hwloc_topology_init(&t) == 0);
    REQUIRE(hwloc_topology_set_synthetic(t, description) == 0);
    REQUIRE(hwloc_topology_load(t) == 0);
    char* buffer = nullptr;
    int length = 0;
    REQUIRE(hwloc_topology_export_xmlbuffer(t, &buffer, &length, 0) == 0);
    std::string xml(buffer, size_t(length));
    hwloc_free_xmlbuffer(t, buffer);
    hwloc_topology_destroy(t);
    return xml;
}

// Two packages, each with two NUMA nodes of four cores with two hardware threads: PU numbers
// run package-major, so PU p lies in package p / 16, NUMA node p / 8 and core p / 2.
const char* const TWO_SOCKETS = "package:2 numa:2 core:4 pu:2";

std::set<int> distinct(const std::vector<int>& v, int divisor) {
    std::set<int> s;
    for (int pu : v) s.insert(pu / divisor);
    return s;
}

}  // namespace

TEST_CASE("threads: placement spreads over packages and NUMA nodes, cores before SMT siblings", "[threads][topology]") {
    Topology topo;
    REQUIRE(topo.loadXml(syntheticXml(TWO_SOCKETS)));
    REQUIRE(topo.cores() == 16);
    REQUIRE(topo.pus() == 32);

    Placement two = topo.place(2, BindMode::SCATTER);
    REQUIRE(distinct(two.pus, 16).size() == 2);  // one thread per package

    Placement four = topo.place(4, BindMode::SCATTER);
    REQUIRE(distinct(four.pus, 8).size() == 4);  // one per NUMA node

    Placement sixteen = topo.place(16, BindMode::AUTO);
    REQUIRE(distinct(sixteen.pus, 2).size() == 16);  // every core once, no SMT sibling yet

    Placement all = topo.place(32, BindMode::SCATTER);
    REQUIRE(std::set<int>(all.pus.begin(), all.pus.end()).size() == 32);
    // The first sixteen threads still sit on distinct cores.
    REQUIRE(distinct(std::vector<int>(all.pus.begin(), all.pus.begin() + 16), 2).size() == 16);

    // Auto pins only while there are enough cores, and never a lone thread; none never pins.
    for (int pu : topo.place(17, BindMode::AUTO).pus) REQUIRE(pu == -1);
    REQUIRE(topo.place(1, BindMode::AUTO).pus[0] == -1);
    REQUIRE(topo.place(1, BindMode::SCATTER).pus[0] >= 0);
    for (int pu : topo.place(4, BindMode::NONE).pus) REQUIRE(pu == -1);

    // Compact fills the first package's cores first.
    Placement compact = topo.place(4, BindMode::COMPACT);
    REQUIRE(distinct(compact.pus, 16) == std::set<int>{0});
    REQUIRE(distinct(compact.pus, 2).size() == 4);
}

TEST_CASE("threads: placement respects a restricted CPU set", "[threads][topology]") {
    Topology topo;
    REQUIRE(topo.loadXml(syntheticXml(TWO_SOCKETS)));
    // As if a match runner had given us PUs 0-3 of package 0 and PUs 16-19 of package 1.
    topo.restrictTo({0, 1, 2, 3, 16, 17, 18, 19});
    REQUIRE(topo.pus() == 8);
    REQUIRE(topo.cores() == 4);
    Placement p = topo.place(4, BindMode::AUTO);
    std::set<int> allowed{0, 1, 2, 3, 16, 17, 18, 19};
    for (int pu : p.pus) REQUIRE(allowed.count(pu));
    REQUIRE(distinct(p.pus, 2).size() == 4);   // four distinct cores
    REQUIRE(distinct(p.pus, 16).size() == 2);  // both packages
    Placement two = topo.place(2, BindMode::SCATTER);
    REQUIRE(distinct(two.pus, 16).size() == 2);
    for (int pu : topo.place(5, BindMode::AUTO).pus) REQUIRE(pu == -1);  // more threads than allowed cores
}

TEST_CASE("threads: a machine without hwloc information runs unpinned", "[threads][topology]") {
    Topology topo;
    REQUIRE(!topo.loadXml("not xml at all"));  // a bad file changes nothing
    REQUIRE(topo.usable());
    Placement p = topo.place(2, BindMode::SCATTER);
    REQUIRE(p.pus.size() == 2);
    REQUIRE(!p.summary.empty());
}

TEST_CASE("threads: 64 threads search, stop and resize repeatedly without deadlock", "[threads][stress]") {
    EngineProcess e;
    e.send("setoption name Hash value 64");
    for (int round = 0; round < 6; ++round) {
        e.send("setoption name Threads value " + std::string(round % 2 ? "64" : "7"));
        e.send("position startpos moves e2e4 e7e5");
        e.send("go infinite");
        std::this_thread::sleep_for(std::chrono::milliseconds(60));
        e.send("stop");
        REQUIRE(e.readUntil("bestmove", 10000).back().rfind("bestmove ", 0) == 0);
        e.send("go depth 6");
        REQUIRE(e.readUntil("bestmove", 30000).back().rfind("bestmove ", 0) == 0);
        e.send("ucinewgame");
    }
    e.send("setoption name Threads value 64");
    e.send("go movetime 200");
    e.readUntil("bestmove", 10000);
    e.send("quit");
    REQUIRE(e.waitExit(10000) == 0);
}

TEST_CASE("threads: stop is answered within 25 ms with 8 threads", "[threads][latency]") {
    EngineProcess e;
    e.send("setoption name Threads value 8");
    e.send("position startpos");
    // Eight threads on as few as two cores, with other tests running beside: the threads must
    // all be scheduled to see the flag, so the bound is looser than with one thread.
    long median = e.medianStopLatencyMicros();
    INFO("median " << median << " us");
    REQUIRE(median < 25000);
}
