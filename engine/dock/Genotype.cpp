#include "Genotype.h"

#include "core/Quaternion.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <utility>

namespace pw::dock {
namespace {

constexpr double kPi = std::numbers::pi;

Vec3 boxLow(const SearchBox& box) {
    return box.center - 0.5 * box.size;
}

} // namespace

Quaternion randomOrientation(DockRandom& rng) {
    const double u1 = rng.uniform(), u2 = rng.uniform(), u3 = rng.uniform();
    const double a = std::sqrt(1.0 - u1), b = std::sqrt(u1);
    Quaternion q(a * std::sin(2 * kPi * u2), a * std::cos(2 * kPi * u2), b * std::sin(2 * kPi * u3),
                 b * std::cos(2 * kPi * u3));
    q.normalize();
    return q;
}

Eigen::Vector3d randomAxis(DockRandom& rng) {
    const double z = rng.uniform(-1.0, 1.0), phi = 2 * kPi * rng.uniform();
    const double s = std::sqrt(std::max(0.0, 1.0 - z * z));
    return {s * std::cos(phi), s * std::sin(phi), z};
}

Pose randomGenotype(int torsions, const SearchBox& box, DockRandom& rng) {
    Pose p;
    const Vec3 lo = boxLow(box);
    for (int d = 0; d < 3; ++d)
        p.position[d] = lo[d] + box.size[d] * rng.uniform();
    p.orientation = randomOrientation(rng);
    p.torsions.resize(torsions);
    for (double& t : p.torsions)
        t = rng.uniform(-kPi, kPi);
    return p;
}

void clampToBox(Pose& pose, const SearchBox& box) {
    const Vec3 lo = boxLow(box), hi = lo + box.size;
    for (int d = 0; d < 3; ++d)
        pose.position[d] = std::clamp(pose.position[d], lo[d], hi[d]);
}

void crossover(const Pose& a, const Pose& b, Pose& child, DockRandom& rng) {
    const int genes = geneCount(a.torsionCount());
    int cut1 = rng.below(genes), cut2 = rng.below(genes);
    if (cut1 > cut2)
        std::swap(cut1, cut2);
    // Genes in [cut1, cut2) come from b; the rest from a.
    child = a;
    for (int g = cut1; g < cut2; ++g) {
        if (g < 3)
            child.position[g] = b.position[g];
        else if (g == 3)
            child.orientation = b.orientation;
        else
            child.torsions[g - 4] = b.torsions[g - 4];
    }
}

void mutate(Pose& pose, const LgaOptions& options, const SearchBox& box, DockRandom& rng) {
    const int genes = geneCount(pose.torsionCount());
    const double maxAngle = options.maxAngleMutationDegrees * kPi / 180.0;
    for (int g = 0; g < genes; ++g) {
        if (rng.uniform() >= options.mutationRate)
            continue;
        if (g < 3) {
            pose.position[g] += rng.uniform(-1.0, 1.0) * options.maxTranslationMutation;
        } else if (g == 3) {
            const Eigen::Vector3d axis = randomAxis(rng);
            pose.orientation =
                quaternionFromAxisAngle(axis, rng.uniform(-1.0, 1.0) * maxAngle) * pose.orientation;
            pose.orientation.normalize();
        } else {
            double& t = pose.torsions[g - 4];
            t = normalizeAngle(t + rng.uniform(-1.0, 1.0) * maxAngle);
        }
    }
    clampToBox(pose, box);
}

} // namespace pw::dock
