// Helpers shared by the tests: paths of the shared data and of temporary files, and the
// perft-suite reader.
#pragma once

#ifdef _WIN32
#include <process.h>
#else
#include <unistd.h>
#endif

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

inline std::string sharedPath(const std::string& relative) { return std::string(QUADBIT_SHARED_DIR) + "/" + relative; }

// A folder of this test process's own, removed when it exits. CTest runs each test case in a
// process of its own, the plain and the sanitized builds' copies side by side: a fixed name in
// the temporary folder would have two of them writing one file.
inline int processId() {
#ifdef _WIN32
    return _getpid();
#else
    return int(getpid());
#endif
}

struct TempFolder {
    std::filesystem::path path =
        std::filesystem::temp_directory_path() / ("quadbit-test-" + std::to_string(processId()));
    TempFolder() { std::filesystem::create_directories(path); }
    ~TempFolder() {
        std::error_code ignored;
        std::filesystem::remove_all(path, ignored);
    }
};

inline std::string tempPath(const std::string& name) {
    static const TempFolder folder;
    return (folder.path / name).string();
}

struct PerftLine {
    std::string fen;
    std::vector<std::pair<int, std::uint64_t>> counts;  // (depth, leaf nodes)
};

// Lines of the form `FEN ;D1 n ;D2 n ...`; the depth labels are read, not assumed.
inline std::vector<PerftLine> readPerftSuite(const std::string& relative) {
    std::ifstream in(sharedPath(relative));
    std::vector<PerftLine> lines;
    for (std::string text; std::getline(in, text);) {
        if (text.find(';') == std::string::npos) continue;
        PerftLine line;
        std::stringstream parts(text);
        std::getline(parts, line.fen, ';');
        for (std::string field; std::getline(parts, field, ';');) {
            std::istringstream f(field);
            std::string label;
            std::uint64_t nodes;
            if (f >> label >> nodes && label.size() > 1 && label[0] == 'D')
                line.counts.push_back({std::stoi(label.substr(1)), nodes});
        }
        lines.push_back(line);
    }
    return lines;
}
