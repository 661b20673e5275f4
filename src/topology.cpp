#include "topology.h"

#ifdef _WIN32
#ifndef NOMINMAX  // libstdc++'s MinGW headers may have defined it
#define NOMINMAX
#endif
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
    // The binding inherited from the parent (taskset, a match runner's pinning) limits us too.
    inherited = hwloc_bitmap_alloc();
    if (hwloc_get_cpubind(topology, inherited, HWLOC_CPUBIND_PROCESS) || hwloc_bitmap_iszero(inherited))
        hwloc_bitmap_fill(inherited);
    allowed = hwloc_bitmap_alloc();
    applyHwlocAffinity();
}

Topology::~Topology() {
    if (allowed) hwloc_bitmap_free(allowed);
    if (inherited) hwloc_bitmap_free(inherited);
    if (topology) hwloc_topology_destroy(topology);
}

void Topology::applyHwlocAffinity() {
    hwloc_bitmap_copy(allowed, hwloc_topology_get_allowed_cpuset(topology));
    if (!wholeMachine) hwloc_bitmap_and(allowed, allowed, inherited);
}

bool Topology::loadXml(const std::string& xml) {
    hwloc_topology_t t;
    if (hwloc_topology_init(&t)) return false;
    if (hwloc_topology_set_xmlbuffer(t, xml.c_str(), int(xml.size()) + 1) || hwloc_topology_load(t)) {
        hwloc_topology_destroy(t);
        return false;
    }
    if (topology) hwloc_topology_destroy(topology);
    topology = t;
    fromWindowsLayout = false;
    if (!inherited) inherited = hwloc_bitmap_alloc();
    if (!allowed) allowed = hwloc_bitmap_alloc();
    hwloc_bitmap_fill(inherited);
    applyHwlocAffinity();
    return true;
}

