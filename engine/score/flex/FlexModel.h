// FlexModel: the flexible side chains of a receptor as Vina 1.2.3 models them (--flex): one flat
// list of their atoms with XS types, which of them move, the pairs scored among them, and the
// torsion kinematics of each residue (its ROOT fixed in space, only its BRANCH torsions move).
//
// Vina's conventions (src/lib/parse_pdbqt.cpp, model.cpp), read to learn which atoms count:
// - a residue's ROOT atoms and the first atom of each BRANCH hanging on the ROOT never move
//   ("inflex" atoms): they are scored against nothing but other flexible atoms;
// - the moving atoms are scored against the rigid receptor and against the ligand;
// - pairs among flexible atoms: inside one residue as a ligand's internal pairs (atoms that move
//   relative to each other, more than three bonds apart), between residues every typed pair
//   except two fixed atoms;
// - XS types use bonds to the rigid receptor too (a CA bonded to the backbone N is polar).
#pragma once

#include "core/FlexResidue.h"
#include "core/LigandKinematics.h"

#include <vector>

namespace pw {

class FlexModel {
public:
    struct Pair {
        int i, j, ti, tj; // flat atom indices and XS types
    };

    // residues: as read (FlexResidueReader); rigidReceptor: the prepared rigid part (AD4 types),
    // whose atoms bonded to the fixed atoms decide their XS types. Throws InputError (naming the
    // residue) when its torsion tree cannot be used.
    FlexModel(std::vector<FlexResidue> residues, const Molecule& rigidReceptor);

    int residueCount() const { return static_cast<int>(residues_.size()); }
    const FlexResidue& residue(int r) const { return residues_[r]; }
    int atomCount() const { return static_cast<int>(types_.size()); }
    int torsionCount() const { return torsionCount_; }
    // Flat atom index of residue r's first atom; its atoms follow in file order.
    int atomOffset(int r) const { return atomOffset_[r]; }
    int torsionOffset(int r) const { return torsionOffset_[r]; }

    const std::vector<int>& types() const { return types_; } // XS type, -1 for hydrogens
    const std::vector<char>& movable() const { return movable_; }
    // Typed moving atoms (scored against the rigid receptor and the ligand).
    const std::vector<int>& movableTyped() const { return movableTyped_; }
    const std::vector<Pair>& pairs() const { return pairs_; } // flex-flex pairs
    // XS types of the moving atoms: the receptor maps the unbound energy needs.
    std::vector<XsType> movableTypes() const;

    // The input coordinates (torsions all zero), flat.
    const std::vector<Vec3>& referenceCoordinates() const { return reference_; }

    // Per-evaluation state (one per thread): each residue's frames and scratch arrays.
    struct Workspace {
        std::vector<KinematicFrames> frames;
        std::vector<std::vector<Vec3>> coords; // per residue, from the last coordinates()
        std::vector<Vec3> grad;
        Pose pose;
        std::vector<double> poseGrad;
    };
    // Flat coordinates for the torsions (torsionCount() entries, radians, relative to the input
    // conformation; coords is resized to atomCount()).
    void coordinates(const double* torsions, Workspace& ws, std::vector<Vec3>& coords) const;
    // dE/dtorsion (torsionCount() entries into out) from dE/dx of every flat atom, at the
    // torsions of the last coordinates() call on ws.
    void torsionGradient(Workspace& ws, const std::vector<Vec3>& atomGradient, double* out) const;

private:
    std::vector<FlexResidue> residues_;
    std::vector<LigandKinematics> kinematics_;
    std::vector<int> atomOffset_, torsionOffset_;
    int torsionCount_ = 0;
    std::vector<int> types_;
    std::vector<char> movable_;
    std::vector<int> movableTyped_;
    std::vector<Pair> pairs_;
    std::vector<Vec3> reference_;
};

} // namespace pw
