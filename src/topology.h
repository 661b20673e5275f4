// Thread placement: read the machine's topology and the CPUs this process may use (a GUI or match
// runner may have restricted them), and choose one processing unit (PU) per search thread:
// distinct cores first, spread over packages and NUMA nodes, SMT siblings only once every core
// has a thread. On Linux hwloc reads the machine (hwloc_distrib spreads, then singlify); on
// Windows, which Debian's hwloc does not reach, Win32 itself (src/processors.h: the cores, their
// efficiency class and node in every processor group, a PU's index being group * 64 + its bit),
// with SetThreadGroupAffinity to bind. Where nothing usable is found or binding fails, threads
// run unpinned and the engine says so; binding never makes it fail.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "processors.h"

// AUTO pins only when the threads fill the allowed PUs exactly (so that engines started side by
// side never pin to the same cores); NONE never pins; COMPACT fills the first package's cores
// first; SCATTER spreads (and pins even when oversubscribed, threads then sharing PUs).
enum class BindMode { AUTO, NONE, COMPACT, SCATTER };

// "auto", "none", "compact", "scatter"; false for anything else.
bool parseBindMode(const std::string& text, BindMode& mode);
const char* bindModeName(BindMode mode);

struct Placement {
    std::vector<int> pus;  // OS index of the PU for each thread, -1 for unbound
    // With several NUMA nodes (src/numa.h): each node's PUs, each thread's node (whose copy of
    // the network it reads; 0 throughout with one node), and whether the threads without a PU
    // are bound to their node.
    std::vector<std::vector<int>> nodes;
    std::vector<int> node;
    bool nodeBound = false;
    std::string summary;  // one line for `info string`

    // The PUs thread `t` binds to: its own, its node's, or none.
    std::vector<int> cpusOf(std::size_t t) const {
        if (pus[t] >= 0) return {pus[t]};
        if (nodeBound) return nodes[std::size_t(node[t])];
        return {};
    }
};

class Topology {
public:
    Topology();  // this machine, restricted to the process's CPU binding
    ~Topology();
    Topology(const Topology&) = delete;
    Topology& operator=(const Topology&) = delete;

    // Replaces the topology with one read from hwloc's XML (tests load synthetic machines this
    // way); false where hwloc is not used (Windows).
    bool loadXml(const std::string& xml);
    // Replaces it with a machine as Windows describes it (the bytes of
    // GetLogicalProcessorInformationEx(RelationAll)), the process having inherited the PUs of
    // `inherited` (a mask per group); on every platform, so that Linux tests the Windows path.
    // On error (bad bytes) says why and changes nothing.
    std::string loadWindowsLayout(const std::string& bytes, const std::vector<std::uint64_t>& inherited);
    // Restricts the usable PUs, as a CPU binding inherited from a parent process would.
    void restrictTo(const std::vector<int>& pus);
    // With `whole`, ignores the CPUs inherited from the parent (a GUI's one-group affinity, a
    // taskset) and uses every PU the system allows (UCI option CPUs, `machine`).
    void useWholeMachine(bool whole);

    Placement place(int threads, BindMode mode) const;
    // Binds the calling thread to the PUs (one, or a NUMA node's); false if that is not possible here.
    bool bindCurrentThread(const std::vector<int>& pus) const;

    // The PUs the engine may use, and the NUMA nodes as the machine reports them, each with the
    // allowed PUs it holds (nodes without one left out).
    std::vector<int> allowedPus() const;
    std::vector<std::vector<int>> numaNodes() const;

    int cores() const;  // usable cores (PUs where hwloc reports no cores)
    int pus() const;
    bool usable() const;

private:
    using Core = processors::Core;                           // its usable PUs, in OS order
    std::vector<Core> spreadCores(int count) const;          // `count` cores spread over the machine
    std::vector<Core> logicalCores() const;                  // cores in logical order (compact)
    void applyWindowsAffinity();                             // windowsCores from the layout and the flags
    std::vector<std::vector<int>> windowsNumaNodes() const;  // windowsCores' PUs by node

    bool wholeMachine = false;
    // A machine as Windows describes it: Windows' own, or a test's on any platform.
    bool fromWindowsLayout = false;
    processors::Layout windowsLayout;
    std::vector<std::uint64_t> windowsInherited;  // the process's PUs, a mask per group
    std::vector<Core> windowsCores;               // every core with a usable PU, fastest class first
#ifndef _WIN32
    struct hwloc_topology* topology = nullptr;
    struct hwloc_bitmap_s* inherited = nullptr;  // the binding inherited from the parent
    struct hwloc_bitmap_s* allowed = nullptr;    // what the engine uses: the system's, and inherited's
    void applyHwlocAffinity();
#endif
};

// The machine the engine runs on.
Topology& machineTopology();
