#include "processors.h"

#include <algorithm>
#include <cstring>

#ifdef _WIN32
#ifndef NOMINMAX  // libstdc++'s MinGW headers may have defined it
#define NOMINMAX
#endif
#define WIN32_LEAN_AND_MEAN
#include <windows.h>

#include <cstddef>
#endif

namespace processors {

namespace {

// Microsoft's layout of SYSTEM_LOGICAL_PROCESSOR_INFORMATION_EX (x64, little-endian).
enum Relationship : std::uint32_t { CORE = 0, NUMA_NODE = 1, CACHE = 2, PACKAGE = 3, GROUP = 4 };
constexpr std::size_t HEADER = 8;            // Relationship, Size
constexpr std::size_t FLAGS = 8;             // PROCESSOR_RELATIONSHIP.Flags
constexpr std::size_t EFFICIENCY = 9;        // .EfficiencyClass
constexpr std::size_t GROUP_COUNT = 30;      // PROCESSOR_ and NUMA_NODE_RELATIONSHIP.GroupCount
constexpr std::size_t GROUP_MASKS = 32;      // their GroupMask[]
constexpr std::size_t NODE_NUMBER = 8;       // NUMA_NODE_RELATIONSHIP.NodeNumber
constexpr std::size_t ACTIVE_GROUPS = 10;    // GROUP_RELATIONSHIP.ActiveGroupCount
constexpr std::size_t GROUP_INFO = 32;       // its GroupInfo[]
constexpr std::size_t GROUP_INFO_SIZE = 48;  // PROCESSOR_GROUP_INFO
constexpr std::size_t ACTIVE_MASK = 40;      // its ActiveProcessorMask
constexpr std::size_t AFFINITY_SIZE = 16;    // GROUP_AFFINITY: Mask, Group, Reserved[3]
constexpr std::size_t AFFINITY_GROUP = 8;    // its Group

#ifdef _WIN32
// The offsets above are the headers' (an entry's union starts at offset 8). MinGW's headers
// predate EfficiencyClass (the byte after Flags, there Reserved[0]) and the node's GroupCount
// (the last word of its Reserved[20]).
using Info = SYSTEM_LOGICAL_PROCESSOR_INFORMATION_EX;
static_assert(offsetof(Info, Processor) == HEADER);
static_assert(offsetof(Info, Processor.Flags) == FLAGS && offsetof(Info, Processor.Reserved) == EFFICIENCY);
static_assert(offsetof(Info, Processor.GroupCount) == GROUP_COUNT &&
              offsetof(Info, Processor.GroupMask) == GROUP_MASKS);
static_assert(offsetof(Info, NumaNode.NodeNumber) == NODE_NUMBER && offsetof(Info, NumaNode.GroupMask) == GROUP_MASKS &&
              offsetof(Info, NumaNode.Reserved) + 18 == GROUP_COUNT);
static_assert(offsetof(Info, Group.ActiveGroupCount) == ACTIVE_GROUPS && offsetof(Info, Group.GroupInfo) == GROUP_INFO);
static_assert(sizeof(PROCESSOR_GROUP_INFO) == GROUP_INFO_SIZE &&
              offsetof(PROCESSOR_GROUP_INFO, ActiveProcessorMask) == ACTIVE_MASK);
static_assert(sizeof(GROUP_AFFINITY) == AFFINITY_SIZE && offsetof(GROUP_AFFINITY, Group) == AFFINITY_GROUP);
static_assert(RelationProcessorCore == CORE && RelationNumaNode == NUMA_NODE && RelationGroup == GROUP &&
              RelationProcessorPackage == PACKAGE);
#endif

template <typename T>
T read(const std::string& bytes, std::size_t at) {
    T value = 0;
    for (std::size_t i = 0; i < sizeof(T); ++i) value |= T(static_cast<unsigned char>(bytes[at + i])) << (8 * i);
    return value;
}

struct GroupMask {
    int group;
    std::uint64_t mask;
};

// The group masks of a processor, package or node entry; false if they run past the entry.
bool groupMasks(const std::string& bytes, std::size_t at, std::size_t size, std::vector<GroupMask>& masks) {
    if (size < GROUP_MASKS + AFFINITY_SIZE) return false;
    std::size_t count = read<std::uint16_t>(bytes, at + GROUP_COUNT);
    count = std::max<std::size_t>(count, 1);  // before Windows 11 a node had one mask, GroupCount 0
    if (GROUP_MASKS + count * AFFINITY_SIZE > size) return false;
    masks.clear();
    for (std::size_t i = 0; i < count; ++i) {
        const std::size_t a = at + GROUP_MASKS + i * AFFINITY_SIZE;
        masks.push_back({read<std::uint16_t>(bytes, a + AFFINITY_GROUP), read<std::uint64_t>(bytes, a)});
    }
    return true;
}

}  // namespace

std::string parse(const std::string& bytes, Layout& layout) {
    Layout parsed;
    struct Node {
        int number;
        std::vector<GroupMask> masks;
    };
    std::vector<Node> nodes;
    std::vector<GroupMask> masks;
    for (std::size_t at = 0; at < bytes.size();) {
        if (bytes.size() - at < HEADER) return "an entry cut short at byte " + std::to_string(at);
        const auto relationship = read<std::uint32_t>(bytes, at);
        const auto size = read<std::uint32_t>(bytes, at + 4);
        if (size < HEADER || size > bytes.size() - at)
            return "an entry of " + std::to_string(size) + " bytes at byte " + std::to_string(at) + " of " +
                   std::to_string(bytes.size());
        if (relationship == CORE || relationship == NUMA_NODE || relationship == PACKAGE) {
            if (!groupMasks(bytes, at, size, masks))
                return "group masks past the end of the entry at byte " + std::to_string(at);
            if (relationship == CORE) {
                Core core;
                for (const GroupMask& m : masks)
                    for (int bit = 0; bit < GROUP_PUS; ++bit)
                        if (m.mask >> bit & 1) core.pus.push_back(m.group * GROUP_PUS + bit);
                if (core.pus.empty()) return "a core without a processor at byte " + std::to_string(at);
                core.efficiency = static_cast<unsigned char>(bytes[at + EFFICIENCY]);
                parsed.cores.push_back(core);
            } else if (relationship == NUMA_NODE) {
                nodes.push_back({int(read<std::uint32_t>(bytes, at + NODE_NUMBER)), masks});
            } else {
                ++parsed.packages;
            }
        } else if (relationship == GROUP) {
            if (size < GROUP_INFO) return "a group entry cut short at byte " + std::to_string(at);
            const std::size_t count = read<std::uint16_t>(bytes, at + ACTIVE_GROUPS);
            if (GROUP_INFO + count * GROUP_INFO_SIZE > size)
                return "group information past the end of its entry at byte " + std::to_string(at);
            parsed.activeByGroup.clear();
            for (std::size_t g = 0; g < count; ++g)
                parsed.activeByGroup.push_back(
                    read<std::uint64_t>(bytes, at + GROUP_INFO + g * GROUP_INFO_SIZE + ACTIVE_MASK));
        }  // caches, dies and modules: not needed to place threads
        at += size;
    }
    if (parsed.cores.empty()) return "no processor core";
    if (parsed.activeByGroup.empty()) return "no processor group";
    for (Core& core : parsed.cores) {
        const int pu = core.pus.front();
        if (std::size_t(pu / GROUP_PUS) >= parsed.activeByGroup.size())
            return "a core in group " + std::to_string(pu / GROUP_PUS) + " of " +
                   std::to_string(parsed.activeByGroup.size());
        for (const Node& n : nodes)
            for (const GroupMask& m : n.masks)
                if (m.group == pu / GROUP_PUS && (m.mask >> (pu % GROUP_PUS) & 1)) core.node = n.number;
    }
    parsed.nodes = std::max<int>(1, int(nodes.size()));
    layout = std::move(parsed);
    return "";
}

std::vector<std::uint64_t> allowedPus(const Layout& layout, const std::vector<std::uint64_t>& inherited,
                                      bool wholeMachine) {
    std::vector<std::uint64_t> allowed = layout.activeByGroup;
    if (wholeMachine) return allowed;
    for (std::size_t g = 0; g < allowed.size(); ++g) allowed[g] &= g < inherited.size() ? inherited[g] : 0;
    return allowed;
}

std::vector<Core> usableCores(const Layout& layout, const std::vector<std::uint64_t>& allowedByGroup) {
    std::vector<Core> usable;
    for (const Core& core : layout.cores) {
        Core kept = core;
        kept.pus.clear();
        for (int pu : core.pus) {
            const std::size_t group = std::size_t(pu / GROUP_PUS);
            if (group < allowedByGroup.size() && (allowedByGroup[group] >> (pu % GROUP_PUS) & 1))
                kept.pus.push_back(pu);
        }
        if (!kept.pus.empty()) usable.push_back(kept);
    }
    std::stable_sort(usable.begin(), usable.end(),
                     [](const Core& a, const Core& b) { return a.efficiency > b.efficiency; });
    return usable;
}

std::vector<Core> spread(const std::vector<Core>& cores, int count) {
    if (count >= int(cores.size())) return cores;
    std::vector<Core> chosen;
    for (std::size_t first = 0; first < cores.size() && int(chosen.size()) < count;) {
        std::size_t end = first;  // the class [first, end): usableCores sorted the classes
        while (end < cores.size() && cores[end].efficiency == cores[first].efficiency) ++end;
        const std::size_t size = end - first, take = std::min(size, std::size_t(count) - chosen.size());
        for (std::size_t i = 0; i < take; ++i) chosen.push_back(cores[first + i * size / take]);
        first = end;
    }
    return chosen;
}

}  // namespace processors
