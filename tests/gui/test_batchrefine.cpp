// Qt Test for batch refinement in the main window (1stp receptor, three of its docked poses):
// "Refine all ligands" runs on the Device setting's backend with progress, gives every ligand the
// affinity that single-pose minimization gives it, is one undo step and re-ranks the list; it
// can be cancelled; the device it ran on is said (and the similarity panel computes on the same
// setting); every dock comes back from the View menu.
#include "BatchPart.h"
#include "EnergyPlot.h"
#include "GuiTestSetup.h"
#include "MainWindow.h"
#include "RefinePart.h"
#include "SettingsPanel.h"
#include "SimilarityPanel.h"
#include "SimilarityPart.h"
#include "TrajectoryPlayer.h"
#include "ViewEnvironment.h"

#include <QAction>
#include <QDockWidget>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QProgressBar>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QUndoStack>
#include <QtTest>

#include <cmath>

using namespace pw;

namespace {

const QString kComplex = QStringLiteral(POSEWRIGHT_TEST_DATA "/complexes/1stp/");

double maxDeviation(const std::vector<Vec3>& a, const std::vector<Vec3>& b) {
    if (a.size() != b.size())
        return 1e9;
    double d = 0;
    for (size_t i = 0; i < a.size(); ++i)
        d = std::max(d, (a[i] - b[i]).norm());
    return d;
}

// The 1stp receptor (its box.txt is read with it) and `count` docked poses as the ligand list,
// on the given device; waits until the grid maps are built.
bool openPoses(MainWindow& w, int count, const QString& device) {
    w.setErrorDialogsEnabled(false);
    w.show();
    if (!QTest::qWaitForWindowExposed(&w))
        return false;
    w.settingsPanel()->setDevice(device);
    QStringList poses;
    for (int i = 0; i < count; ++i)
        poses << kComplex + QStringLiteral("poses/pose%1.pdbqt").arg(i, 2, 10, QLatin1Char('0'));
    w.openReceptor(kComplex + QStringLiteral("receptor.pdbqt"));
    w.openLigands(poses);
    return QTest::qWaitFor([&] { return w.pendingLoads() == 0 && w.targetReady() && !w.busy(); },
                           120000) &&
           static_cast<int>(w.document().ligands().size()) == count;
}

bool refineAllThroughUi(MainWindow& w, bool* ok) {
    QSignalSpy finished(w.part<BatchPart>(), &BatchPart::batchRefinementFinished);
    w.part<BatchPart>()->refineAllAction()->trigger();
    if (!finished.wait(120000) && finished.isEmpty())
        return false;
    *ok = finished.front().front().toBool();
    return true;
}

void selectOnly(MainWindow& w, int ligand) {
    w.ligandList()->clearSelection();
    w.ligandList()->item(w.rowOfLigand(ligand))->setSelected(true);
}

} // namespace

class TestBatchRefine : public QObject {
    Q_OBJECT

private slots:
    void batchEqualsOneByOneOnTheCpu();
    void cancelLeavesTheDocument();
    void waitsForTheGridMaps();
    void gpuRequestSaysWhatRan();
    void viewMenuBringsBackEveryDock();
};

