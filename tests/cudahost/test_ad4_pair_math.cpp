// The exact AD4 pair kernel's own arithmetic (Ad4PairMath.cuh: the map kernel's per-site float
// math at an arbitrary point, double running sums; compiled for the host) against the CPU
// reference, Ad4ExactScorer::inter, atom by atom and pose by pose: 1stp, 3ce3 and the dock30
// complex 1r55, crystal, docked, perturbed, clashing and out-of-box poses, under both outside-box
// rules. Runs without a GPU; tests/gpu/test_ad4_pair_score.cpp checks the device itself.
#include "gpu/Ad4PairPoses.h"

#include "cuda/Ad4PairMath.cuh"
#include "cuda/Ad4PairSmooth.cuh"
#include "cuda/Ad4PairPacking.h"

#include <QtTest>

#include <cmath>

using namespace pw;
using namespace pw::ad4;
using namespace pwtest;

class TestAd4PairMath : public QObject {
    Q_OBJECT

private slots:
    void equalsExactScorer_data() { addAd4ComplexRows(); }
    void equalsExactScorer() {
        QFETCH(QString, complex);
        QFETCH(int, outside);
        const OutsideBox rule = static_cast<OutsideBox>(outside);
        const Ad4Complex c = loadAd4Complex(complex.toStdString());
        const Ad4ExactScorer cpu(c.receptor, c.box, c.ligand, rule);
        const cuda::PackedAd4Pair packed = cuda::packAd4Pair(cpu.setup(), rule);
        const cuda::Ad4PairArgs args = cuda::hostView(packed);

        double worstAtom = 0, worstModerate = 0, worstPose = 0; // moderate: |cpu term| < 100
        bool sawClash = false, sawOutside = false, sawInside = false;
        for (const Ad4PoseCase& pose : ad4PoseCases(c, 6)) {
            const Ad4Energy ref = cpu.inter(pose.coords);
            double vdw = 0, elec = 0;
            for (int i = 0; i < cpu.atomCount(); ++i) {
                const Vec3& x = pose.coords[size_t(i)];
                const cuda::Ad4PairAtomTerms t = cuda::ad4pair::atomTerms(
                    args, cpu.mapOfAtom(i), cpu.charge(i), x.x(), x.y(), x.z());
                const Ad4Energy::AtomTerms& r = ref.perAtom[size_t(i)];
                const QString where = QString("%1 atom %2").arg(QString::fromStdString(pose.name)).arg(i + 1);
                QVERIFY2(atomClose(t.vdwHb, r.vdwHb),
                         qPrintable(where + QString(" vdW+Hb: kernel math %1, cpu %2").arg(t.vdwHb, 0, 'g', 12).arg(r.vdwHb, 0, 'g', 12)));
                QVERIFY2(atomClose(t.elec, r.elec),
                         qPrintable(where + QString(" elec: kernel math %1, cpu %2").arg(t.elec, 0, 'g', 12).arg(r.elec, 0, 'g', 12)));
                QVERIFY2(atomClose(t.desolv, r.desolv),
                         qPrintable(where + QString(" desolv: kernel math %1, cpu %2").arg(t.desolv, 0, 'g', 12).arg(r.desolv, 0, 'g', 12)));
                for (const auto& [o, e] : {std::pair{t.vdwHb, r.vdwHb}, std::pair{t.elec, r.elec},
                                           std::pair{t.desolv, r.desolv}}) {
                    worstAtom = std::max(worstAtom, std::fabs(o - e));
                    if (std::fabs(e) < 100)
                        worstModerate = std::max(worstModerate, std::fabs(o - e));
                }
                vdw += t.vdwHb + t.desolv;
                elec += t.elec;
                const bool in = c.box.contains(x);
                sawOutside = sawOutside || !in;
                sawInside = sawInside || in;
                sawClash = sawClash || (in && r.vdwHb > 1000.0 && r.desolv != 0.0);
            }
            QVERIFY2(poseClose(vdw, ref.interVdwHbDesolv),
                     qPrintable(QString("%1 vdW+Hb+desolv: kernel math %2, cpu %3").arg(QString::fromStdString(pose.name)).arg(vdw, 0, 'g', 12).arg(ref.interVdwHbDesolv, 0, 'g', 12)));
            QVERIFY2(poseClose(elec, ref.interElec),
                     qPrintable(QString("%1 elec: kernel math %2, cpu %3").arg(QString::fromStdString(pose.name)).arg(elec, 0, 'g', 12).arg(ref.interElec, 0, 'g', 12)));
            worstPose = std::max({worstPose,
                                  std::fabs(vdw - ref.interVdwHbDesolv) / std::max(1.0, std::fabs(ref.interVdwHbDesolv)),
                                  std::fabs(elec - ref.interElec) / std::max(1.0, std::fabs(ref.interElec))});
        }
        qInfo("worst per-atom term difference %.3g kcal/mol (%.3g where |term| < 100), worst "
              "pose sum relative difference %.3g",
              worstAtom, worstModerate, worstPose);
        // The cases have teeth: a clash deep in the repulsive wall, atoms on both sides of the box.
        QVERIFY(sawClash);
        QVERIFY(sawOutside && sawInside);
    }

