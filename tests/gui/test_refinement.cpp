// Qt Test for refinement in the main window, on the bundled 1stp example: the Minimize action runs
// on a worker and streams frames, ends at the CPU reference's energy, is one undo step, can be
// cancelled midway, replays in the player; sessions and SDF export keep poses and energies.
#include "EnergyPlot.h"
#include "GuiTestSetup.h"
#include "MainWindow.h"
#include "MinimizeJob.h"
#include "MoleculeView.h"
#include "RefinePart.h"
#include "SettingsPanel.h"
#include "StartupFiles.h"
#include "TrajectoryPlayer.h"
#include "ViewEnvironment.h"
#include "chem/LigandPreparation.h"
#include "chem/MoleculeReader.h"
#include "chem/ReceptorPreparation.h"
#include "score/DockingTarget.h"

#include <QAction>
#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QMessageBox>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

#include <ctime>

#include <cmath>

using namespace pw;

namespace {

double maxDeviation(const std::vector<Vec3>& a, const std::vector<Vec3>& b) {
    if (a.size() != b.size())
        return 1e9;
    double d = 0;
    for (size_t i = 0; i < a.size(); ++i)
        d = std::max(d, (a[i] - b[i]).norm());
    return d;
}

int countNonBackground(const QImage& image) {
    const QColor bg = MoleculeView::backgroundColor();
    int n = 0;
    for (int y = 0; y < image.height(); y += 2)
        for (int x = 0; x < image.width(); x += 2) {
            const QRgb c = image.pixel(x, y);
            n += std::abs(qRed(c) - bg.red()) + std::abs(qGreen(c) - bg.green()) +
                             std::abs(qBlue(c) - bg.blue()) >
                         18
                     ? 1
                     : 0;
        }
    return n;
}

// Opens the example and waits until its grid maps are built and the ligand is scored.
bool openExample(MainWindow& w, const StartupFiles& files) {
    w.show();
    if (!QTest::qWaitForWindowExposed(&w))
        return false;
    w.openReceptor(files.receptor);
    w.openLigands(files.ligands);
    return QTest::qWaitFor([&] { return w.pendingLoads() == 0 && w.targetReady() && !w.busy(); },
                           120000) &&
           w.document().score(0).has_value();
}

bool minimizeThroughUi(MainWindow& w, int paceMs, bool* ok = nullptr) {
    w.settingsPanel()->setLivePaceMs(paceMs);
    QSignalSpy finished(w.part<RefinePart>(), &RefinePart::minimizationFinished);
    w.part<RefinePart>()->minimizeAction()->trigger();
    if (!finished.wait(120000) && finished.isEmpty())
        return false;
    if (ok)
        *ok = finished.front().front().toBool();
    return true;
}

// Times the events the GUI thread handles, rendering (paint, window composition, expose) apart
// from the rest; nested rendering is subtracted from the event it ran inside.
struct EventTimer {
    static EventTimer& instance() {
        static EventTimer t;
        return t;
    }
    void reset() { *this = EventTimer{}; }
    double rendering = 0; // ms, running total
    double worstWork = 0, worstRendering = 0;
    int worstType = 0;
    QByteArray worstReceiver;
    const char* phase = "";
    const char* worstPhase = "";
    long events = 0;
};

double threadCpuMs() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

class TimedApplication : public QApplication {
public:
    using QApplication::QApplication;
    bool notify(QObject* receiver, QEvent* event) override {
        const QEvent::Type type = event->type();
        const bool rendering = type == QEvent::Paint || type == QEvent::UpdateRequest ||
                               type == QEvent::Expose || type == QEvent::UpdateLater;
        EventTimer& t = EventTimer::instance();
        const double renderingBefore = t.rendering;
        // The GUI thread's own CPU time, not wall time: CI runs suites in parallel on two cores,
        // and time spent preempted is not work the app does on its GUI thread.
        const double start = threadCpuMs();
        const bool result = QApplication::notify(receiver, event);
        const double ms = threadCpuMs() - start;
        ++t.events;
        if (rendering) {
            t.worstRendering = std::max(t.worstRendering, ms);
            t.rendering = renderingBefore + ms; // nested rendering is inside ms already
        } else if (ms - (t.rendering - renderingBefore) > t.worstWork) {
            t.worstWork = ms - (t.rendering - renderingBefore);
            t.worstType = type;
            t.worstReceiver = receiver->metaObject()->className();
            t.worstPhase = t.phase;
        }
        return result;
    }
};

} // namespace

