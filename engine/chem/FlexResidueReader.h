// FlexResidueReader: Vina's --flex PDBQT (BEGIN_RES ... END_RES blocks, each with a ROOT/BRANCH
// torsion tree) into FlexResidues, and the checks that tie them to a rigid receptor.
#pragma once

#include "core/FlexResidue.h"

#include <string>
#include <vector>

namespace pw {

// Reads every residue block of a --flex file. Throws InputError (file:line, what was expected)
// for a malformed block (unclosed, nested, atoms outside a block, no ROOT, a bad torsion tree),
// a residue without a rotatable bond (no BRANCH), or a file without any block.
std::vector<FlexResidue> readFlexResidues(const std::string& path);
// The same from the file's lines; path names them in messages.
std::vector<FlexResidue> parseFlexResidues(const std::vector<std::string>& lines,
                                           const std::string& path);

// Throws InputError when a flexible residue is not in the rigid receptor (no atom with its
// chain and number: the rigid part must keep the residue's backbone, as Vina's
// prepare_flexreceptor writes it), or when the receptor still holds the side chain (one of its
// atoms on a moving flexible atom: pass the rigid part, not the whole receptor).
void checkFlexResiduesInReceptor(const std::vector<FlexResidue>& residues,
                                 const Molecule& receptor, const std::string& receptorPath);

} // namespace pw