    // The smooth twin with its gradient (Ad4PairSmooth.cuh, the smooth kernel's per-atom math)
    // against Ad4ExactScorer::energyAndGradient, pose by pose and atom by atom.
    void smoothTwinEqualsEnergyAndGradient_data() { addAd4ComplexRows(); }
    void smoothTwinEqualsEnergyAndGradient() {
        QFETCH(QString, complex);
        QFETCH(int, outside);
        const OutsideBox rule = static_cast<OutsideBox>(outside);
        const Ad4Complex c = loadAd4Complex(complex.toStdString());
        const Ad4ExactScorer cpu(c.receptor, c.box, c.ligand, rule);
        const cuda::PackedAd4Pair packed = cuda::packAd4Pair(cpu.setup(), rule);
        const cuda::Ad4PairArgs args = cuda::hostView(packed);
        double worstEnergy = 0, worstGrad = 0;
        int poses = 0;
        for (const Ad4PoseCase& pose : ad4PoseCases(c, 6)) {
            std::vector<Vec3> grad;
            const double ref = cpu.energyAndGradient(pose.coords, &grad);
            double sum = 0;
            for (int i = 0; i < cpu.atomCount(); ++i) {
                const Vec3& x = pose.coords[size_t(i)];
                cuda::ad4pair::D3 g{};
                sum += cuda::ad4pair::smoothAtomEnergy(args, cpu.mapOfAtom(i), cpu.charge(i),
                                                       x.x(), x.y(), x.z(), g);
                const Vec3 diff = Vec3(g.x, g.y, g.z) - grad[size_t(i)];
                const double rel = diff.norm() / std::max(1.0, grad[size_t(i)].norm());
                worstGrad = std::max(worstGrad, rel);
                QVERIFY2(rel <= 1e-4,
                         qPrintable(QString("%1 atom %2: gradient (%3 %4 %5), cpu (%6 %7 %8)")
                                        .arg(QString::fromStdString(pose.name))
                                        .arg(i + 1)
                                        .arg(g.x)
                                        .arg(g.y)
                                        .arg(g.z)
                                        .arg(grad[size_t(i)].x())
                                        .arg(grad[size_t(i)].y())
                                        .arg(grad[size_t(i)].z())));
            }
            const double rel = std::fabs(sum - ref) / std::max(1.0, std::fabs(ref));
            worstEnergy = std::max(worstEnergy, rel);
            QVERIFY2(rel <= 1e-4, qPrintable(QString("%1: smooth energy %2, cpu %3")
                                                 .arg(QString::fromStdString(pose.name))
                                                 .arg(sum, 0, 'g', 12)
                                                 .arg(ref, 0, 'g', 12)));
            ++poses;
        }
        qInfo("%d poses: worst relative difference energy %.3g, atom gradient %.3g", poses,
              worstEnergy, worstGrad);
        QVERIFY(poses > 0);
    }

    void penaltyIsAutodocksRule() {
        // An atom outside the box under the penalty rule: 500 |x - centre|^2 as vdW and as elec,
        // no desolvation, no sweep; on a face counts as outside (GridGeometry::contains).
        const Ad4Complex c = loadAd4Complex("1stp");
        const Ad4ExactScorer cpu(c.receptor, c.box, c.ligand, OutsideBox::Penalty);
        const cuda::PackedAd4Pair packed = cuda::packAd4Pair(cpu.setup(), OutsideBox::Penalty);
        const cuda::Ad4PairArgs a = cuda::hostView(packed);
        const Vec3 face = c.box.hi();
        QVERIFY(!cuda::ad4pair::insideBox(a, face.x(), c.box.center.y(), c.box.center.z()));
        QVERIFY(cuda::ad4pair::insideBox(a, c.box.center.x(), c.box.center.y(), c.box.center.z()));
        const cuda::Ad4PairAtomTerms t =
            cuda::ad4pair::atomTerms(a, 0, 0.3, face.x() + 2.0, c.box.center.y(), c.box.center.z());
        const double d = face.x() + 2.0 - c.box.center.x();
        QCOMPARE(t.vdwHb, 500.0 * d * d);
        QCOMPARE(t.elec, 500.0 * d * d);
        QCOMPARE(t.desolv, 0.0);
    }
};

QTEST_GUILESS_MAIN(TestAd4PairMath)
#include "test_ad4_pair_math.moc"
