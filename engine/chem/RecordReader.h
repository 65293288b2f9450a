// RecordReader: the shared skeleton of the text molecule readers: owns the stream and its
// LineReader, and turns a bad record into a warning and a skip (multi-record formats) or a throw.
#pragma once

#include "LineReader.h"
#include "MoleculeReader.h"

#include <istream>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_set>

namespace pw {

class RecordReader : public MoleculeReader {
public:
    bool next(Molecule& out) final;

protected:
    RecordReader(std::unique_ptr<std::istream> in, std::string path, FileFormat format,
                 ReadOptions options);
    // Over text held by the caller (one record cut from a file), its first line numbered
    // firstLine: no stream.
    RecordReader(std::string_view text, std::string path, long firstLine, FileFormat format,
                 ReadOptions options);

    // Reads one record into out (already cleared); false at a clean end of input. Throws
    // InputError (through lines_.fail) for a bad record.
    virtual bool readRecord(Molecule& out) = 0;
    // After a bad record: moves past its end so that the next readRecord starts a new one.
    virtual void skipToNextRecord() = 0;
    // Whether a bad record is skipped (true) or ends the reading with an exception (false).
    virtual bool multiRecord() const = 0;

    // Throws unless s is valid UTF-8 (names and tags must be showable text).
    void requireUtf8(std::string_view s, long line, const char* what) const;
    // Throws when a record has more atoms than ReadOptions::maxAtoms allows.
    void requireAtomLimit(long atoms, long line) const;

    // Throws (file:line) when atoms a and b (0-based, different) are already bonded in the record
    // being read: RDKit refuses a second bond between two atoms with an exception that names no
    // file or line. `bond` says which bond line it is ("bond 12").
    void requireNewBond(int a, int b, const std::string& bond);

    // Repairs a record just read (StructureRepair) and keeps the warning that next() reports
    // (line: the record's first line). SDF and MOL2 call it at the end of readRecord.
    void repairRecord(Molecule& out, long line);

    std::unique_ptr<std::istream> stream_;
    LineReader lines_;
    std::string repairNote_; // the warning for the record just read; empty when none

private:
    std::unordered_set<unsigned long long> bondPairs_; // the record's bonded pairs (next() clears)
};

// Clears a molecule for reuse, keeping the vectors' capacity (fewer allocations per record).
void clearMolecule(Molecule& m);

} // namespace pw
