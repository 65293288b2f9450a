#include "RankedSdfWriter.h"

#include "OutputStall.h"
#include "SdfWriter.h"
#include "core/InputError.h"

#include <algorithm>

namespace pw {

namespace {

// Removes what a killed run left beside the target before a new spool joins it.
const std::string& sweptOfStaleFiles(const std::string& target) {
    removeStaleTempFiles(target);
    return target;
}

} // namespace

RankedSdfWriter::RankedSdfWriter(const std::string& target)
    : target_(target), spoolPath_(sweptOfStaleFiles(target), "spool") {
    // The spool sits beside the target (same file system, same permissions problems reported).
    spool_.open(spoolPath_.path(),
                std::ios::in | std::ios::out | std::ios::trunc | std::ios::binary);
    if (!spool_)
        throw InputError(target, 0, "cannot create a temporary file beside the output");
}

RankedSdfWriter::~RankedSdfWriter() {
    spool_.close(); // spoolPath_'s destructor removes the file
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
    spool_.write(text.data(), static_cast<std::streamsize>(text.size()));
    if (!spool_)
        throw InputError(target_, 0, "cannot write the temporary spool file (disk full?)");
    entries_.push_back({score, spoolSize_, static_cast<std::uint32_t>(text.size())});
    spoolSize_ += text.size();
}

void RankedSdfWriter::commit() {
    std::stable_sort(entries_.begin(), entries_.end(),
                     [](const Entry& a, const Entry& b) { return a.score < b.score; });
    spool_.flush();
    AtomicFile out(target_);
    std::string buffer;
    for (const Entry& e : entries_) {
        buffer.resize(e.length);
        spool_.seekg(static_cast<std::streamoff>(e.offset));
        spool_.read(buffer.data(), e.length);
        if (!spool_)
            throw InputError(target_, 0, "cannot read back the temporary spool file");
        out.stream().write(buffer.data(), e.length);
    }
    out.commit();
    stallOutputIfRequested("after-rename", target_); // the spool goes with this writer
}

} // namespace pw
