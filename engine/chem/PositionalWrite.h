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

} // namespace pw
