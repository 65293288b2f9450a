// RankedSdfWriter: writes SDF records sorted by a score without holding them in memory: records
// are spooled to a temporary file as they come, and commit() copies them out in rank order.
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
    explicit RankedSdfWriter(const std::string& target);
    ~RankedSdfWriter();
    RankedSdfWriter(const RankedSdfWriter&) = delete;
    RankedSdfWriter& operator=(const RankedSdfWriter&) = delete;

    // Lower scores rank first (affinities); ties keep arrival order.
    void add(const Molecule& m, double score);
    // The same with the record already formatted by formatRecord(): callers format on many
    // threads, since one thread formatting text is otherwise the slowest stage of a batch.
    void addFormatted(const std::string& record, double score);
    static std::string formatRecord(const Molecule& m);
    // Whether commit() may fill an output on fd's file system through a mapping: one that writes
    // blocks reserved by fallocate in place (ext2/3/4, XFS, tmpfs), so that a full disk shows
    // before the copy. Copy-on-write ones (btrfs, ZFS) may need new blocks whatever was reserved,
    // and a mapping reports a page it cannot back as a fault (SIGBUS, or EFAULT inside pread),
    // not as a full disk: their outputs are written by pwrite, whose ENOSPC the user is told.
    // (pw::reservedBlocksStay of chem/PositionalWrite.h, which OutputMapping asks.)
    static bool reservedBlocksStay(int fd);
    long count() const { return static_cast<long>(entries_.size()); }
    // Sorts, writes the target atomically and removes the spool. Without commit() nothing is
    // written and the spool is removed. The copy runs on several threads for large outputs
    // (each fills its own range of ranks, whose place in the output the sort has fixed).
    void commit();

private:
    struct Entry {
        double score;
        std::uint64_t offset;
        std::uint32_t length;
    };
    void flushSpoolBuffer();

    std::string target_;
    TempPath spoolPath_;
    int spoolFd_ = -1;
    // Records not yet in the spool file: written in pieces of a few MiB, not one call each.
    std::string spoolBuffer_;
    std::uint64_t spoolWritten_ = 0;
    std::vector<Entry> entries_; // 24 bytes per record: a million records take 24 MB
};

} // namespace pw