void TestBatchRefine::batchEqualsOneByOneOnTheCpu() {
    MainWindow w;
    QVERIFY(openPoses(w, 3, QStringLiteral("cpu")));
    QCOMPARE(w.document().device(), QStringLiteral("cpu"));
    std::vector<std::vector<Vec3>> start;
    for (const Molecule& m : w.document().ligands())
        start.push_back(coordinatesOf(m));
    const int undoBefore = w.undoStack()->count();
    QVERIFY(!w.rankAction()->isChecked());

    // Progress is determinate, done/total over the ligands.
    QSignalSpy finished(w.part<BatchPart>(), &BatchPart::batchRefinementFinished);
    w.part<BatchPart>()->refineAllAction()->trigger();
    QVERIFY(w.busy());
    QVERIFY(w.progressBar()->isVisible());
    QCOMPARE(w.progressBar()->maximum(), 3);
    QVERIFY(!w.part<RefinePart>()->minimizeAction()->isEnabled());
    QVERIFY(!w.part<BatchPart>()->refineAllAction()->isEnabled());
    QVERIFY(finished.wait(120000) || !finished.isEmpty());
    QVERIFY2(finished.front().front().toBool(), qPrintable(w.lastError()));
    QVERIFY(!w.busy());
    QVERIFY(!w.progressBar()->isVisible());
    QCOMPARE(w.progressBar()->value(), 3); // the last done/total arrived before the result
    QVERIFY(w.part<RefinePart>()->minimizeAction()->isEnabled());

    // The status bar names the backend and the time.
    const QString message = w.statusBar()->currentMessage();
    QVERIFY2(message.contains(QStringLiteral("Refined 3 ligands on CPU")), qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral(" s")), qPrintable(message));

    std::vector<double> batch;
    std::vector<std::vector<Vec3>> batchPoses;
    for (int i = 0; i < 3; ++i) {
        const auto& s = w.document().score(i);
        QVERIFY(s.has_value());
        batch.push_back(s->affinity);
        batchPoses.push_back(coordinatesOf(w.document().ligands()[static_cast<size_t>(i)]));
        QVERIFY(maxDeviation(batchPoses.back(), start[static_cast<size_t>(i)]) > 1e-3); // moved
    }
    // The list is ranked, best affinity first; the active ligand stays active and selected.
    QVERIFY(w.rankAction()->isChecked());
    for (int row = 1; row < 3; ++row)
        QVERIFY(batch[static_cast<size_t>(w.ligandOfRow(row - 1))] <=
                batch[static_cast<size_t>(w.ligandOfRow(row))]);
    QCOMPARE(w.document().activeLigand(), 0);
    QVERIFY(w.ligandList()->item(w.rowOfLigand(0))->isSelected());
    QVERIFY(
        w.ligandList()->item(w.rowOfLigand(0))->text().endsWith(QString::number(batch[0], 'f', 2)));
    // Unranked, the file order comes back.
    w.rankAction()->setChecked(false);
    for (int row = 0; row < 3; ++row)
        QCOMPARE(w.ligandOfRow(row), row);
    // No per-step frames from a batch: the energy panel says so.
    QCOMPARE(w.part<RefinePart>()->trajectory().size(), size_t(0));
    QCOMPARE(w.part<RefinePart>()->energyPlot()->pointCount(), 0);
    QVERIFY2(w.part<RefinePart>()->trajectoryNote()->text().contains(
                 QStringLiteral("Batch result (CPU")),
             qPrintable(w.part<RefinePart>()->trajectoryNote()->text()));

    // One undo step puts every pose back.
    QCOMPARE(w.undoStack()->count(), undoBefore + 1);
    w.undoStack()->undo();
    for (int i = 0; i < 3; ++i)
        QVERIFY(maxDeviation(coordinatesOf(w.document().ligands()[static_cast<size_t>(i)]),
                             start[static_cast<size_t>(i)]) < 1e-12);

    // One by one through "Minimize pose" (the CPU reference, watched): the same affinities.
    w.settingsPanel()->setLivePaceMs(0);
    for (int i = 0; i < 3; ++i) {
        selectOnly(w, i);
        QCOMPARE(w.document().activeLigand(), i);
        QSignalSpy single(w.part<RefinePart>(), &RefinePart::minimizationFinished);
        w.part<RefinePart>()->minimizeAction()->trigger();
        QVERIFY(single.wait(120000) || !single.isEmpty());
        QVERIFY2(single.front().front().toBool(), qPrintable(w.lastError()));
        const double one = w.document().score(i)->affinity;
        qInfo("ligand %d: batch %.8f, one by one %.8f", i + 1, batch[static_cast<size_t>(i)], one);
        QVERIFY(std::abs(one - batch[static_cast<size_t>(i)]) < 1e-6);
        QVERIFY(maxDeviation(coordinatesOf(w.document().ligands()[static_cast<size_t>(i)]),
                             batchPoses[static_cast<size_t>(i)]) < 1e-6);
        QVERIFY(!w.part<RefinePart>()->trajectory().empty()); // a watched run records its steps
    }
    // Each ligand keeps its own recorded run: the plot follows the active ligand.
    for (int i = 0; i < 3; ++i) {
        selectOnly(w, i);
        const size_t frames = w.document().trajectory(i).points.size();
        QVERIFY(frames > 1);
        QCOMPARE(w.part<RefinePart>()->trajectory().size(), frames);
        QCOMPARE(w.part<RefinePart>()->energyPlot()->pointCount(), static_cast<int>(frames));
        QCOMPARE(w.part<RefinePart>()->player()->frameCount(), static_cast<int>(frames));
        QCOMPARE(w.part<RefinePart>()->trajectory().back().energy,
                 w.document().trajectory(i).points.back().energy);
    }
}

