// The default network, built into the binary by the assembler's .incbin (as Ethereal and
// Stockfish do with incbin.h), so that the engine needs no file beside it. The build passes the
// file's path as QUADBIT_DEFAULT_NETWORK (src/sources.cmake).
#include <cstdio>
#include <cstdlib>

#include "nnue/network.h"

// ELF's read-only section and its way back to the section before; Windows' PE has neither
// `.previous` nor `.rodata`, so there the bytes go into `.rdata` and the assembler back to `.text`.
#ifdef _WIN32
#define QUADBIT_READ_ONLY ".section .rdata,\"dr\"\n"
#define QUADBIT_SECTION_BACK ".text\n"
#else
#define QUADBIT_READ_ONLY ".section .rodata\n"
#define QUADBIT_SECTION_BACK ".previous\n"
#endif
asm(QUADBIT_READ_ONLY ".balign 64\n"
                      ".globl quadbitEmbeddedNetwork\n"
                      "quadbitEmbeddedNetwork:\n"
                      ".incbin \"" QUADBIT_DEFAULT_NETWORK "\"\n"
                      ".globl quadbitEmbeddedNetworkEnd\n"
                      "quadbitEmbeddedNetworkEnd:\n" QUADBIT_SECTION_BACK);

extern "C" const char quadbitEmbeddedNetwork[];
extern "C" const char quadbitEmbeddedNetworkEnd[];

namespace nnue {

const Network& embedded() {
    static const Network* const net = [] {
        auto* n = new Network;
        const std::string data(quadbitEmbeddedNetwork, quadbitEmbeddedNetworkEnd);
        if (std::string why = decode(data, *n); !why.empty()) {  // a broken build, not bad input
            std::fprintf(stderr, "embedded network: %s\n", why.c_str());
            std::abort();
        }
        return n;
    }();
    return *net;
}

}  // namespace nnue