std::vector<Topology::Core> Topology::logicalCores() const {
    if (fromWindowsLayout) return windowsCores;
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
    if (fromWindowsLayout) return processors::spread(windowsCores, count);
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

bool Topology::bindCurrentThread(const std::vector<int>& pus) const {
    if (fromWindowsLayout || !topology || pus.empty()) return false;  // a test's machine is not this one
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    for (int pu : pus)
        if (pu >= 0) hwloc_bitmap_set(set, unsigned(pu));
    bool ok = !hwloc_bitmap_iszero(set) && hwloc_set_cpubind(topology, set, HWLOC_CPUBIND_THREAD) == 0;
    hwloc_bitmap_free(set);
    return ok;
}

std::vector<std::vector<int>> Topology::numaNodes() const {
    if (fromWindowsLayout) return windowsNumaNodes();
    std::vector<std::vector<int>> nodes;
    if (!topology) return nodes;
    const int count = hwloc_get_nbobjs_by_type(topology, HWLOC_OBJ_NUMANODE);
    for (int i = 0; i < count; ++i) {
        hwloc_obj_t node = hwloc_get_obj_by_type(topology, HWLOC_OBJ_NUMANODE, unsigned(i));
        std::vector<int> pus;
        int pu;
        hwloc_bitmap_foreach_begin(pu, node->cpuset) {
            if (hwloc_bitmap_isset(allowed, unsigned(pu))) pus.push_back(pu);
        }
        hwloc_bitmap_foreach_end();
        if (!pus.empty()) nodes.push_back(std::move(pus));
    }
    return nodes;
}

#else

namespace {

// The PUs this process inherited, a mask per group: the groups it runs in (Windows 11 gives a
// process every group by default; Windows 10 one, or those a parent chose), its affinity mask
// when it has one group (a GUI may have set it), and its default CPU set where Windows has the
// API (looked up at run time: Windows 11 and Server 2022).
std::vector<std::uint64_t> inheritedByGroup(const processors::Layout& layout) {
    const std::size_t groups = layout.activeByGroup.size();
    std::vector<std::uint64_t> inherited(groups, 0);
    DWORD_PTR process = 0, system = 0;
    USHORT count = USHORT(groups);
    std::vector<USHORT> mine(groups);
    if (!GetProcessGroupAffinity(GetCurrentProcess(), &count, mine.data())) {  // Wine has no groups
        if (groups && GetProcessAffinityMask(GetCurrentProcess(), &process, &system)) inherited[0] = process;
        return inherited;
    }
    const bool oneGroup = count == 1 && GetProcessAffinityMask(GetCurrentProcess(), &process, &system);
    for (USHORT i = 0; i < count; ++i)
        if (mine[i] < groups) inherited[mine[i]] = oneGroup ? std::uint64_t(process) : ~std::uint64_t(0);

    using DefaultCpuSetMasks = BOOL(WINAPI*)(HANDLE, PGROUP_AFFINITY, USHORT, PUSHORT);
    const auto defaultCpuSetMasks = reinterpret_cast<DefaultCpuSetMasks>(
        reinterpret_cast<void*>(GetProcAddress(GetModuleHandleA("kernel32.dll"), "GetProcessDefaultCpuSetMasks")));
    USHORT required = 0;
    std::vector<GROUP_AFFINITY> sets(groups);
    if (defaultCpuSetMasks && defaultCpuSetMasks(GetCurrentProcess(), sets.data(), USHORT(groups), &required) &&
        required > 0) {  // none: no default CPU set, nothing more to restrict
        std::vector<std::uint64_t> inSet(groups, 0);
        for (USHORT i = 0; i < required && i < groups; ++i)
            if (sets[i].Group < groups) inSet[sets[i].Group] |= sets[i].Mask;
        for (std::size_t g = 0; g < groups; ++g) inherited[g] &= inSet[g];
    }
    return inherited;
}

}  // namespace

Topology::Topology() {
    DWORD bytes = 0;
    GetLogicalProcessorInformationEx(RelationAll, nullptr, &bytes);
    std::string buffer(bytes, '\0');
    if (!bytes || !GetLogicalProcessorInformationEx(
                      RelationAll, reinterpret_cast<SYSTEM_LOGICAL_PROCESSOR_INFORMATION_EX*>(buffer.data()), &bytes))
        return;
    buffer.resize(bytes);
    processors::Layout layout;
    if (!processors::parse(buffer, layout).empty()) return;
    loadWindowsLayout(buffer, inheritedByGroup(layout));
}

Topology::~Topology() = default;

bool Topology::loadXml(const std::string&) { return false; }

std::vector<Topology::Core> Topology::logicalCores() const { return windowsCores; }

std::vector<Topology::Core> Topology::spreadCores(int count) const { return processors::spread(windowsCores, count); }

// A thread runs in one processor group: bound to the PUs of the first one's group (a NUMA node
// lies within a group).
bool Topology::bindCurrentThread(const std::vector<int>& pus) const {
    if (pus.empty() || pus[0] < 0 || !usable()) return false;
    GROUP_AFFINITY affinity{};
    affinity.Group = WORD(pus[0] / processors::GROUP_PUS);
    for (int pu : pus)
        if (pu >= 0 && pu / processors::GROUP_PUS == affinity.Group)
            affinity.Mask |= KAFFINITY(1) << (pu % processors::GROUP_PUS);
    return SetThreadGroupAffinity(GetCurrentThread(), &affinity, nullptr) != 0;
}

std::vector<std::vector<int>> Topology::numaNodes() const { return windowsNumaNodes(); }

#endif

std::string Topology::loadWindowsLayout(const std::string& bytes, const std::vector<std::uint64_t>& inheritedMasks) {
    processors::Layout layout;
    if (std::string why = processors::parse(bytes, layout); !why.empty()) return why;
    windowsLayout = std::move(layout);
    windowsInherited = inheritedMasks;
    fromWindowsLayout = true;
    applyWindowsAffinity();
    return "";
}

// The parts both ways of reading the machine share: a Windows layout (Windows' own, or a test's
// on any platform) or hwloc's.
void Topology::restrictTo(const std::vector<int>& pus) {
    if (fromWindowsLayout) {
        std::vector<std::uint64_t> masks(windowsInherited.size(), 0);
        for (int pu : pus)
            if (pu >= 0 && std::size_t(pu / processors::GROUP_PUS) < masks.size())
                masks[std::size_t(pu / processors::GROUP_PUS)] |= std::uint64_t(1) << (pu % processors::GROUP_PUS);
        for (std::size_t g = 0; g < masks.size(); ++g) windowsInherited[g] &= masks[g];
        applyWindowsAffinity();
        return;
    }
#ifndef _WIN32
    if (!topology) return;
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    for (int pu : pus) hwloc_bitmap_set(set, unsigned(pu));
    hwloc_bitmap_and(inherited, inherited, set);
    hwloc_bitmap_free(set);
    applyHwlocAffinity();
#endif
}

void Topology::useWholeMachine(bool whole) {
    wholeMachine = whole;
    if (fromWindowsLayout) applyWindowsAffinity();
#ifndef _WIN32
    else if (topology) applyHwlocAffinity();
#endif
}

int Topology::pus() const {
    if (fromWindowsLayout) {
        int count = 0;
        for (const Core& core : windowsCores) count += int(core.pus.size());
        return count;
    }
#ifndef _WIN32
    if (topology) return hwloc_bitmap_weight(allowed);
#endif
    return 0;
}

bool Topology::usable() const {
#ifndef _WIN32
    if (!fromWindowsLayout) return topology != nullptr;
#endif
    return !windowsCores.empty();
}

void Topology::applyWindowsAffinity() {
    windowsCores =
        processors::usableCores(windowsLayout, processors::allowedPus(windowsLayout, windowsInherited, wholeMachine));
}

int Topology::cores() const { return int(logicalCores().size()); }

std::vector<int> Topology::allowedPus() const {
    std::vector<int> all;
    for (const Core& core : logicalCores()) all.insert(all.end(), core.pus.begin(), core.pus.end());
    std::sort(all.begin(), all.end());
    return all;
}

std::vector<std::vector<int>> Topology::windowsNumaNodes() const {
    std::vector<std::vector<int>> nodes;
    for (const Core& core : windowsCores) {
        if (core.node < 0) continue;
        if (std::size_t(core.node) >= nodes.size()) nodes.resize(std::size_t(core.node) + 1);
        nodes[std::size_t(core.node)].insert(nodes[std::size_t(core.node)].end(), core.pus.begin(), core.pus.end());
    }
    nodes.erase(std::remove_if(nodes.begin(), nodes.end(), [](const std::vector<int>& n) { return n.empty(); }),
                nodes.end());
    for (auto& node : nodes) std::sort(node.begin(), node.end());
    return nodes;
}

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
