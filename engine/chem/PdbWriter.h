// PdbWriter: molecules as PDB ATOM/HETATM records (residues kept, CONECT for hetero groups and
// residue-less molecules); also the column layout that the PDBQT writer shares.
#pragma once

#include "core/Molecule.h"

#include <ostream>
#include <string>

namespace pw {

// Columns 1-66 of an ATOM/HETATM line (record name to temperature factor) for atom i, numbered
// serial; atoms without a residue are written as HETATM of residue UNL 1.
std::string pdbAtomColumns(const Molecule& m, int i, int serial);

// Writes one molecule (model: 0 = no MODEL/ENDMDL lines, otherwise the model number).
void writePdbRecord(std::ostream& out, const Molecule& m, int model);

} // namespace pw
