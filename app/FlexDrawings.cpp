#include "FlexDrawings.h"

#include "MoleculeDrawings.h"
#include "core/Element.h"

namespace pw {
namespace {

bool isBackbone(const std::string& name) {
    for (const char* b : {"N", "C", "O", "OXT", "H", "HN", "H1", "H2", "H3"})
        if (name == b)
            return true;
    return false;
}

// Bonds by distance (1.1 x the covalent radii), for atoms given without bonds: a side chain's
// bonds do not change as its torsions turn, and these few atoms are cheap to pair.
void addDistanceBonds(Molecule& m) {
    if (!m.bonds.empty())
        return;
    for (size_t i = 0; i < m.atoms.size(); ++i)
        for (size_t j = i + 1; j < m.atoms.size(); ++j) {
            const double r =
                1.1 * (covalentRadius(m.atoms[i].element) + covalentRadius(m.atoms[j].element));
            if ((m.atoms[i].position - m.atoms[j].position).squaredNorm() < r * r)
                m.bonds.push_back(
                    {static_cast<int>(i), static_cast<int>(j), BondOrder::Single, false});
        }
}

// A receptor atom of the residue (chain, number, insertion), or -1.
int atomOfResidue(const Molecule& receptor, char chain, int number, char insertion) {
    for (size_t i = 0; i < receptor.atoms.size(); ++i) {
        const int r = receptor.atoms[i].residue;
        if (r < 0 || r >= static_cast<int>(receptor.residues.size()))
            continue;
        const Residue& res = receptor.residues[static_cast<size_t>(r)];
        if (res.chain == chain && res.number == number && res.insertion == insertion)
            return static_cast<int>(i);
    }
    return -1;
}

} // namespace

MoleculeDrawing chosenResiduesDrawing(const Molecule& receptor,
                                      const std::vector<FlexResidueSpec>& specs) {
    Molecule part;
    std::vector<int> source;
    for (size_t i = 0; i < receptor.atoms.size(); ++i) {
        const Atom& a = receptor.atoms[i];
        if (a.residue < 0 || a.residue >= static_cast<int>(receptor.residues.size()) ||
            isBackbone(a.name))
            continue;
        const Residue& res = receptor.residues[static_cast<size_t>(a.residue)];
        for (const FlexResidueSpec& s : specs)
            if (res.chain == s.chain && res.number == s.resSeq && res.insertion == s.insertion &&
                (s.resName.empty() || s.resName == res.name)) {
                part.atoms.push_back(a);
                source.push_back(static_cast<int>(i));
                break;
            }
    }
    addDistanceBonds(part);
    MoleculeDrawing d = toDrawing(part, DrawStyle::FlexibleResidue);
    for (DrawAtom& a : d.atoms)
        a.source = source[static_cast<size_t>(a.source)];
    return d;
}

MoleculeDrawing flexSideChainsDrawing(const FlexModel& flex, const std::vector<Vec3>& coordinates,
                                      const Molecule& receptor) {
    Molecule part;
    std::vector<int> source;
    for (int r = 0; r < flex.residueCount(); ++r) {
        const FlexResidue& res = flex.residue(r);
        const int anchor = atomOfResidue(receptor, res.chain, res.resSeq, res.insertion);
        Molecule m = res.mol;
        for (size_t i = 0; i < m.atoms.size(); ++i) {
            const size_t f = static_cast<size_t>(flex.atomOffset(r)) + i;
            if (f < coordinates.size())
                m.atoms[i].position = coordinates[f];
        }
        addDistanceBonds(m);
        const int offset = static_cast<int>(part.atoms.size());
        for (const Atom& a : m.atoms) {
            part.atoms.push_back(a);
            source.push_back(anchor);
        }
        for (Bond b : m.bonds) {
            b.a += offset;
            b.b += offset;
            part.bonds.push_back(b);
        }
    }
    MoleculeDrawing d = toDrawing(part, DrawStyle::FlexibleResidue);
    for (DrawAtom& a : d.atoms)
        a.source = source[static_cast<size_t>(a.source)];
    return d;
}

} // namespace pw
