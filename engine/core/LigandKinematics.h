// LigandKinematics: turns a Pose into atom coordinates through the ligand's torsion tree and rolls
// per-atom energy gradients up the tree into the pose-space gradient (as Vina's tree.h does).
#pragma once

#include "Molecule.h"
#include "Pose.h"
#include "TorsionTree.h"

#include <Eigen/Core>

#include <string>
#include <vector>

namespace pw {

// Where the root fragment's origin (the point Pose::position places, and the centre of rotation)
// sits in the reference coordinates.
enum class RootOrigin {
    FirstRootAtom, // Vina: the first atom listed in ROOT
    RootCentroid,  // centroid of the root fragment's atoms: rotations move atoms less
};

// Per-evaluation frame state (one per thread or per minimizer workspace): reused across calls so
// that neither coordinates() nor gradient() allocates after the first use.
struct KinematicFrames {
    std::vector<Eigen::Vector3d> origin;   // lab position of each fragment's origin
    std::vector<Eigen::Matrix3d> rotation; // lab orientation of each fragment
    std::vector<Eigen::Vector3d> axis;     // lab unit bond axis (parent atom -> child atom)
    std::vector<Eigen::Vector3d> force;    // scratch: subtree sum of dE/dx
    std::vector<Eigen::Vector3d> moment;   // scratch: subtree sum of x cross dE/dx
};

class LigandKinematics {
public:
    // From a molecule's torsion tree and atom positions (its reference coordinates). A molecule
    // without a tree is one rigid fragment. Throws InputError (naming mol.sourceFile) when the tree
    // is inconsistent: an atom in no fragment or in two, an axis atom outside its fragment, a
    // zero-length axis, a node unreachable from the root.
    explicit LigandKinematics(const Molecule& mol, RootOrigin origin = RootOrigin::FirstRootAtom);
    LigandKinematics(const TorsionTree& tree, const std::vector<Eigen::Vector3d>& reference,
                     const std::string& source = {}, RootOrigin origin = RootOrigin::FirstRootAtom);

    int atomCount() const { return static_cast<int>(atomIndex_.size()); }
    int torsionCount() const { return static_cast<int>(parent_.size()) - 1; }
    int dimension() const { return kPoseTorsionOffset + torsionCount(); }
    // The reference position of the root origin (the identity pose's position).
    const Eigen::Vector3d& referenceOrigin() const { return referenceOrigin_; }

    // The pose that reproduces the reference coordinates: root origin, identity, zero torsions.
    Pose referencePose() const;
    // A frames object sized for this ligand.
    KinematicFrames makeFrames() const;

    // Atom coordinates of a pose, in the molecule's atom order (coords is resized to atomCount()).
    // frames receives each fragment's lab frame for a following gradient() call.
    void coordinates(const Pose& pose, KinematicFrames& frames,
                     std::vector<Eigen::Vector3d>& coords) const;
    // Convenience (allocates): coordinates of a pose.
    std::vector<Eigen::Vector3d> coordinates(const Pose& pose) const;

    // Pose-space gradient (dimension() entries into out) from dE/dx of every atom, at the pose of
    // the last coordinates() call on frames: position <- total force, rotation <- total torque
    // about the root origin, torsion <- torque of the moving subtree projected on its bond axis.
    void gradient(KinematicFrames& frames, const std::vector<Eigen::Vector3d>& coords,
                  const std::vector<Eigen::Vector3d>& atomGradient, double* out) const;

    // The pose whose coordinates best match coords (least squares, fragment by fragment):
    // exact when coords came from coordinates() of some pose of this ligand. Used to express a
    // docked/minimized conformation of the same molecule as a pose of this reference.
    Pose fit(const std::vector<Eigen::Vector3d>& coords) const;

private:
    void build(const TorsionTree& tree, const std::vector<Eigen::Vector3d>& reference,
               const std::string& source, RootOrigin origin);

    // Fragments in topological order (parent before child); index 0 is the root.
    std::vector<int> parent_;                     // parent fragment, -1 for the root
    std::vector<int> torsionIndex_;               // index into Pose::torsions, -1 for the root
    std::vector<Eigen::Vector3d> relativeOrigin_; // origin minus parent's origin, reference frame
    std::vector<Eigen::Vector3d> relativeAxis_;   // unit bond axis, reference frame
    std::vector<int> atomBegin_, atomEnd_;        // range into local_/atomIndex_
    std::vector<Eigen::Vector3d> local_; // atom positions relative to their fragment origin
    std::vector<int> atomIndex_;         // molecule atom index of each local_ entry
    Eigen::Vector3d referenceOrigin_ = Eigen::Vector3d::Zero();
};

} // namespace pw
