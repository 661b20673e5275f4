#include "tt.h"

#include <cstring>

#include "cluster.h"
#include "platform.h"

namespace {

// Layout of the data word.
constexpr int MOVE_SHIFT = 0, VALUE_SHIFT = 16, EVAL_SHIFT = 32, DEPTH_SHIFT = 48, BOUND_SHIFT = 56, PV_SHIFT = 58,
              GEN_SHIFT = 59;

std::uint64_t pack(Move move, Value value, Value eval, int depth, Bound bound, bool pv, int generation) {
    return std::uint64_t(move) << MOVE_SHIFT | std::uint64_t(std::uint16_t(std::int16_t(value))) << VALUE_SHIFT |
           std::uint64_t(std::uint16_t(std::int16_t(eval))) << EVAL_SHIFT |
           std::uint64_t(std::uint8_t(depth - TranspositionTable::DEPTH_OFFSET)) << DEPTH_SHIFT |
           std::uint64_t(bound) << BOUND_SHIFT | std::uint64_t(pv) << PV_SHIFT | std::uint64_t(generation) << GEN_SHIFT;
}

int depthOf(std::uint64_t data) { return int((data >> DEPTH_SHIFT) & 0xFF) + TranspositionTable::DEPTH_OFFSET; }
int generationOf(std::uint64_t data) { return int(data >> GEN_SHIFT); }

}  // namespace

TranspositionTable::~TranspositionTable() { release(); }

void TranspositionTable::release() {
    // A shared table is the cluster's to free, the spare bucket nobody's.
    if (sharers == 1 && buckets != &spare) platform::freeLarge(buckets);
}

std::string TranspositionTable::resize(std::size_t mb, std::string* note) {
    const std::size_t bytes = mb * 1024 * 1024;
    auto fail = [&](const std::string& why) {
        if (buckets == &spare) backing = "one bucket of its own (" + why + ")";
        return why;
    };
    const std::size_t physical = platform::physicalMemory();
    if (physical && bytes > physical)  // 0: the system would not say
        return fail("cannot allocate " + std::to_string(mb) + " MB for the hash table: this machine has " +
                    std::to_string(physical / (1024 * 1024)) + " MB of memory");
    std::string how, error;
    void* mem = cluster::nodeTable(bytes, how, error);
    if (!error.empty()) return fail(error);
    const bool shared = mem != nullptr;
    std::string pages = how;
    if (!shared) {
        platform::LargeMemory memory = platform::allocateLarge(bytes);
        mem = memory.data;
        pages = memory.pages;
    }
    if (!mem) return fail("cannot allocate " + std::to_string(mb) + " MB for the hash table");
    backing = pages;
    release();
    sharer = shared ? cluster::tableSharer() : 0;
    sharers = shared ? cluster::tableSharers() : 1;
    if (note) *note = how;
    buckets = static_cast<Bucket*>(mem);
    bucketCount = bytes / sizeof(Bucket);
    allocatedBytes = bucketCount * sizeof(Bucket);
    megabytes = mb;
    return "";
}

void TranspositionTable::clearSlice(std::size_t index, std::size_t count) {
    index += std::size_t(sharer) * count;
    count *= std::size_t(sharers);
    std::size_t slice = (bucketCount + count - 1) / count;
    std::size_t start = std::min(bucketCount, index * slice), end = std::min(bucketCount, start + slice);
    std::memset(static_cast<void*>(buckets + start), 0, (end - start) * sizeof(Bucket));
}

bool TranspositionTable::probe(Key key, TTData& out, void*& slot) const {
    Bucket* bucket = bucketOf(key);
    Entry* replace = &bucket->entries[0];
    int worst = 1 << 30;
    for (Entry& e : bucket->entries) {
        std::uint64_t data = e.data.load(std::memory_order_relaxed);
        std::uint64_t check = e.check.load(std::memory_order_relaxed);
        if ((check ^ data) == key && data) {
            out.move = Move(data >> MOVE_SHIFT & 0xFFFF);
            out.value = std::int16_t(data >> VALUE_SHIFT & 0xFFFF);
            out.eval = std::int16_t(data >> EVAL_SHIFT & 0xFFFF);
            out.depth = depthOf(data);
            out.bound = Bound(data >> BOUND_SHIFT & 3);
            out.pv = (data >> PV_SHIFT) & 1;
            slot = &e;
            return true;
        }
        // Otherwise remember the least valuable entry: shallow and from old searches.
        int age = (generation - generationOf(data)) & 31;
        int worth = data ? depthOf(data) - 8 * age : -1000;
        if (worth < worst) worst = worth, replace = &e;
    }
    slot = replace;
    return false;
}

void TranspositionTable::store(void* slot, Key key, Value value, Bound bound, int depth, Move move, Value eval,
                               bool pv) {
    Entry& e = *static_cast<Entry*>(slot);
    std::uint64_t old = e.data.load(std::memory_order_relaxed);
    bool sameKey = (e.check.load(std::memory_order_relaxed) ^ old) == key && old;
    if (sameKey) {
        // Keep the old move when the new search found none; keep deeper results of this search
        // unless the new one is exact.
        if (move == MOVE_NONE) move = Move(old >> MOVE_SHIFT & 0xFFFF);
        if (bound != BOUND_EXACT && depth + 4 < depthOf(old) && generationOf(old) == generation) return;
    }
    std::uint64_t data = pack(move, value, eval, depth, bound, pv, generation);
    e.data.store(data, std::memory_order_relaxed);
    e.check.store(key ^ data, std::memory_order_relaxed);
}

int TranspositionTable::hashfull() const {
    int used = 0, sampled = 0;
    for (std::size_t b = 0; b < bucketCount && sampled < 1000; ++b)
        for (const Entry& e : buckets[b].entries) {
            std::uint64_t data = e.data.load(std::memory_order_relaxed);
            used += data && generationOf(data) == generation;
            ++sampled;
        }
    return sampled ? used * 1000 / sampled : 0;
}
