// FlexResidue: one flexible receptor side chain as Vina's --flex PDBQT gives it (a BEGIN_RES ...
// END_RES block): its atoms in file order and its ROOT/BRANCH torsion tree, the ROOT holding the
// atoms that stay fixed (normally CA), each BRANCH a rotatable side-chain bond.
#pragma once

#include "Molecule.h"

#include <string>
#include <vector>

namespace pw {

struct FlexResidue {
    std::string resName; // "THR"
    char chain = ' ';
    int resSeq = 0;
    char insertion = ' ';
    std::string sourceFile; // the --flex file, for messages
    long line = 0;          // its BEGIN_RES line (1-based)
    Molecule mol;           // atoms (hydrogens included) and torsion tree, as read
    // The block as written (BEGIN_RES ... END_RES) and, per atom, its line in it: output
    // rewrites the coordinates of these lines (as Vina writes the moved residues).
    std::vector<std::string> blockLines;
    std::vector<int> atomLine;

    // The block with the atoms at coords (one per atom, in mol's order).
    std::string blockWith(const std::vector<Vec3>& coords) const;

    // "THR A 315" (as BEGIN_RES writes it), for messages and output.
    std::string label() const;
    // "file:line", for messages.
    std::string where() const { return sourceFile + ":" + std::to_string(line); }
};

} // namespace pw
