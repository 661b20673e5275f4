// Thread placement on machines as Windows describes them (src/processors.h), from the bytes of
// GetLogicalProcessorInformationEx in tests/data/windows-layouts (made by make.py there): several
// processor groups, NUMA nodes, a hybrid CPU. Wine reports a single group, so on every platform
// these are the only check of the multi-group paths; under Wine one more test reads Wine's own
// answer with the parser and with Windows' headers.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <set>

#include "processors.h"
#include "support.h"
#include "topology.h"

#ifdef _WIN32
#ifndef NOMINMAX  // libstdc++'s MinGW headers may have defined it
#define NOMINMAX
#endif
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#endif

namespace {

constexpr std::uint64_t GROUP = ~std::uint64_t(0);  // every PU of a group

std::string layoutBytes(const std::string& name) {
    std::ifstream in(std::string(QUADBIT_SOURCE_DIR) + "/tests/data/windows-layouts/" + name + ".bin",
                     std::ios::binary);
    REQUIRE(in);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

processors::Layout parsed(const std::string& name) {
    processors::Layout layout;
    REQUIRE(processors::parse(layoutBytes(name), layout) == "");
    return layout;
}

std::set<int> distinct(const std::vector<int>& pus, int divisor) {
    std::set<int> s;
    for (int pu : pus) s.insert(pu / divisor);
    return s;
}

bool unpinned(const Placement& p) {
    return std::all_of(p.pus.begin(), p.pus.end(), [](int pu) { return pu < 0; });
}

}  // namespace

TEST_CASE("topology: the recorded Windows layouts parse into their groups, nodes, cores and classes", "[topology]") {
    const auto threadripper = parsed("threadripper-3990x");
    REQUIRE(threadripper.cores.size() == 64);
    REQUIRE(threadripper.activeByGroup == std::vector<std::uint64_t>{GROUP, GROUP});
    REQUIRE((threadripper.nodes == 1 && threadripper.packages == 1));
    for (std::size_t i = 0; i < 64; ++i)  // Windows lists group 0's cores, then group 1's
        REQUIRE(threadripper.cores[i].pus == std::vector<int>{int(2 * i), int(2 * i + 1)});

    const auto epyc = parsed("epyc-2s-nps4");
    REQUIRE(epyc.cores.size() == 128);
    REQUIRE(epyc.activeByGroup.size() == 4);
    REQUIRE((epyc.nodes == 8 && epyc.packages == 2));
    for (std::size_t i = 0; i < 128; ++i) REQUIRE(epyc.cores[i].node == int(i / 16));  // two nodes a group

    const auto desktop = parsed("desktop-16-core");
    REQUIRE(desktop.cores.size() == 16);
    REQUIRE(desktop.activeByGroup == std::vector<std::uint64_t>{0xFFFFFFFF});

    const auto hybrid = parsed("hybrid-8p-16e");
    REQUIRE(hybrid.cores.size() == 24);
    for (std::size_t i = 0; i < 24; ++i) {
        REQUIRE(hybrid.cores[i].efficiency == (i < 8 ? 1 : 0));
        REQUIRE(hybrid.cores[i].pus.size() == (i < 8 ? 2u : 1u));
    }

    // Bytes cut short or inconsistent are refused with a reason, and change nothing.
    const std::string bytes = layoutBytes("desktop-16-core");
    std::string zeroSize = bytes, pastEnd = bytes, noGroup = bytes;
    zeroSize[4] = 0;                                   // the first entry's Size
    pastEnd[4] = char(0xF0), pastEnd[5] = char(0xFF);  // a Size beyond the bytes
    noGroup.resize(bytes.size() - 8 - 24 - 48);        // without the group entry at the end
    for (const std::string& bad : {bytes.substr(0, bytes.size() - 1), bytes.substr(0, 5), zeroSize, pastEnd, noGroup}) {
        processors::Layout layout = hybrid;
        CHECK(!processors::parse(bad, layout).empty());
        REQUIRE(layout.cores.size() == 24);
    }
    Topology topology;
    const int before = topology.pus();
    REQUIRE(!topology.loadWindowsLayout(zeroSize, {GROUP}).empty());
    REQUIRE(topology.pus() == before);
}

TEST_CASE("topology: on a Threadripper 3990X, 128 threads use both groups, one a PU, distinct cores first",
          "[topology]") {
    Topology t;
    REQUIRE(t.loadWindowsLayout(layoutBytes("threadripper-3990x"), {GROUP, GROUP}) == "");  // Windows 11
    REQUIRE((t.cores() == 64 && t.pus() == 128));
    const Placement p = t.place(128, BindMode::AUTO);
    INFO(p.summary);
    REQUIRE(std::set<int>(p.pus.begin(), p.pus.end()).size() == 128);
    REQUIRE(distinct(p.pus, processors::GROUP_PUS) == std::set<int>{0, 1});
    const std::vector<int> first(p.pus.begin(), p.pus.begin() + 64);
    REQUIRE(distinct(first, 2).size() == 64);  // a core each before any SMT sibling
    REQUIRE(distinct(first, processors::GROUP_PUS) == std::set<int>{0, 1});

    // Fewer threads, spread: half in each group. Under auto they are not pinned at all.
    const Placement half = t.place(32, BindMode::SCATTER);
    REQUIRE(std::count_if(half.pus.begin(), half.pus.end(), [](int pu) { return pu < 64; }) == 16);
    REQUIRE(distinct(half.pus, 2).size() == 32);
    REQUIRE(unpinned(t.place(32, BindMode::AUTO)));
}

TEST_CASE("topology: three engines that leave CPUs free never pin to the same CPUs", "[topology]") {
    // Started side by side with the machine's CPUs, each with fewer threads than them: none pins.
    for (const char* name : {"epyc-2s-nps4", "threadripper-3990x", "desktop-16-core", "hybrid-8p-16e"}) {
        Topology t;
        REQUIRE(t.loadWindowsLayout(layoutBytes(name), {GROUP, GROUP, GROUP, GROUP}) == "");
        for (int engine = 0; engine < 3; ++engine) REQUIRE(unpinned(t.place(t.pus() / 3, BindMode::AUTO)));
    }
    // A match runner that gives each its own group: each fills and pins inside its own.
    std::set<int> used;
    for (std::size_t group = 0; group < 3; ++group) {
        std::vector<std::uint64_t> inherited(4, 0);
        inherited[group] = GROUP;
        Topology t;
        REQUIRE(t.loadWindowsLayout(layoutBytes("epyc-2s-nps4"), inherited) == "");
        const Placement p = t.place(64, BindMode::AUTO);
        REQUIRE(distinct(p.pus, processors::GROUP_PUS) == std::set<int>{int(group)});
        for (int pu : p.pus) REQUIRE(used.insert(pu).second);
    }
    REQUIRE(used.size() == 192);
}

TEST_CASE("topology: a one-group affinity inherited from a GUI is kept, unless CPUs is machine", "[topology]") {
    Topology t;
    REQUIRE(t.loadWindowsLayout(layoutBytes("threadripper-3990x"), {GROUP, 0}) == "");  // group 0 only
    REQUIRE((t.pus() == 64 && t.cores() == 32));
    const Placement kept = t.place(64, BindMode::AUTO);
    REQUIRE(distinct(kept.pus, processors::GROUP_PUS) == std::set<int>{0});
    REQUIRE(std::set<int>(kept.pus.begin(), kept.pus.end()).size() == 64);
    REQUIRE(unpinned(t.place(128, BindMode::AUTO)));  // more threads than the GUI left: the scheduler's

    t.useWholeMachine(true);
    REQUIRE(t.pus() == 128);
    REQUIRE(distinct(t.place(128, BindMode::AUTO).pus, processors::GROUP_PUS) == std::set<int>{0, 1});
    t.useWholeMachine(false);
    REQUIRE(t.pus() == 64);

    // Part of a group (a GUI's affinity mask): those PUs and no other.
    Topology part;
    REQUIRE(part.loadWindowsLayout(layoutBytes("threadripper-3990x"), {0xFFFF0000, 0}) == "");
    REQUIRE((part.pus() == 16 && part.cores() == 8));
    for (int pu : part.place(16, BindMode::AUTO).pus) REQUIRE((pu >= 16 && pu < 32));
}

TEST_CASE("topology: on a hybrid CPU the performance cores come first, then the efficient ones", "[topology]") {
    Topology t;
    REQUIRE(t.loadWindowsLayout(layoutBytes("hybrid-8p-16e"), {GROUP}) == "");
    REQUIRE((t.cores() == 24 && t.pus() == 32));
    const Placement eight = t.place(8, BindMode::SCATTER);
    REQUIRE(distinct(eight.pus, 2) == std::set<int>{0, 1, 2, 3, 4, 5, 6, 7});  // PUs 0-15: the P cores
    const Placement all = t.place(32, BindMode::AUTO);
    const std::vector<int> first(all.pus.begin(), all.pus.begin() + 24);
    for (int i = 0; i < 8; ++i) REQUIRE(first[std::size_t(i)] < 16);
    for (int i = 8; i < 24; ++i) REQUIRE(first[std::size_t(i)] >= 16);  // every core before a sibling
    REQUIRE(std::set<int>(all.pus.begin(), all.pus.end()).size() == 32);
}

#ifdef _WIN32
TEST_CASE("topology: the parser reads this machine's answer as Windows' headers do", "[topology]") {
    DWORD bytes = 0;
    GetLogicalProcessorInformationEx(RelationAll, nullptr, &bytes);
    std::string buffer(bytes, '\0');
    auto* info = reinterpret_cast<SYSTEM_LOGICAL_PROCESSOR_INFORMATION_EX*>(buffer.data());
    REQUIRE(GetLogicalProcessorInformationEx(RelationAll, info, &bytes));
    buffer.resize(bytes);
    processors::Layout layout;
    REQUIRE(processors::parse(buffer, layout) == "");

    std::vector<std::vector<int>> cores;
    for (DWORD at = 0; at < bytes;) {
        const auto* entry = reinterpret_cast<const SYSTEM_LOGICAL_PROCESSOR_INFORMATION_EX*>(buffer.data() + at);
        if (entry->Relationship == RelationProcessorCore) {
            std::vector<int> pus;
            for (WORD g = 0; g < entry->Processor.GroupCount; ++g)
                for (int bit = 0; bit < 64; ++bit)
                    if (entry->Processor.GroupMask[g].Mask >> bit & 1)
                        pus.push_back(entry->Processor.GroupMask[g].Group * 64 + bit);
            cores.push_back(pus);
        }
        at += entry->Size;
    }
    REQUIRE(layout.cores.size() == cores.size());
    for (std::size_t i = 0; i < cores.size(); ++i) REQUIRE(layout.cores[i].pus == cores[i]);
    REQUIRE(layout.activeByGroup.size() == GetActiveProcessorGroupCount());
    REQUIRE(Topology().pus() > 0);  // the machine's own topology comes from the same bytes
}
#endif
