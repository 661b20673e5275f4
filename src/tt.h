// The transposition table, shared by all search threads without locks.
//
// An entry is two 64-bit words: `data` (move, value, static eval, depth, bound, generation) and
// `check` = key XOR data (Hyatt's lockless hashing). Each word is read and written as one relaxed
// atomic, so there are no data races, and an entry torn by two racing writers (one's check word
// with the other's data word) fails the check `check ^ data == key` and is never believed. The
// move of a believed entry is still re-validated by the search before use, because a full-key
// match cannot prove the move belongs to this position after a 64-bit key collision.
//
// Four entries share one 64-byte bucket (one cache line); the bucket is chosen by the high bits
// of key * bucketCount, so any table size works.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>

#include "types.h"

enum Bound : int { BOUND_NONE, BOUND_UPPER, BOUND_LOWER, BOUND_EXACT = BOUND_UPPER | BOUND_LOWER };

// What a probe returns: a decoded copy, never a reference into the shared table.
struct TTData {
    Move move;
    Value value;
    Value eval;
    int depth;
    Bound bound;
    bool pv;
};

class TranspositionTable {
public:
    static constexpr int DEPTH_OFFSET = -8;  // stored depth is depth - DEPTH_OFFSET, in 8 bits

    TranspositionTable() = default;
    TranspositionTable(const TranspositionTable&) = delete;
    ~TranspositionTable();

    // Allocates `mb` megabytes (huge pages where the system allows). On failure returns an error
    // and keeps the table it had: before the first table that is one bucket of its own, so that
    // an engine whose memory ran out still searches (weakly) rather than crashing. The new table
    // must be cleared before use: every search thread zeroes its own slice (ThreadPool::clearHash),
    // so the pages land near the threads. In a cluster the ranks of one machine get one table
    // together (cluster::nodeTable); `note` then says how the table is shared.
    std::string resize(std::size_t mb, std::string* note = nullptr);
    // Zeroes slice `index` of `count`; where ranks share the table, of this rank's part of it.
    void clearSlice(std::size_t index, std::size_t count);
    void newGame() { generation = 0; }
    void newSearch() { generation = (generation + 1) & 31; }

    // Looks the key up; on a hit fills `out`. `slot` receives where to store this key later.
    bool probe(Key key, TTData& out, void*& slot) const;
    void store(void* slot, Key key, Value value, Bound bound, int depth, Move move, Value eval, bool pv);

    // Permille of the sampled entries written in the current search.
    int hashfull() const;
    std::size_t sizeMB() const { return megabytes; }
    // How the table's memory is backed ("large pages of 2048 KB", "normal pages (why)"), for
    // `info string` after uci; a cluster's shared table says how it is shared.
    const std::string& pages() const { return backing; }

    // Starts fetching the bucket of `key`, which a probe will soon read.
    void prefetch(Key key) const { __builtin_prefetch(bucketOf(key)); }

private:
    struct Entry {
        std::atomic<std::uint64_t> check;
        std::atomic<std::uint64_t> data;
    };
    struct alignas(64) Bucket {
        Entry entries[4];
    };

    void release();

    Bucket* bucketOf(Key key) const {
        const std::size_t index = std::size_t((__uint128_t(key) * __uint128_t(bucketCount)) >> 64);
        assert(index < bucketCount);
        return &buckets[index];
    }

    Bucket spare{};  // the table until one is allocated
    Bucket* buckets = &spare;
    std::size_t bucketCount = 1;
    std::size_t allocatedBytes = sizeof(Bucket);
    std::size_t megabytes = 0;
    std::string backing = "one bucket of its own (no table allocated)";
    int sharer = 0, sharers = 1;  // cluster::tableSharer(), tableSharers() for this table
    std::uint8_t generation = 0;
};
