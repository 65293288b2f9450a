// MoleculeRole: whether a molecule from a file is treated as a ligand or a receptor, and the
// preparation each role gets before the engine (or `info`) looks at it.
#pragma once

#include "chem/MoleculeReader.h"
#include "chem/ReceptorPreparation.h"

#include <string>

namespace pw::cli {

enum class Role { Auto, Ligand, Receptor };

Role roleFromName(const std::string& name); // throws UsageError for other names
const char* roleName(Role role);
// PDB files, PDBQT files without a torsion tree and with more than 300 atoms, and molecules with
// more heavy atoms than a ligand may have (1000) are receptors.
Role guessRole(const Molecule& m, FileFormat format);
// Types, charges and (ligands) the torsion tree; throws InputError when the molecule is refused.
void prepareForRole(Molecule& m, Role role, const ReceptorPreparationOptions& receptor = {});

} // namespace pw::cli
