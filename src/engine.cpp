#include "engine.h"

#include <cstdio>
#include <sstream>

#include "attacks.h"
#include "cluster.h"
#include "eval/kpk.h"
#include "eval/material.h"
#include "iolog.h"
#include "perft.h"
#include "skill.h"
#include "syzygy/syzygy.h"
#include "topology.h"
#include "tt.h"
#include "tunable.h"

void Engine::initTables() {
    attacks::init();
    Position::init();
    search::init();
    kpk::init();
    material::init();
}

Engine::Engine() {
    pos.setFen(START_FEN);
    OptionsMap& o = optionList;
    o.add("Debug Log File", Option::string("", [](const Option& v) { return iolog::open(v.asString()); }));
    o.setIdleGuard([this](const std::string& what) { return whenIdle(what); });
    o.add("Threads", Option::spin(1, 1, 1024, [this](const Option& v) {
                         return placeThreads(std::size_t(v.asInt()));
                     }).whenIdle());
    o.add("Bind", Option::combo("auto", {"auto", "none", "compact", "scatter"}, [this](const Option&) {
                      return placeThreads(threads.size());
                  }).whenIdle());
    // `inherited`: the CPUs the parent left the process (a GUI's one-group affinity on Windows,
    // a taskset); `machine`: every CPU the system allows, for a user who wants them all.
    o.add("CPUs", Option::combo("inherited", {"inherited", "machine"}, [this](const Option& v) {
                      const bool whole = v.asString() == "machine";
                      machineTopology().useWholeMachine(whole);
                      std::string why = placeThreads(threads.size());
                      if (!why.empty()) machineTopology().useWholeMachine(!whole);  // refused: as it was
                      return why;
                  }).whenIdle());
    // NUMA nodes (src/numa.h): auto, none, or PUs a node ("0-15:16-31").
    o.add("NumaPolicy", Option::string("auto", [this](const Option& v) {
                            numa::Policy policy;
                            if (std::string why = numa::parse(v.asString(), policy); !why.empty()) return why;
                            const numa::Policy old = threads.numaPolicy;
                            threads.numaPolicy = policy;
                            std::string why = placeThreads(threads.size());
                            if (!why.empty()) threads.numaPolicy = old;
                            return why;
                        }).whenIdle());
    o.add("Hash", Option::spin(16, 1, 33554432, [this](const Option& v) {
                      return remakeHash(std::size_t(v.asInt()));
                  }).whenIdle());
    o.add("Clear Hash", Option::button([this](const Option&) {
                            threads.clearHash();
                            return std::string();
                        }).whenIdle());
    o.add("Ponder", Option::check(false));
    o.add("MultiPV", Option::spin(1, 1, 256, [this](const Option& v) {
                         threads.multiPV = std::size_t(v.asInt());
                         return std::string();
                     }).whenIdle());
    o.add("Move Overhead", Option::spin(10, 0, 5000, [this](const Option& v) {
              threads.moveOverhead = v.asInt();
              return std::string();
          }));
    // The notation of castling follows this option (king takes rook when true), never the last
    // FEN: a Chess960 FEN read before must not leave a later standard game in Chess960 mode.
    o.add("UCI_Chess960", Option::check(false));
    o.add("UCI_ShowWDL", Option::check(false, [this](const Option& v) {
              threads.showWdl = v.asBool();
              return std::string();
          }));
    o.add("Skill Level", Option::spin(Skill::MAX_LEVEL, 0, Skill::MAX_LEVEL));
    o.add("UCI_LimitStrength", Option::check(false));
    o.add("UCI_Elo", Option::spin(Skill::MIN_ELO, Skill::MIN_ELO, Skill::MAX_ELO));
    o.add("UCI_AnalyseMode", Option::check(false, [this](const Option& v) {
              threads.analysis = v.asBool();
              return std::string();
          }));
    // The evaluation, with Stockfish's names: the network (the embedded one unless EvalFile names
    // another) or, with Use NNUE off, the hand-written evaluation.
    o.add("Use NNUE", Option::check(true, [this](const Option&) { return selectNetwork(); }).whenIdle());
    o.add("EvalFile", Option::string(nnue::EMBEDDED_NAME, [this](const Option& v) {
                          std::unique_ptr<nnue::Network> loaded;
                          if (v.asString() != nnue::EMBEDDED_NAME && !v.asString().empty()) {
                              loaded = std::make_unique<nnue::Network>();
                              if (std::string why = nnue::load(v.asString(), *loaded); !why.empty()) return why;
                          }
                          fileNetwork = std::move(loaded);
                          return selectNetwork();
                      }).whenIdle());
    // Syzygy tablebases, with Stockfish's names and meanings (rootprobe.h, search.cpp).
    o.add("SyzygyPath", Option::string("", [this](const Option& v) {
                            std::string summary;
                            std::string why = syzygy::init(v.asString(), summary);
                            if (why.empty()) say(summary);
                            return why;
                        }).whenIdle());
    o.add("SyzygyProbeDepth", Option::spin(1, 1, 100, [this](const Option& v) {
              threads.tbProbeDepth = int(v.asInt());
              return std::string();
          }));
    o.add("Syzygy50MoveRule", Option::check(true, [this](const Option& v) {
              threads.tbRule50 = v.asBool();
              return std::string();
          }));
    o.add("SyzygyProbeLimit", Option::spin(7, 0, 7, [this](const Option& v) {
              threads.tbProbeLimit = int(v.asInt());
              return std::string();
          }));
#ifdef QUADBIT_MPI
    // The cluster's hash exchange (cluster.h): what each rank sends the others every round.
    o.add("ClusterShareDepth", Option::spin(cluster::DEFAULT_SHARE_DEPTH, 1, 100, [](const Option& v) {
              cluster::setShareDepth(int(v.asInt()));
              return std::string();
          }));
    o.add("ClusterBatchSize",
          Option::spin(cluster::DEFAULT_BATCH_SIZE, 1, cluster::MAX_BATCH_SIZE, [](const Option& v) {
              cluster::setBatchSize(int(v.asInt()));
              return std::string();
          }));
    // The ranks of one machine share one table (cluster.h); off, each has its own and they
    // exchange entries as machines do.
    o.add("ClusterNodeHash", Option::check(true, [this](const Option& v) {
                                 cluster::setNodeHash(v.asBool());
                                 return remakeHash(threads.tt.sizeMB());
                             }).whenIdle());
#endif
    // A tuning build's search constants (searchparams.h), for SPSA; a normal build has none.
    for (const tunable::Param& p : tunable::params())
        o.add(p.name, Option::spin(p.defaultValue, p.min, p.max, [this, value = p.value](const Option& v) {
                          *value = int(v.asInt());
                          search::init();  // the reduction table follows the LMR constants
                          return std::string();
                      }).whenIdle());

    threads.set(1, BindMode::AUTO);
    selectNetwork();  // before the table is made: a switch of evaluator clears it, the first need not
    threads.tt.resize(16);
    threads.clearHash();
}

