// Genotype: the GA's operations on a pose (position, unit quaternion, torsions): random
// individuals inside the box, two-point crossover and per-gene mutation, kept inside the box.
#pragma once

#include "DockOptions.h"
#include "DockRandom.h"

#include "core/Pose.h"
#include "score/BoxConfig.h"

namespace pw::dock {

// Genes of a pose for crossover and mutation: x, y, z of the position, the orientation as one
// gene (a quaternion cannot be cut in the middle), then one gene per torsion.
inline int geneCount(int torsions) {
    return 4 + torsions;
}

// Position uniform in the box, orientation uniform on SO(3), torsions uniform in [-pi, pi).
Pose randomGenotype(int torsions, const SearchBox& box, DockRandom& rng);

// Keeps the position (the root fragment's centroid) inside the box.
void clampToBox(Pose& pose, const SearchBox& box);

// Two-point crossover: the child takes a's genes, then b's between two cut points drawn at random.
void crossover(const Pose& a, const Pose& b, Pose& child, DockRandom& rng);

// Each gene mutates with options.mutationRate: a position coordinate moves uniformly by up to
// maxTranslationMutation (Å), the orientation turns by up to maxAngleMutationDegrees about a
// random axis, a torsion moves by up to maxAngleMutationDegrees. The result stays in the box.
void mutate(Pose& pose, const LgaOptions& options, const SearchBox& box, DockRandom& rng);

// A uniformly distributed random unit quaternion (Shoemake 1992).
Quaternion randomOrientation(DockRandom& rng);
// A unit vector uniform on the sphere.
Eigen::Vector3d randomAxis(DockRandom& rng);

} // namespace pw::dock
