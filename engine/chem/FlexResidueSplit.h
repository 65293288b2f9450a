// FlexResidueSplit: `--flex-residues A:THR315,A:LYS271`: flexible side chains taken from a
// prepared receptor instead of a --flex file. Each named residue's CA and side chain leave the
// receptor (its N, C, O and backbone H stay in the rigid part, as prepare_flexreceptor.py
// splits it); the side chain becomes a torsion tree rooted at CA with a BRANCH per rotatable
// bond, written as Vina's --flex PDBQT and read back through the same reader.
#pragma once

#include "core/FlexResidue.h"

#include <string>
#include <vector>

namespace pw {

struct FlexResidueSpec {
    char chain = ' ';
    std::string resName; // empty: any name
    int resSeq = 0;
    char insertion = ' ';
    std::string text; // as given, for messages
};

// Parses "A:THR315,A:LYS271" (also "A:315", "THR315" for a blank chain, "A:GLU86B" with an
// insertion code). Throws InputError naming the option and the item when one does not fit.
std::vector<FlexResidueSpec> parseFlexResidueSpecs(const std::string& list);

struct FlexSplit {
    Molecule rigid;                    // the receptor without the flexible atoms
    std::vector<FlexResidue> residues; // as readFlexResidues would give them
    std::vector<std::string> pdbqt;    // the --flex file text (BEGIN_RES ... END_RES blocks)
};

// Splits receptor (prepared: AD4 types, charges). Throws InputError (naming receptorPath and the
// residue) when a residue is not in the receptor, has no CA, or has no rotatable side-chain bond
// (GLY, ALA, PRO).
FlexSplit splitFlexResidues(const Molecule& receptor, const std::vector<FlexResidueSpec>& specs,
                            const std::string& receptorPath);

} // namespace pw
