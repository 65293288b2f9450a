// LingoSmiles: the RDKit step of LINGO similarity: SMILES files to canonical isomeric SMILES
// (engine/lingo takes it from there and never sees RDKit).
#pragma once

#include <string>
#include <vector>

namespace pw {

struct LingoMolecules {
    std::vector<std::string> canonical; // RDKit canonical isomeric SMILES, one per kept line
    std::vector<std::string> names;     // the name column, or "" when the line has none
    std::vector<long> lines;            // 1-based line of each kept molecule
    std::vector<std::string> skipped;   // "file:line: why" for every line left out
};

// Canonical isomeric SMILES of one SMILES string; throws InputError naming `file`:`line`.
std::string canonicalSmiles(const std::string& smiles, const std::string& file = "<smiles>",
                            long line = 0);

// Reads SMILES [name] lines (blank lines and lines starting with '#' are ignored) and
// canonicalises them on `threads` threads (0 = all). Unparseable SMILES are skipped and listed.
// Throws InputError when the file cannot be read.
LingoMolecules readLingoSmiles(const std::string& path, int threads = 0);

} // namespace pw
