#include "topology.h"

#ifdef _WIN32
#define NOMINMAX
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#else
#include <hwloc.h>
#endif

#include <algorithm>
#include <sstream>

bool parseBindMode(const std::string& text, BindMode& mode) {
    if (text == "auto") mode = BindMode::AUTO;
    else if (text == "none") mode = BindMode::NONE;
    else if (text == "compact") mode = BindMode::COMPACT;
    else if (text == "scatter") mode = BindMode::SCATTER;
    else return false;
    return true;
}

const char* bindModeName(BindMode mode) {
    switch (mode) {
    case BindMode::AUTO: return "auto";
    case BindMode::NONE: return "none";
    case BindMode::COMPACT: return "compact";
    default: return "scatter";
    }
}

#ifndef _WIN32

Topology::Topology() {
    if (hwloc_topology_init(&topology) || hwloc_topology_load(topology)) {
        if (topology) hwloc_topology_destroy(topology);
        topology = nullptr;
        return;
    }
    allowed = hwloc_bitmap_dup(hwloc_topology_get_allowed_cpuset(topology));
    // The binding inherited from the parent (taskset, a match runner's pinning) limits us too.
    hwloc_bitmap_t inherited = hwloc_bitmap_alloc();
    if (hwloc_get_cpubind(topology, inherited, HWLOC_CPUBIND_PROCESS) == 0 && !hwloc_bitmap_iszero(inherited))
        hwloc_bitmap_and(allowed, allowed, inherited);
    hwloc_bitmap_free(inherited);
}

Topology::~Topology() {
    if (allowed) hwloc_bitmap_free(allowed);
    if (topology) hwloc_topology_destroy(topology);
}

bool Topology::loadXml(const std::string& xml) {
    hwloc_topology_t t;
    if (hwloc_topology_init(&t)) return false;
    if (hwloc_topology_set_xmlbuffer(t, xml.c_str(), int(xml.size()) + 1) || hwloc_topology_load(t)) {
        hwloc_topology_destroy(t);
        return false;
    }
    if (topology) hwloc_topology_destroy(topology);
    if (allowed) hwloc_bitmap_free(allowed);
    topology = t;
    allowed = hwloc_bitmap_dup(hwloc_topology_get_topology_cpuset(topology));
    return true;
}

void Topology::restrictTo(const std::vector<int>& pus) {
    if (!topology) return;
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    for (int pu : pus) hwloc_bitmap_set(set, unsigned(pu));
    hwloc_bitmap_and(allowed, allowed, set);
    hwloc_bitmap_free(set);
}

std::vector<Topology::Core> Topology::logicalCores() const {
    std::vector<Core> result;
    if (!topology) return result;
    int n = hwloc_get_nbobjs_by_type(topology, HWLOC_OBJ_CORE);
    // Some virtual machines report PUs but no cores: each PU is then a core of its own.
    hwloc_obj_type_t type = n > 0 ? HWLOC_OBJ_CORE : HWLOC_OBJ_PU;
    n = hwloc_get_nbobjs_by_type(topology, type);
    for (int i = 0; i < n; ++i) {
        hwloc_obj_t obj = hwloc_get_obj_by_type(topology, type, unsigned(i));
        Core core;
        int pu;
        hwloc_bitmap_foreach_begin(pu, obj->cpuset) {
            if (hwloc_bitmap_isset(allowed, unsigned(pu))) core.pus.push_back(pu);
        }
        hwloc_bitmap_foreach_end();
        if (!core.pus.empty()) result.push_back(core);
    }
    return result;
}

