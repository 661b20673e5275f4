// What the engine asks of the operating system, written once for POSIX systems (Linux) and once
// for Windows: memory for the hash table in large pages where the system gives them, the
// machine's memory, and read-only views of files (the Syzygy tables).
#pragma once

#include <cstddef>
#include <string>

namespace platform {

// `bytes` of zeroed or unzeroed memory aligned to at least 64 bytes, in large pages where the
// system gives them (Linux: transparent huge pages advised; Windows: plain pages); nullptr when
// it cannot. Freed by freeLarge.
void* allocateLarge(std::size_t bytes);
void freeLarge(void* memory);

// The machine's physical memory in bytes (0 when it cannot be read).
std::size_t physicalMemory();

// A file's bytes mapped read-only for random access, or data nullptr when it cannot be.
struct FileView {
    const void* data = nullptr;
    std::size_t size = 0;
};
FileView mapReadOnly(const std::string& path);
void unmap(const FileView& view);

}  // namespace platform
