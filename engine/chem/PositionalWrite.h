// PositionalWrite: filling an output file at known offsets from several threads (the ranked SDF's
// commit, the hit store's placed export): its size reserved first, then pwrite by ranges.
#pragma once

#include "core/InputError.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace pw {

// pwrite until all of it is written: 0, or the errno of the failure (ENOSPC for a short write).
int writeAllAt(int fd, const char* data, std::size_t size, std::uint64_t offset);

// Gives the file its final size before the threads fill it: blocks reserved where the file
// system can (a full disk shows here, before any copying; `reserved` says so), a sparse file
// where it cannot. 0, or the errno of the failure.
int sizeOutput(int fd, std::uint64_t size, bool& reserved);

// The message of a failed write of `target`, which AtomicFile leaves untouched.
InputError writeFailedError(const std::string& target, int err);

// Whether writing through a mapping of fd's file, its blocks reserved by fallocate, cannot fail
// for want of space: file systems that write a reserved block in place (ext2/3/4, XFS, tmpfs).
// Copy-on-write ones (btrfs, ZFS) may need new blocks whatever was reserved, and a mapping
// reports a page it cannot back as a fault (SIGBUS, or EFAULT inside pread), not as a full disk.
bool reservedBlocksStay(int fd);

// The output mapped shared, to be filled by many threads at once (buffered writes to one file
// hold its inode's lock; page faults into a mapping run side by side). Only where sizeOutput
// reserved the blocks and reservedBlocksStay; else, or with POSEWRIGHT_COMMIT_PWRITE=1 (tests
// compare the two paths), data() is null and the caller writes by pwrite, whose ENOSPC the user
// is told as such. Unmapped by unmap() or on destruction.
class OutputMapping {
public:
    OutputMapping(int fd, std::uint64_t size, bool reserved);
    ~OutputMapping() { unmap(); }
    OutputMapping(const OutputMapping&) = delete;
    OutputMapping& operator=(const OutputMapping&) = delete;
    char* data() const { return data_; }
    void unmap();

private:
    char* data_ = nullptr;
    std::uint64_t size_ = 0;
};

} // namespace pw