void TestBatchRefine::cancelLeavesTheDocument() {
    MainWindow w;
    QVERIFY(openPoses(w, 10, QStringLiteral("cpu")));
    std::vector<std::vector<Vec3>> start;
    for (const Molecule& m : w.document().ligands())
        start.push_back(coordinatesOf(m));
    const double startAffinity = w.document().score(0)->affinity;
    QSignalSpy finished(w.part<BatchPart>(), &BatchPart::batchRefinementFinished);
    w.part<BatchPart>()->refineAllAction()->trigger();
    QVERIFY(w.cancelAction()->isEnabled());
    w.cancelAction()->trigger(); // the cancel flag every pose of the batch polls
    QVERIFY(finished.wait(120000) || !finished.isEmpty());
    QCOMPARE(finished.front().front().toBool(), false);
    QVERIFY(!w.busy());
    QVERIFY(w.part<BatchPart>()->refineAllAction()->isEnabled());
    QVERIFY2(w.statusBar()->currentMessage().contains(QStringLiteral("cancelled")),
             qPrintable(w.statusBar()->currentMessage()));
    for (size_t i = 0; i < start.size(); ++i)
        QVERIFY(maxDeviation(coordinatesOf(w.document().ligands()[i]), start[i]) < 1e-12);
    QCOMPARE(w.document().score(0)->affinity, startAffinity);
    QCOMPARE(w.undoStack()->count(), 0);
}

void TestBatchRefine::waitsForTheGridMaps() {
    MainWindow w;
    QVERIFY(openPoses(w, 2, QStringLiteral("cpu")));
    // A new scoring function: the grid maps are rebuilt, and the batch waits for them.
    w.document().setScoring(ScoringKind::Vinardo);
    QVERIFY(!w.targetReady());
    bool ok = false;
    QVERIFY(refineAllThroughUi(w, &ok));
    QVERIFY2(ok, qPrintable(w.lastError()));
    QVERIFY(w.targetReady());
    QVERIFY(w.document().score(0).has_value() && w.document().score(1).has_value());
    QVERIFY(w.statusBar()->currentMessage().startsWith(QStringLiteral("Refined 2 ligands")));
}

void TestBatchRefine::gpuRequestSaysWhatRan() {
    MainWindow w;
    QVERIFY(openPoses(w, 2, QStringLiteral("cuda")));
    QCOMPARE(w.document().device(), QStringLiteral("cuda"));
    QCOMPARE(w.part<SimilarityPart>()->panel()->device(),
             QStringLiteral("cuda")); // the same setting
    // The watched single-pose run says it is on the CPU, and where batches go.
    const QString tip = w.part<RefinePart>()->minimizeAction()->toolTip();
    QVERIFY2(tip.contains(QStringLiteral("CPU reference")) &&
                 tip.contains(QStringLiteral("batch refinement uses")),
             qPrintable(tip));
    bool ok = false;
    QVERIFY(refineAllThroughUi(w, &ok));
    QVERIFY2(ok, qPrintable(w.lastError()));
    const QString message = w.statusBar()->currentMessage();
    const QString device = w.deviceLabel()->text().section(QStringLiteral(": "), 1);
    QVERIFY2(!device.isEmpty() && message.contains(QStringLiteral("on ") + device),
             qPrintable(message + " / " + device));
    // Without a usable GPU the batch ran on the CPU and the fallback line is in the message.
    if (device.startsWith(QStringLiteral("CPU")))
        QVERIFY2(message.contains(QStringLiteral("using the CPU")), qPrintable(message));
}

void TestBatchRefine::viewMenuBringsBackEveryDock() {
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    const QList<QDockWidget*> docks = w.findChildren<QDockWidget*>();
    QVERIFY(docks.size() >= 5); // ligands, settings, energy, similarity, overlay
    const QList<QAction*> actions = w.viewMenu()->actions();
    for (QDockWidget* dock : docks) {
        QAction* toggle = dock->toggleViewAction();
        QVERIFY2(actions.contains(toggle), qPrintable(dock->objectName()));
        dock->show();
        QVERIFY(QTest::qWaitFor([&] { return dock->isVisible(); }, 5000));
        dock->close(); // as its title bar's close button does
        QVERIFY(QTest::qWaitFor([&] { return !dock->isVisible(); }, 5000));
        QVERIFY(!toggle->isChecked());
        toggle->trigger();
        QVERIFY2(QTest::qWaitFor([&] { return dock->isVisible(); }, 5000),
                 qPrintable(dock->objectName()));
    }
}

QTEST_MAIN(TestBatchRefine)
#include "test_batchrefine.moc"