Engine::~Engine() {
    stop();
    wait();
}

void Engine::setCallbacks(SearchCallbacks callbacks) {
    wait();
    reporting = callbacks;
    threads.callbacks = std::move(callbacks);
}

std::string Engine::setPosition(const std::string& fen, const std::vector<std::string>& moves) {
    Position next;
    next.setChess960(optionList["UCI_Chess960"].asBool());
    if (std::string why = next.setFen(fen); !why.empty()) return "bad FEN: " + why;
    for (std::size_t i = 0; i < moves.size(); ++i) {
        Move m = next.parseUciMove(moves[i]);
        if (m == MOVE_NONE)
            return "illegal or malformed move '" + moves[i] + "' (move " + std::to_string(i + 1) + ") in position";
        next.makeMove(m);
    }
    pos = next;
    return "";
}

std::string Engine::placeThreads(std::size_t count) {
    BindMode mode;
    parseBindMode(optionList["Bind"].asString(), mode);
    std::string why = threads.set(count, mode);
    if (why.empty()) say(threads.placement());
    return why;
}

std::string Engine::whenIdle(const std::string& what) {
    if (threads.searchingEndlessly()) return "cannot " + what + " while searching; send stop first";
    threads.waitForSearchFinished();
    return "";
}

std::string Engine::go(const SearchLimits& limits, TimePoint startTime) {
    if (std::string why = whenIdle("start a search"); !why.empty()) return why;
    threads.skillLevel = optionList["UCI_LimitStrength"].asBool()
                             ? Skill::levelForElo(int(optionList["UCI_Elo"].asInt()))
                             : int(optionList["Skill Level"].asInt());
    threads.startThinking(pos, limits, startTime);
    return "";
}

