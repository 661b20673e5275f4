// Thread placement: read the machine's topology and the CPUs this process may use (a GUI or match
// runner may have restricted them), and choose one processing unit (PU) per search thread:
// distinct cores first, spread over packages and NUMA nodes, SMT siblings only once every core
// has a thread. On Linux hwloc reads the machine (hwloc_distrib spreads, then singlify); on
// Windows, which Debian's hwloc does not reach, Win32 itself: the cores and their PUs in every
// processor group (a PU's index is group * 64 + its bit), the process's affinity, and
// SetThreadGroupAffinity to bind, cores taken in Windows' order. Where nothing usable is found or
// binding fails, threads run unpinned and the engine says so; binding never makes it fail.
#pragma once

#include <string>
#include <vector>

// AUTO pins only when the threads fill the allowed PUs exactly (so that engines started side by
// side never pin to the same cores); NONE never pins; COMPACT fills the first package's cores
// first; SCATTER spreads (and pins even when oversubscribed, threads then sharing PUs).
enum class BindMode { AUTO, NONE, COMPACT, SCATTER };

// "auto", "none", "compact", "scatter"; false for anything else.
bool parseBindMode(const std::string& text, BindMode& mode);
const char* bindModeName(BindMode mode);

struct Placement {
    std::vector<int> pus;  // OS index of the PU for each thread, -1 for unbound
    std::string summary;   // one line for `info string`
};

class Topology {
public:
    Topology();  // this machine, restricted to the process's CPU binding
    ~Topology();
    Topology(const Topology&) = delete;
    Topology& operator=(const Topology&) = delete;

    // Replaces the topology with one read from XML (tests load synthetic machines this way).
    bool loadXml(const std::string& xml);
    // Restricts the usable PUs, as a CPU binding inherited from a parent process would.
    void restrictTo(const std::vector<int>& pus);

    Placement place(int threads, BindMode mode) const;
    // Binds the calling thread to the PU; false if that is not possible here.
    bool bindCurrentThread(int pu) const;

    int cores() const;  // usable cores (PUs where hwloc reports no cores)
    int pus() const;
    bool usable() const;

private:
    struct Core {
        std::vector<int> pus;  // usable PUs of this core, in OS order
    };
    std::vector<Core> spreadCores(int count) const;  // `count` cores spread over the machine
    std::vector<Core> logicalCores() const;          // cores in logical order (compact)

#ifdef _WIN32
    std::vector<Core> windowsCores;  // every core with a usable PU, in Windows' order
#else
    struct hwloc_topology* topology = nullptr;
    struct hwloc_bitmap_s* allowed = nullptr;
#endif
};

// The machine the engine runs on.
Topology& machineTopology();
