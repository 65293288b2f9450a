// GPU shape overlay against the CPU reference on the same inputs (label gpu): score-only values,
// optimised best Tanimoto per molecule, and the GPU's own pose re-scored on the CPU in double;
// with ring-centroid starts too (the start translations must reach the kernel).
#include "GpuTestMain.h"

#include "chem/MoleculeReader.h"
#include "cuda/ShapeOverlayCuda.h"
#include "shape/GaussianOverlap.h"
#include "shape/RingCentroids.h"
#include "shape/RingFragments.h"
#include "shape/ShapeOverlay.h"

#include <QtTest>

#include <random>

using namespace pw;
using namespace pw::shape;

class TestShapeGpu : public QObject {
    Q_OBJECT

    std::vector<Molecule> mols_;

    // Rigidly moved copies so that the GPU sees other coordinates than the file's.
    std::vector<Molecule> movedCopies(int copies) {
        std::mt19937 rng(7);
        std::normal_distribution<double> gauss(0, 1);
        std::vector<Molecule> out;
        for (int c = 0; c < copies; ++c)
            for (const Molecule& m : mols_) {
                Eigen::Quaterniond q(gauss(rng), gauss(rng), gauss(rng), gauss(rng));
                out.push_back(transformed(m, q.normalized().toRotationMatrix(),
                                          Vec3(gauss(rng), gauss(rng), gauss(rng)) * 5));
            }
        return out;
    }

    struct Stats {
        long overlays = 0, compared = 0, over = 0;
        double maxDiff = 0, maxRescoreDiff = 0;
    };

    void compare(int refIndex, const std::vector<Molecule>& fitsMol, RadiiMode radii, int starts,
                 Stats& st, bool ringStarts = false) {
        ShapeModelOptions mo;
        mo.radii = radii;
        OverlayOptions oo;
        oo.starts = starts;
        oo.ringStarts = ringStarts;
        ShapeOverlay cpu(makeShapeModel(mols_[refIndex], mo), oo);
        std::vector<ShapeModel> fits;
        for (const Molecule& m : fitsMol)
            fits.push_back(makeShapeModel(m, mo));
        cuda::ShapeOverlayGpu gpu(cpu, 0);
        // Score-only: same pose, float+__expf against double.
        auto gs = gpu.overlayAll(fits, true);
        auto cs = cpu.overlayAll(fits, true);
        for (size_t i = 0; i < fits.size(); ++i) {
            QVERIFY2(std::abs(gs[i].tanimoto - cs[i].tanimoto) < 1e-4,
                     qPrintable(QString("score-only %1: gpu %2 cpu %3")
                                    .arg(i)
                                    .arg(gs[i].tanimoto)
                                    .arg(cs[i].tanimoto)));
            QVERIFY(std::abs(gs[i].volumeFit - cs[i].volumeFit) < 1e-4 * cs[i].volumeFit);
        }
        // Optimised.
        auto go = gpu.overlayAll(fits, false);
        auto co = cpu.overlayAll(fits, false);
        for (size_t i = 0; i < fits.size(); ++i) {
            const double d = std::abs(go[i].tanimoto - co[i].tanimoto);
            st.maxDiff = std::max(st.maxDiff, d);
            st.over += d > 1e-3;
            ++st.compared;
            // The GPU's pose, re-scored in double on the CPU, gives the GPU's score.
            std::vector<Vec3> moved;
            for (const Vec3& p : fits[i].positions)
                moved.push_back(go[i].rotation * p + go[i].translation);
            const double overlap =
                overlapVolume(cpu.reference().positions, cpu.reference().cls, moved, fits[i].cls);
            const double t = overlap / (cs[i].volumeRef + cs[i].volumeFit - overlap);
            st.maxRescoreDiff = std::max(st.maxRescoreDiff, std::abs(t - go[i].tanimoto));
        }
        st.overlays += long(fits.size()) * long(cpu.startPoses().size());
    }

private slots:
    void initTestCase() {
        mols_ = readMolecules(POSEWRIGHT_TEST_DATA "/shapes/cdk2.sdf");
        QCOMPARE(int(mols_.size()), 47);
    }

