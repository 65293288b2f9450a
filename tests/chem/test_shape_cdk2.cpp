// Shape overlay on the real CDK2 ligand set (tests/data/shapes/cdk2.sdf, 47 ligands in one
// binding-site frame): score-only values, self-overlay after random moves, optimized pairs.
#include "chem/MoleculeReader.h"
#include "shape/OverlayStarts.h"
#include "shape/ShapeOverlay.h"

#include <QtTest>

#include <random>

using namespace pw;
using namespace pw::shape;

class TestShapeCdk2 : public QObject {
    Q_OBJECT

    std::vector<Molecule> mols_;
    std::vector<ShapeModel> models_;

    static bool near(double got, double want, double rel = 1e-3) {
        return std::abs(got - want) <= rel * std::abs(want);
    }

private slots:
    void initTestCase() {
        mols_ = readMolecules(POSEWRIGHT_TEST_DATA "/shapes/cdk2.sdf");
        QCOMPARE(int(mols_.size()), 47);
        for (const Molecule& m : mols_)
            models_.push_back(makeShapeModel(m, {}));
    }

    void scoreOnlyAtGivenPoses() {
        ShapeOverlay ov(models_[0], {});
        ShapeScores s1 = ov.scoreAsGiven(models_[1]);
        QVERIFY2(near(s1.volumeRef, 790.9122), qPrintable(QString::number(s1.volumeRef, 'f', 4)));
        QVERIFY2(near(s1.volumeFit, 810.8219), qPrintable(QString::number(s1.volumeFit, 'f', 4)));
        QVERIFY2(near(s1.overlap, 550.9447), qPrintable(QString::number(s1.overlap, 'f', 4)));
        QVERIFY2(near(s1.tanimoto, 0.5243), qPrintable(QString::number(s1.tanimoto, 'f', 4)));
        ShapeScores s5 = ov.scoreAsGiven(models_[5]);
        QVERIFY2(near(s5.overlap, 503.1560), qPrintable(QString::number(s5.overlap, 'f', 4)));
        QVERIFY2(near(s5.tanimoto, 0.3824), qPrintable(QString::number(s5.tanimoto, 'f', 4)));
        QVERIFY2(near(s5.tverskyRef, 0.6268), qPrintable(QString::number(s5.tverskyRef, 'f', 4)));
        QVERIFY2(near(s5.tverskyFit, 0.4952), qPrintable(QString::number(s5.tverskyFit, 'f', 4)));
        // Score-only leaves the pose as given.
        QVERIFY(s5.rotation.isIdentity() && s5.translation.isZero());
    }

    void selfOverlayAfterRandomMove() {
        std::mt19937 rng(20261121);
        std::normal_distribution<double> gauss(0, 1);
        std::uniform_real_distribution<double> shift(-10, 10);
        double worst = 1;
        for (size_t i = 0; i < mols_.size(); ++i) {
            Eigen::Quaterniond q(gauss(rng), gauss(rng), gauss(rng), gauss(rng));
            q.normalize();
            const Vec3 t(shift(rng), shift(rng), shift(rng));
            Molecule moved = transformed(mols_[i], q.toRotationMatrix(), t);
            ShapeOverlay ov(models_[i], {});
            ShapeModel fit = makeShapeModel(moved, {});
            const double before = ov.scoreAsGiven(fit).tanimoto;
            ShapeScores s = ov.overlay(fit);
            worst = std::min(worst, s.tanimoto);
            QVERIFY2(s.tanimoto >= 0.99, qPrintable(QString("molecule %1: Tanimoto %2 (before %3)")
                                                        .arg(i)
                                                        .arg(s.tanimoto)
                                                        .arg(before)));
            // The returned transform puts the atoms back where they were.
            double rms = 0;
            for (size_t a = 0; a < moved.atoms.size(); ++a)
                rms += (s.rotation * moved.atoms[a].position + s.translation -
                        mols_[i].atoms[a].position)
                           .squaredNorm();
            rms = std::sqrt(rms / moved.atoms.size());
            QVERIFY2(rms < 0.3 || s.tanimoto < 0.999, qPrintable(QString("rms %1").arg(rms)));
        }
        qInfo("worst self-overlay Tanimoto: %.5f", worst);
    }

    void optimizedPairsNeverWorseThanGiven() {
        double worstLoss = -1;
        int pairs = 0;
        for (size_t r = 0; r < models_.size(); ++r) {
            ShapeOverlay ov(models_[r], {});
            for (size_t f = 0; f < models_.size(); ++f) {
                if (f == r)
                    continue;
                const double given = ov.scoreAsGiven(models_[f]).tanimoto;
                const double opt = ov.overlay(models_[f]).tanimoto;
                worstLoss = std::max(worstLoss, given - opt);
                ++pairs;
                QVERIFY2(opt >= given - 0.01,
                         qPrintable(QString("ref %1 fit %2: optimized %3 < given %4")
                                        .arg(r)
                                        .arg(f)
                                        .arg(opt)
                                        .arg(given)));
            }
        }
        qInfo("%d pairs, worst loss against the given pose: %.4f", pairs, worstLoss);
    }
};

QTEST_GUILESS_MAIN(TestShapeCdk2)
#include "test_shape_cdk2.moc"
