#include "OverlayStarts.h"

namespace pw::shape {

bool validStartCount(int count) {
    return count == 1 || count == 4 || count == 12;
}

std::vector<Eigen::Quaterniond> overlayStarts(int count) {
    const Eigen::Quaterniond flips[4] = {
        Eigen::Quaterniond(1, 0, 0, 0), Eigen::Quaterniond(0, 1, 0, 0),
        Eigen::Quaterniond(0, 0, 1, 0), Eigen::Quaterniond(0, 0, 0, 1)};
    std::vector<Eigen::Quaterniond> out;
    if (count == 1) {
        out.push_back(flips[0]);
        return out;
    }
    // Cyclic permutation x->y->z->x is a 120-degree turn about (1,1,1).
    const Eigen::Quaterniond cycle(0.5, 0.5, 0.5, 0.5);
    Eigen::Quaterniond perm(1, 0, 0, 0);
    const int perms = count == 12 ? 3 : 1;
    for (int p = 0; p < perms; ++p) {
        for (const auto& f : flips)
            out.push_back((f * perm).normalized());
        perm = cycle * perm;
    }
    return out;
}

std::vector<PoseVector> overlayStartPoses(const ShapeModel& reference, int orientations,
                                          bool ringStarts) {
    std::vector<Vec3> centres{Vec3::Zero()};
    if (ringStarts)
        centres.insert(centres.end(), reference.frameRingCentroids.begin(),
                       reference.frameRingCentroids.end());
    const std::vector<Eigen::Quaterniond> turns = overlayStarts(orientations);
    std::vector<PoseVector> out;
    out.reserve(centres.size() * turns.size());
    for (const Vec3& c : centres)
        for (const Eigen::Quaterniond& q : turns) {
            PoseVector x;
            x << q.w(), q.x(), q.y(), q.z(), c.x(), c.y(), c.z();
            out.push_back(x);
        }
    return out;
}

} // namespace pw::shape
