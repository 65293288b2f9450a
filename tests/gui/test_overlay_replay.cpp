// Qt Test for the overlay workspace's job control and replay: progress (done/total) and cancel of
// the overlay of many fits (the previous result stays, a message says so), and the replay of the
// chosen fit's optimization from its start pose to the optimum shown in the table.
#include "GuiTestSetup.h"
#include "MoleculeView.h"
#include "OverlayPanel.h"
#include "TrajectoryPlayer.h"
#include "ViewEnvironment.h"
#include "chem/MoleculeReader.h"
#include "shape/OverlayStarts.h"
#include "shape/ShapeModel.h"

#include <QElapsedTimer>
#include <QProgressBar>
#include <QPushButton>
#include <QStandardPaths>
#include <QTableWidget>
#include <QtTest>

#include <vtkActor.h>
#include <vtkMatrix4x4.h>

using namespace pw;

namespace {

// Centroid of the heavy atoms (the shape model's centres).
Vec3 heavyCentroid(const Molecule& m) {
    return shape::makeShapeModel(m, {}).frame.centroid;
}

double largestDistance(const Molecule& a, const Molecule& b) {
    double worst = 0;
    for (size_t i = 0; i < a.atoms.size(); ++i)
        worst = std::max(worst, (a.atoms[i].position - b.atoms[i].position).norm());
    return worst;
}

} // namespace

class OverlayReplayTest : public QObject {
    Q_OBJECT

    std::vector<Molecule> mols_;

private slots:
    void initTestCase() {
        mols_ = readMolecules(POSEWRIGHT_TEST_DATA "/shapes/cdk2.sdf");
        QCOMPARE(int(mols_.size()), 47);
    }

    void progressCountsEveryFit() {
        OverlayPanel panel;
        panel.show();
        QSignalSpy done(&panel, &OverlayPanel::finished);
        QSignalSpy progress(&panel, &OverlayPanel::progressChanged);
        std::vector<Molecule> fits(mols_.begin() + 1, mols_.end());
        panel.setMolecules(mols_[0], fits);
        QVERIFY(panel.busy());
        QVERIFY(panel.cancelButton()->isVisibleTo(&panel));
        QVERIFY(panel.progressBar()->isVisibleTo(&panel));
        QVERIFY(done.wait(120000));
        QVERIFY2(done.first().first().toBool(), qPrintable(panel.messages()));
        QVERIFY(progress.count() >= 1);
        long last = 0;
        for (const QList<QVariant>& p : progress) {
            QCOMPARE(p.at(1).toLongLong(), 46LL);  // total: every fit
            QVERIFY(p.at(0).toLongLong() >= last); // done never goes back (one run)
            last = p.at(0).toLongLong();
        }
        QCOMPARE(last, 46L);
        QVERIFY(!panel.cancelButton()->isVisibleTo(&panel)); // idle: no cancel, no bar
        QVERIFY(!panel.progressBar()->isVisibleTo(&panel));
    }

    void cancelKeepsThePreviousResult() {
        OverlayPanel panel;
        panel.resize(900, 500);
        panel.show();
        QSignalSpy done(&panel, &OverlayPanel::finished);
        panel.setMolecules(mols_[0], {mols_[1], mols_[2]});
        QVERIFY(done.wait(60000));
        QVERIFY(done.takeFirst().first().toBool());
        const double shownScore = panel.table()->item(0, 1)->text().toDouble();
        const int shown = panel.shownFit();

        // Many fits (the set a hundred times: 4,600 fits, seconds of work), cancelled at the
        // first count.
        std::vector<Molecule> many;
        for (int copy = 0; copy < 100; ++copy)
            many.insert(many.end(), mols_.begin() + 1, mols_.end());
        QSignalSpy progress(&panel, &OverlayPanel::progressChanged);
        QElapsedTimer clock;
        clock.start();
        panel.setMolecules(mols_[3], many);
        QVERIFY(clock.elapsed() < 200); // the GUI thread only starts the job
        QTRY_VERIFY_WITH_TIMEOUT(progress.count() > 0, 60000);
        const long seenDone = progress.first().at(0).toLongLong();
        QVERIFY2(seenDone < long(many.size()), "the run ended before it could be cancelled");
        QTest::mouseClick(panel.cancelButton(), Qt::LeftButton);
        QTRY_VERIFY2_WITH_TIMEOUT(done.count() > 0, qPrintable(panel.messages()), 60000);
        QCOMPARE(done.first().first().toBool(), false);
        QVERIFY2(panel.messages().contains(QStringLiteral("cancelled")),
                 qPrintable(panel.messages()));
        QVERIFY(panel.messages().contains(QStringLiteral("previous result")));
        // What was shown before is still there.
        QCOMPARE(panel.table()->rowCount(), 2);
        QCOMPARE(panel.table()->item(0, 1)->text().toDouble(), shownScore);
        QCOMPARE(panel.shownFit(), shown);
        QCOMPARE(int(panel.result().fits.size()), 2);
        QCOMPARE(panel.result().reference.name, mols_[0].name);
        QVERIFY(!panel.busy());

        // A new request while one runs replaces it without waiting on the GUI thread.
        done.clear();
        panel.setMolecules(mols_[3], many);
        clock.restart();
        panel.setMolecules(mols_[4], {mols_[5]});
        QVERIFY(clock.elapsed() < 200);
        QTRY_VERIFY_WITH_TIMEOUT(done.count() > 0, 120000);
        QVERIFY2(done.first().first().toBool(), qPrintable(panel.messages()));
        QCOMPARE(panel.result().reference.name, mols_[4].name);
        QCOMPARE(panel.table()->rowCount(), 1);
    }

