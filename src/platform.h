// What the engine asks of the operating system, written once for POSIX systems (Linux) and once
// for Windows: memory for the hash table in large pages where the system gives them, the
// machine's memory, and read-only views of files (the Syzygy tables).
#pragma once

#include <cstddef>
#include <ctime>
#include <string>

namespace platform {

// `bytes` of zeroed or unzeroed memory aligned to at least 64 bytes, in large pages where the
// system gives them (Linux: transparent huge pages advised; Windows: large pages when the "Lock
// pages in memory" privilege can be enabled, plain pages otherwise); data nullptr when it cannot.
// `pages` says which, for `info string`. Freed by freeLarge.
struct LargeMemory {
    void* data = nullptr;
    std::string pages;  // "large pages", "normal pages (why)", ...
};
LargeMemory allocateLarge(std::size_t bytes);
void freeLarge(void* memory);

// The size in bytes of the calling thread's stack (what the system reserved for it).
std::size_t threadStackBytes();

// The machine's physical memory in bytes (0 when it cannot be read).
std::size_t physicalMemory();

// Standard output's lines end in "\n" alone, as on Linux, whatever the system: Windows' text
// mode would write "\r\n", which a client on another system (fastchess driving the engine under
// Wine) reads as part of the last word, `bestmove e2e4\r`. Windows GUIs read either.
void plainLineEnds();

// The local time of `t` (localtime_r, thread-safe).
std::tm localTime(std::time_t t);

// A file's bytes mapped read-only for random access, or data nullptr when it cannot be.
struct FileView {
    const void* data = nullptr;
    std::size_t size = 0;
};
FileView mapReadOnly(const std::string& path);
void unmap(const FileView& view);

}  // namespace platform
