// AtomicFile: an output file that appears complete or not at all: text goes to a temporary file
// beside the target, commit() renames it over the target, and without commit() it is removed.
// A temporary file left by a killed run is removed by the next AtomicFile for the same target.
// Text goes either through stream() or, for writers that fill the file by position from several
// threads, through positionalFd() (pwrite, or a shared mapping); not both.
#pragma once

#include "TempFiles.h"

#include <fstream>
#include <memory>
#include <string>

namespace pw {

class AtomicFile {
public:
    // Creates the temporary file in the target's directory; throws InputError (naming the
    // target) when that is not possible.
    explicit AtomicFile(std::string target);
    ~AtomicFile();
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;

    std::ostream& stream() { return out_; }
    // A descriptor of the temporary file open for reading and writing (pwrite, ftruncate, mmap),
    // opened on first call; commit() closes it and counts a failed close as a failed write.
    // Throws InputError.
    int positionalFd();
    const std::string& target() const { return target_; }
    // Flushes, checks that every write succeeded (disk full, ...) and renames onto the target.
    void commit();
    bool committed() const { return committed_; }

private:
    std::string target_;
    std::unique_ptr<TempPath> temp_;
    std::ofstream out_;
    int fd_ = -1;
    bool committed_ = false;
};

} // namespace pw