    void replayRunsFromStartPoseToShownOptimum() {
        OverlayPanel panel;
        panel.resize(1000, 600);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QSignalSpy done(&panel, &OverlayPanel::finished);
        QSignalSpy ready(&panel, &OverlayPanel::pathReady);
        panel.setMolecules(mols_[0], {mols_[1], mols_[5], mols_[9]});
        QVERIFY(done.wait(60000));
        QVERIFY(done.first().first().toBool());
        // The best fit is shown first; then choose the table's second row.
        QTRY_VERIFY_WITH_TIMEOUT(ready.count() > 0, 30000);
        ready.clear();
        panel.table()->setCurrentCell(1, 0);
        const int fit = panel.result().ranking[1];
        QCOMPARE(panel.shownFit(), fit);
        QTRY_VERIFY_WITH_TIMEOUT(ready.count() > 0, 30000);
        QCOMPARE(ready.first().first().toInt(), fit);

        const OverlayPath& path = panel.path();
        const shape::ShapeScores& shownScores = panel.result().scores[size_t(fit)];
        const int n = int(path.steps.size());
        QCOMPARE(n, shownScores.iterations + 1);
        QVERIFY(n >= 3);
        TrajectoryPlayer* player = panel.player();
        QCOMPARE(player->frameCount(), n);
        QCOMPARE(player->currentFrame(), n - 1); // at the optimum, as shown before

        const Molecule& fitMol = panel.result().fits[size_t(fit)];
        const Molecule optimum =
            shape::transformed(fitMol, shownScores.rotation, shownScores.translation);
        // Last step: exactly the result in the table (coordinates within 1e-6 Å).
        player->setCurrentFrame(n - 1);
        QVERIFY(largestDistance(panel.shownFitMolecule(), optimum) < 1e-6);
        QCOMPARE(QString::number(path.steps.back().tanimoto, 'f', 3),
                 panel.table()->item(1, 1)->text());

        // First step: the best start's pose. In the principal frames that is one of the start
        // orientations, the fit's centroid on the reference's (or on a ring's centroid).
        player->setCurrentFrame(0);
        QCOMPARE(panel.shownStep(), 0);
        const Molecule& start = panel.shownFitMolecule();
        const shape::ShapeModel refModel = shape::makeShapeModel(panel.result().reference, {});
        const shape::ShapeModel fitModel = shape::makeShapeModel(fitMol, {});
        const auto poses = shape::overlayStartPoses(refModel, 4, false);
        QVERIFY(shownScores.start >= 0 && shownScores.start < int(poses.size()));
        const shape::PoseVector& x0 = poses[size_t(shownScores.start)];
        const Eigen::Matrix3d Q =
            refModel.frame.axes * path.steps.front().rotation * fitModel.frame.axes.transpose();
        QVERIFY((Q - shape::poseRotation(x0)).norm() < 1e-9);
        QVERIFY((heavyCentroid(start) -
                 (refModel.frame.centroid + refModel.frame.axes.transpose() * x0.tail<3>()))
                    .norm() < 1e-9);
        QVERIFY(largestDistance(start, optimum) > 0.5); // the replay does move the fit

        // Tanimoto along the path never drops (the line search accepts only gains), and the
        // text under the view shows each step's.
        for (int k = 0; k < n; ++k) {
            player->setCurrentFrame(k);
            QVERIFY(
                panel.stepText().contains(QString::number(path.steps[size_t(k)].tanimoto, 'f', 3)));
            if (k > 0)
                QVERIFY(path.steps[size_t(k)].tanimoto >= path.steps[size_t(k - 1)].tanimoto);
        }
        QVERIFY(path.steps.back().tanimoto > path.steps.front().tanimoto);

        // The fit's isosurface (built around the optimum) moves with it: the actor's matrix
        // takes the optimum's atoms onto the step's.
        for (int k : {0, n / 2, n - 1}) {
            player->setCurrentFrame(k);
            vtkMatrix4x4* m = panel.fitSurface()->GetMatrix();
            double worst = 0;
            for (size_t i = 0; i < optimum.atoms.size(); ++i) {
                const Vec3& p = optimum.atoms[i].position;
                double in[4] = {p.x(), p.y(), p.z(), 1}, out[4];
                m->MultiplyPoint(in, out);
                worst = std::max(worst, (Vec3(out[0], out[1], out[2]) -
                                         panel.shownFitMolecule().atoms[i].position)
                                            .norm());
            }
            QVERIFY2(worst < 1e-6,
                     qPrintable(QString("step %1: surface %2 A off its atoms").arg(k).arg(worst)));
        }
        // Playing runs to the optimum again.
        player->setCurrentFrame(0);
        player->play();
        QVERIFY(QTest::qWaitFor([&] { return player->currentFrame() == n - 1; }, 20000));
        QVERIFY(largestDistance(panel.shownFitMolecule(), optimum) < 1e-6);
    }
};

QTEST_MAIN(OverlayReplayTest)
#include "test_overlay_replay.moc"
