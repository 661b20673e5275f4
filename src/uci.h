// The UCI protocol: reads commands, validates them, and changes the engine's state only when a
// command is valid. Every malformed command is answered with `info string error: ...`.
#pragma once

#include <string>

namespace uci {

// Reads commands from stdin until `quit` or end of input. Command-line arguments, if any, are
// run as one command instead (`quadbit bench`, `quadbit perft 6 [FEN]`).
int loop(int argc, char** argv);

// Writes one line (or several, separated by newlines) to stdout atomically, then flushes.
void send(const std::string& text);

}  // namespace uci