    void gpuMatchesCpuOnTenThousandOverlays() {
        Stats st;
        const std::vector<Molecule> moved = movedCopies(1);
        // 47 x 47 x 4 = 8,836 overlays (6 references in small-problem mode: 1,128)
        for (int r = 0; r < pw::test::sized(int(mols_.size()), 6); ++r)
            compare(r, r % 2 ? moved : mols_, RadiiMode::Carbon, 4, st);
        for (int r = 0; r < 4; ++r) // element radii: the kernel's pair-table path
            compare(r, mols_, RadiiMode::Element, 4, st);
        for (int r = 0; r < 2; ++r)
            compare(r, mols_, RadiiMode::Carbon, 12, st);
        qInfo("%ld overlays, %ld molecules compared: max |gpu-cpu| best Tanimoto %.2e, %ld over "
              "1e-3; GPU pose re-scored in double: max diff %.2e",
              st.overlays, st.compared, st.maxDiff, st.over, st.maxRescoreDiff);
        QVERIFY(st.overlays >= pw::test::sized(10000, 2500));
        QVERIFY2(st.maxRescoreDiff < 1e-3, "GPU scores differ from its poses scored in double");
        // Float BFGS can stop one step apart from double BFGS: allow 1% of molecules past 1e-3.
        QVERIFY2(st.over <= st.compared / 100,
                 qPrintable(QString("%1 of %2 molecules differ by more than 1e-3")
                                .arg(st.over)
                                .arg(st.compared)));
    }

    void ringStartsMatchCpu() {
        // Whole ligands on ligands with ring-centroid starts: the same agreement as above.
        Stats st;
        const std::vector<Molecule> moved = movedCopies(1);
        for (int r : {0, 11, 23, 40})
            compare(r, r % 2 ? moved : mols_, RadiiMode::Carbon, 4, st, true);
        qInfo("ring starts: %ld overlays, %ld molecules: max |gpu-cpu| %.2e, %ld over 1e-3, "
              "re-scored %.2e",
              st.overlays, st.compared, st.maxDiff, st.over, st.maxRescoreDiff);
        QVERIFY2(st.maxRescoreDiff < 1e-3, "GPU scores differ from its poses scored in double");
        QVERIFY2(st.over <= st.compared / 100,
                 qPrintable(QString("%1 of %2 molecules differ by more than 1e-3")
                                .arg(st.over)
                                .arg(st.compared)));

        // Ring fragments moved away and overlaid back onto their ligand (as in
        // tests/chem/test_shape_ring_starts): ring starts bring more of them home on the CPU;
        // the GPU, given the same starts, must agree with the CPU and beat the CPU without them.
        OverlayOptions plain, rings;
        rings.ringStarts = true;
        std::mt19937 rng(6);
        Stats fr;
        int fragments = 0, homeGpu = 0, homeCpu = 0, homePlain = 0;
        for (size_t r = 0; r < mols_.size(); ++r) {
            const auto ringList = smallestRings(mols_[r]);
            if (ringList.size() < 2)
                continue;
            const ShapeOverlay cpuPlain(makeShapeModel(mols_[r], {}), plain);
            const ShapeOverlay cpuRings(makeShapeModel(mols_[r], {}), rings);
            std::vector<Molecule> home, moved;
            std::vector<ShapeModel> fits;
            for (const auto& ring : ringList) {
                home.push_back(test::ringFragment(mols_[r], ring, 2));
                moved.push_back(test::randomlyMoved(home.back(), rng));
                fits.push_back(makeShapeModel(moved.back(), {}));
            }
            cuda::ShapeOverlayGpu gpu(cpuRings, 0);
            const auto g = gpu.overlayAll(fits, false);
            const auto c = cpuRings.overlayAll(fits, false);
            const auto p = cpuPlain.overlayAll(fits, false);
            for (size_t i = 0; i < fits.size(); ++i) {
                auto isHome = [&](const ShapeScores& s) {
                    return test::distanceFromHome(
                               home[i], transformed(moved[i], s.rotation, s.translation)) < 0.5;
                };
                ++fragments;
                homeGpu += isHome(g[i]);
                homeCpu += isHome(c[i]);
                homePlain += isHome(p[i]);
                const double d = std::abs(g[i].tanimoto - c[i].tanimoto);
                fr.maxDiff = std::max(fr.maxDiff, d);
                fr.over += d > 1e-3;
                ++fr.compared;
                QVERIFY(g[i].start >= 0 && g[i].start < int(cpuRings.startPoses().size()));
            }
        }
        qInfo("%d ring fragments: home on the GPU %d, CPU %d, CPU without ring starts %d; max "
              "|gpu-cpu| %.2e, %ld over 1e-3",
              fragments, homeGpu, homeCpu, homePlain, fr.maxDiff, fr.over);
        QVERIFY2(fr.over <= fr.compared / 100,
                 qPrintable(QString("%1 of %2 fragments differ by more than 1e-3")
                                .arg(fr.over)
                                .arg(fr.compared)));
        QVERIFY(std::abs(homeGpu - homeCpu) <= fragments / 50);
        QVERIFY2(homeGpu >= homePlain + fragments / 10, "ring starts do not reach the GPU");
    }
};

POSEWRIGHT_GPU_TEST_MAIN(TestShapeGpu)
#include "test_shape_gpu.moc"
