#include "numa.h"

#include <algorithm>
#include <set>
#include <sstream>

namespace numa {

namespace {

// "0-3,8" -> {0, 1, 2, 3, 8}; false on anything else (empty, a reversed range, not a number).
bool parsePuList(const std::string& text, std::vector<int>& pus) {
    std::istringstream in(text);
    std::string part;
    std::vector<int> result;
    while (std::getline(in, part, ',')) {
        const std::size_t dash = part.find('-');
        const std::string first = part.substr(0, dash),
                          last = dash == std::string::npos ? first : part.substr(dash + 1);
        auto number = [](const std::string& s, int& value) {
            if (s.empty() || s.size() > 6 ||
                !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; }))
                return false;
            value = std::stoi(s);
            return true;
        };
        int from = 0, to = 0;
        if (!number(first, from) || !number(last, to) || to < from) return false;
        for (int pu = from; pu <= to; ++pu) result.push_back(pu);
    }
    if (result.empty() || (!text.empty() && text.back() == ',')) return false;
    pus = std::move(result);
    return true;
}

}  // namespace

std::string parse(const std::string& text, Policy& policy) {
    if (text == "auto" || text == "none") {
        policy = Policy{text == "auto" ? Policy::AUTO : Policy::NONE, {}};
        return "";
    }
    Policy listed{Policy::LIST, {}};
    std::set<int> seen;
    std::istringstream in(text);
    std::string node;
    while (std::getline(in, node, ':')) {
        std::vector<int> pus;
        if (!parsePuList(node, pus))
            return "NumaPolicy '" + text + "': '" + node +
                   "' is not a list of PUs (auto, none, or PUs a node separated by ':', as 0-7:8-15)";
        for (int pu : pus)
            if (!seen.insert(pu).second)
                return "NumaPolicy '" + text + "': PU " + std::to_string(pu) + " is in two nodes";
        listed.listed.push_back(std::move(pus));
    }
    if (listed.listed.empty() || text.back() == ':')
        return "NumaPolicy '" + text + "': auto, none, or PUs a node separated by ':', as 0-7:8-15";
    policy = std::move(listed);
    return "";
}

std::vector<std::vector<int>> nodesOf(const Policy& policy, const std::vector<std::vector<int>>& machineNodes,
                                      const std::vector<int>& allowed) {
    std::vector<std::vector<int>> nodes;
    if (policy.kind == Policy::NONE) return nodes;
    const std::set<int> usable(allowed.begin(), allowed.end());
    for (const std::vector<int>& node : policy.kind == Policy::LIST ? policy.listed : machineNodes) {
        std::vector<int> pus;
        for (int pu : node)
            if (usable.count(pu)) pus.push_back(pu);
        if (!pus.empty()) nodes.push_back(std::move(pus));
    }
    return nodes;
}

void assignNodes(Placement& placement, const Policy& policy, const std::vector<std::vector<int>>& nodes) {
    const std::size_t threads = placement.pus.size();
    placement.node.assign(threads, 0);
    placement.nodes.clear();
    placement.nodeBound = false;
    if (nodes.size() <= 1 || threads == 0) return;  // one node: one network, nothing to bind

    std::ostringstream out;
    const bool pinned = std::all_of(placement.pus.begin(), placement.pus.end(), [](int pu) { return pu >= 0; });
    std::size_t largest = 0;
    for (const auto& node : nodes) largest = std::max(largest, node.size());
    const bool helps = threads > largest / 2 || threads >= 8 * nodes.size();
    if (pinned) {
        // Each pinned thread reads the copy of its PU's node (PUs outside every listed node: the first's).
        for (std::size_t t = 0; t < threads; ++t)
            for (std::size_t n = 0; n < nodes.size(); ++n)
                if (std::count(nodes[n].begin(), nodes[n].end(), placement.pus[t])) placement.node[t] = int(n);
    } else if (policy.kind == Policy::LIST || helps) {
        // In proportion to the nodes' PUs: each thread goes where the fewest threads per PU are
        // yet, ties to the lower node, so that the first threads already cover the nodes.
        std::vector<std::size_t> count(nodes.size(), 0);
        for (std::size_t t = 0; t < threads; ++t) {
            std::size_t best = 0;
            for (std::size_t n = 1; n < nodes.size(); ++n)
                if (count[n] * nodes[best].size() < count[best] * nodes[n].size()) best = n;
            placement.node[t] = int(best);
            ++count[best];
        }
        placement.nodeBound = true;
    } else {
        out << "; " << nodes.size() << " NUMA nodes, threads not bound to them (too few to fill one)";
        placement.summary += out.str();
        return;
    }
    placement.nodes = nodes;
    std::vector<std::size_t> perNode(nodes.size(), 0);
    for (int n : placement.node) ++perNode[std::size_t(n)];
    out << "; " << nodes.size() << " NUMA nodes, threads " << (placement.nodeBound ? "bound to" : "on")
        << " them a node:";
    for (std::size_t n = 0; n < nodes.size(); ++n) out << (n ? "," : " ") << perNode[n];
    placement.summary += out.str();
}

}  // namespace numa
