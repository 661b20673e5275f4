#!/usr/bin/env python3
"""Writes the bytes that GetLogicalProcessorInformationEx(RelationAll, ...) returns on four
machines Windows places threads on in different ways, for the placement tests (test_topology.cpp),
which run on Linux too. Wine reports a single group, so these are the only check of the
multi-group paths.

The layout is Microsoft's, x64, little-endian (winnt.h; learn.microsoft.com,
SYSTEM_LOGICAL_PROCESSOR_INFORMATION_EX): an entry is Relationship (DWORD), Size (DWORD), then
  PROCESSOR_RELATIONSHIP  Flags (BYTE, LTP_PC_SMT = 1), EfficiencyClass (BYTE), Reserved[20],
                          GroupCount (WORD), GROUP_AFFINITY GroupMask[GroupCount] at offset 32;
  NUMA_NODE_RELATIONSHIP  NodeNumber (DWORD), Reserved[18], GroupCount (WORD; 0 before Windows 11,
                          which gave one GroupMask), GROUP_AFFINITY GroupMasks[] at offset 32;
  CACHE_RELATIONSHIP      Level, Associativity (BYTE), LineSize (WORD), CacheSize (DWORD), Type
                          (DWORD), Reserved[18], GroupCount (WORD), GroupMasks[] at offset 32;
  GROUP_RELATIONSHIP      MaximumGroupCount, ActiveGroupCount (WORD), Reserved[20],
                          PROCESSOR_GROUP_INFO GroupInfo[] at offset 32 (MaximumProcessorCount,
                          ActiveProcessorCount (BYTE), Reserved[38], ActiveProcessorMask at 40:
                          48 bytes each);
and GROUP_AFFINITY is Mask (KAFFINITY, 8 bytes), Group (WORD), Reserved[3] (WORD): 16 bytes.
Relationship: ProcessorCore 0, NumaNode 1, Cache 2, ProcessorPackage 3, Group 4. The Windows
build checks these offsets against its own headers at compile time (src/processors.cpp), and
under Wine reads the machine's own answer with them.

Run from this folder: python3 make.py (writes the four .bin files; the same bytes every time).
"""
import struct

CORE, NUMA, CACHE, PACKAGE, GROUP = 0, 1, 2, 3, 4
SMT = 1


def affinity(group, mask):
    return struct.pack("<QH6x", mask, group)


def entry(relationship, body):
    return struct.pack("<II", relationship, 8 + len(body)) + body


def processor(relationship, masks, flags=0, efficiency=0):
    body = struct.pack("<BB20xH", flags, efficiency, len(masks))
    return entry(relationship, body + b"".join(affinity(g, m) for g, m in masks))


def numa(node, masks, windows11=True):
    body = struct.pack("<I18xH", node, len(masks) if windows11 else 0)
    return entry(NUMA, body + b"".join(affinity(g, m) for g, m in masks))


def cache(level, size, masks):
    body = struct.pack("<BBHII18xH", level, 16, 64, size, 0, len(masks))  # Type 0: unified
    return entry(CACHE, body + b"".join(affinity(g, m) for g, m in masks))


def groups(active):
    body = struct.pack("<HH20x", len(active), len(active))
    for count in active:
        mask = (1 << count) - 1
        body += struct.pack("<BB38xQ", 64, count, mask)
    return entry(GROUP, body)


def bits(pus):
    """{group: mask} of logical processor numbers group * 64 + bit."""
    masks = {}
    for pu in pus:
        masks[pu // 64] = masks.get(pu // 64, 0) | 1 << (pu % 64)
    return sorted(masks.items())


def machine(cores, nodes, packages, l3, active, windows11=True):
    """cores: [(pus, flags, efficiency)], nodes and packages and l3: [pus]."""
    out = b""
    for i, (pus, flags, efficiency) in enumerate(cores):
        out += processor(CORE, bits(pus), flags, efficiency)
        out += cache(2, 1 << 20, bits(pus))
    for pus in l3:
        out += cache(3, 32 << 20, bits(pus))
    for pus in packages:
        out += processor(PACKAGE, bits(pus))
    for node, pus in enumerate(nodes):
        masks = bits(pus)
        out += numa(node, masks if windows11 else masks[:1], windows11)
    return out + groups(active)


def smt_cores(first_core, count):
    return [([2 * c, 2 * c + 1], SMT, 0) for c in range(first_core, first_core + count)]


def threadripper_3990x():
    # 64 cores, 128 threads: two groups of 64, one NUMA node over both (Windows 11 names both
    # groups in the node), eight cores to an L3.
    pus = range(128)
    return machine(smt_cores(0, 64), [pus], [pus], [range(16 * i, 16 * i + 16) for i in range(8)], [64, 64])


def epyc_2s():
    # Two 64-core EPYCs in NPS4: 256 threads in four groups of 64, eight NUMA nodes of 16 cores,
    # two nodes to a group; as Windows 10 reports them (one group mask a node).
    return machine(smt_cores(0, 128), [range(32 * n, 32 * n + 32) for n in range(8)],
                   [range(0, 128), range(128, 256)], [range(16 * i, 16 * i + 16) for i in range(16)],
                   [64, 64, 64, 64], windows11=False)


def desktop_16():
    # A 16-core desktop (Ryzen 9 7950X): 32 threads, one group, one node, two L3s.
    pus = range(32)
    return machine(smt_cores(0, 16), [pus], [pus], [range(0, 16), range(16, 32)], [32])


def hybrid_8p16e():
    # A laptop's 8 performance cores with SMT (efficiency class 1) and 16 efficient cores without
    # (class 0): 32 threads, one group, one node, the performance cores first as Windows lists them.
    cores = [([2 * c, 2 * c + 1], SMT, 1) for c in range(8)] + [([16 + e], 0, 0) for e in range(16)]
    pus = range(32)
    return machine(cores, [pus], [pus], [pus], [32])


if __name__ == "__main__":
    for name, make in [("threadripper-3990x", threadripper_3990x), ("epyc-2s-nps4", epyc_2s),
                       ("desktop-16-core", desktop_16), ("hybrid-8p-16e", hybrid_8p16e)]:
        with open(name + ".bin", "wb") as f:
            f.write(make())
