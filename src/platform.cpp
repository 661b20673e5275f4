#include "platform.h"

#ifdef _WIN32
#ifndef NOMINMAX  // libstdc++'s MinGW headers may have defined it
#define NOMINMAX
#endif
#define WIN32_LEAN_AND_MEAN
#include <fcntl.h>
#include <io.h>
#include <windows.h>

#include <cstdio>
#else
#include <fcntl.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#endif

namespace platform {

#ifdef _WIN32

namespace {

// Large pages need the "Lock pages in memory" privilege (SeLockMemoryPrivilege), which an
// administrator grants to the user; held, it is still disabled until the process enables it.
// Enabled once; empty on success, else why not.
const std::string& lockPagesPrivilege() {
    static const std::string why = [] {
        HANDLE token = nullptr;
        if (!OpenProcessToken(GetCurrentProcess(), TOKEN_ADJUST_PRIVILEGES | TOKEN_QUERY, &token))
            return std::string("the process token cannot be read");
        TOKEN_PRIVILEGES privileges{};
        privileges.PrivilegeCount = 1;
        privileges.Privileges[0].Attributes = SE_PRIVILEGE_ENABLED;
        std::string result;
        if (!LookupPrivilegeValueA(nullptr, "SeLockMemoryPrivilege", &privileges.Privileges[0].Luid))
            result = "the system has no Lock pages in memory privilege";
        // AdjustTokenPrivileges succeeds without the privilege, saying ERROR_NOT_ALL_ASSIGNED.
        else if (!AdjustTokenPrivileges(token, FALSE, &privileges, 0, nullptr, nullptr) ||
                 GetLastError() != ERROR_SUCCESS)
            result = "this user lacks the Lock pages in memory privilege";
        CloseHandle(token);
        return result;
    }();
    return why;
}

}  // namespace

// VirtualAlloc's memory is page-aligned and zeroed; large pages are committed at once, in
// multiples of the large page size, and only with the privilege.
LargeMemory allocateLarge(std::size_t bytes) {
    LargeMemory memory;
    const SIZE_T large = GetLargePageMinimum();
    if (!large) memory.pages = "normal pages (the system has no large pages)";
    else if (!lockPagesPrivilege().empty()) memory.pages = "normal pages (" + lockPagesPrivilege() + ")";
    else if ((memory.data = VirtualAlloc(nullptr, (bytes + large - 1) / large * large,
                                         MEM_RESERVE | MEM_COMMIT | MEM_LARGE_PAGES, PAGE_READWRITE)))
        memory.pages = "large pages of " + std::to_string(large / 1024) + " KB";
    else memory.pages = "normal pages (too little memory free in large pages)";
    if (!memory.data) memory.data = VirtualAlloc(nullptr, bytes, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE);
    return memory;
}

std::size_t threadStackBytes() {
    ULONG_PTR low = 0, high = 0;
    GetCurrentThreadStackLimits(&low, &high);
    return std::size_t(high - low);
}

void freeLarge(void* memory) {
    if (memory) VirtualFree(memory, 0, MEM_RELEASE);
}

// Read once, by the first caller while the others wait: Wine's GlobalMemoryStatusEx answers a
// call made within a second of another from a cache that the other is still filling, so two
// threads making engines at once (datagen's players) could be told the machine has no memory.
std::size_t physicalMemory() {
    static const std::size_t bytes = [] {
        MEMORYSTATUSEX status{};
        status.dwLength = sizeof status;
        return GlobalMemoryStatusEx(&status) ? std::size_t(status.ullTotalPhys) : 0;
    }();
    return bytes;
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

LargeMemory allocateLarge(std::size_t bytes) {
    bytes = (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
    LargeMemory memory{std::aligned_alloc(HUGE_PAGE, bytes), "normal pages (no transparent huge pages here)"};
#ifdef MADV_HUGEPAGE
    // Fewer TLB misses on large tables, where the kernel's setting allows them.
    if (memory.data && madvise(memory.data, bytes, MADV_HUGEPAGE) == 0) {
        std::ifstream setting("/sys/kernel/mm/transparent_hugepage/enabled");
        std::string modes((std::istreambuf_iterator<char>(setting)), std::istreambuf_iterator<char>());
        memory.pages = modes.find("[never]") != std::string::npos
                           ? "normal pages (transparent huge pages are off in the kernel)"
                           : "transparent huge pages of 2 MB, as the kernel can give them";
    }
#endif
    return memory;
}

std::size_t threadStackBytes() {
    pthread_attr_t attributes;
    std::size_t size = 0;
    if (pthread_getattr_np(pthread_self(), &attributes) == 0) {
        pthread_attr_getstacksize(&attributes, &size);
        pthread_attr_destroy(&attributes);
    }
    return size;
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
