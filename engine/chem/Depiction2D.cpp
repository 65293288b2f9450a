// Depiction2D: RDKit's compute2DCoords on a kekulised copy of the molecule, so that aromatic
// rings come out as alternating single and double bonds a simple painter can draw.
#include "Depiction2D.h"

#include "core/InputError.h"

#include <GraphMol/Depictor/RDDepictor.h>
#include <GraphMol/GraphMol.h>
#include <GraphMol/MolOps.h>
#include <GraphMol/SmilesParse/SmilesParse.h>

#include <memory>

namespace pw {

Depiction2D depictSmiles(const std::string& smiles, const std::string& where) {
    std::unique_ptr<RDKit::RWMol> mol;
    try {
        mol.reset(RDKit::SmilesToMol(smiles));
    } catch (const std::exception& e) {
        throw InputError(where, 0,
                         "SMILES '" + smiles + "' is not a valid molecule (" + e.what() + ")");
    }
    if (!mol)
        throw InputError(where, 0, "cannot parse SMILES '" + smiles + "'");
    try {
        RDKit::MolOps::Kekulize(*mol, /*markAtomsBonds=*/true);
    } catch (const std::exception&) {
        // Keep the aromatic flags: such bonds are then drawn as single bonds.
    }
    const unsigned conf = RDDepict::compute2DCoords(*mol);
    const RDKit::Conformer& c = mol->getConformer(int(conf));
    Depiction2D d;
    d.atoms.reserve(mol->getNumAtoms());
    for (const RDKit::Atom* a : mol->atoms()) {
        const RDGeom::Point3D& p = c.getAtomPos(a->getIdx());
        d.atoms.push_back(
            {p.x, p.y, a->getSymbol(), a->getFormalCharge(), int(a->getTotalNumHs())});
    }
    for (const RDKit::Bond* b : mol->bonds()) {
        int order = 1;
        switch (b->getBondType()) {
        case RDKit::Bond::DOUBLE:
            order = 2;
            break;
        case RDKit::Bond::TRIPLE:
            order = 3;
            break;
        default:
            order = 1;
        }
        d.bonds.push_back({int(b->getBeginAtomIdx()), int(b->getEndAtomIdx()), order});
    }
    return d;
}

} // namespace pw