class TestRefinement : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void minimizeReachesTheCpuReference();
    void cancelMidwayLeavesTheDocument();
    void playerReplaysTheTrajectory();
    void sessionRoundTripKeepsPosesAndEnergies();
    void exportWritesScoresAsSdTags();
    void brokenSessionShowsErrorAndKeepsDocument();
    void termCurvesToggleFromTheTable();
    void cancelledSessionKeepsTheDocument();
    void guiThreadNeverStalls();

private:
    StartupFiles example_;
    double referenceAffinity_ = 0;
    std::vector<Vec3> referenceCoords_;
    int referenceIterations_ = 0;
};

void TestRefinement::initTestCase() {
    example_ = bundledExampleFiles();
    QVERIFY2(!example_.receptor.isEmpty(), "bundled example resources/examples/1stp not found");
    // The CPU reference: refinePose directly, with the options the app uses.
    const std::string dir = bundledExampleDir().toStdString() + "/";
    const Molecule receptor = prepareReceptor(readMolecule(dir + "receptor.pdbqt"));
    DockingTarget target(receptor, readBoxConfig(dir + "box.txt"), ScoringKind::Vina, 1);
    const ReceptorGrid& grid = target.gridFor(DockingTarget::commonLigandTypes());
    const Molecule ligand = prepareLigand(readMolecule(dir + "ligand.pdbqt"));
    LigandScorer mover(ligand, target.scoring(), target.receptor(), &grid);
    LigandScorer exact(ligand, target.scoring(), target.receptor());
    const RefinementResult r = refinePose(ligand, mover, exact, appRefinementOptions());
    referenceAffinity_ = r.score.affinity;
    referenceCoords_ = r.coordinates;
    referenceIterations_ = r.iterations;
    QVERIFY(r.iterations > 1);
    QVERIFY(r.score.affinity < r.start.affinity);
}

void TestRefinement::minimizeReachesTheCpuReference() {
    MainWindow w;
    QVERIFY(openExample(w, example_));
    const std::vector<Vec3> start = coordinatesOf(w.document().ligands()[0]);
    const double startAffinity = w.document().score(0)->affinity;
    const int undoBefore = w.undoStack()->count();

    bool ok = false;
    QVERIFY(minimizeThroughUi(w, 0, &ok));
    QVERIFY2(ok, qPrintable(w.lastError()));
    QVERIFY(!w.busy());

    // The engine's numbers, through the UI: same energy and pose as refinePose directly.
    const auto& score = w.document().score(0);
    QVERIFY(score.has_value());
    qInfo("app %.6f reference %.6f (start %.3f) after %d steps, %zu frames", score->affinity,
          referenceAffinity_, startAffinity, referenceIterations_,
          w.part<RefinePart>()->trajectory().size());
    QVERIFY(std::abs(score->affinity - referenceAffinity_) < 1e-6);
    QVERIFY(maxDeviation(coordinatesOf(w.document().ligands()[0]), referenceCoords_) < 1e-6);
    QVERIFY(score->affinity < startAffinity);
    // Live frames: one per accepted step plus the start, all plotted.
    QVERIFY(w.part<RefinePart>()->trajectory().size() > 1);
    QCOMPARE(static_cast<int>(w.part<RefinePart>()->trajectory().size()), referenceIterations_ + 1);
    QCOMPARE(w.part<RefinePart>()->energyPlot()->pointCount(),
             static_cast<int>(w.part<RefinePart>()->trajectory().size()));
    QVERIFY(w.part<RefinePart>()->energyPlot()->values(0).back() <
            w.part<RefinePart>()->energyPlot()->values(0).front());
    // The status bar and the table show the new affinity.
    QCOMPARE(w.part<RefinePart>()->termTable()->item(0, 1)->text(),
             QString::number(score->affinity, 'f', 3));

    // The view shows the pocket, and the pose's hydrogen bonds (biotin makes several).
    MoleculeView* view = w.moleculeView();
    const int frames = view->framesRendered();
    view->update();
    QVERIFY(QTest::qWaitFor([&] { return view->framesRendered() > frames; }, 10000));
    const QImage image = view->grabImage().convertToFormat(QImage::Format_RGB32);
    QVERIFY(countNonBackground(image) > image.width() * image.height() / 4 / 10);
    QVERIFY(view->interactionLineCount() >= 3);

    // One undo step brings back the pose (and score) from before; redo the minimized one.
    QCOMPARE(w.undoStack()->count(), undoBefore + 1);
    w.undoStack()->undo();
    QVERIFY(maxDeviation(coordinatesOf(w.document().ligands()[0]), start) < 1e-9);
    QVERIFY(std::abs(w.document().score(0)->affinity - startAffinity) < 1e-9);
    w.undoStack()->redo();
    QVERIFY(maxDeviation(coordinatesOf(w.document().ligands()[0]), referenceCoords_) < 1e-6);
}

