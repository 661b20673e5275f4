// The machine as Windows describes it to GetLogicalProcessorInformationEx(RelationAll): processor
// groups of at most 64 logical processors (PUs), cores with their PUs and efficiency class, NUMA
// nodes. Parsed from the bytes themselves, with the offsets of Microsoft's documented layout, so
// that the same code runs, and is tested, on Linux (tests/data/windows-layouts: four machines
// with several groups, which Wine cannot show). A PU is numbered group * 64 + its bit.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace processors {

constexpr int GROUP_PUS = 64;  // a processor group holds at most 64 PUs

struct Core {
    std::vector<int> pus;  // in Windows' order
    int efficiency = 0;    // the efficiency class: higher is faster (performance cores on hybrids)
    int node = 0;          // its NUMA node
};

struct Layout {
    std::vector<Core> cores;                   // as Windows lists them: group by group
    std::vector<std::uint64_t> activeByGroup;  // every active PU, a mask per group
    int nodes = 0;
    int packages = 0;
};

// Parses the bytes of GetLogicalProcessorInformationEx(RelationAll); on error (cut or
// inconsistent entries) returns why and leaves `layout` unchanged.
std::string parse(const std::string& bytes, Layout& layout);

// The cores with the PUs that `allowedByGroup` (a mask per group) leaves, the fastest efficiency
// class first and Windows' order kept within a class; cores with no allowed PU are left out.
std::vector<Core> usableCores(const Layout& layout, const std::vector<std::uint64_t>& allowedByGroup);

// The PUs the engine may use: those inherited from the process (its groups, its affinity within
// a single group, its default CPU set), unless `wholeMachine`, which takes every active PU, as a
// user who wants the cores a GUI kept from the engine asks (Stockfish's NumaPolicy hardware).
std::vector<std::uint64_t> allowedPus(const Layout& layout, const std::vector<std::uint64_t>& inherited,
                                      bool wholeMachine);

// `count` of the cores (all of them when there are fewer), spread: the fastest class first, and
// within a class evenly over Windows' order, which lists groups and nodes one after another, so
// that a few threads use every group and node.
std::vector<Core> spread(const std::vector<Core>& cores, int count);

}  // namespace processors
