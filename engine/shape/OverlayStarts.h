// OverlayStarts: the starting poses of an overlay in the principal-axes frames (1, 4 or 12
// orientations, optionally repeated on each ring centroid of the reference), shared by the CPU
// optimizer and the CUDA kernels so both start from the same poses.
#pragma once

#include "GaussianOverlap.h"
#include "ShapeModel.h"

#include <Eigen/Geometry>

#include <vector>

namespace pw::shape {

// 1: identity; 4: identity and the three 180-degree turns about the principal axes (every sign
// choice of the axes that keeps the frame right-handed); 12: those 4 times the three cyclic
// permutations of the axes (for molecules whose spread order differs from the reference's).
std::vector<Eigen::Quaterniond> overlayStarts(int count);
bool validStartCount(int count);

// Start poses x = (q, t) (GaussianOverlap.h) in the frames: every orientation of
// overlayStarts(orientations) with the fit's centroid on the reference's (t = 0); then, with
// ringStarts, the same orientations with the fit's centroid on each ring centroid of the
// reference (t = that centroid in the reference's frame), ring by ring. Start k is therefore
// orientation k % orientations on centre k / orientations (0: the centroid, r + 1: ring r).
std::vector<PoseVector> overlayStartPoses(const ShapeModel& reference, int orientations,
                                          bool ringStarts);

} // namespace pw::shape
