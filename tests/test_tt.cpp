#include <catch2/catch.hpp>

#include <atomic>
#include <thread>
#include <vector>

#include "platform.h"
#include "tt.h"

namespace {

constexpr Key KEY = 0x9D39247E33776D41ULL;

// Stores a result for `key` and reads it back.
bool storesAndFinds(TranspositionTable& tt, Key key, int depth) {
    TTData data{};
    void* slot = nullptr;
    tt.probe(key, data, slot);
    tt.store(slot, key, Value(37), BOUND_EXACT, depth, Move(0x0C1C), Value(12), true);
    if (!tt.probe(key, data, slot)) return false;
    return data.value == 37 && data.depth == depth && data.bound == BOUND_EXACT && data.move == Move(0x0C1C) &&
           data.eval == 12 && data.pv;
}

}  // namespace

TEST_CASE("tt: a result stored is found by its key and by no other", "[tt]") {
    TranspositionTable tt;
    REQUIRE(tt.resize(1).empty());
    tt.clearSlice(0, 1);
    REQUIRE(storesAndFinds(tt, KEY, 9));
    TTData data{};
    void* slot = nullptr;
    REQUIRE_FALSE(tt.probe(KEY ^ 1, data, slot));
    tt.clearSlice(0, 1);
    REQUIRE_FALSE(tt.probe(KEY, data, slot));
}

TEST_CASE("tt: before any table is made, a bucket of its own takes the probes and stores", "[tt]") {
    // An engine whose first table could not be allocated still searches rather than crashing.
    TranspositionTable tt;
    REQUIRE(tt.sizeMB() == 0);
    REQUIRE(tt.pages().find("one bucket") != std::string::npos);
    REQUIRE(storesAndFinds(tt, KEY, 5));
    tt.clearSlice(0, 2);
    tt.clearSlice(1, 2);
    TTData data{};
    void* slot = nullptr;
    REQUIRE_FALSE(tt.probe(KEY, data, slot));
}

TEST_CASE("tt: a table larger than the machine's memory is refused, the one before kept", "[tt]") {
    const std::size_t machineMB = platform::physicalMemory() / (1024 * 1024);
    REQUIRE(machineMB > 0);
    TranspositionTable tt;
    // With no table yet, the reason is what the engine reports after uciok.
    const std::string why = tt.resize(machineMB + 1024);
    REQUIRE(why.find("cannot allocate") != std::string::npos);
    REQUIRE(tt.pages().find(why) != std::string::npos);
    REQUIRE(tt.resize(2).empty());
    tt.clearSlice(0, 1);
    REQUIRE(storesAndFinds(tt, KEY, 7));
    REQUIRE_FALSE(tt.resize(machineMB + 1024).empty());
    REQUIRE(tt.sizeMB() == 2);
    TTData data{};
    void* slot = nullptr;
    REQUIRE(tt.probe(KEY, data, slot));
    REQUIRE(data.depth == 7);
}

TEST_CASE("platform: the machine's memory reads the same from threads asking at once", "[tt]") {
    // Engines made on several threads at once (datagen's players) each size their table by it:
    // under Wine a second caller within a second was answered 0 from a cache being filled.
    constexpr int THREADS = 8;
    std::vector<std::size_t> seen(THREADS);
    std::atomic<int> ready{0};
    std::vector<std::thread> threads;
    for (int i = 0; i < THREADS; ++i)
        threads.emplace_back([&, i] {
            ready.fetch_add(1);
            while (ready.load() < THREADS) std::this_thread::yield();
            seen[std::size_t(i)] = platform::physicalMemory();
        });
    for (std::thread& t : threads) t.join();
    for (std::size_t bytes : seen) {
        REQUIRE(bytes > 0);
        REQUIRE(bytes == seen[0]);
    }
}