std::string Engine::newGame() {
    if (std::string why = whenIdle("start a new game"); !why.empty()) return why;
    threads.clearHash();
    threads.clear();
    return "";
}

std::string Engine::perft(int depth, std::function<void(const std::string&)> out) {
    if (std::string why = whenIdle("run perft"); !why.empty()) return why;
    threads.startJob([root = pos, depth, pus = threads.pus(), out = std::move(out)](const std::atomic<bool>& stop) {
        std::ostringstream report;
        perftDivide(root, depth, int(pus.size()), report, &stop, pus);
        std::string text = report.str();
        if (!text.empty() && text.back() == '\n') text.pop_back();  // `out` ends the line itself
        out(text);
    });
    return "";
}

std::uint64_t Engine::searchQuietly(const Position& p, const SearchLimits& limits) {
    wait();
    threads.callbacks = {};
    threads.skillLevel = Skill::MAX_LEVEL;  // benchmarks measure the full search
    threads.startThinking(p, limits, now());
    threads.waitForSearchFinished();
    threads.callbacks = reporting;
    return threads.nodesSearched();
}

std::string Engine::describePosition() const {
    std::string text = pos.pretty();
    Position probed = pos;
    syzygy::Wdl wdl;
    int dtz;
    if (syzygy::probeWdl(probed, wdl)) text += "Tablebases WDL: " + std::to_string(int(wdl)) + "\n";
    if (syzygy::probeDtz(probed, dtz)) text += "Tablebases DTZ: " + std::to_string(dtz) + "\n";
    return text;
}

std::string Engine::selectNetwork() {
    const nnue::Network* chosen = !optionList["Use NNUE"].asBool() ? nullptr
                                  : fileNetwork                    ? fileNetwork.get()
                                                                   : &nnue::embedded();
    // The table stores each position's static evaluation: another evaluator's, on another scale,
    // would mislead the pruning that reads it.
    if (chosen != threads.network) threads.clearHash();
    threads.network = chosen;
    const std::string copied = threads.replicateNetwork();
    if (!chosen) return "";
    char checksum[16];
    std::snprintf(checksum, sizeof checksum, "%08x", threads.network->checksum);
    const std::string& about = threads.network->description;
    say("NNUE evaluation using " + (fileNetwork ? optionList["EvalFile"].asString() : nnue::EMBEDDED_NAME) +
        " (checksum " + checksum + ", " + threads.network->shape() + ")" + (about.empty() ? "" : ": " + about));
    if (!copied.empty()) say(copied);
    return "";
}

std::string Engine::remakeHash(std::size_t mb) {
    std::string note;
    std::string why = threads.tt.resize(mb, &note);
    if (!why.empty()) return why;
    threads.clearHash();
    if (!note.empty()) say(note);
    return "";
}

#ifdef QUADBIT_MPI
void Engine::joinCluster() {
    cluster::start(threads);
    // The machine's ranks share the table from the start (quietly: a GUI has not spoken yet).
    if (std::string why = threads.tt.resize(threads.tt.sizeMB()); !why.empty()) say("error: " + why);
    threads.clearHash();
}
#endif

int Engine::hashfull() const { return threads.tt.hashfull(); }
