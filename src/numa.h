// NUMA placement (UCI option NumaPolicy, in the spirit of Stockfish's): on a machine of several
// memory nodes (two sockets, EPYC in NPS4 mode) a thread that reads memory of another node waits
// longer for it. So the threads are spread over the nodes in proportion to their PUs and bound
// to their node, each node's threads first-touch their slice of the hash table, and every node
// in use gets its own copy of the network. The policy names the nodes:
//   auto  the nodes the machine reports (hwloc, or Windows), among the PUs the engine may use;
//         threads are bound to them only where that helps: more threads than half the largest
//         node's PUs, or at least 8 a node (fewer stay where the system puts them);
//   none  the machine as one node: one network, threads placed by Bind alone;
//   a list of PUs a node, nodes separated by ':' ("0-15:16-31", "0,2,4:1,3,5"): nodes as the
//         user defines them (a machine whose firmware hides its nodes, or one cut by L3 cache);
//         threads are always bound to them.
// Threads that Bind pins to single PUs (they fill the allowed PUs, or Bind is compact or scatter)
// keep their PU, and read the copy of the node that holds it. Binding to a node leaves the cores
// within it to the system, so engines side by side never pin to the same PUs.
#pragma once

#include <string>
#include <vector>

#include "topology.h"

namespace numa {

struct Policy {
    enum Kind { AUTO, NONE, LIST } kind = AUTO;
    std::vector<std::vector<int>> listed;  // LIST: the PUs of each node
};

// Reads "auto", "none" or a list of nodes; on error says why and leaves `policy` unchanged.
std::string parse(const std::string& text, Policy& policy);

// The nodes the policy names, each the allowed PUs it holds (`machineNodes` and `allowed` are
// the topology's), nodes left empty dropped.
std::vector<std::vector<int>> nodesOf(const Policy& policy, const std::vector<std::vector<int>>& machineNodes,
                                      const std::vector<int>& allowed);

// Gives each thread of `placement` (made by Topology::place) its node: the node of its PU when
// pinned; else, where the policy binds, the nodes in proportion to their PUs, the threads taking
// them in turn (thread 0 on node 0) and bound to the whole node. Adds a line to the summary.
void assignNodes(Placement& placement, const Policy& policy, const std::vector<std::vector<int>>& nodes);

}  // namespace numa
