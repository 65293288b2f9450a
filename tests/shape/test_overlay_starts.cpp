// Overlay starts and what the overlay reports: smallest rings and their centroids, ring-centroid
// start poses, the recorded optimization path, and progress/cancel of the overlay of many fits.
#include "shape/OverlayStarts.h"
#include "shape/RingCentroids.h"
#include "shape/ShapeOverlay.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <random>

using namespace pw;
using namespace pw::shape;

namespace {

// Carbons on a regular hexagon of 1.4 Å around centre, in the xy plane.
void addHexagon(Molecule& m, const Vec3& centre, double phase) {
    for (int k = 0; k < 6; ++k) {
        Atom a;
        a.element = 6;
        const double angle = phase + k * M_PI / 3;
        a.position = centre + 1.4 * Vec3(std::cos(angle), std::sin(angle), 0);
        m.atoms.push_back(a);
    }
}

void bond(Molecule& m, int a, int b) {
    m.bonds.push_back({a, b, BondOrder::Single, false});
}

// Naphthalene's carbon skeleton: two hexagons sharing the bond 0-5 (atoms 0..5 and 0,5,6..9),
// with a two-carbon chain (10, 11) on atom 3.
Molecule naphthaleneWithChain() {
    Molecule m;
    m.name = "naphthalene";
    const double s = 1.4 * std::sqrt(3.0);
    addHexagon(m, Vec3(0, 0, 0), M_PI / 6); // atom k at 30 + 60k degrees
    for (int k = 0; k < 6; ++k)
        bond(m, k, (k + 1) % 6);
    // The second hexagon, centred at (s, 0, 0), has atoms 0 and 5 at its 150 and 210 degrees;
    // its others (30, 90, 270, 330 degrees) become atoms 6, 7, 8, 9.
    Molecule second;
    addHexagon(second, Vec3(s, 0, 0), M_PI / 6);
    for (int k : {0, 1, 4, 5})
        m.atoms.push_back(second.atoms[size_t(k)]);
    bond(m, 0, 7);
    bond(m, 7, 6);
    bond(m, 6, 9);
    bond(m, 9, 8);
    bond(m, 8, 5);
    Atom c1, c2;
    c1.element = c2.element = 6;
    c1.position = m.atoms[3].position + Vec3(-1.5, 0, 0);
    c2.position = c1.position + Vec3(-1.5, 0, 0);
    m.atoms.push_back(c1); // 10
    m.atoms.push_back(c2); // 11
    bond(m, 3, 10);
    bond(m, 10, 11);
    return m;
}

Molecule randomMolecule(int n, unsigned seed) {
    std::mt19937 rng(seed);
    std::normal_distribution<double> g(0, 2.0);
    Molecule m;
    for (int i = 0; i < n; ++i) {
        Atom a;
        a.element = 6;
        a.position = Vec3(g(rng), g(rng) * 0.7, g(rng) * 0.4);
        m.atoms.push_back(a);
    }
    return m;
}

} // namespace

class TestOverlayStarts : public QObject {
    Q_OBJECT
private slots:
    void smallestRingsOfFusedRings() {
        const Molecule m = naphthaleneWithChain();
        // The geometry is what the comments say: every bond 1.4 Å in the rings, 1.5 Å on the chain.
        for (const Bond& b : m.bonds)
            QVERIFY2(
                std::abs((m.atoms[size_t(b.a)].position - m.atoms[size_t(b.b)].position).norm() -
                         (b.a >= 10 || b.b >= 10 ? 1.5 : 1.4)) < 1e-9,
                qPrintable(QString("bond %1-%2").arg(b.a).arg(b.b)));
        const auto rings = smallestRings(m);
        QCOMPARE(int(rings.size()), 2); // two six-rings, not the ten-ring around both
        for (const auto& r : rings)
            QCOMPARE(int(r.size()), 6);
        auto centres = ringCentroids(m);
        std::sort(centres.begin(), centres.end(),
                  [](const Vec3& a, const Vec3& b) { return a.x() < b.x(); });
        QVERIFY(centres[0].norm() < 1e-9);
        QVERIFY((centres[1] - Vec3(1.4 * std::sqrt(3.0), 0, 0)).norm() < 1e-9);
        // A chain has no ring.
        Molecule chain = randomMolecule(4, 1);
        bond(chain, 0, 1);
        bond(chain, 1, 2);
        bond(chain, 2, 3);
        QVERIFY(smallestRings(chain).empty());
    }

    void ringStartPosesPutTheFitOnEachRing() {
        const ShapeModel ref = makeShapeModel(naphthaleneWithChain(), {});
        QCOMPARE(int(ref.frameRingCentroids.size()), 2);
        for (int n : {1, 4, 12}) {
            const auto plain = overlayStartPoses(ref, n, false);
            const auto rings = overlayStartPoses(ref, n, true);
            QCOMPARE(int(plain.size()), n);
            QCOMPARE(int(rings.size()), 3 * n);
            const auto turns = overlayStarts(n);
            for (int k = 0; k < 3 * n; ++k) {
                const PoseVector& x = rings[size_t(k)];
                // Orientation k % n, on centre k / n.
                const Eigen::Quaterniond& q = turns[size_t(k % n)];
                QVERIFY((x.head<4>() - Eigen::Vector4d(q.w(), q.x(), q.y(), q.z())).norm() < 1e-15);
                const Vec3 centre =
                    k < n ? Vec3::Zero() : ref.frameRingCentroids[size_t(k / n - 1)];
                QVERIFY((x.tail<3>() - centre).norm() < 1e-15);
                if (k < n)
                    QVERIFY(x == plain[size_t(k)]); // the centroid starts come first, unchanged
            }
            // The frame's ring centroids are the world ones in the reference's frame.
            for (size_t r = 0; r < ref.ringCentroids.size(); ++r)
                QVERIFY((ref.frame.axes.transpose() * ref.frameRingCentroids[r] +
                         ref.frame.centroid - ref.ringCentroids[r])
                            .norm() < 1e-12);
        }
        OverlayOptions o;
        o.ringStarts = true;
        QCOMPARE(int(ShapeOverlay(ref, o).startPoses().size()), 12);
        o.ringStarts = false;
        QCOMPARE(int(ShapeOverlay(ref, o).startPoses().size()), 4);
    }

