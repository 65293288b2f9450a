// MoleculeSmiles: Molecule -> RDKit (RdkitConvert) -> sanitize -> remove hydrogens -> SMILES.
#include "MoleculeSmiles.h"

#include "RdkitConvert.h"

#include <GraphMol/MolOps.h>
#include <GraphMol/SmilesParse/SmilesWrite.h>

namespace pw {

std::string moleculeSmiles(const Molecule& m) {
    std::unique_ptr<RDKit::RWMol> mol = toRdkit(m);
    sanitizeOrThrow(*mol, m);
    RDKit::MolOps::removeHs(*mol);
    return RDKit::MolToSmiles(*mol, /*doIsomericSmiles=*/true);
}

} // namespace pw