void TestRefinement::cancelMidwayLeavesTheDocument() {
    MainWindow w;
    QVERIFY(openExample(w, example_));
    const std::vector<Vec3> start = coordinatesOf(w.document().ligands()[0]);
    const double startAffinity = w.document().score(0)->affinity;
    // Paced so that it is still running when the first frames have been shown.
    w.settingsPanel()->setLivePaceMs(40);
    QSignalSpy finished(w.part<RefinePart>(), &RefinePart::minimizationFinished);
    w.part<RefinePart>()->minimizeAction()->trigger();
    QVERIFY(w.busy());
    QVERIFY(!w.part<RefinePart>()->minimizeAction()->isEnabled());
    QVERIFY(w.cancelAction()->isEnabled());
    QVERIFY(QTest::qWaitFor([&] { return w.part<RefinePart>()->energyPlot()->pointCount() >= 3; },
                            60000));
    QVERIFY2(finished.isEmpty(), "the paced minimization ended before it could be cancelled");
    w.cancelAction()->trigger();
    QVERIFY(finished.wait(60000) || !finished.isEmpty());
    QCOMPARE(finished.front().front().toBool(), false);
    QVERIFY(!w.busy());
    QVERIFY(w.part<RefinePart>()->minimizeAction()->isEnabled());
    QVERIFY(w.part<RefinePart>()->trajectory().size() <
            static_cast<size_t>(referenceIterations_ + 1));
    // Nothing was committed: same pose, same score, nothing to undo.
    QVERIFY(maxDeviation(coordinatesOf(w.document().ligands()[0]), start) < 1e-12);
    QCOMPARE(w.document().score(0)->affinity, startAffinity);
    QCOMPARE(w.undoStack()->count(), 0);
    // And a new run still works to the end.
    bool ok = false;
    QVERIFY(minimizeThroughUi(w, 0, &ok));
    QVERIFY(ok);
    QVERIFY(std::abs(w.document().score(0)->affinity - referenceAffinity_) < 1e-6);
}

void TestRefinement::playerReplaysTheTrajectory() {
    MainWindow w;
    QVERIFY(openExample(w, example_));
    bool ok = false;
    QVERIFY(minimizeThroughUi(w, 0, &ok));
    QVERIFY(ok);
    TrajectoryPlayer* player = w.part<RefinePart>()->player();
    const int n = static_cast<int>(w.part<RefinePart>()->trajectory().size());
    QCOMPARE(player->frameCount(), n);
    QCOMPARE(player->currentFrame(), n - 1);
    QSignalSpy shown(player, &TrajectoryPlayer::frameChanged);
    player->setCurrentFrame(0);
    QCOMPARE(w.part<RefinePart>()->termTable()->item(0, 1)->text(),
             QString::number(w.part<RefinePart>()->trajectory().front().energy, 'f', 3));
    player->stepForward();
    QCOMPARE(player->currentFrame(), 1);
    QCOMPARE(w.part<RefinePart>()->termTable()->item(0, 1)->text(),
             QString::number(w.part<RefinePart>()->trajectory()[1].energy, 'f', 3));
    // Playing runs to the last frame and stops there.
    player->play();
    QVERIFY(player->playing());
    QVERIFY(QTest::qWaitFor([&] { return !player->playing(); }, 60000));
    QCOMPARE(player->currentFrame(), n - 1);
    QCOMPARE(shown.count(), n); // 0, 1, then 2 .. n-1
}

