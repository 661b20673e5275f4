// SHA-256 (FIPS 180-4) of a file: how a network's description names the data it learnt from, so
// that the manifest (perf/data.md) and `sha256sum` on any machine identify the same bytes.
#pragma once

#include <string>

namespace sha256 {

// The lowercase hex digest of the bytes of `text`.
std::string ofBytes(const std::string& text);
// The lowercase hex digest of the file at `path`, or "" when it cannot be read.
std::string ofFile(const std::string& path);

}  // namespace sha256
