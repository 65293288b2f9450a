#include "RecordReader.h"

#include "StructureRepair.h"
#include "TextFields.h"
#include "core/InputError.h"

#include <algorithm>

namespace pw {

RecordReader::RecordReader(std::unique_ptr<std::istream> in, std::string path, FileFormat format,
                           ReadOptions options)
    : stream_(std::move(in)), lines_(*stream_, path) {
    path_ = std::move(path);
    format_ = format;
    options_ = std::move(options);
}

RecordReader::RecordReader(std::string_view text, std::string path, long firstLine,
                           FileFormat format, ReadOptions options)
    : lines_(text, path, firstLine) {
    path_ = std::move(path);
    format_ = format;
    options_ = std::move(options);
}

void clearMolecule(Molecule& m) {
    m.name.clear();
    m.atoms.clear();
    m.bonds.clear();
    m.residues.clear();
    m.properties.clear();
    m.torsionTree.reset();
    m.sourceFile.clear();
    m.sourceRecord = 0;
}

bool RecordReader::next(Molecule& out) {
    for (;;) {
        try {
            clearMolecule(out);
            bondPairs_.clear();
            repairNote_.clear();
            if (!readRecord(out))
                return false;
            ++read_;
            out.sourceFile = path_;
            if (!repairNote_.empty() && options_.warn)
                options_.warn(repairNote_);
            return true;
        } catch (const InputError& e) {
            if (!multiRecord())
                throw;
            ++skipped_;
            if (options_.warn)
                options_.warn(std::string(e.what()) + " (record skipped)");
            skipToNextRecord();
        }
    }
}

void RecordReader::repairRecord(Molecule& out, long line) {
    const std::vector<std::string> changes = repairStructure(out);
    if (!changes.empty())
        repairNote_ = repairWarning(path_, line, out, changes);
}

void RecordReader::requireUtf8(std::string_view s, long line, const char* what) const {
    if (!text::isValidUtf8(s))
        lines_.fail(line, std::string(what) + " is not valid UTF-8 text (found bytes " +
                              text::quote(s) + "); expected UTF-8 or plain ASCII");
}

void RecordReader::requireNewBond(int a, int b, const std::string& bond) {
    const auto lo = static_cast<unsigned long long>(std::min(a, b));
    const auto hi = static_cast<unsigned long long>(std::max(a, b));
    if (!bondPairs_.insert(lo << 32 | hi).second)
        lines_.fail(bond + ": atoms " + std::to_string(lo + 1) + " and " + std::to_string(hi + 1) +
                    " are already bonded (a second bond between two atoms is not a structure)");
}

void RecordReader::requireAtomLimit(long atoms, long line) const {
    if (atoms > options_.maxAtoms)
        lines_.fail(line, "record has " + std::to_string(atoms) +
                              " atoms, more than the limit of " +
                              std::to_string(options_.maxAtoms) +
                              " (ReadOptions::maxAtoms); expected a smaller molecule");
}

} // namespace pw