std::vector<Topology::Core> Topology::spreadCores(int count) const {
    std::vector<Core> cores = logicalCores();
    if (count >= int(cores.size()) || cores.size() <= 1) return cores;
    // hwloc_distrib splits the machine top-down (packages, NUMA groups, caches) in proportion to
    // the PUs under each object, one set per thread down to core level; singlifying each set
    // names one core.
    hwloc_obj_t root = hwloc_get_root_obj(topology);
    int coreDepth = hwloc_get_type_depth(topology, HWLOC_OBJ_CORE);
    if (coreDepth < 0) coreDepth = hwloc_get_type_depth(topology, HWLOC_OBJ_PU);
    // hwloc_distrib allocates the sets itself (it would overwrite, and leak, sets given to it).
    std::vector<hwloc_cpuset_t> sets(static_cast<size_t>(count), nullptr);
    // Restricted to the usable PUs first, so that distrib shares out only what we may use.
    hwloc_obj_t usable = hwloc_get_obj_covering_cpuset(topology, allowed);
    if (!usable) usable = root;
    hwloc_distrib(topology, &usable, 1, sets.data(), unsigned(count), coreDepth, 0);

    std::vector<Core> chosen;
    std::vector<bool> taken(cores.size(), false);
    for (auto& set : sets) {
        if (!set) continue;
        hwloc_bitmap_and(set, set, allowed);
        for (size_t i = 0; i < cores.size(); ++i) {
            bool inside = false;
            for (int pu : cores[i].pus) inside |= hwloc_bitmap_isset(set, unsigned(pu));
            if (!taken[i] && inside) {
                taken[i] = true;
                chosen.push_back(cores[i]);
                break;
            }
        }
        hwloc_bitmap_free(set);
    }
    // A restricted set can leave distrib short: fill up with the remaining cores in order.
    for (size_t i = 0; i < cores.size() && int(chosen.size()) < count; ++i)
        if (!taken[i]) chosen.push_back(cores[i]);
    return chosen;
}

int Topology::pus() const { return topology ? hwloc_bitmap_weight(allowed) : 0; }

bool Topology::usable() const { return topology != nullptr; }

bool Topology::bindCurrentThread(int pu) const {
    if (!topology || pu < 0) return false;
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    hwloc_bitmap_only(set, unsigned(pu));
    bool ok = hwloc_set_cpubind(topology, set, HWLOC_CPUBIND_THREAD) == 0;
    hwloc_bitmap_free(set);
    return ok;
}

#else

namespace {

constexpr int GROUP_PUS = 64;  // a processor group holds at most 64 logical processors

// The PUs this process may run on, by group: a process's threads start in its groups, limited by
// its affinity there (a GUI may have set it).
std::vector<KAFFINITY> allowedByGroup() {
    const WORD groups = GetActiveProcessorGroupCount();
    std::vector<KAFFINITY> allowed(groups, 0);
    USHORT count = groups;
    std::vector<USHORT> mine(groups);
    DWORD_PTR process = 0, system = 0;
    if (!GetProcessGroupAffinity(GetCurrentProcess(), &count, mine.data())) {  // Wine has no groups
        if (!allowed.empty() && GetProcessAffinityMask(GetCurrentProcess(), &process, &system))
            allowed[0] = KAFFINITY(process);
        return allowed;
    }
    const bool oneGroup = count == 1 && GetProcessAffinityMask(GetCurrentProcess(), &process, &system);
    for (USHORT i = 0; i < count; ++i)
        if (mine[i] < groups) allowed[mine[i]] = oneGroup ? KAFFINITY(process) : KAFFINITY(~KAFFINITY(0));
    return allowed;
}

}  // namespace

Topology::Topology() {
    DWORD bytes = 0;
    GetLogicalProcessorInformationEx(RelationProcessorCore, nullptr, &bytes);
    std::vector<char> buffer(bytes);
    auto* info = reinterpret_cast<SYSTEM_LOGICAL_PROCESSOR_INFORMATION_EX*>(buffer.data());
    if (!bytes || !GetLogicalProcessorInformationEx(RelationProcessorCore, info, &bytes)) return;
    const std::vector<KAFFINITY> allowed = allowedByGroup();
    for (DWORD at = 0; at < bytes;) {
        const auto* entry = reinterpret_cast<const SYSTEM_LOGICAL_PROCESSOR_INFORMATION_EX*>(buffer.data() + at);
        Core core;
        for (WORD g = 0; g < entry->Processor.GroupCount; ++g) {
            const GROUP_AFFINITY& mask = entry->Processor.GroupMask[g];
            if (mask.Group >= allowed.size()) continue;
            for (int bit = 0; bit < GROUP_PUS; ++bit)
                if ((mask.Mask & allowed[mask.Group]) >> bit & 1) core.pus.push_back(mask.Group * GROUP_PUS + bit);
        }
        if (!core.pus.empty()) windowsCores.push_back(core);
        at += entry->Size;
    }
}

Topology::~Topology() = default;

bool Topology::loadXml(const std::string&) { return false; }

