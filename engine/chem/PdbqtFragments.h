// PdbqtFragments: picks one ligand from a PDBQT record that holds several complete torsion trees
// one after another (Open Babel's file for a salt or any multi-part SMILES), as chemists strip
// salts.
#pragma once

#include "core/Molecule.h"

#include <string>
#include <vector>

namespace pw {

// Collects the fragments of one record in file order and keeps the one with the most heavy atoms
// (the first of equals), so that a counter-ion or solvent is dropped and the drug is docked.
class PdbqtFragments {
public:
    // Forgets the previous record's fragments.
    void reset();
    // Offers a finished fragment (its tree read and checked) whose ROOT was on rootLine; it is
    // kept when it has more heavy atoms than every fragment offered before. m is left unspecified.
    void offer(Molecule&& m, long rootLine);
    // How many fragments were offered since reset().
    int count() const { return static_cast<int>(fragments_.size()); }
    // The kept fragment (valid after at least one offer; moved out).
    Molecule takeKept() { return std::move(kept_); }
    // "FILE:LINE: ligand 'NAME' holds torsion trees one after another (...): kept the largest of
    // N fragments (A heavy atoms, ROOT at line L); dropped the fragment at line L2 (B heavy
    // atoms)", LINE being the first dropped fragment's ROOT. Only meaningful when count() > 1.
    std::string warning(const std::string& file) const;

private:
    struct Fragment {
        long rootLine = 0;
        int heavyAtoms = 0;
    };
    std::vector<Fragment> fragments_;
    Molecule kept_;
    int keptIndex_ = -1;
};

} // namespace pw
