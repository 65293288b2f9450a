#include "PosePerturbation.h"

#include "core/Quaternion.h"

#include <cmath>
#include <numbers>

namespace pw {
namespace {

// SplitMix64 (Steele, Lea & Flood 2014): a counter-based stream, so pose i needs no pose i-1.
std::uint64_t splitMix(std::uint64_t& state) {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// Uniform in [0, 1) from the top 53 bits.
double uniform(std::uint64_t& state) {
    return static_cast<double>(splitMix(state) >> 11) * 0x1.0p-53;
}

} // namespace

PosePerturbation::PosePerturbation(const Molecule& ligand, PerturbationOptions options)
    : ligand_(ligand), options_(options), kinematics_(ligand, RootOrigin::RootCentroid) {}

Pose PosePerturbation::pose(std::uint64_t seed, std::uint64_t index) const {
    std::uint64_t state = seed * 0xD1B54A32D192ED03ull + index * 0x9E3779B97F4A7C15ull + 1;
    splitMix(state);
    constexpr double pi = std::numbers::pi;
    Pose p = kinematics_.referencePose();
    for (int d = 0; d < 3; ++d)
        p.position[d] += (2.0 * uniform(state) - 1.0) * options_.maxTranslation;
    // Uniform axis on the sphere (Marsaglia-free form: z uniform, azimuth uniform).
    const double z = 2.0 * uniform(state) - 1.0, phi = 2.0 * pi * uniform(state);
    const double s = std::sqrt(std::max(0.0, 1.0 - z * z));
    const Eigen::Vector3d axis(s * std::cos(phi), s * std::sin(phi), z);
    const double angle = uniform(state) * options_.maxRotationDegrees * pi / 180.0;
    p.orientation = quaternionFromAxisAngle(axis, angle);
    for (double& t : p.torsions)
        t = (2.0 * uniform(state) - 1.0) *
            (options_.randomTorsions ? pi : options_.maxTorsionDegrees * pi / 180.0);
    return p;
}

std::vector<Vec3> PosePerturbation::coordinates(std::uint64_t seed, std::uint64_t index) const {
    return kinematics_.coordinates(pose(seed, index));
}

Molecule PosePerturbation::perturbed(std::uint64_t seed, std::uint64_t index) const {
    Molecule m = ligand_;
    const std::vector<Vec3> c = coordinates(seed, index);
    for (size_t i = 0; i < m.atoms.size(); ++i)
        m.atoms[i].position = c[i];
    return m;
}

} // namespace pw