void TestRefinement::sessionRoundTripKeepsPosesAndEnergies() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("refined.pwsession"));
    std::vector<Vec3> saved;
    double affinity = 0;
    {
        MainWindow w;
        QVERIFY(openExample(w, example_));
        bool ok = false;
        QVERIFY(minimizeThroughUi(w, 0, &ok));
        QVERIFY(ok);
        saved = coordinatesOf(w.document().ligands()[0]);
        affinity = w.document().score(0)->affinity;
        QVERIFY(w.saveSession(path));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{"refined.pwsession"});
    }
    MainWindow w;
    w.show();
    QSignalSpy opened(&w, &MainWindow::sessionOpened);
    w.openSession(path);
    QVERIFY(opened.wait(60000) || !opened.isEmpty());
    QVERIFY2(opened.front().front().toBool(), qPrintable(w.lastError()));
    QVERIFY(w.document().hasReceptor());
    QCOMPARE(w.document().ligands().size(), size_t(1));
    QVERIFY(maxDeviation(coordinatesOf(w.document().ligands()[0]), saved) < 1e-9);
    QVERIFY(std::abs(w.document().score(0)->affinity - affinity) < 1e-9);
    QVERIFY(w.document().box().has_value());
    // Once the grids are rebuilt the pose is rescored: the same energy from scratch.
    QVERIFY(QTest::qWaitFor([&] { return w.targetReady() && !w.busy(); }, 120000));
    QVERIFY(w.document().score(0).has_value());
    QVERIFY(std::abs(w.document().score(0)->affinity - affinity) < 1e-6);
}

void TestRefinement::exportWritesScoresAsSdTags() {
    MainWindow w;
    QVERIFY(openExample(w, example_));
    bool ok = false;
    QVERIFY(minimizeThroughUi(w, 0, &ok));
    QVERIFY(ok);
    QTemporaryDir dir;
    const QString sdf = dir.filePath(QStringLiteral("poses.sdf"));
    QVERIFY(w.exportPoses(sdf));
    const std::vector<Molecule> back = readMolecules(sdf.toStdString());
    QCOMPARE(back.size(), size_t(1));
    const std::string* tag = back[0].property("minimizedAffinity");
    QVERIFY(tag);
    QVERIFY(std::abs(std::stod(*tag) - w.document().score(0)->affinity) < 1e-4);
    QVERIFY(back[0].property("vina_hbond"));
    // Heavy atoms where the minimized pose put them.
    const Molecule& doc = w.document().ligands()[0];
    int matched = 0;
    for (const Atom& a : back[0].atoms)
        for (const Atom& b : doc.atoms)
            matched +=
                a.element != 1 && a.element == b.element && (a.position - b.position).norm() < 1e-3
                    ? 1
                    : 0;
    QCOMPARE(matched, doc.heavyAtomCount());
    // A PNG of the view, written whole.
    const QString png = dir.filePath(QStringLiteral("view.png"));
    QVERIFY(w.exportImage(png));
    QVERIFY(!QImage(png).isNull());
    // Unwritable targets report an error naming the file and leave nothing behind.
    w.setErrorDialogsEnabled(false);
    QVERIFY(!w.exportPoses(dir.filePath(QStringLiteral("missing/dir/poses.sdf"))));
    QVERIFY2(w.lastError().contains(QStringLiteral("missing/dir/poses.sdf")),
             qPrintable(w.lastError()));
}

