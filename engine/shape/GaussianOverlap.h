// GaussianOverlap: first-order Gaussian overlap volumes (Grant & Pickup) between two centre sets,
// and the overlap of a rigidly moved fit with its gradient with respect to the 7 pose numbers.
#pragma once

#include "ShapeModel.h"

#include <Eigen/Core>

#include <cstdint>
#include <vector>

namespace pw::shape {

// Sum over pairs of K_ij exp(-c_ij d_ij^2) (constants from pairConstants()).
double overlapVolume(const std::vector<Vec3>& a, const std::vector<std::uint8_t>& clsA,
                     const std::vector<Vec3>& b, const std::vector<std::uint8_t>& clsB);
double selfVolume(const ShapeModel& m);
// Colour overlap: only features of the same type overlap.
double colourOverlap(const std::vector<ColourFeature>& a, const std::vector<ColourFeature>& b);
double colourSelfVolume(const ShapeModel& m);

// Pose of the fit in the reference frame: x' = R(q) x + t, q = (w, x, y, z) not necessarily unit:
// R(q) = rotation of q/|q|, so the 7-D function is smooth and its gradient exact (PAPER's choice).
using PoseVector = Eigen::Matrix<double, 7, 1>;
Eigen::Matrix3d poseRotation(const PoseVector& x);

// Overlap of the reference centres with the moved fit centres; grad (when not null) receives
// d overlap / d (q, t).
double poseOverlap(const std::vector<Vec3>& ref, const std::vector<std::uint8_t>& refCls,
                   const std::vector<Vec3>& fit, const std::vector<std::uint8_t>& fitCls,
                   const PoseVector& x, PoseVector* grad);

} // namespace pw::shape
