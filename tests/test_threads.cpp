// Lazy SMP: placement on synthetic machines, many threads searching, stopping and resizing.
#include <catch2/catch.hpp>

#include <hwloc.h>
#include <hwloc/export.h>
#include <sched.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <set>
#include <thread>

#include "engine_process.h"
#include "numa.h"
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

    Placement sixteen = topo.place(16, BindMode::SCATTER);
    REQUIRE(distinct(sixteen.pus, 2).size() == 16);  // every core once, no SMT sibling yet

    Placement all = topo.place(32, BindMode::SCATTER);
    REQUIRE(std::set<int>(all.pus.begin(), all.pus.end()).size() == 32);
    // The first sixteen threads still sit on distinct cores.
    REQUIRE(distinct(std::vector<int>(all.pus.begin(), all.pus.begin() + 16), 2).size() == 16);

    // Auto pins only threads that fill the PUs, and never a lone thread; none never pins.
    for (int pu : topo.place(16, BindMode::AUTO).pus) REQUIRE(pu == -1);
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
    Placement p = topo.place(4, BindMode::SCATTER);
    std::set<int> allowed{0, 1, 2, 3, 16, 17, 18, 19};
    for (int pu : p.pus) REQUIRE(allowed.count(pu));
    REQUIRE(distinct(p.pus, 2).size() == 4);   // four distinct cores
    REQUIRE(distinct(p.pus, 16).size() == 2);  // both packages
    Placement two = topo.place(2, BindMode::SCATTER);
    REQUIRE(distinct(two.pus, 16).size() == 2);
    // Auto: eight threads fill the eight allowed PUs, four do not (an SMT sibling each is free).
    Placement eight = topo.place(8, BindMode::AUTO);
    REQUIRE(std::set<int>(eight.pus.begin(), eight.pus.end()) == allowed);
    for (int pu : topo.place(4, BindMode::AUTO).pus) REQUIRE(pu == -1);
    for (int pu : topo.place(9, BindMode::AUTO).pus) REQUIRE(pu == -1);  // more threads than allowed PUs
}

namespace {

// Machines a user runs on, as hwloc's synthetic descriptions.
const std::pair<const char*, const char*> MACHINES[] = {
    {"a 2-core laptop", "core:2 pu:1"},
    {"a 4-core laptop with SMT", "core:4 pu:2"},
    {"a 16-core one-socket server", "package:1 core:16 pu:1"},
    {"a 2-socket NUMA server with SMT", TWO_SOCKETS},
    {"a Graviton-like 64-core Arm server", "package:1 numa:1 core:64 pu:1"},
    {"an Ampere-like 2-socket Arm server", "package:2 numa:1 core:80 pu:1"},
};

// PUs pinned by more than one of the placements (unpinned threads are the scheduler's to spread).
int sharedPus(const std::vector<Placement>& processes) {
    std::multiset<int> pinned;
    for (const Placement& p : processes)
        for (int pu : p.pus)
            if (pu >= 0) pinned.insert(pu);
    int shared = 0;
    for (int pu : std::set<int>(pinned.begin(), pinned.end())) shared += pinned.count(pu) > 1;
    return shared;
}

}  // namespace

TEST_CASE("threads: auto pins exactly when the threads fill the allowed PUs, each on its own PU",
          "[threads][topology]") {
    for (const auto& [name, description] : MACHINES) {
        INFO(name);
        Topology topo;
        REQUIRE(topo.loadXml(syntheticXml(description)));
        const int pus = topo.pus(), cores = topo.cores();
        for (int threads = 1; threads <= pus + 1; ++threads) {
            INFO(threads << " threads");
            const Placement p = topo.place(threads, BindMode::AUTO);
            const bool pinned = p.pus[0] >= 0;
            REQUIRE(pinned == (threads == pus));
            REQUIRE(p.summary.find(pinned ? "bound" : "unpinned") != std::string::npos);
            if (!pinned) continue;
            REQUIRE(std::set<int>(p.pus.begin(), p.pus.end()).size() == size_t(pus));
            // The first threads, the ones that search most alike, take distinct cores.
            const int smt = pus / cores;
            REQUIRE(distinct(std::vector<int>(p.pus.begin(), p.pus.begin() + cores), smt).size() == size_t(cores));
        }
    }
}

