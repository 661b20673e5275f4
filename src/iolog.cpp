#include "iolog.h"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <mutex>

#include "platform.h"

namespace iolog {

namespace {

std::mutex mutex;
std::ofstream file;

// Local wall-clock time to the millisecond: the GUI's own log is in wall-clock time too.
std::string timestamp() {
    const auto t = std::chrono::system_clock::now();
    const std::time_t seconds = std::chrono::system_clock::to_time_t(t);
    const int ms = int(std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count() % 1000);
    const std::tm local = platform::localTime(seconds);
    char buf[96];  // room for any int fields, so the compiler sees no truncation
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02d %02d:%02d:%02d.%03d", local.tm_year + 1900, local.tm_mon + 1,
                  local.tm_mday, local.tm_hour, local.tm_min, local.tm_sec, ms);
    return buf;
}

}  // namespace

std::string open(const std::string& path) {
    std::lock_guard<std::mutex> lock(mutex);
    if (path.empty()) {
        if (file.is_open()) file.close();
        return "";
    }
    std::ofstream next(path, std::ios::app);
    if (!next) return "cannot open the debug log file '" + path + "' for writing";
    if (file.is_open()) file.close();
    file = std::move(next);
    return "";
}

void write(char direction, const std::string& line) {
    std::lock_guard<std::mutex> lock(mutex);
    if (!file.is_open()) return;
    std::size_t start = 0;
    // A multi-line message is logged one line at a time, each with its own stamp.
    while (start <= line.size()) {
        std::size_t end = line.find('\n', start);
        if (end == std::string::npos) end = line.size();
        file << timestamp() << ' ' << direction << ' ' << line.substr(start, end - start) << '\n';
        start = end + 1;
    }
    file.flush();
}

}  // namespace iolog
