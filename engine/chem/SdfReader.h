// SdfReader: MDL SDF/MOL files (V2000 and V3000 connection tables, SD tags, charges), streamed
// one record at a time so that a million-record file is read in bounded memory.
#pragma once

#include "MoleculeReader.h"

#include <istream>
#include <memory>
#include <string>
#include <string_view>

namespace pw {

std::unique_ptr<MoleculeReader> makeSdfReader(std::unique_ptr<std::istream> in, std::string path,
                                              ReadOptions options);

// Checks the start of a file named .sdf/.mol (head: its first bytes): throws InputError naming
// line 4 when it is not a counts line, which is how a PDB or SMILES file under the wrong
// extension shows itself.
void checkSdfContent(std::string_view head, const std::string& path);

// Parses a V2000/V3000 counts line; false when the line is not one.
bool parseSdfCountsLine(std::string_view line, long& atoms, long& bonds, bool& v3000);

} // namespace pw
