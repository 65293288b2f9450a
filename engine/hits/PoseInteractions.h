// PoseInteractions: non-covalent interactions of a ligand pose with a receptor, per residue:
// hydrogen bonds, salt bridges, pi stacking, halogen bonds and hydrophobic contacts, with PLIP's
// thresholds (InteractionRules.h). No RDKit: works on the engine's Molecule with its bonds.
#pragma once

#include "HitStore.h"
#include "core/Molecule.h"

#include <memory>
#include <vector>

namespace pw::hits {

// The receptor's interaction sites (donors, acceptors, charged groups, aromatic rings,
// hydrophobic carbons), found once and reused for every pose.
class ReceptorSites {
public:
    // The receptor needs residues (PDB/PDBQT; InputError otherwise) and bonds (read or
    // perceived); waters are ignored.
    explicit ReceptorSites(const Molecule& receptor);
    ~ReceptorSites();
    ReceptorSites(const ReceptorSites&) = delete;
    ReceptorSites& operator=(const ReceptorSites&) = delete;

    // Every interaction of the pose, sorted by kind, residue and distance. Without explicit
    // hydrogens on a donor, a hydrogen bond is judged on the donor-acceptor distance alone (the
    // crystal structures and most docking outputs have none); with them, the D-H...A angle too.
    std::vector<Interaction> interactions(const Molecule& ligand) const;

    struct Data;

private:
    std::unique_ptr<Data> data_;
};

} // namespace pw::hits
