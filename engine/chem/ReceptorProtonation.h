// ReceptorProtonation: polar hydrogens for a protein as it comes from the PDB archive (no
// hydrogens), by residue and atom name, at a chosen pH, so that it can be scored and docked
// as AutoDockTools or Open Babel (-h -p) would prepare it.
//
// Rules (pKa: common model values of the free groups; a group is protonated when pH < pKa):
//   backbone N-H on every residue but Pro and the N-terminus;
//   N-terminus NH3+ (pKa 8.0) else NH2; C-terminus COO- (pKa 3.1, OXT) else COOH;
//   Asp COO- (3.9), Glu COO- (4.3), else the acid's H on OD2 / OE2;
//   His: both ring N-H (HIP, +1) below pKa 6.0; above it neutral, with the H on NE2 (HIE)
//        unless only ND1 has an acceptor oxygen within 3.2 Å (then HID); residue names HID,
//        HIE, HIP (and CHARMM's HSD, HSE, HSP) fix the choice;
//   Lys NH3+ (10.5) else NH2; Arg guanidinium (12.5) else neutral; Tyr OH (phenolate above
//   10.1 is not made); Ser, Thr OH; Asn, Gln amide NH2; Trp ring N-H.
//   Cys SH and all C-H are not added (AutoDock merges non-polar hydrogens; Vina ignores them).
// Hetero residues (ligands, waters, ions) and unknown residue names are left as read.
// Hydrogens are placed from the heavy atoms by ideal geometry (N-H 1.01 Å, O-H 0.96 Å; sp2 N-H
// in the plane of its neighbours, sp3 staggered).
#pragma once

#include "core/Molecule.h"

#include <string>

namespace pw {

struct ProtonationReport {
    int hydrogensAdded = 0;
    int residuesProtonated = 0; // standard residues that got at least one hydrogen
    int residuesLeft = 0;       // hetero or unknown residues left without hydrogens
    int hisNeutralNe2 = 0, hisNeutralNd1 = 0, hisCharged = 0;
    // One line for the user: what was added, at which pH, and the His choice.
    std::string summary(double pH) const;
};

// Adds polar hydrogens (atoms and bonds) to the standard amino-acid residues of m, which must
// have its bonds (perceived or read). Does not set formal charges: prepareReceptor derives
// them from the hydrogen counts. Throws nothing; residues missing the atoms a rule needs are
// skipped.
ProtonationReport addPolarHydrogens(Molecule& m, double pH);

} // namespace pw