namespace {

// Topology::place and then the NUMA policy, as ThreadPool::set does.
Placement placeOnNodes(const Topology& topo, int threads, const numa::Policy& policy = {}) {
    Placement p = topo.place(threads, BindMode::AUTO);
    numa::assignNodes(p, policy, numa::nodesOf(policy, topo.numaNodes(), topo.allowedPus()));
    return p;
}

}  // namespace

TEST_CASE("threads: engines that leave PUs free, side by side with auto, never pin to the same PU",
          "[threads][topology][numa]") {
    // A match runner playing three games at once with Threads 4, as on a 16-CPU tournament box:
    // each process sees the same machine and, pinned, would take the same four cores. (Engines
    // that each fill the machine share every PU whatever is pinned.) With NumaPolicy auto a
    // thread may be bound to its whole node, never to a single PU.
    for (const auto& [name, description] : MACHINES) {
        INFO(name);
        Topology topo;
        REQUIRE(topo.loadXml(syntheticXml(description)));
        for (int threads : {2, 4, topo.pus() / 2, topo.pus() - 1}) {
            if (threads < 1 || threads >= topo.pus()) continue;
            INFO(threads << " threads in each of three processes");
            std::vector<Placement> processes(3, placeOnNodes(topo, threads));
            REQUIRE(sharedPus(processes) == 0);
            for (const Placement& p : processes)
                for (std::size_t t = 0; t < p.pus.size(); ++t) REQUIRE(p.cpusOf(t).size() != 1);
        }
    }
}

TEST_CASE("threads: NUMA auto on synthetic 2-socket and 8-node machines, with and without SMT",
          "[threads][topology][numa]") {
    struct Machine {
        const char* description;
        std::size_t nodes, nodePus;
    };
    for (const Machine& m :
         {Machine{"package:2 numa:1 core:8 pu:2", 2, 16}, Machine{"package:2 numa:1 core:8 pu:1", 2, 8},
          Machine{"package:2 numa:4 core:4 pu:2", 8, 8}, Machine{"numa:8 core:4 pu:1", 8, 4}}) {
        INFO(m.description);
        Topology topo;
        REQUIRE(topo.loadXml(syntheticXml(m.description)));
        const auto nodes = topo.numaNodes();
        REQUIRE(nodes.size() == m.nodes);
        for (std::size_t n = 0; n < nodes.size(); ++n)  // PUs numbered node by node
            REQUIRE(nodes[n] == [&] {
                std::vector<int> pus;
                for (std::size_t i = 0; i < m.nodePus; ++i) pus.push_back(int(n * m.nodePus + i));
                return pus;
            }());
        const int pus = topo.pus();
        for (int threads : {pus / 2, pus - 1, pus}) {
            INFO(threads << " threads");
            const Placement p = placeOnNodes(topo, threads);
            INFO(p.summary);
            if (threads == pus) {  // they fill the PUs: pinned, each reading its PU's node's copy
                REQUIRE_FALSE(p.nodeBound);
                for (std::size_t t = 0; t < p.pus.size(); ++t) REQUIRE(p.node[t] == p.pus[t] / int(m.nodePus));
                continue;
            }
            REQUIRE(p.nodeBound);
            std::vector<int> perNode(m.nodes, 0);
            for (std::size_t t = 0; t < p.pus.size(); ++t) {
                REQUIRE(p.pus[t] == -1);
                REQUIRE(p.cpusOf(t) == nodes[std::size_t(p.node[t])]);
                ++perNode[std::size_t(p.node[t])];
            }
            // In proportion: equal nodes get equal shares, one more for the first ones.
            for (int count : perNode) REQUIRE(std::abs(count - threads / int(m.nodes)) <= 1);
        }
        // One thread, and with policy none any count: no node binding, one network.
        REQUIRE_FALSE(placeOnNodes(topo, 1).nodeBound);
        numa::Policy none;
        REQUIRE(numa::parse("none", none) == "");
        const Placement unbound = placeOnNodes(topo, pus / 2, none);
        REQUIRE((!unbound.nodeBound && unbound.nodes.empty()));
        REQUIRE(unbound.node == std::vector<int>(std::size_t(pus / 2), 0));
    }
}

