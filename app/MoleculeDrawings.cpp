#include "MoleculeDrawings.h"

#include "core/Element.h"

namespace pw {

namespace {

// Hydrogens whose every bonded partner is a carbon (a hydrogen with no bond is kept: it may be
// an ion or a water's, and hiding it would hide a mistake in the file).
std::vector<bool> nonPolarHydrogens(const Molecule& m) {
    std::vector<int> carbonPartners(m.atoms.size(), 0), partners(m.atoms.size(), 0);
    for (const Bond& b : m.bonds) {
        if (b.a < 0 || b.b < 0 || b.a >= static_cast<int>(m.atoms.size()) ||
            b.b >= static_cast<int>(m.atoms.size()))
            continue;
        ++partners[b.a];
        ++partners[b.b];
        carbonPartners[b.a] += m.atoms[b.b].element == 6 ? 1 : 0;
        carbonPartners[b.b] += m.atoms[b.a].element == 6 ? 1 : 0;
    }
    std::vector<bool> out(m.atoms.size(), false);
    for (size_t i = 0; i < m.atoms.size(); ++i)
        out[i] = m.atoms[i].element == 1 && partners[i] > 0 && carbonPartners[i] == partners[i];
    return out;
}

} // namespace

MoleculeDrawing toDrawing(const Molecule& molecule, DrawStyle style,
                          const DrawingOptions& options) {
    MoleculeDrawing d;
    d.style = style;
    d.name = molecule.name;
    std::vector<bool> hidden(molecule.atoms.size(), false);
    if (!options.nonPolarHydrogens)
        hidden = nonPolarHydrogens(molecule);
    std::vector<int> index(molecule.atoms.size(), -1); // molecule atom -> drawing atom
    d.atoms.reserve(molecule.atoms.size());
    for (size_t i = 0; i < molecule.atoms.size(); ++i) {
        if (hidden[i])
            continue;
        const Atom& a = molecule.atoms[i];
        index[i] = static_cast<int>(d.atoms.size());
        d.atoms.push_back({a.element,
                           {a.position.x(), a.position.y(), a.position.z()},
                           a.name,
                           static_cast<int>(i),
                           bondiRadius(a.element)});
    }
    d.bonds.reserve(molecule.bonds.size());
    const int n = static_cast<int>(molecule.atoms.size());
    for (const Bond& b : molecule.bonds) {
        if (b.a < 0 || b.b < 0 || b.a >= n || b.b >= n || index[b.a] < 0 || index[b.b] < 0)
            continue;
        // Aromatic bonds are drawn single: a Kekulé pattern would invent a structure the file
        // did not state, and rings read as rings without it.
        int order = 1;
        if (b.order == BondOrder::Double)
            order = 2;
        else if (b.order == BondOrder::Triple)
            order = 3;
        d.bonds.push_back({index[b.a], index[b.b], order});
    }
    return d;
}

MoleculeDrawing pocketDrawing(const Molecule& receptor, const std::vector<const Molecule*>& ligands,
                              double radius) {
    const double r2 = radius * radius;
    std::vector<bool> residueNear(receptor.residues.size(), false);
    for (const Atom& a : receptor.atoms) {
        if (a.residue < 0 || a.residue >= static_cast<int>(residueNear.size()) ||
            residueNear[static_cast<size_t>(a.residue)])
            continue;
        for (const Molecule* l : ligands)
            for (const Atom& b : l->atoms)
                if ((a.position - b.position).squaredNorm() < r2) {
                    residueNear[static_cast<size_t>(a.residue)] = true;
                    break;
                }
    }
    // Keep the pocket's atoms (with their bonds) by drawing a copy without the others.
    Molecule pocket;
    std::vector<int> keep;
    std::vector<int> index(receptor.atoms.size(), -1);
    for (size_t i = 0; i < receptor.atoms.size(); ++i) {
        const int res = receptor.atoms[i].residue;
        if (res >= 0 && res < static_cast<int>(residueNear.size()) &&
            residueNear[static_cast<size_t>(res)]) {
            index[i] = static_cast<int>(pocket.atoms.size());
            pocket.atoms.push_back(receptor.atoms[i]);
            keep.push_back(static_cast<int>(i));
        }
    }
    for (const Bond& b : receptor.bonds)
        if (b.a >= 0 && b.b >= 0 && index[b.a] >= 0 && index[b.b] >= 0)
            pocket.bonds.push_back({index[b.a], index[b.b], b.order, false});
    MoleculeDrawing d = toDrawing(pocket, DrawStyle::Receptor);
    for (DrawAtom& a : d.atoms)
        a.source = keep[static_cast<size_t>(a.source)];
    d.stickRadius = 0.17f;
    return d;
}

std::vector<std::vector<std::array<double, 3>>> backboneTraces(const Molecule& receptor) {
    constexpr double kMaxCaGap = 4.2; // Å
    std::vector<std::vector<std::array<double, 3>>> out;
    char chain = 0;
    Vec3 last = Vec3::Zero();
    for (const Atom& a : receptor.atoms) {
        if (a.name != "CA" || a.element != 6 || a.residue < 0)
            continue;
        const Residue& r = receptor.residues[static_cast<size_t>(a.residue)];
        if (r.hetero)
            continue;
        if (out.empty() || r.chain != chain || (a.position - last).norm() > kMaxCaGap)
            out.emplace_back();
        out.back().push_back({a.position.x(), a.position.y(), a.position.z()});
        chain = r.chain;
        last = a.position;
    }
    std::erase_if(out, [](const auto& s) { return s.size() < 2; });
    return out;
}

} // namespace pw
