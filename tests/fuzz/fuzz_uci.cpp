// libFuzzer target: the UCI command handler, in process, one engine for the whole run. Each input
// is a conversation, one command a line. What the harness leaves out, and why: benchmarks (they
// run for seconds by design), `Debug Log File` (it would write files named by the fuzzer), and
// Threads and Hash (thousands of threads or terabytes per input make the run crawl; their values
// are validated by the same code as every other spin option). A stop goes before each command
// that would wait for a timed search to end, so that no input waits for minutes.
#include <cstdint>
#include <string>

#include "engine.h"
#include "uci.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static Engine* engine = (Engine::initTables(), new Engine());
    static uci::Session* session = new uci::Session(*engine);
    const std::string text(reinterpret_cast<const char*>(data), size);
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        const std::string line = text.substr(start, end - start);
        start = end + 1;
        if (line.find("bench") != std::string::npos || line.find("speedtest") != std::string::npos ||
            line.find("Log") != std::string::npos || line.find("Threads") != std::string::npos ||
            line.find("Hash") != std::string::npos || line.find("quit") != std::string::npos)
            continue;
        if (line.find("go") != std::string::npos || line.find("setoption") != std::string::npos ||
            line.find("ucinewgame") != std::string::npos || line.find("perft") != std::string::npos)
            engine->stop();
        session->execute(line);
    }
    engine->stop();
    engine->wait();
    return 0;
}
