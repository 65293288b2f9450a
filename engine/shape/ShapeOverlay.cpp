#include "ShapeOverlay.h"

#include "OverlayStarts.h"

#include <algorithm>
#include <atomic>
#include <thread>

namespace pw::shape {

ShapeOverlay::ShapeOverlay(ShapeModel reference, OverlayOptions options)
    : ref_(std::move(reference)), options_(options) {
    refVolume_ = selfVolume(ref_);
    refColourVolume_ = colourSelfVolume(ref_);
}

ShapeScores ShapeOverlay::scoresFromFramePose(const ShapeModel& fit, const Eigen::Quaterniond& q,
                                              const Vec3& t, double overlap,
                                              double volumeFit) const {
    ShapeScores s;
    s.volumeRef = refVolume_;
    s.volumeFit = volumeFit;
    s.overlap = overlap;
    // world = Rr^T (Q Rf (x - cf) + t) + cr
    const Eigen::Matrix3d Rr = ref_.frame.axes, Rf = fit.frame.axes;
    const Eigen::Matrix3d Q = q.normalized().toRotationMatrix();
    s.rotation = Rr.transpose() * Q * Rf;
    s.translation = Rr.transpose() * (t - Q * Rf * fit.frame.centroid) + ref_.frame.centroid;
    if (options_.colour) {
        s.hasColour = true;
        s.colourRef = refColourVolume_;
        s.colourFit = colourOverlap(fit.colour, fit.colour);
        std::vector<ColourFeature> moved = fit.colour;
        for (ColourFeature& c : moved)
            c.position = s.rotation * c.position + s.translation;
        s.colourOverlap = colourOverlap(ref_.colour, moved);
    }
    finishScores(s);
    return s;
}

ShapeScores ShapeOverlay::scoreAsGiven(const ShapeModel& fit) const {
    // The given pose, expressed in the frames: t and q that map fit frame coords to where the fit
    // atoms are, in the reference frame.
    const Eigen::Matrix3d Q = ref_.frame.axes * fit.frame.axes.transpose();
    const Vec3 t = ref_.frame.axes * (fit.frame.centroid - ref_.frame.centroid);
    const double overlap = overlapVolume(ref_.positions, ref_.cls, fit.positions, fit.cls);
    ShapeScores s = scoresFromFramePose(fit, Eigen::Quaterniond(Q), t, overlap, selfVolume(fit));
    s.rotation = Eigen::Matrix3d::Identity(); // exactly as given, free of round-off
    s.translation = Vec3::Zero();
    return s;
}

ShapeScores ShapeOverlay::overlay(const ShapeModel& fit) const {
    OptimizeResult best;
    int bestStart = -1;
    const auto starts = overlayStarts(options_.starts);
    for (int i = 0; i < int(starts.size()); ++i) {
        PoseVector x0;
        x0 << starts[i].w(), starts[i].x(), starts[i].y(), starts[i].z(), 0, 0, 0;
        OptimizeResult r = optimizePose(ref_.framePositions, ref_.cls, fit.framePositions, fit.cls,
                                        x0, options_.optimizer);
        if (bestStart < 0 || r.overlap > best.overlap) {
            best = r;
            bestStart = i;
        }
    }
    Eigen::Quaterniond q(best.x[0], best.x[1], best.x[2], best.x[3]);
    ShapeScores s = scoresFromFramePose(fit, q, best.x.tail<3>(), best.overlap, selfVolume(fit));
    s.start = bestStart;
    s.iterations = best.iterations;
    return s;
}

std::vector<ShapeScores> ShapeOverlay::overlayAll(const std::vector<ShapeModel>& fits,
                                                  bool scoreOnly, int threads) const {
    std::vector<ShapeScores> out(fits.size());
    if (threads <= 0)
        threads = int(std::max(1u, std::thread::hardware_concurrency()));
    threads = std::min<int>(threads, int(std::max<size_t>(1, fits.size())));
    std::atomic<size_t> nextIndex{0};
    auto work = [&] {
        for (size_t i; (i = nextIndex.fetch_add(1)) < fits.size();)
            out[i] = scoreOnly ? scoreAsGiven(fits[i]) : overlay(fits[i]);
    };
    if (threads == 1) {
        work();
        return out;
    }
    std::vector<std::thread> pool;
    for (int k = 0; k < threads; ++k)
        pool.emplace_back(work);
    for (auto& th : pool)
        th.join();
    return out;
}

Molecule transformed(const Molecule& m, const Eigen::Matrix3d& rotation, const Vec3& translation) {
    Molecule out = m;
    for (Atom& a : out.atoms)
        a.position = rotation * a.position + translation;
    return out;
}

} // namespace pw::shape
