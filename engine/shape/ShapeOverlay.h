// ShapeOverlay: the CPU reference of Gaussian shape overlay: one reference against many fit
// molecules, best of several principal-axes starts, scores and the aligning transform per fit.
#pragma once

#include "ShapeOptimizer.h"
#include "ShapeScores.h"
#include "core/Progress.h"

#include <Eigen/Geometry>

#include <vector>

namespace pw::shape {

struct OverlayOptions {
    int starts = 4; // orientations: 1, 4 or 12 (overlayStarts)
    // Also start with the fit's centroid on each ring centroid of the reference, in each of the
    // orientations (overlayStartPoses): finds where a small fit belongs inside a large reference.
    bool ringStarts = false;
    OptimizerSettings optimizer;
    // Colour is scored at the pose the shape optimisation found (as PAPER/roshambo do): the pose
    // stays a pure shape pose, identical on CPU and GPU.
    bool colour = false;
};

// One accepted pose of the optimization of a fit (ShapeOverlay::overlay with a path): the
// transform that moves the fit's original coordinates there (as ShapeScores's) and its score.
struct OverlayPathStep {
    Eigen::Matrix3d rotation = Eigen::Matrix3d::Identity();
    Vec3 translation = Vec3::Zero();
    double overlap = 0, tanimoto = 0;
};

class ShapeOverlay {
public:
    ShapeOverlay(ShapeModel reference, OverlayOptions options);

    // Best overlay over the starts.
    ShapeScores overlay(const ShapeModel& fit) const;
    // The same, and the path of the best start's BFGS into *path: its start pose first, one step
    // per iteration, the returned pose last (to replay the optimization).
    ShapeScores overlay(const ShapeModel& fit, std::vector<OverlayPathStep>* path) const;
    // Scores of the fit exactly where it is (no optimisation).
    ShapeScores scoreAsGiven(const ShapeModel& fit) const;
    // Every fit, threads workers (0 = hardware concurrency), results in input order.
    std::vector<ShapeScores> overlayAll(const std::vector<ShapeModel>& fits, bool scoreOnly,
                                        int threads = 0) const;
    // The same, reporting done/total through progress->onProgress (from the workers, at most
    // about 200 times) and polling progress->cancelled() between fits: a cancelled run returns
    // an empty vector. progress may be null.
    std::vector<ShapeScores> overlayAll(const std::vector<ShapeModel>& fits, bool scoreOnly,
                                        int threads, Progress* progress) const;

    // Scores from a pose found in the principal frames (x' = R(q) y + t, y the fit's frame
    // coordinates): builds the world transform, colour and ratios. Used by the CUDA backend too.
    ShapeScores scoresFromFramePose(const ShapeModel& fit, const Eigen::Quaterniond& q,
                                    const Vec3& t, double overlap, double volumeFit) const;

    // Start poses in the frames (overlayStartPoses of the options); ShapeScores::start indexes it.
    // The CUDA backend starts from these too.
    const std::vector<PoseVector>& startPoses() const { return starts_; }

    const ShapeModel& reference() const { return ref_; }
    double referenceVolume() const { return refVolume_; }
    const OverlayOptions& options() const { return options_; }

private:
    ShapeScores bestOverlay(const ShapeModel& fit, OptimizeResult* best) const;
    void worldTransform(const ShapeModel& fit, const Eigen::Quaterniond& q, const Vec3& t,
                        Eigen::Matrix3d& rotation, Vec3& translation) const;

    ShapeModel ref_;
    OverlayOptions options_;
    std::vector<PoseVector> starts_;
    double refVolume_ = 0, refColourVolume_ = 0;
};

// Copy of m with the transform applied to every atom (hydrogens too).
Molecule transformed(const Molecule& m, const Eigen::Matrix3d& rotation, const Vec3& translation);

} // namespace pw::shape
