// ShapeOverlay: the CPU reference of Gaussian shape overlay: one reference against many fit
// molecules, best of several principal-axes starts, scores and the aligning transform per fit.
#pragma once

#include "ShapeOptimizer.h"
#include "ShapeScores.h"

#include <Eigen/Geometry>

#include <vector>

namespace pw::shape {

struct OverlayOptions {
    int starts = 4; // 1, 4 or 12 (overlayStarts)
    OptimizerSettings optimizer;
    // Colour is scored at the pose the shape optimisation found (as PAPER/roshambo do): the pose
    // stays a pure shape pose, identical on CPU and GPU.
    bool colour = false;
};

class ShapeOverlay {
public:
    ShapeOverlay(ShapeModel reference, OverlayOptions options);

    // Best overlay over the starts.
    ShapeScores overlay(const ShapeModel& fit) const;
    // Scores of the fit exactly where it is (no optimisation).
    ShapeScores scoreAsGiven(const ShapeModel& fit) const;
    // Every fit, threads workers (0 = hardware concurrency), results in input order.
    std::vector<ShapeScores> overlayAll(const std::vector<ShapeModel>& fits, bool scoreOnly,
                                        int threads = 0) const;

    // Scores from a pose found in the principal frames (x' = R(q) y + t, y the fit's frame
    // coordinates): builds the world transform, colour and ratios. Used by the CUDA backend too.
    ShapeScores scoresFromFramePose(const ShapeModel& fit, const Eigen::Quaterniond& q,
                                    const Vec3& t, double overlap, double volumeFit) const;

    const ShapeModel& reference() const { return ref_; }
    double referenceVolume() const { return refVolume_; }
    const OverlayOptions& options() const { return options_; }

private:
    ShapeModel ref_;
    OverlayOptions options_;
    double refVolume_ = 0, refColourVolume_ = 0;
};

// Copy of m with the transform applied to every atom (hydrogens too).
Molecule transformed(const Molecule& m, const Eigen::Matrix3d& rotation, const Vec3& translation);

} // namespace pw::shape