void Topology::restrictTo(const std::vector<int>& pus) {
    for (Core& core : windowsCores)
        core.pus.erase(std::remove_if(core.pus.begin(), core.pus.end(),
                                      [&](int pu) { return std::find(pus.begin(), pus.end(), pu) == pus.end(); }),
                       core.pus.end());
    windowsCores.erase(
        std::remove_if(windowsCores.begin(), windowsCores.end(), [](const Core& core) { return core.pus.empty(); }),
        windowsCores.end());
}

std::vector<Topology::Core> Topology::logicalCores() const { return windowsCores; }

// Windows lists cores group by group, so the first ones fill one group before the next: spread
// them instead, every (cores / count)-th, so that a few threads use every group and node.
std::vector<Topology::Core> Topology::spreadCores(int count) const {
    if (count >= int(windowsCores.size())) return windowsCores;
    std::vector<Core> chosen;
    for (int i = 0; i < count; ++i) chosen.push_back(windowsCores[std::size_t(i) * windowsCores.size() / count]);
    return chosen;
}

int Topology::pus() const {
    int count = 0;
    for (const Core& core : windowsCores) count += int(core.pus.size());
    return count;
}

bool Topology::usable() const { return !windowsCores.empty(); }

bool Topology::bindCurrentThread(int pu) const {
    if (pu < 0 || !usable()) return false;
    GROUP_AFFINITY affinity{};
    affinity.Group = WORD(pu / GROUP_PUS);
    affinity.Mask = KAFFINITY(1) << (pu % GROUP_PUS);
    return SetThreadGroupAffinity(GetCurrentThread(), &affinity, nullptr) != 0;
}

#endif

int Topology::cores() const { return int(logicalCores().size()); }

Placement Topology::place(int threads, BindMode mode) const {
    Placement p;
    p.pus.assign(size_t(threads), -1);
    std::ostringstream out;
    const int coreCount = cores();
    if (!usable() || coreCount == 0) {
        out << threads << " threads unpinned: no usable topology was found";
        p.summary = out.str();
        return p;
    }
    // Auto pins only when the threads fill every PU this process may use. A match runner starts
    // several engines at once with the same inherited CPUs, and each process would compute the
    // same placement: with fewer threads than PUs, all of them would pin to the same first cores
    // while the rest idle (three 4-thread engines on 16 CPUs ran at a third of their speed).
    // Threads that fill the allowed PUs cannot be spread better by the scheduler, so pinning
    // them costs a neighbour nothing; a runner that gives each engine its own CPUs (fastchess
    // -use-affinity, taskset) makes each one pin inside its own.
    if (mode == BindMode::NONE || (mode == BindMode::AUTO && threads != pus())) {
        out << threads << " threads unpinned (bind " << bindModeName(mode);
        if (mode == BindMode::AUTO) out << ": pins only when the threads fill the allowed PUs";
        out << "; " << coreCount << " cores and " << pus() << " PUs allowed)";
        p.summary = out.str();
        return p;
    }
    // Cores first, then the SMT siblings of the same cores in the same order; beyond the PUs,
    // threads share them round-robin.
    std::vector<Core> order = mode == BindMode::COMPACT ? logicalCores() : spreadCores(threads);
    std::vector<int> sequence;
    for (size_t sibling = 0;; ++sibling) {
        bool any = false;
        for (const Core& c : order)
            if (sibling < c.pus.size()) {
                sequence.push_back(c.pus[sibling]);
                any = true;
            }
        if (!any) break;
    }
    for (int t = 0; t < threads; ++t) p.pus[size_t(t)] = sequence[size_t(t) % sequence.size()];

    std::vector<int> used(p.pus.begin(), p.pus.end());
    std::sort(used.begin(), used.end());
    used.erase(std::unique(used.begin(), used.end()), used.end());
    out << threads << " threads bound (" << bindModeName(mode) << ") to " << used.size() << " of " << pus()
        << " PUs on " << std::min(threads, coreCount) << " of " << coreCount << " cores: PU";
    for (size_t t = 0; t < p.pus.size() && t < 16; ++t) out << (t ? "," : " ") << p.pus[t];
    if (p.pus.size() > 16) out << ",...";
    p.summary = out.str();
    return p;
}

Topology& machineTopology() {
    static Topology machine;
    return machine;
}