TEST_CASE("threads: processes given disjoint CPU sets each pin inside their own", "[threads][topology]") {
    // fastchess -use-affinity or taskset: four PUs each, on a one-socket and an SMT machine.
    for (const char* description : {"package:1 core:16 pu:1", "core:4 pu:2"}) {
        INFO(description);
        std::vector<Placement> processes;
        for (int first : {0, 4}) {
            Topology topo;
            REQUIRE(topo.loadXml(syntheticXml(description)));
            topo.restrictTo({first, first + 1, first + 2, first + 3});
            processes.push_back(topo.place(4, BindMode::AUTO));
            REQUIRE(std::set<int>(processes.back().pus.begin(), processes.back().pus.end()) ==
                    std::set<int>{first, first + 1, first + 2, first + 3});
        }
        REQUIRE(sharedPus(processes) == 0);
    }
}

TEST_CASE("threads: a machine without hwloc information runs unpinned", "[threads][topology]") {
    Topology topo;
    REQUIRE(!topo.loadXml("not xml at all"));  // a bad file changes nothing
    REQUIRE(topo.usable());
    Placement p = topo.place(2, BindMode::SCATTER);
    REQUIRE(p.pus.size() == 2);
    REQUIRE(!p.summary.empty());
}

namespace {

// The CPUs this test process may use, as the engines it starts inherit them.
std::vector<int> allowedCpus() {
    cpu_set_t set;
    std::vector<int> cpus;
    if (sched_getaffinity(0, sizeof set, &set) == 0)
        for (int c = 0; c < CPU_SETSIZE; ++c)
            if (CPU_ISSET(c, &set)) cpus.push_back(c);
    return cpus;
}

// The engine's `info string` on its placement after `setoption name Threads`.
std::string placementAfterThreads(EngineProcess& e, int threads) {
    e.send("setoption name Threads value " + std::to_string(threads));
    for (const std::string& line : e.sync())
        if (line.find(" threads ") != std::string::npos) return line;
    return "";
}

}  // namespace

TEST_CASE("threads: real engines pin inside the CPUs taskset gives them, and leave a part to the scheduler",
          "[threads][topology]") {
    const std::vector<int> cpus = allowedCpus();
    REQUIRE(!cpus.empty());
    {
        // Threads filling the inherited CPUs are pinned; fewer are left unpinned.
        EngineProcess e;
        const std::string all = placementAfterThreads(e, int(cpus.size()));
        INFO(all);
        REQUIRE(all.find("bound (auto) to " + std::to_string(cpus.size()) + " of " + std::to_string(cpus.size())) !=
                std::string::npos);
        if (cpus.size() > 1) REQUIRE(placementAfterThreads(e, 1).find("unpinned (bind auto") != std::string::npos);
    }
    if (cpus.size() < 2) return;
    // Two engines side by side, each given one CPU of its own: each pins its thread there.
    const int first = cpus.front(), second = cpus.back();
    EngineProcess a("/usr/bin/taskset", {"-c", std::to_string(first), QUADBIT_ENGINE});
    EngineProcess b("/usr/bin/taskset", {"-c", std::to_string(second), QUADBIT_ENGINE});
    const std::string onFirst = placementAfterThreads(a, 1), onSecond = placementAfterThreads(b, 1);
    INFO(onFirst << " / " << onSecond);
    REQUIRE(onFirst.find("bound (auto) to 1 of 1 PUs") != std::string::npos);
    REQUIRE(onFirst.find("PU " + std::to_string(first)) != std::string::npos);
    REQUIRE(onSecond.find("PU " + std::to_string(second)) != std::string::npos);
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