    void recordedPathClimbsFromStartToOptimum() {
        const ShapeModel ref = makeShapeModel(randomMolecule(22, 3), {});
        const ShapeModel fit = makeShapeModel(randomMolecule(18, 4), {});
        PoseVector x0;
        x0 << 0.9, 0.1, -0.3, 0.2, 0.5, -0.2, 0.1; // not unit on purpose
        OptimizerSettings s;
        const OptimizeResult plain =
            optimizePose(ref.framePositions, ref.cls, fit.framePositions, fit.cls, x0, s);
        QVERIFY(plain.path.empty()); // off by default
        s.recordPath = true;
        const OptimizeResult r =
            optimizePose(ref.framePositions, ref.cls, fit.framePositions, fit.cls, x0, s);
        QVERIFY(r.x == plain.x && r.overlap == plain.overlap); // recording changes nothing
        QVERIFY(r.iterations >= 2);
        QCOMPARE(int(r.path.size()), r.iterations + 1);
        PoseVector unit = x0;
        unit.head<4>().normalize();
        QVERIFY((r.path.front().x - unit).norm() < 1e-15);
        QVERIFY(r.path.back().x == r.x);
        QCOMPARE(r.path.back().overlap, r.overlap);
        for (size_t k = 1; k < r.path.size(); ++k) // Armijo: every accepted step gains
            QVERIFY2(r.path[k].overlap > r.path[k - 1].overlap,
                     qPrintable(QString("step %1: %2 after %3")
                                    .arg(k)
                                    .arg(r.path[k].overlap)
                                    .arg(r.path[k - 1].overlap)));
        // Through ShapeOverlay: world transforms, the last one the result's.
        const ShapeOverlay ov(ref, {});
        std::vector<OverlayPathStep> path;
        const ShapeScores best = ov.overlay(fit, &path);
        const ShapeScores again = ov.overlay(fit);
        QVERIFY(best.rotation == again.rotation && best.translation == again.translation);
        QCOMPARE(int(path.size()), best.iterations + 1);
        QVERIFY((path.back().rotation - best.rotation).norm() < 1e-12);
        QVERIFY((path.back().translation - best.translation).norm() < 1e-12);
        QVERIFY(std::abs(path.back().tanimoto - best.tanimoto) < 1e-12);
        for (size_t k = 1; k < path.size(); ++k)
            QVERIFY(path[k].tanimoto >= path[k - 1].tanimoto);
        // The first step is the best start's pose: re-scored from scratch it gives its overlap.
        std::vector<Vec3> moved;
        for (const Vec3& p : fit.positions)
            moved.push_back(path.front().rotation * p + path.front().translation);
        QVERIFY(std::abs(overlapVolume(ref.positions, ref.cls, moved, fit.cls) -
                         path.front().overlap) < 1e-9 * path.front().overlap);
    }

    void overlayOfManyReportsProgressAndCancels() {
        const ShapeOverlay ov(makeShapeModel(randomMolecule(20, 5), {}), {});
        std::vector<ShapeModel> fits;
        for (int i = 0; i < 30; ++i)
            fits.push_back(makeShapeModel(randomMolecule(12, 100 + unsigned(i)), {}));
        const auto plain = ov.overlayAll(fits, false, 1);
        Progress progress;
        std::vector<long> seen;
        long total = 0;
        progress.onProgress = [&](long done, long t) {
            seen.push_back(done);
            total = t;
        };
        const auto reported = ov.overlayAll(fits, false, 1, &progress);
        QCOMPARE(int(reported.size()), 30);
        for (size_t i = 0; i < fits.size(); ++i)
            QCOMPARE(reported[i].tanimoto, plain[i].tanimoto);
        QCOMPARE(total, 30L);
        QCOMPARE(int(seen.size()), 30); // 30 fits: every one is reported
        for (size_t k = 0; k < seen.size(); ++k)
            QCOMPARE(seen[k], long(k + 1));
        // Cancelled after the fifth fit: stops there and hands back nothing.
        Progress stop;
        long last = 0;
        stop.onProgress = [&](long done, long) {
            last = done;
            if (done == 5)
                stop.cancel = true;
        };
        QVERIFY(ov.overlayAll(fits, false, 1, &stop).empty());
        QCOMPARE(last, 5L);
        // Several workers: the last report is total.
        Progress many;
        std::atomic<long> highest{0};
        many.onProgress = [&](long done, long) {
            long h = highest.load();
            while (done > h && !highest.compare_exchange_weak(h, done)) {
            }
        };
        QCOMPARE(int(ov.overlayAll(fits, true, 3, &many).size()), 30);
        QCOMPARE(highest.load(), 30L);
    }
};

QTEST_GUILESS_MAIN(TestOverlayStarts)
#include "test_overlay_starts.moc"
