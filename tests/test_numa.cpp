// NUMA placement (src/numa.h): the policy's text, how threads share out over nodes, machines as
// Windows describes them (tests/data/windows-layouts), and which copy of the network each thread
// reads. hwloc's synthetic machines are in test_threads.cpp (Linux only).
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <numeric>
#include <set>

#include "numa.h"
#include "threads.h"
#include "topology.h"

namespace {

std::vector<int> range(int first, int count) {
    std::vector<int> pus(std::size_t(count), 0);
    std::iota(pus.begin(), pus.end(), first);
    return pus;
}

// `threads` threads as Topology::place leaves them when it does not pin (Bind auto, threads fewer
// than the PUs), then given their nodes.
Placement unpinnedOn(const std::vector<std::vector<int>>& nodes, int threads, const numa::Policy& policy) {
    Placement p;
    p.pus.assign(std::size_t(threads), -1);
    numa::assignNodes(p, policy, nodes);
    return p;
}

std::vector<int> threadsPerNode(const Placement& p) {
    std::vector<int> count(std::max<std::size_t>(p.nodes.size(), 1), 0);
    for (int n : p.node) ++count[std::size_t(n)];
    return count;
}

const numa::Policy AUTO{};

}  // namespace

TEST_CASE("numa: a policy is auto, none or PUs a node, and anything else is refused and changes nothing", "[numa]") {
    numa::Policy policy;
    REQUIRE(numa::parse("none", policy) == "");
    CHECK(policy.kind == numa::Policy::NONE);
    REQUIRE(numa::parse("0-3,8:4-7", policy) == "");
    CHECK(policy.kind == numa::Policy::LIST);
    CHECK(policy.listed == std::vector<std::vector<int>>{{0, 1, 2, 3, 8}, {4, 5, 6, 7}});
    for (const char* bad : {"", "bogus", "0-3:", ":0-3", "3-0", "0-3:2-5", "0-3,", "0--3", "a-b", "-1", "0-3::4-7"}) {
        INFO(bad);
        CHECK_FALSE(numa::parse(bad, policy).empty());
        CHECK(policy.listed == std::vector<std::vector<int>>{{0, 1, 2, 3, 8}, {4, 5, 6, 7}});  // unchanged
    }
    REQUIRE(numa::parse("auto", policy) == "");
    CHECK((policy.kind == numa::Policy::AUTO && policy.listed.empty()));
}

TEST_CASE("numa: the nodes named are the allowed PUs they hold, and none is one node", "[numa]") {
    const std::vector<std::vector<int>> machine{range(0, 8), range(8, 8)};
    const std::vector<int> allowed{0, 1, 2, 3, 4, 5, 6, 7, 8, 9};  // a GUI left us two PUs of node 1
    CHECK(numa::nodesOf(AUTO, machine, allowed) == std::vector<std::vector<int>>{range(0, 8), {8, 9}});
    CHECK(numa::nodesOf(numa::Policy{numa::Policy::NONE, {}}, machine, allowed).empty());
    numa::Policy listed;
    REQUIRE(numa::parse("0-3:4-7:12-15", listed) == "");
    CHECK(numa::nodesOf(listed, machine, allowed) == std::vector<std::vector<int>>{range(0, 4), range(4, 4)});
}

TEST_CASE("numa: threads spread over the nodes in proportion to their PUs, each bound to its node", "[numa]") {
    const std::vector<std::vector<int>> twoSockets{range(0, 16), range(16, 16)};
    const Placement sixteen = unpinnedOn(twoSockets, 16, AUTO);
    INFO(sixteen.summary);
    REQUIRE(sixteen.nodeBound);
    CHECK(threadsPerNode(sixteen) == std::vector<int>{8, 8});
    CHECK((sixteen.node[0] == 0 && sixteen.node[1] == 1));  // the first threads already cover the nodes
    for (std::size_t t = 0; t < 16; ++t) CHECK(sixteen.cpusOf(t) == twoSockets[std::size_t(sixteen.node[t])]);

    // Unequal nodes (a restricted set): threads by their share of the PUs.
    const Placement uneven = unpinnedOn({range(0, 8), range(8, 16)}, 12, AUTO);
    CHECK(threadsPerNode(uneven) == std::vector<int>{4, 8});

    // Few threads: where the system puts them (binding them would leave a node's cores idle
    // while the others crowd); one network, no copies.
    const Placement two = unpinnedOn(twoSockets, 2, AUTO);
    CHECK_FALSE(two.nodeBound);
    CHECK(two.nodes.empty());
    CHECK(two.node == std::vector<int>{0, 0});
    CHECK(two.cpusOf(1).empty());
    CHECK(two.summary.find("not bound") != std::string::npos);

    // Nodes the user lists are always used.
    numa::Policy listed;
    REQUIRE(numa::parse("0-15:16-31", listed) == "");
    const Placement listedTwo = unpinnedOn(twoSockets, 2, listed);
    CHECK(listedTwo.nodeBound);
    CHECK(listedTwo.node == std::vector<int>{0, 1});

    // Eight nodes of four PUs: eight threads, one a node.
    std::vector<std::vector<int>> eight;
    for (int n = 0; n < 8; ++n) eight.push_back(range(4 * n, 4));
    CHECK(threadsPerNode(unpinnedOn(eight, 8, AUTO)) == std::vector<int>(8, 1));
    CHECK(threadsPerNode(unpinnedOn(eight, 12, AUTO)) == std::vector<int>{2, 2, 2, 2, 1, 1, 1, 1});

    // One node: nothing to share out.
    const Placement one = unpinnedOn({range(0, 16)}, 16, AUTO);
    CHECK((!one.nodeBound && one.nodes.empty() && one.node == std::vector<int>(16, 0)));
}

