#include "platform.h"

#ifdef _WIN32
#define NOMINMAX
#define WIN32_LEAN_AND_MEAN
#include <fcntl.h>
#include <io.h>
#include <windows.h>

#include <cstdio>
#else
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#endif

namespace platform {

#ifdef _WIN32

// VirtualAlloc's memory is page-aligned and zeroed; large pages need a privilege the engine
// does not have by default.
void* allocateLarge(std::size_t bytes) {
    return VirtualAlloc(nullptr, bytes, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE);
}

void freeLarge(void* memory) {
    if (memory) VirtualFree(memory, 0, MEM_RELEASE);
}

std::size_t physicalMemory() {
    MEMORYSTATUSEX status{};
    status.dwLength = sizeof status;
    return GlobalMemoryStatusEx(&status) ? std::size_t(status.ullTotalPhys) : 0;
}

FileView mapReadOnly(const std::string& path) {
    FileView view;
    HANDLE file = CreateFileA(path.c_str(), GENERIC_READ, FILE_SHARE_READ, nullptr, OPEN_EXISTING,
                              FILE_FLAG_RANDOM_ACCESS, nullptr);
    if (file == INVALID_HANDLE_VALUE) return view;
    LARGE_INTEGER size{};
    if (GetFileSizeEx(file, &size) && size.QuadPart > 0) {
        HANDLE mapping = CreateFileMappingA(file, nullptr, PAGE_READONLY, 0, 0, nullptr);
        if (mapping) {
            view.data = MapViewOfFile(mapping, FILE_MAP_READ, 0, 0, 0);
            if (view.data) view.size = std::size_t(size.QuadPart);
            CloseHandle(mapping);  // the view keeps the mapping alive
        }
    }
    CloseHandle(file);
    return view;
}

void unmap(const FileView& view) {
    if (view.data) UnmapViewOfFile(view.data);
}

std::tm localTime(std::time_t t) {
    std::tm local{};
    localtime_s(&local, &t);
    return local;
}

void plainLineEnds() { _setmode(_fileno(stdout), _O_BINARY); }

#else

constexpr std::size_t HUGE_PAGE = 2 * 1024 * 1024;

void* allocateLarge(std::size_t bytes) {
    bytes = (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
    void* memory = std::aligned_alloc(HUGE_PAGE, bytes);
#ifdef MADV_HUGEPAGE
    if (memory) madvise(memory, bytes, MADV_HUGEPAGE);  // fewer TLB misses on large tables
#endif
    return memory;
}

void freeLarge(void* memory) { std::free(memory); }

std::size_t physicalMemory() { return std::size_t(sysconf(_SC_PHYS_PAGES)) * std::size_t(sysconf(_SC_PAGESIZE)); }

FileView mapReadOnly(const std::string& path) {
    FileView view;
    const int fd = ::open(path.c_str(), O_RDONLY);
    if (fd < 0) return view;
    struct stat st {};
    if (fstat(fd, &st) == 0 && st.st_size > 0) {
        void* base = mmap(nullptr, std::size_t(st.st_size), PROT_READ, MAP_SHARED, fd, 0);
        if (base != MAP_FAILED) {
            madvise(base, std::size_t(st.st_size), MADV_RANDOM);  // probes jump about the file
            view.data = base;
            view.size = std::size_t(st.st_size);
        }
    }
    close(fd);
    return view;
}

void unmap(const FileView& view) {
    if (view.data) munmap(const_cast<void*>(view.data), view.size);
}

std::tm localTime(std::time_t t) {
    std::tm local{};
    localtime_r(&t, &local);
    return local;
}

void plainLineEnds() {}

#endif

}  // namespace platform