void TestRefinement::brokenSessionShowsErrorAndKeepsDocument() {
    MainWindow w;
    QVERIFY(openExample(w, example_));
    w.setErrorDialogsEnabled(false);
    const std::vector<Vec3> start = coordinatesOf(w.document().ligands()[0]);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("broken.pwsession"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("{\"format\": \"posewright-session\", \"version\": 1, \"ligands\": [ {\"coordinates\": "
            "[[1, 2]]} ]}");
    f.close();
    QSignalSpy opened(&w, &MainWindow::sessionOpened);
    w.openSession(path);
    QVERIFY(opened.wait(30000) || !opened.isEmpty());
    QCOMPARE(opened.front().front().toBool(), false);
    QVERIFY2(w.lastError().contains(QStringLiteral("broken.pwsession")), qPrintable(w.lastError()));
    QVERIFY2(w.lastError().contains(QStringLiteral("three finite numbers")), qPrintable(w.lastError()));
    QVERIFY(w.document().hasReceptor());
    QCOMPARE(w.document().ligands().size(), size_t(1));
    QVERIFY(maxDeviation(coordinatesOf(w.document().ligands()[0]), start) < 1e-12);
}

void TestRefinement::termCurvesToggleFromTheTable() {
    MainWindow w;
    QVERIFY(openExample(w, example_));
    bool ok = false;
    QVERIFY(minimizeThroughUi(w, 0, &ok));
    QVERIFY(ok);
    QTableWidget* table = w.part<RefinePart>()->termTable();
    EnergyPlot* plot = w.part<RefinePart>()->energyPlot();
    QCOMPARE(plot->title(), QStringLiteral("kcal/mol against iteration"));
    // Every per-term row has a check box that shows its curve; the curve holds that term's values.
    int hbondRow = -1;
    for (int row = 0; row < table->rowCount(); ++row)
        if (table->item(row, 0)->text().trimmed() == QStringLiteral("hbond"))
            hbondRow = row;
    QVERIFY(hbondRow >= 0);
    QTableWidgetItem* item = table->item(hbondRow, 0);
    const int series = item->data(Qt::UserRole).toInt();
    QCOMPARE(series, 1 + HydrogenBond);
    QVERIFY(!plot->seriesVisible(series));
    item->setCheckState(Qt::Checked);
    QVERIFY(plot->seriesVisible(series));
    QCOMPARE(plot->values(series).size(), w.part<RefinePart>()->trajectory().size());
    QCOMPARE(plot->values(series).back(),
             w.part<RefinePart>()->trajectory().back().interTerms[HydrogenBond]);
    // The table shows the committed pose's terms: its hbond is the document score's.
    QCOMPARE(table->item(hbondRow, 1)->text(),
             QString::number(w.document().score(0)->terms.interWeighted[HydrogenBond], 'f', 3));
    item->setCheckState(Qt::Unchecked);
    QVERIFY(!plot->seriesVisible(series));
}

void TestRefinement::cancelledSessionKeepsTheDocument() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("s.pwsession"));
    MainWindow w;
    QVERIFY(openExample(w, example_));
    QVERIFY(w.saveSession(path));
    w.openLigands(QStringLiteral(POSEWRIGHT_TEST_DATA "/shapes/cdk2.sdf"));
    QVERIFY(QTest::qWaitFor([&] { return w.pendingLoads() == 0; }, 30000));
    QCOMPARE(w.document().ligands().size(), size_t(47));
    QSignalSpy opened(&w, &MainWindow::sessionOpened);
    w.openSession(path);
    QVERIFY(w.busy());
    w.cancelAction()->trigger();
    QVERIFY(opened.wait(30000) || !opened.isEmpty());
    QCOMPARE(opened.front().front().toBool(), false);
    QCOMPARE(w.document().ligands().size(), size_t(47)); // not the session's one ligand
    QVERIFY(!w.busy());
}

// Loading, grid building and minimizing run on workers: every event the GUI thread handles
// (slots of queued signals, timers, input) ends within 50 ms. Rendering is measured apart: under
// Xvfb, Mesa's software renderer takes 15-75 ms to paint the view and compose the window (a GPU
// ~1 ms), which says nothing about the application's own work. Both are reported.
void TestRefinement::guiThreadNeverStalls() {
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QTest::qWait(200); // first paint, GL set-up: not what is measured
    EventTimer::instance().reset();
    EventTimer::instance().phase = "opening";
    w.openReceptor(example_.receptor);
    w.openLigands(example_.ligands);
    QVERIFY(QTest::qWaitFor([&] { return w.pendingLoads() == 0 && w.targetReady() && !w.busy(); },
                            120000));
    EventTimer::instance().phase = "minimizing";
    bool ok = false;
    QVERIFY(minimizeThroughUi(w, 0, &ok));
    QVERIFY(ok);
    EventTimer::instance().phase = "replaying";
    w.part<RefinePart>()->player()->play();
    QVERIFY(QTest::qWaitFor([&] { return !w.part<RefinePart>()->player()->playing(); }, 60000));
    const EventTimer& t = EventTimer::instance();
    qInfo("longest event without rendering %.1f ms (type %d to %s while %s); longest rendering "
          "%.1f ms",
          t.worstWork, t.worstType, t.worstReceiver.constData(), t.worstPhase, t.worstRendering);
    QVERIFY2(t.worstWork <= 50.0, qPrintable(QStringLiteral("%1 ms").arg(t.worstWork)));
    QVERIFY(t.events > 100); // the measurement saw the run
}

// QTEST_MAIN with an application that times every event (see guiThreadNeverStalls).
int main(int argc, char** argv) {
    TimedApplication app(argc, argv);
    TestRefinement test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}
#include "test_refinement.moc"
