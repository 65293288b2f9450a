// PosePerturbation: seeded random starting poses for minimization benchmarks and tests: the ligand
// turned up to 30 degrees about its root, moved up to 1 Angstrom per axis, torsions set at random.
#pragma once

#include "core/LigandKinematics.h"
#include "core/Molecule.h"

#include <cstdint>
#include <vector>

namespace pw {

struct PerturbationOptions {
    double maxRotationDegrees = 30.0; // angle of a rotation about a uniformly random axis
    double maxTranslation = 1.0;      // Angstrom, uniform in [-max, max] on each axis
    bool randomTorsions = true;       // every torsion uniform in [-pi, pi)
    // Without random torsions: each torsion turned by up to this angle (uniform, both ways).
    double maxTorsionDegrees = 0.0;
};

class PosePerturbation {
public:
    // ligand: prepared (torsion tree optional); its coordinates are the pose that is perturbed.
    explicit PosePerturbation(const Molecule& ligand, PerturbationOptions options = {});

    // The pose of perturbation `index` of stream `seed`: the same (seed, index) always gives the
    // same pose, whatever order or thread asks for it.
    Pose pose(std::uint64_t seed, std::uint64_t index) const;
    // Atom coordinates of that pose (molecule atom order).
    std::vector<Vec3> coordinates(std::uint64_t seed, std::uint64_t index) const;
    // The ligand with its coordinates replaced by that pose's.
    Molecule perturbed(std::uint64_t seed, std::uint64_t index) const;

    const LigandKinematics& kinematics() const { return kinematics_; }

private:
    const Molecule& ligand_;
    PerturbationOptions options_;
    LigandKinematics kinematics_;
};

} // namespace pw
