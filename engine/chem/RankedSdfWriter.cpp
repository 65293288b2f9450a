#include "RankedSdfWriter.h"

#include "OutputStall.h"
#include "PositionalWrite.h"
#include "SdfWriter.h"
#include "core/InputError.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <system_error>
#include <thread>
#include <unistd.h>

namespace pw {

namespace {

// The spool is appended to in pieces of this size, and each copying thread reads runs of records
// into a buffer of this size and writes it with one call: few system calls, little memory.
constexpr std::size_t kChunkBytes = std::size_t{4} << 20;
// Below this many output bytes per thread, starting a thread costs more than it saves.
constexpr std::uint64_t kMinBytesPerThread = std::uint64_t{8} << 20;
constexpr unsigned kMaxCopyThreads = 8;
// Through a mapping the copy scales further: the threads only share the page faults.
constexpr unsigned kMaxMappedCopyThreads = 16;

// Removes what a killed run left beside the target before a new spool joins it.
const std::string& sweptOfStaleFiles(const std::string& target) {
    removeStaleTempFiles(target);
    return target;
}

// pread until all of it is read: 0, or the errno of the failure (EIO when the file is shorter).
int readAllAt(int fd, char* data, std::size_t size, std::uint64_t offset) {
    while (size > 0) {
        const ssize_t n = ::pread(fd, data, size, static_cast<off_t>(offset));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return n < 0 ? errno : EIO;
        data += n, size -= static_cast<std::size_t>(n), offset += static_cast<std::uint64_t>(n);
    }
    return 0;
}

} // namespace

bool RankedSdfWriter::reservedBlocksStay(int fd) {
    return pw::reservedBlocksStay(fd);
}

RankedSdfWriter::RankedSdfWriter(const std::string& target)
    : target_(target), spoolPath_(sweptOfStaleFiles(target), "spool") {
    // The spool sits beside the target (same file system, same permissions problems reported).
    spoolFd_ = ::open(spoolPath_.path().c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (spoolFd_ < 0)
        throw InputError(target, 0, "cannot create a temporary file beside the output");
}

RankedSdfWriter::~RankedSdfWriter() {
    if (spoolFd_ >= 0)
        ::close(spoolFd_); // spoolPath_'s destructor removes the file
}

std::string RankedSdfWriter::formatRecord(const Molecule& m) {
    std::string record;
    appendSdfRecord(record, m);
    return record;
}

void RankedSdfWriter::add(const Molecule& m, double score) {
    addFormatted(formatRecord(m), score);
}

void RankedSdfWriter::addFormatted(const std::string& text, double score) {
    entries_.push_back({score, spoolWritten_ + spoolBuffer_.size(),
                        static_cast<std::uint32_t>(text.size())});
    spoolBuffer_.append(text);
    if (spoolBuffer_.size() >= kChunkBytes)
        flushSpoolBuffer();
}

void RankedSdfWriter::flushSpoolBuffer() {
    if (writeAllAt(spoolFd_, spoolBuffer_.data(), spoolBuffer_.size(), spoolWritten_) != 0)
        throw InputError(target_, 0, "cannot write the temporary spool file (disk full?)");
    spoolWritten_ += spoolBuffer_.size();
    spoolBuffer_.clear();
}

void RankedSdfWriter::commit() {
    std::stable_sort(entries_.begin(), entries_.end(),
                     [](const Entry& a, const Entry& b) { return a.score < b.score; });
    flushSpoolBuffer();
    std::string().swap(spoolBuffer_);

    // Where each rank starts in the output: the threads' ranges are fixed before any copying.
    const std::size_t n = entries_.size();
    std::vector<std::uint64_t> start(n + 1, 0);
    for (std::size_t i = 0; i < n; ++i)
        start[i + 1] = start[i] + entries_[i].length;
    const std::uint64_t total = start[n];

    auto writeFailed = [&](int err) { return writeFailedError(target_, err); };
    AtomicFile out(target_);
    if (total > 0) {
        const int outFd = out.positionalFd();
        bool reserved = false;
        if (const int err = sizeOutput(outFd, total, reserved))
            throw writeFailed(err);
        // With its blocks reserved, the output is filled through a shared mapping: the spool is
        // read straight into it. Buffered writes to one file hold its inode's lock, so threads
        // calling pwrite filled it at about one thread's speed (tests/bench/RESULTS.md); page
        // faults into a mapping run side by side. A sparse output is written by pwrite: in a
        // mapping, a disk that fills up shows as a fault, not a full disk (reservedBlocksStay).
        // POSEWRIGHT_COMMIT_PWRITE=1 writes by pwrite always (tests compare the two).
        OutputMapping mapping(outFd, total, reserved);
        char* const mapped = mapping.data();

        const unsigned hardware = std::max(1u, std::thread::hardware_concurrency());
        const unsigned threads = static_cast<unsigned>(std::clamp<std::uint64_t>(
            total / kMinBytesPerThread, 1,
            std::min(hardware, mapped ? kMaxMappedCopyThreads : kMaxCopyThreads)));
        std::atomic<bool> stop{false};
        std::vector<int> readError(threads, 0), writeError(threads, 0);

        // Copies ranks [begin, end): runs of records adjacent in the spool are read with one
        // call, and the buffer (consecutive ranks, so one span of the output) is written with one.
        auto copyRanks = [&](unsigned part, std::size_t begin, std::size_t end) {
            std::vector<char> buffer(kChunkBytes);
            std::size_t used = 0;      // bytes of the buffer filled (or pending a read)
            std::size_t runAt = 0;     // where in the buffer the pending read run starts
            std::uint64_t runFrom = 0; // and where in the spool
            std::uint64_t bufferAt = start[begin];
            auto readRun = [&] {
                if (used > runAt && !readError[part])
                    readError[part] =
                        readAllAt(spoolFd_, buffer.data() + runAt, used - runAt, runFrom);
                runAt = used;
                return readError[part] == 0;
            };
            auto writeBuffer = [&] {
                if (!readRun())
                    return false;
                writeError[part] = writeAllAt(outFd, buffer.data(), used, bufferAt);
                bufferAt += used;
                used = runAt = 0;
                return writeError[part] == 0;
            };
            for (std::size_t r = begin; r < end; ++r) {
                const Entry& e = entries_[r];
                if (used + e.length > buffer.size()) {
                    if (stop.load(std::memory_order_relaxed) || !writeBuffer())
                        break;
                    if (e.length > buffer.size())
                        buffer.resize(e.length);
                }
                if (used == runAt || runFrom + (used - runAt) != e.offset) {
                    if (!readRun())
                        break;
                    runFrom = e.offset;
                }
                used += e.length;
            }
            if (!readError[part] && !writeError[part] && !stop.load(std::memory_order_relaxed))
                writeBuffer();
            if (readError[part] || writeError[part])
                stop.store(true, std::memory_order_relaxed);
        };

        // The same into the mapping: each run of records adjacent in the spool (up to a
        // buffer's size) is read with one call, straight to where its ranks go.
        auto copyRanksMapped = [&](unsigned part, std::size_t begin, std::size_t end) {
            std::size_t runRank = begin;
            std::uint64_t runFrom = 0, runLength = 0;
            auto readRun = [&] {
                if (runLength > 0 && !readError[part])
                    readError[part] =
                        readAllAt(spoolFd_, mapped + start[runRank], runLength, runFrom);
                return readError[part] == 0;
            };
            for (std::size_t r = begin; r < end; ++r) {
                const Entry& e = entries_[r];
                if (runLength > 0 && runFrom + runLength == e.offset && runLength < kChunkBytes) {
                    runLength += e.length;
                    continue;
                }
                if (stop.load(std::memory_order_relaxed) || !readRun())
                    break;
                runRank = r, runFrom = e.offset, runLength = e.length;
            }
            if (!stop.load(std::memory_order_relaxed))
                readRun();
            if (readError[part])
                stop.store(true, std::memory_order_relaxed);
        };
        auto copy = [&](unsigned part, std::size_t begin, std::size_t end) {
            if (mapped)
                copyRanksMapped(part, begin, end);
            else
                copyRanks(part, begin, end);
        };

        auto firstRank = [&](unsigned part) {
            if (part == threads)
                return n;
            return static_cast<std::size_t>(
                std::lower_bound(start.begin(), start.end() - 1, total * part / threads) -
                start.begin());
        };
        {
            std::vector<std::jthread> helpers; // joined when the block ends, throw or not
            for (unsigned part = 1; part < threads; ++part) {
                try {
                    helpers.emplace_back(copy, part, firstRank(part), firstRank(part + 1));
                } catch (const std::system_error&) { // no thread to be had: copied here instead
                    copy(part, firstRank(part), firstRank(part + 1));
                }
            }
            copy(0, 0, firstRank(1));
        }
        mapping.unmap();
        for (unsigned part = 0; part < threads; ++part) {
            if (readError[part])
                throw InputError(target_, 0,
                                 std::string("cannot read back the temporary spool file: ")
                                     .append(std::strerror(readError[part])));
            if (writeError[part])
                throw writeFailed(writeError[part]);
        }
    }
    out.commit();
    stallOutputIfRequested("after-rename", target_); // the spool goes with this writer
}

} // namespace pw
