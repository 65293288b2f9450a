// OverlayStarts: the starting orientations of an overlay in the principal-axes frame (1, 4 or 12
// quaternions), shared by the CPU optimizer and the CUDA kernels so both start from the same poses.
#pragma once

#include <Eigen/Geometry>

#include <vector>

namespace pw::shape {

// 1: identity; 4: identity and the three 180-degree turns about the principal axes (every sign
// choice of the axes that keeps the frame right-handed); 12: those 4 times the three cyclic
// permutations of the axes (for molecules whose spread order differs from the reference's).
std::vector<Eigen::Quaterniond> overlayStarts(int count);
bool validStartCount(int count);

} // namespace pw::shape
