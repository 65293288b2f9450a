#include "ShapeOverlay.h"

#include "OverlayStarts.h"

#include <algorithm>
#include <atomic>
#include <thread>

namespace pw::shape {

ShapeOverlay::ShapeOverlay(ShapeModel reference, OverlayOptions options)
    : ref_(std::move(reference)), options_(options),
      starts_(overlayStartPoses(ref_, options.starts, options.ringStarts)) {
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
    worldTransform(fit, q, t, s.rotation, s.translation);
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

void ShapeOverlay::worldTransform(const ShapeModel& fit, const Eigen::Quaterniond& q, const Vec3& t,
                                  Eigen::Matrix3d& rotation, Vec3& translation) const {
    // world = Rr^T (Q Rf (x - cf) + t) + cr
    const Eigen::Matrix3d Rr = ref_.frame.axes, Rf = fit.frame.axes;
    const Eigen::Matrix3d Q = q.normalized().toRotationMatrix();
    rotation = Rr.transpose() * Q * Rf;
    translation = Rr.transpose() * (t - Q * Rf * fit.frame.centroid) + ref_.frame.centroid;
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

ShapeScores ShapeOverlay::bestOverlay(const ShapeModel& fit, OptimizeResult* bestOut) const {
    OptimizeResult best;
    int bestStart = -1;
    const double volumeFit = selfVolume(fit);
    OptimizerSettings settings = options_.optimizer;
    settings.recordPath = bestOut != nullptr;
    for (int i = 0; i < int(starts_.size()); ++i) {
        OptimizeResult r = optimizePose(ref_.framePositions, ref_.cls, fit.framePositions, fit.cls,
                                        starts_[size_t(i)], settings);
        if (bestStart < 0 || r.overlap > best.overlap) {
            best = std::move(r);
            bestStart = i;
        }
    }
    Eigen::Quaterniond q(best.x[0], best.x[1], best.x[2], best.x[3]);
    ShapeScores s = scoresFromFramePose(fit, q, best.x.tail<3>(), best.overlap, volumeFit);
    s.start = bestStart;
    s.iterations = best.iterations;
    if (bestOut)
        *bestOut = std::move(best);
    return s;
}

ShapeScores ShapeOverlay::overlay(const ShapeModel& fit) const {
    return bestOverlay(fit, nullptr);
}

ShapeScores ShapeOverlay::overlay(const ShapeModel& fit, std::vector<OverlayPathStep>* path) const {
    if (!path)
        return bestOverlay(fit, nullptr);
    OptimizeResult best;
    const ShapeScores s = bestOverlay(fit, &best);
    path->clear();
    for (const PathPoint& p : best.path) {
        OverlayPathStep step;
        worldTransform(fit, Eigen::Quaterniond(p.x[0], p.x[1], p.x[2], p.x[3]), p.x.tail<3>(),
                       step.rotation, step.translation);
        step.overlap = p.overlap;
        const double union_ = s.volumeRef + s.volumeFit - p.overlap;
        step.tanimoto = union_ > 0 ? p.overlap / union_ : 0.0;
        path->push_back(step);
    }
    return s;
}

std::vector<ShapeScores> ShapeOverlay::overlayAll(const std::vector<ShapeModel>& fits,
                                                  bool scoreOnly, int threads) const {
    return overlayAll(fits, scoreOnly, threads, nullptr);
}

std::vector<ShapeScores> ShapeOverlay::overlayAll(const std::vector<ShapeModel>& fits,
                                                  bool scoreOnly, int threads,
                                                  Progress* progress) const {
    std::vector<ShapeScores> out(fits.size());
    if (threads <= 0)
        threads = int(std::max(1u, std::thread::hardware_concurrency()));
    threads = std::min<int>(threads, int(std::max<size_t>(1, fits.size())));
    const long total = long(fits.size());
    // Report about 200 times per run: often enough for a progress bar, rarely enough that the
    // callback (a queued signal in the app) costs nothing next to the overlays.
    const long every = std::max(1L, total / 200);
    std::atomic<size_t> nextIndex{0};
    std::atomic<long> done{0};
    auto work = [&] {
        for (size_t i; (i = nextIndex.fetch_add(1)) < fits.size();) {
            if (progress && progress->cancelled())
                return;
            out[i] = scoreOnly ? scoreAsGiven(fits[i]) : overlay(fits[i]);
            const long d = done.fetch_add(1) + 1;
            if (progress && progress->onProgress && (d % every == 0 || d == total))
                progress->onProgress(d, total);
        }
    };
    if (threads == 1) {
        work();
    } else {
        std::vector<std::thread> pool;
        for (int k = 0; k < threads; ++k)
            pool.emplace_back(work);
        for (auto& th : pool)
            th.join();
    }
    if (progress && progress->cancelled() && done.load() < total)
        return {};
    return out;
}

Molecule transformed(const Molecule& m, const Eigen::Matrix3d& rotation, const Vec3& translation) {
    Molecule out = m;
    for (Atom& a : out.atoms)
        a.position = rotation * a.position + translation;
    return out;
}

} // namespace pw::shape
