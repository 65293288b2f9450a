// LigandChemistry: the interaction roles of a ligand's atoms (donor, acceptor, hydrophobic
// carbon, charged group, aromatic ring) from elements, bond orders and formal charges alone.
#pragma once

#include "core/Molecule.h"

#include <vector>

namespace pw::hits {

class LigandChemistry {
public:
    explicit LigandChemistry(const Molecule& m);

    const std::vector<int>& neighbours(int atom) const { return neighbours_[atom]; }
    std::vector<int> explicitHydrogens(int atom) const;
    // The explicit hydrogens when the molecule has any, else those the usual valence leaves
    // (N 3, O and S 2, shifted by the formal charge: NH4+ has 4, O- none).
    int hydrogenCount(int atom) const;
    bool isDonor(int atom) const; // N or O carrying a hydrogen
    bool
    isAcceptor(int atom) const; // O; N without H that is not an amide or pyrrole N; thioether S
    bool isHydrophobicCarbon(int atom) const; // carbon bonded to carbons and hydrogens only

    struct ChargeCentre {
        Vec3 centre;
        int atom; // the group's representative atom
    };
    // Protonation states as PLIP assumes them: positive = N+, basic amines, amidines and
    // guanidines; negative = carboxylates/acids, sulfonates, phosphates, O-.
    std::vector<ChargeCentre> positiveCentres() const;
    std::vector<ChargeCentre> negativeCentres() const;
    // Five- and six-membered rings that are aromatic: every bond aromatic, or (Kekulé form) every
    // atom in a ring double bond, or for five-membered rings all but one N, O or S.
    std::vector<std::vector<int>> aromaticRings() const;

private:
    int element(int atom) const { return m_.atoms[atom].element; }
    bool doubleBondedTo(int atom, int element) const;
    bool isAmideN(int atom) const;
    bool onlySingleBonds(int atom) const;

    const Molecule& m_;
    std::vector<std::vector<int>> neighbours_;
    std::vector<double> valence_; // sum of bond orders (aromatic 1.5)
    bool hasExplicitH_ = false;
};

} // namespace pw::hits
