// SdfReader: MDL SDF/MOL files (V2000 and V3000 connection tables, SD tags, charges), streamed
// one record at a time so that a million-record file is read in bounded memory.
#pragma once

#include "MoleculeReader.h"

#include <istream>
#include <memory>
#include <string>
#include <string_view>

namespace pw {

// One SDF record as text, cut from a file without parsing it (up to and including its '$$$$'
// line), so that records can be parsed on many threads while one thread reads the file.
struct SdfRecordText {
    std::string text;   // its lines, each ending with '\n'
    long firstLine = 0; // line number of its first line in the file
    long record = 0;    // 1-based record number in the file (as Molecule::sourceRecord)
};

// Implemented by the reader that makeSdfReader (and so MoleculeReader::open for .sdf/.mol)
// returns: a caller that wants to parse in parallel takes the raw records from it instead of
// calling next(). The two must not be mixed on one reader.
class SdfRecordSource {
public:
    virtual ~SdfRecordSource() = default;
    // The next record's text; false at the end of the file (trailing blank lines are no record).
    // Cuts where next() would end the record, including after a bad one, so that parsing the
    // texts one by one gives exactly what next() gives, warnings included.
    virtual bool nextRecordText(SdfRecordText& out) = 0;
};

// Parses one record cut by SdfRecordSource (thread-safe: each call has its own parser). True
// with out filled (sourceFile = path) as next() would fill it; false with warning set to the
// exact message next() would pass to ReadOptions::warn for this bad record (ending with
// "(record skipped)"), or with warning empty when the text holds no record. A record read with
// repairs (StructureRepair) returns true with warning set to the repair warning next() would
// give. options.warn is not called: the caller reports in record order.
bool parseSdfRecord(const SdfRecordText& record, const std::string& path,
                    const ReadOptions& options, Molecule& out, std::string& warning);

std::unique_ptr<MoleculeReader> makeSdfReader(std::unique_ptr<std::istream> in, std::string path,
                                              ReadOptions options);

// Checks the start of a file named .sdf/.mol (head: its first bytes): throws InputError naming
// line 4 when it is not a counts line, which is how a PDB or SMILES file under the wrong
// extension shows itself.
void checkSdfContent(std::string_view head, const std::string& path);

// Parses a V2000/V3000 counts line; false when the line is not one.
bool parseSdfCountsLine(std::string_view line, long& atoms, long& bonds, bool& v3000);

} // namespace pw
