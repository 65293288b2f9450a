#include "MoleculeDrawings.h"

namespace pw {

MoleculeDrawing toDrawing(const Molecule& molecule, DrawStyle style) {
    MoleculeDrawing d;
    d.style = style;
    d.name = molecule.name;
    d.atoms.reserve(molecule.atoms.size());
    for (const Atom& a : molecule.atoms)
        d.atoms.push_back({a.element, {a.position.x(), a.position.y(), a.position.z()}, a.name});
    d.bonds.reserve(molecule.bonds.size());
    for (const Bond& b : molecule.bonds) {
        // Aromatic bonds are drawn single: a Kekulé pattern would invent a structure the file
        // did not state, and rings read as rings without it.
        int order = 1;
        if (b.order == BondOrder::Double)
            order = 2;
        else if (b.order == BondOrder::Triple)
            order = 3;
        d.bonds.push_back({b.a, b.b, order});
    }
    return d;
}

} // namespace pw