TEST_CASE("numa: threads pinned to PUs keep them and read the copy of their PU's node", "[numa]") {
    Placement p;
    p.pus = {0, 16, 1, 17};
    numa::assignNodes(p, AUTO, {range(0, 16), range(16, 16)});
    CHECK_FALSE(p.nodeBound);
    CHECK(p.node == std::vector<int>{0, 1, 0, 1});
    CHECK(p.cpusOf(1) == std::vector<int>{16});
}

TEST_CASE("numa: a 2-socket EPYC in NPS4 as Windows describes it has 8 nodes, 64 threads 8 a node", "[numa]") {
    std::ifstream in(std::string(QUADBIT_SOURCE_DIR) + "/tests/data/windows-layouts/epyc-2s-nps4.bin",
                     std::ios::binary);
    REQUIRE(in);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    constexpr std::uint64_t GROUP = ~std::uint64_t(0);
    Topology t;
    REQUIRE(t.loadWindowsLayout(bytes, {GROUP, GROUP, GROUP, GROUP}) == "");
    const auto nodes = t.numaNodes();
    REQUIRE(nodes.size() == 8);
    for (const auto& node : nodes) {
        CHECK(node.size() == 32);  // 16 cores with two PUs
        // A node lies within one processor group (a thread binds within one).
        CHECK(node.front() / processors::GROUP_PUS == node.back() / processors::GROUP_PUS);
    }
    Placement p = t.place(64, BindMode::AUTO);  // fewer than the PUs: not pinned to PUs
    numa::assignNodes(p, AUTO, numa::nodesOf(AUTO, nodes, t.allowedPus()));
    INFO(p.summary);
    CHECK(p.nodeBound);
    CHECK(threadsPerNode(p) == std::vector<int>(8, 8));

    // All 256 PUs: pinned one a PU, each reading its PU's node's copy.
    Placement all = t.place(256, BindMode::AUTO);
    numa::assignNodes(all, AUTO, numa::nodesOf(AUTO, nodes, t.allowedPus()));
    CHECK_FALSE(all.nodeBound);
    for (std::size_t i = 0; i < 256; ++i)
        CHECK(std::count(nodes[std::size_t(all.node[i])].begin(), nodes[std::size_t(all.node[i])].end(), all.pus[i]));
}

TEST_CASE("numa: each thread reads its node's copy of the network, made anew when the network changes", "[numa]") {
    const std::vector<int> allowed = machineTopology().allowedPus();
    if (allowed.size() < 2) {
        WARN("this machine lets the engine use " << allowed.size() << " PU: two nodes cannot be listed");
        return;
    }
    ThreadPool pool;
    pool.network = &nnue::embedded();
    // This machine cut into two nodes by the list: the first PU, and the rest.
    std::string list = std::to_string(allowed[0]) + ":";
    for (std::size_t i = 1; i < allowed.size(); ++i) list += (i > 1 ? "," : "") + std::to_string(allowed[i]);
    REQUIRE(numa::parse(list, pool.numaPolicy) == "");
    REQUIRE(pool.set(4, BindMode::AUTO) == "");
    INFO(pool.placement());
    CHECK(pool.placement().find("the network copied onto 2 NUMA nodes") != std::string::npos);
    std::set<const nnue::Network*> copies;
    for (std::size_t t = 0; t < 4; ++t) {
        const nnue::Network* net = pool.networkFor(t);
        REQUIRE(net != nullptr);
        CHECK(net != pool.network);
        CHECK(nnue::encode(*net) == nnue::encode(*pool.network));
        copies.insert(net);
    }
    CHECK(copies.size() == 2);
    CHECK(pool.networkFor(0) != pool.networkFor(1));  // threads 0 and 1 are on the two nodes

    // The hand-written evaluation: no network, no copy.
    pool.network = nullptr;
    CHECK(pool.replicateNetwork().empty());
    for (std::size_t t = 0; t < 4; ++t) CHECK(pool.networkFor(t) == nullptr);

    // One node: every thread reads the network itself.
    pool.network = &nnue::embedded();
    REQUIRE(numa::parse("none", pool.numaPolicy) == "");
    REQUIRE(pool.set(4, BindMode::AUTO) == "");
    for (std::size_t t = 0; t < 4; ++t) CHECK(pool.networkFor(t) == pool.network);
}
