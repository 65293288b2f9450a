// Ring-centroid starts of the shape overlay on the real CDK2 ligands (tests/data/shapes/cdk2.sdf):
// they can only raise the best Tanimoto, and ring fragments of a ligand, moved away, find their
// place inside the whole ligand more often with them than with centroid-on-centroid starts.
#include "chem/MoleculeReader.h"
#include "shape/RingCentroids.h"
#include "shape/RingFragments.h"
#include "shape/ShapeOverlay.h"

#include <QtTest>

#include <algorithm>
#include <iterator>

using namespace pw;
using namespace pw::shape;

class TestShapeRingStarts : public QObject {
    Q_OBJECT

    std::vector<Molecule> mols_;
    std::vector<ShapeModel> models_;

private slots:
    void initTestCase() {
        mols_ = readMolecules(POSEWRIGHT_TEST_DATA "/shapes/cdk2.sdf");
        QCOMPARE(int(mols_.size()), 47);
        std::transform(mols_.begin(), mols_.end(), std::back_inserter(models_),
                       [](const Molecule& m) { return makeShapeModel(m, {}); });
    }

    void ringStartsNeverLowerTheBestTanimoto() {
        OverlayOptions plain, rings;
        rings.ringStarts = true;
        int pairs = 0, raised = 0;
        double largestGain = 0;
        for (int r : {0, 5, 11, 23, 40}) {
            QVERIFY(!models_[size_t(r)].ringCentroids.empty());
            const ShapeOverlay without(models_[size_t(r)], plain), with(models_[size_t(r)], rings);
            QVERIFY(with.startPoses().size() > without.startPoses().size());
            const auto a = without.overlayAll(models_, false);
            const auto b = with.overlayAll(models_, false);
            for (size_t i = 0; i < models_.size(); ++i) {
                if (int(i) == r)
                    continue;
                ++pairs;
                // The centroid starts are among the ring starts' first ones, computed alike.
                QVERIFY2(b[i].tanimoto >= a[i].tanimoto,
                         qPrintable(QString("reference %1, fit %2: %3 with ring starts, %4 without")
                                        .arg(r)
                                        .arg(i)
                                        .arg(b[i].tanimoto)
                                        .arg(a[i].tanimoto)));
                raised += b[i].tanimoto > a[i].tanimoto + 1e-6;
                largestGain = std::max(largestGain, b[i].tanimoto - a[i].tanimoto);
            }
        }
        qInfo("%d pairs: ring starts raised %d, largest gain %.4f", pairs, raised, largestGain);
        QVERIFY(raised > 0); // the ring starts do take part
    }

    void ringFragmentsFindTheirPlaceMoreOftenWithRingStarts() {
        // Every ring of every ligand with two rings or more, with the heavy atoms two bonds
        // around it, cut out, moved away at random, and overlaid back onto its own ligand. Home
        // is not always the best overlap (a small fragment can cover more of a dense part
        // elsewhere), so this counts how often it gets home.
        OverlayOptions plain, withRings;
        withRings.ringStarts = true;
        std::mt19937 rng(6);
        int fragments = 0, homeWith = 0, homeWithout = 0;
        for (size_t r = 0; r < mols_.size(); ++r) {
            const auto rings = smallestRings(mols_[r]);
            if (rings.size() < 2)
                continue;
            const ShapeOverlay without(models_[r], plain), with(models_[r], withRings);
            for (const auto& ring : rings) {
                const Molecule home = test::ringFragment(mols_[r], ring, 2);
                const Molecule moved = test::randomlyMoved(home, rng);
                const ShapeModel fit = makeShapeModel(moved, {});
                const ShapeScores a = without.overlay(fit), b = with.overlay(fit);
                QVERIFY(b.tanimoto >= a.tanimoto);
                ++fragments;
                homeWithout += test::distanceFromHome(
                                   home, transformed(moved, a.rotation, a.translation)) < 0.5;
                homeWith += test::distanceFromHome(
                                home, transformed(moved, b.rotation, b.translation)) < 0.5;
            }
        }
        qInfo("%d ring fragments back home: %d with ring starts, %d without", fragments, homeWith,
              homeWithout);
        QVERIFY(fragments >= 100);
        // Measured: 80 and 49 of 168. Ask for a tenth of the fragments more.
        QVERIFY2(homeWith >= homeWithout + fragments / 10,
                 qPrintable(QString("%1 home with ring starts, %2 without, of %3")
                                .arg(homeWith)
                                .arg(homeWithout)
                                .arg(fragments)));
    }
};

QTEST_GUILESS_MAIN(TestShapeRingStarts)
#include "test_shape_ring_starts.moc"
