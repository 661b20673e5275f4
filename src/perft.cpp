#include "perft.h"

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "movegen.h"
#include "topology.h"

std::uint64_t perft(Position& pos, int depth, const std::atomic<bool>* stop) {
    if (depth <= 1) return depth == 1 ? countLegalMoves(pos) : 1;
    if (depth >= 3 && stop && stop->load(std::memory_order_relaxed)) return 0;
    std::uint64_t nodes = 0;
    for (Move m : MoveList<LEGAL>(pos)) {
        pos.makeMove(m);
        nodes += depth == 2 ? countLegalMoves(pos) : perft(pos, depth - 1, stop);
        pos.unmakeMove(m);
    }
    return nodes;
}

std::uint64_t perftVerified(Position& pos, int depth, std::string* error) {
    if (depth == 0) return 1;
    std::uint64_t nodes = 0;
    for (Move m : MoveList<LEGAL>(pos)) {
        pos.makeMove(m);
        std::string why = pos.verify();
        if (why.empty()) nodes += perftVerified(pos, depth - 1, error);
        pos.unmakeMove(m);
        if (why.empty()) why = pos.verify();
        if (!why.empty() && error->empty()) *error = pos.fen() + " " + pos.moveToUci(m) + ": " + why;
        if (!error->empty()) return 0;
    }
    return nodes;
}

std::uint64_t perftDivide(const Position& root, int depth, int threads, std::ostream& out,
                          const std::atomic<bool>* stop, const std::vector<int>& pus) {
    auto start = std::chrono::steady_clock::now();
    MoveList<LEGAL> rootMoves(root);
    std::vector<std::atomic<std::uint64_t>> counts(rootMoves.size());
    for (auto& c : counts) c = 0;

    // Work items are (root move, reply) pairs when the tree is deep enough, so that two threads
    // are not left waiting on one big root subtree at the end.
    struct Item {
        int rootIndex;
        Move reply;
    };
    std::vector<Item> items;
    if (depth >= 3 && threads > 1) {
        Position pos = root;
        for (int i = 0; i < rootMoves.size(); ++i) {
            Move m = rootMoves.begin()[i];
            pos.makeMove(m);
            for (Move reply : MoveList<LEGAL>(pos)) items.push_back({i, reply});
            pos.unmakeMove(m);
        }
    } else
        for (int i = 0; i < rootMoves.size(); ++i) items.push_back({i, MOVE_NONE});

    std::atomic<size_t> next{0};
    auto worker = [&] {
        Position pos = root;
        for (size_t k; (k = next.fetch_add(1)) < items.size();) {
            const Item& item = items[k];
            Move m = rootMoves.begin()[item.rootIndex];
            pos.makeMove(m);
            if (item.reply == MOVE_NONE) counts[item.rootIndex] += depth >= 1 ? perft(pos, depth - 1, stop) : 0;
            else {
                pos.makeMove(item.reply);
                counts[item.rootIndex] += perft(pos, depth - 2, stop);
                pos.unmakeMove(item.reply);
            }
            pos.unmakeMove(m);
        }
    };
    std::vector<std::thread> pool;
    for (int t = 1; t < threads; ++t)
        pool.emplace_back([&, t] {
            if (std::size_t(t) < pus.size() && pus[t] >= 0) machineTopology().bindCurrentThread({pus[t]});
            worker();
        });
    worker();
    for (auto& t : pool) t.join();

    if (stop && stop->load()) {
        out << "info string perft stopped before the end: no counts\n" << std::flush;
        return 0;
    }
    std::uint64_t total = 0;
    for (int i = 0; i < rootMoves.size(); ++i) {
        out << root.moveToUci(rootMoves.begin()[i]) << ": " << counts[i] << "\n";
        total += counts[i];
    }
    if (depth <= 0) total = 1;
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    out << "\nNodes searched: " << total << "\n";
    out << "Time (ms): " << std::uint64_t(ms) << "\n";
    if (ms >= 1) out << "Nodes/second: " << std::uint64_t(total / ms * 1000.0) << "\n";
    out << std::flush;
    return total;
}
