// The `Debug Log File` option: every line the engine reads and writes, with a time stamp, so
// that a user can send us the conversation that went wrong.
#pragma once

#include <string>

namespace iolog {

// Starts logging to `path` (appending), or stops with an empty path; returns why it cannot.
std::string open(const std::string& path);
// `direction` is '<' for a line read, '>' for a line written.
void write(char direction, const std::string& line);

}  // namespace iolog
