// The UCI text layer over the engine object: reads commands, validates them, and calls the
// engine only with valid ones; prints what the search reports. Every malformed command is
// answered with `info string error: ...` and changes nothing. No command is dropped: those that
// arrive while a stopped search winds down wait for it.
#pragma once

#include <sstream>
#include <string>
#include <vector>

class Engine;

namespace uci {

class Session {
public:
    explicit Session(Engine& engine);
    // Runs one command line; false after `quit`.
    bool execute(const std::string& line);
    // How many commands were refused with an error (the command line exits non-zero on one).
    int errors() const { return errorCount; }

private:
    void error(const std::string& what);
    void cmdUci();
    void cmdIsReady();
    void cmdSetOption(std::istringstream& in);
    void cmdPosition(std::istringstream& in);
    void cmdGo(std::istringstream& in);
    void cmdPerft(const std::string& depthText);

    Engine& engine;
    int errorCount = 0;
};

// Reads commands from stdin until `quit` or end of input. Command-line arguments, if any, are
// run as one command instead (`quadbit bench`, `quadbit perft 6 [FEN]`); the exit code is 1 if
// it was refused.
int loop(int argc, char** argv);

// Writes one line (or several, separated by newlines) to stdout atomically, then flushes; the
// debug log records it.
void send(const std::string& text);

}  // namespace uci
