// RankedSdfWriter: writes SDF records sorted by a score. Records are kept in one block of memory
// (transparent huge pages) up to a budget, a quarter of the machine's memory by default, and
// spooled to a temporary file beyond it, so that any number fits; commit() copies them out in rank
// order. At 2,000,000 minimized poses (12.8 GB) removing the spool took 0.6-1.3 s, freeing the
// block ~0.03 s (tests/bench/RESULTS.md).
#pragma once

#include "AtomicFile.h"
#include "TempFiles.h"
#include "core/Molecule.h"

#include <cstdint>
#include <string>
#include <vector>

namespace pw {

class RankedSdfWriter {
public:
    explicit RankedSdfWriter(const std::string& target,
                             std::uint64_t memoryBudget = defaultMemoryBudget());
    ~RankedSdfWriter();
    RankedSdfWriter(const RankedSdfWriter&) = delete;
    RankedSdfWriter& operator=(const RankedSdfWriter&) = delete;

    // Lower scores rank first (affinities); ties keep arrival order.
    void add(const Molecule& m, double score);
    // The same with the record already formatted by formatRecord(): callers format on many
    // threads, since one thread formatting text is otherwise the slowest stage of a batch.
    void addFormatted(const std::string& record, double score);
    static std::string formatRecord(const Molecule& m);
    // Bytes of records kept in memory before the spool file takes the rest: a quarter of the
    // physical memory, or POSEWRIGHT_RANKED_MEMORY_MIB (0: every record spooled).
    static std::uint64_t defaultMemoryBudget();
    long count() const { return static_cast<long>(entries_.size()); }
    // Sorts, writes the target atomically and removes the spool. Without commit() nothing is
    // written and the spool is removed. The copy runs on several threads for large outputs
    // (each fills its own range of ranks, whose place in the output the sort has fixed).
    void commit();

private:
    struct Entry {
        double score;
        std::uint64_t offset; // in the memory block (held) or in the spool file
        std::uint32_t length;
        bool held;
    };
    void flushSpoolBuffer();
    void releaseMemory();

    std::string target_;
    TempPath spoolPath_;
    int spoolFd_ = -1;
    // Records not yet in the spool file: written in pieces of a few MiB, not one call each.
    std::string spoolBuffer_;
    std::uint64_t spoolWritten_ = 0;
    std::vector<Entry> entries_; // 24 bytes per record: a million records take 24 MB
    // The memory block: address space reserved up front, pages taken as records arrive.
    char* memory_ = nullptr;
    std::uint64_t memoryCapacity_ = 0, memoryUsed_ = 0;
};

} // namespace pw
