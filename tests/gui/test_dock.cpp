// Qt Test for the Docking part (issue 14, items 2 and 3) on the bundled 1stp example (biotin in
// streptavidin): a dock finds the crystal pose (within 2 Å) while the live view moves the best
// pose and plots the generations, in the app and from the command line (--dock); a cancelled run
// keeps the previous clusters and leaves the app usable; a session with docking results reopens
// with the same clusters; the box dragged in the view equals the docking panel's fields; export
// writes the ranked SDF and Add to ligands appends the poses.
// Budget: the panel's "Quick" budget (population 50, 100 local-search steps, 30,000 evaluations
// per run, BFGS), 10 runs, seed 0: a few seconds on one core.
#include "BoxEditor.h"
#include "DockJob.h"
#include "DockPanel.h"
#include "DockPart.h"
#include "EnergyPlot.h"
#include "ExampleWindow.h"
#include "GuiTestSetup.h"
#include "MainWindow.h"
#include "MoleculeView.h"
#include "RefinePart.h"
#include "ScoringTarget.h"
#include "StartupFiles.h"
#include "TargetBuilder.h"
#include "backend/DeviceSelection.h"
#include "chem/MoleculeReader.h"
#include "dock/SymmetryRmsd.h"

#include <QAbstractButton>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QProcess>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

#include <vtkCamera.h>
#include <vtkRenderer.h>

#include <cmath>
#include <limits>

using namespace pw;

namespace {

constexpr int kDockTimeoutMs = 300000; // a loaded 2-core machine; it takes seconds when idle

// A signal that may already have come.
bool received(QSignalSpy& spy, int timeoutMs) {
    return !spy.isEmpty() || spy.wait(timeoutMs);
}

// Docks with the panel's current settings; the finished signal's ok, or false on time out.
bool dockAndWait(DockPart& part, bool* ok) {
    QSignalSpy finished(&part, &DockPart::dockingFinished);
    part.dock();
    if (!received(finished, kDockTimeoutMs))
        return false;
    *ok = finished.front().front().toBool();
    return true;
}

Molecule crystalLigand() {
    return readMolecule(bundledExampleFiles().ligands.front().toStdString());
}

// Heavy-atom, symmetry-aware RMSD of a pose of the crystal ligand (any atom order) to it.
double rmsdToCrystal(const Molecule& pose) {
    const Molecule crystal = crystalLigand();
    const dock::SymmetryRmsd rmsd(pose, crystal);
    return rmsd.rmsd(coordinatesOf(pose), coordinatesOf(crystal));
}

} // namespace

class TestDock : public QObject {
    Q_OBJECT

private slots:
    void dockingFindsTheCrystalPoseWatchedLive();
    void scriptedDockDrawsTheBestPose();
    void cancelKeepsThePreviousResults();
    void sessionReopensWithTheSameClusters();
    void boxDraggedInTheViewEqualsTheDockingFields();
    void exportAndAddToLigands();
    void mapsAreBuiltWhenNeededAndReused();
    void dockingSharesTheMinimizationGrid();
    void liveViewTakesGenerationsAsTheyCome();
    void refineHandsThePoseToMinimization();
    void refineRefusesAnotherMolecule();
    void cudaWithoutAGpuDocksOnTheCpuAndSaysSo();
    void damagedDockingPieceIsRefusedClearly();
    void resultsStayInViewInA900PixelWindow();
    void smilesLigandHasNoRmsdColumn();
};

void TestDock::dockingFindsTheCrystalPoseWatchedLive() {
    MainWindow w;
    QVERIFY(openExample(w));
    auto* part = w.part<DockPart>();
    QVERIFY(part);
    QVERIFY(part->panel()->mapsLabel()->text().contains(QStringLiteral("next run")));
    bool ok = false;
    QVERIFY(dockAndWait(*part, &ok));
    QVERIFY(ok);
    const DockOutcome& o = part->outcome();
    QVERIFY(!o.empty());
    QCOMPARE(o.runs, 10);
    int members = 0;
    for (size_t k = 0; k < o.poses.size(); ++k) {
        QCOMPARE(o.poses[k].rank, static_cast<int>(k) + 1);
        if (k > 0)
            QVERIFY(o.poses[k].score >= o.poses[k - 1].score);
        members += o.poses[k].clusterSize;
    }
    QCOMPARE(members, 10);
    // The best cluster is the crystal pose: measured by the engine against the loaded ligand and
    // here on the pose the view shows.
    QVERIFY(o.poses.front().rmsdToLoaded);
    QVERIFY2(*o.poses.front().rmsdToLoaded < 2.0,
             qPrintable(QString::number(*o.poses.front().rmsdToLoaded)));
    const double shown = rmsdToCrystal(part->shownPose());
    QVERIFY2(shown < 2.0, qPrintable(QString::number(shown)));
    QVERIFY(std::abs(shown - *o.poses.front().rmsdToLoaded) < 1e-9);
    // The table shows the clusters, the best selected.
    QTableWidget* table = part->panel()->clusterTable();
    QCOMPARE(table->rowCount(), static_cast<int>(o.poses.size()));
    QCOMPARE(part->panel()->selectedRow(), 0);
    QCOMPARE(table->item(0, 1)->text(), QString::number(o.poses.front().score, 'f', 3));
    // ... drawn with its interactions (biotin's crystal pose makes hydrogen bonds).
    QVERIFY(w.moleculeView()->interactionLineCount() > 0);
    // While it ran: the best pose was redrawn and every generation plotted (best <= mean).
    QVERIFY(part->liveRedraws() > 0);
    EnergyPlot* plot = part->panel()->plot();
    QVERIFY(plot->pointCount() > 1);
    QCOMPARE(plot->title(), QStringLiteral("kcal/mol against generation")); // not "iteration"
    for (int g = 0; g < plot->pointCount(); ++g)
        QVERIFY(plot->values(0)[static_cast<size_t>(g)] <= plot->values(1)[static_cast<size_t>(g)]);
    // The maps stay for the next run while the receptor and box do, and the status bar says so.
    QVERIFY(part->panel()->mapsLabel()->text().startsWith(QStringLiteral("Maps ready")));
    QVERIFY(part->mapsStatusLabel()->isVisible());
    QCOMPARE(part->mapsStatusLabel()->text(), QStringLiteral("Docking maps ready (Vina)"));
    QVERIFY(!part->panel()->clusterTable()->isColumnHidden(3));
    QVERIFY(!w.busy());

    // Another receptor opened: the clusters stay, and the panel says they belong to the old one.
    const int clusters = table->rowCount();
    QVERIFY(clusters > 0);
    w.openReceptor(bundledExampleFiles().receptor);
    QVERIFY(settle(w));
    QCOMPARE(static_cast<int>(part->outcome().poses.size()), clusters);
    QCOMPARE(table->rowCount(), clusters);
    auto* progress = part->panel()->findChild<QLabel*>(QStringLiteral("dockProgressLabel"));
    QVERIFY2(progress->text().contains(QStringLiteral("receptor open before")),
             qPrintable(progress->text()));
}

void TestDock::scriptedDockDrawsTheBestPose() {
    const QString app = QStringLiteral(POSEWRIGHT_APP);
    if (app.isEmpty())
        QSKIP("the posewright executable is not part of this build");
    const StartupFiles files = bundledExampleFiles();
    QTemporaryDir dir;
    const QString png = dir.filePath(QStringLiteral("shot.png"));
    const QString session = dir.filePath(QStringLiteral("unused"));
    QProcess p;
    p.start(app, {files.receptor, files.ligands.front(), QStringLiteral("--box"),
                  QFileInfo(files.receptor).absolutePath() + QStringLiteral("/box.txt"),
                  QStringLiteral("--dock"), QStringLiteral("--screenshot"), png,
                  QStringLiteral("--quit")});
    QVERIFY2(p.waitForFinished(kDockTimeoutMs), "posewright did not exit");
    QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0,
             p.readAllStandardError().constData());
    QVERIFY2(!QImage(png).isNull(), "no readable PNG was written");

    // The same in-process, as main() scripts it: the step, then the pose drawn is the best.
    MainWindow w;
    QVERIFY(openExample(w));
    bool done = false, okStep = false;
    QVERIFY(w.runStep(QStringLiteral("dock"), [&](bool ok) {
        done = true;
        okStep = ok;
    }));
    QVERIFY(QTest::qWaitFor([&] { return done; }, kDockTimeoutMs));
    QVERIFY(okStep);
    auto* part = w.part<DockPart>();
    QVERIFY(part->dockWidget()->isVisible());
    QVERIFY(rmsdToCrystal(part->shownPose()) < 2.0);
}

void TestDock::cancelKeepsThePreviousResults() {
    MainWindow w;
    QVERIFY(openExample(w));
    auto* part = w.part<DockPart>();
    DockSettings quick = part->panel()->settings();
    quick.runs = 3;
    part->panel()->setSettings(quick);
    bool ok = false;
    QVERIFY(dockAndWait(*part, &ok));
    QVERIFY(ok);
    const DockOutcome before = part->outcome();
    QVERIFY(!before.empty());

    // A long search (AutoDock-GPU's budget, 50 runs), cancelled once it is seen moving.
    DockSettings full = quick;
    full.quick = false;
    full.runs = 50;
    full.seed = 7;
    part->panel()->setSettings(full);
    QSignalSpy finished(part, &DockPart::dockingFinished);
    part->dock();
    QVERIFY(part->running());
    QVERIFY(!part->panel()->runButton()->isEnabled());
    QVERIFY(QTest::qWaitFor([&] { return part->liveRedraws() > 0; }, kDockTimeoutMs));
    QVERIFY(finished.isEmpty());
    QTest::mouseClick(part->panel()->cancelButton(), Qt::LeftButton);
    QVERIFY(received(finished, kDockTimeoutMs));
    QCOMPARE(finished.front().front().toBool(), false);

    // The previous clusters stay, in the part and in the table.
    const DockOutcome& after = part->outcome();
    QCOMPARE(after.poses.size(), before.poses.size());
    for (size_t k = 0; k < after.poses.size(); ++k) {
        QCOMPARE(after.poses[k].score, before.poses[k].score);
        QCOMPARE(after.poses[k].clusterSize, before.poses[k].clusterSize);
    }
    QCOMPARE(part->panel()->clusterTable()->rowCount(), static_cast<int>(before.poses.size()));
    QVERIFY(QTest::qWaitFor([&] { return !w.busy(); }, 10000));

    // The app is usable: another docking runs to the end.
    QVERIFY(part->panel()->runButton()->isEnabled());
    part->panel()->setSettings(quick);
    QVERIFY(dockAndWait(*part, &ok));
    QVERIFY(ok);
    QCOMPARE(part->outcome().poses.size(), before.poses.size()); // same seed, same settings
    QCOMPARE(part->outcome().poses.front().score, before.poses.front().score);
}

void TestDock::sessionReopensWithTheSameClusters() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("dock.pwsession"));
    DockOutcome saved;
    DockSettings settings;
    const SearchBox box{Vec3(11.5, 1.25, -10.75), Vec3(20.5, 21.0, 22.5)};
    {
        MainWindow w;
        QVERIFY(openExample(w));
        w.document().setBox(box, BoxSource::Typed); // docked in a box of its own
        auto* part = w.part<DockPart>();
        settings = part->panel()->settings();
        settings.runs = 4;
        settings.seed = 3;
        settings.scoring = dock::DockScoring::Vinardo;
        part->panel()->setSettings(settings);
        bool ok = false;
        QVERIFY(dockAndWait(*part, &ok));
        QVERIFY(ok);
        saved = part->outcome();
        QVERIFY(w.saveSession(path));
    }
    MainWindow w;
    w.setErrorDialogsEnabled(false);
    w.show();
    QSignalSpy opened(&w, &MainWindow::sessionOpened);
    w.openSession(path);
    QVERIFY(received(opened, 60000));
    QVERIFY(opened.front().front().toBool());
    auto* part = w.part<DockPart>();
    const DockOutcome& back = part->outcome();
    QCOMPARE(back.poses.size(), saved.poses.size());
    QCOMPARE(back.runs, saved.runs);
    for (size_t k = 0; k < back.poses.size(); ++k) {
        const DockedPose &a = back.poses[k], &b = saved.poses[k];
        QCOMPARE(a.rank, b.rank);
        QCOMPARE(a.score, b.score);
        QCOMPARE(a.clusterSize, b.clusterSize);
        QCOMPARE(a.rmsdToLoaded.has_value(), b.rmsdToLoaded.has_value());
        if (a.rmsdToLoaded)
            QCOMPARE(*a.rmsdToLoaded, *b.rmsdToLoaded);
        QCOMPARE(a.molecule.atoms.size(), b.molecule.atoms.size());
        for (size_t i = 0; i < a.molecule.atoms.size(); ++i) // SDF keeps 4 decimals
            QVERIFY((a.molecule.atoms[i].position - b.molecule.atoms[i].position).norm() < 2e-4);
    }
    QCOMPARE(part->panel()->clusterTable()->rowCount(), static_cast<int>(saved.poses.size()));
    const DockSettings s = part->panel()->settings();
    QCOMPARE(s.runs, 4);
    QCOMPARE(s.seed, std::uint64_t(3));
    QCOMPARE(s.scoring, dock::DockScoring::Vinardo);
    QVERIFY(part->dockWidget()->isVisible());
    // The box it docked in, in the document and the panel's fields.
    QVERIFY(w.document().box());
    for (int k = 0; k < 3; ++k) {
        QCOMPARE(w.document().box()->center[k], box.center[k]);
        QCOMPARE(w.document().box()->size[k], box.size[k]);
        QVERIFY(std::abs(part->panel()->boxEditor()->fieldsBox().size[k] - box.size[k]) < 0.005);
    }
    QVERIFY(!part->panel()->clusterTable()->isColumnHidden(3)); // RMSD to the crystal ligand
    // Selecting a row draws that pose.
    part->panel()->selectRow(static_cast<int>(saved.poses.size()) - 1);
    QCOMPARE(part->shownPose().atoms.size(), saved.poses.back().molecule.atoms.size());
    QVERIFY((part->shownPose().atoms[0].position - saved.poses.back().molecule.atoms[0].position)
                .norm() < 2e-4);
}

void TestDock::boxDraggedInTheViewEqualsTheDockingFields() {
    MainWindow w;
    QVERIFY(openExample(w));
    auto* part = w.part<DockPart>();
    part->dockAction()->trigger();
    QVERIFY(part->dockWidget()->isVisible());
    // The box's fields are folded to a line at first: open them as a user does.
    auto* fold = part->panel()->findChild<QAbstractButton*>(QStringLiteral("dockBoxToggle"));
    QVERIFY(fold);
    QVERIFY(!part->panel()->boxEditor()->isVisible());
    QTest::mouseClick(fold, Qt::LeftButton);
    QVERIFY(part->panel()->boxExpanded());
    QVERIFY(part->panel()->boxEditor()->isVisible());
    BoxEditor* editor = part->panel()->boxEditor();
    auto* toggle = editor->findChild<QAbstractButton*>(QStringLiteral("dragBoxButton"));
    QVERIFY(toggle);
    toggle->click();
    MoleculeView* view = w.moleculeView();
    QVERIFY(view->boxEditable());
    QVERIFY(drawnAgain(*view));

    // Drag the face seen most edge-on outwards (as test_boxeditor does with the settings' fields).
    const SearchBox before = *w.document().box();
    const FaceDrag drag = edgeOnFace(*view, before);
    const int axis = drag.axis;
    QVERIFY(view->rect().contains(drag.handle));
    pressAndDrag(view, drag);
    release(view, drag);

    const SearchBox after = *w.document().box();
    QVERIFY(after.size[axis] > before.size[axis] + 1.0);
    const SearchBox fields = editor->fieldsBox();
    for (int k = 0; k < 3; ++k) {
        QVERIFY(std::abs(fields.center[k] - after.center[k]) <= 0.0005 + 1e-9);
        QVERIFY(std::abs(fields.size[k] - after.size[k]) <= 0.005 + 1e-9);
    }
    // The folded line names the new box too.
    QVERIFY2(fold->text().contains(QString::number(after.size[axis], 'f', 1)),
             qPrintable(fold->text()));
    // The maps of the old box are not reused for the new one.
    QVERIFY(part->panel()->mapsLabel()->text().contains(QStringLiteral("next run")));
}

void TestDock::exportAndAddToLigands() {
    MainWindow w;
    QVERIFY(openExample(w));
    auto* part = w.part<DockPart>();
    DockSettings s = part->panel()->settings();
    s.runs = 3;
    part->panel()->setSettings(s);
    bool ok = false;
    QVERIFY(dockAndWait(*part, &ok));
    QVERIFY(ok);
    const DockOutcome& o = part->outcome();
    QTemporaryDir dir;

    // Export: the CLI's ranked SDF, its SD tags, best first; a bad path fails cleanly.
    const QString sdf = dir.filePath(QStringLiteral("docked.sdf"));
    QVERIFY(part->exportTo(sdf));
    const std::vector<Molecule> written = readMolecules(sdf.toStdString());
    QCOMPARE(written.size(), o.poses.size());
    auto tag = [](const Molecule& m, const std::string& key) {
        for (const auto& [k, v] : m.properties)
            if (k == key)
                return QString::fromStdString(v);
        return QString();
    };
    for (size_t k = 0; k < written.size(); ++k) {
        QCOMPARE(tag(written[k], "cluster").toInt(), o.poses[k].rank);
        QVERIFY(std::abs(tag(written[k], "dock_score").toDouble() - o.poses[k].score) < 1e-3);
    }
    QVERIFY(!part->exportTo(dir.filePath(QStringLiteral("missing/folder/x.sdf"))));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{QStringLiteral("docked.sdf")});

    // Add to ligands: the poses follow the ligand that was there, which keeps its place.
    const size_t ligands = w.document().ligands().size();
    const QStringList pathsBefore = w.document().ligandPaths();
    const Molecule original = w.document().ligands().front();
    const std::optional<VinaScore> originalScore = w.document().score(0);
    QVERIFY(originalScore); // scored when the example settled: it must survive the add and undo
    const int undoSteps = w.undoStack()->count();
    const QString added = dir.filePath(QStringLiteral("added.sdf"));
    QVERIFY(part->addToLigands(added));
    auto checkAdded = [&] {
        QCOMPARE(w.document().ligands().size(), ligands + o.poses.size());
        QCOMPARE(w.document().activeLigand(), static_cast<int>(ligands));
        QCOMPARE(w.document().ligandPaths().back(), added);
        const Molecule& first = w.document().ligands()[ligands];
        QCOMPARE(first.atoms.size(), o.poses.front().molecule.atoms.size());
        QVERIFY((first.atoms[0].position - o.poses.front().molecule.atoms[0].position).norm() <
                2e-4);
        QVERIFY(w.document().score(0));
        QCOMPARE(w.document().score(0)->affinity, originalScore->affinity);
    };
    checkAdded();
    if (QTest::currentTestFailed())
        return;

    // One undo step: undo gives back the list as it was (the same ligand, its score, its file,
    // active), redo adds the poses again.
    QCOMPARE(w.undoStack()->count(), undoSteps + 1);
    QVERIFY(w.undoStack()->canUndo());
    w.undoStack()->undo();
    QCOMPARE(w.document().ligands().size(), ligands);
    QCOMPARE(w.document().ligandPaths(), pathsBefore);
    QCOMPARE(w.document().activeLigand(), 0);
    QCOMPARE(w.document().ligands().front().atoms.size(), original.atoms.size());
    for (size_t i = 0; i < original.atoms.size(); ++i)
        QCOMPARE(w.document().ligands().front().atoms[i].position, original.atoms[i].position);
    QVERIFY(w.document().score(0));
    QCOMPARE(w.document().score(0)->affinity, originalScore->affinity);
    w.undoStack()->redo();
    checkAdded();
}

void TestDock::mapsAreBuiltWhenNeededAndReused() {
    MainWindow w;
    QVERIFY(openExample(w));
    auto* part = w.part<DockPart>();
    DockSettings s = part->panel()->settings();
    s.runs = 2;
    s.scoring = dock::DockScoring::Ad4; // maps built by the engine from the charged receptor
    part->panel()->setSettings(s);
    QCOMPARE(part->maps().builds(), 0);
    bool ok = false;
    QVERIFY(dockAndWait(*part, &ok));
    QVERIFY(ok);
    QCOMPARE(part->maps().builds(), 1);
    QVERIFY(!part->outcome().empty());
    QVERIFY(std::isfinite(part->outcome().poses.front().score));
    QVERIFY(part->panel()->mapsLabel()->text().startsWith(QStringLiteral("Maps ready (AutoDock 4)")));
    // ... and kept on disk for later sessions (Qt's test-mode cache folder here).
    const QDir cache(QString::fromStdString(DockMaps::appAd4CacheDirectory()));
    QVERIFY(cache.absolutePath().contains(QStringLiteral("posewright/ad4maps")));
    bool kept = false;
    for (const QString& entry : cache.entryList(QDir::Dirs | QDir::NoDotAndDotDot))
        kept = kept || QFile::exists(cache.filePath(entry + QStringLiteral("/posewright.sum")));
    QVERIFY(kept);
    // The same receptor, box and scoring: the maps are reused.
    QVERIFY(dockAndWait(*part, &ok));
    QVERIFY(ok);
    QCOMPARE(part->maps().builds(), 1);
    // Another scoring needs its own maps, built at the next run.
    s.scoring = dock::DockScoring::Vina;
    part->panel()->setSettings(s);
    QVERIFY(part->panel()->mapsLabel()->text().contains(QStringLiteral("next run")));
    QVERIFY(dockAndWait(*part, &ok));
    QVERIFY(ok);
    QCOMPARE(part->maps().builds(), 2);
}

// Vina docking on the document's receptor and box uses the very grid minimization built (one
// place builds them: buildScoringTarget), not a second one of its own.
void TestDock::dockingSharesTheMinimizationGrid() {
    MainWindow w;
    QVERIFY(openExample(w)); // settled: the minimization's target is ready
    const std::shared_ptr<const ScoringTarget> minimizing = w.targets().current();
    QVERIFY(minimizing && minimizing->target && minimizing->kind == ScoringKind::Vina);
    const long grids = scoringGridBuilds();
    auto* part = w.part<DockPart>();
    DockSettings s = part->panel()->settings();
    s.runs = 2;
    s.scoring = dock::DockScoring::Vina;
    part->panel()->setSettings(s);
    bool ok = false;
    QVERIFY(dockAndWait(*part, &ok));
    QVERIFY(ok);
    QCOMPARE(scoringGridBuilds(), grids); // no grid built for docking
    const std::shared_ptr<const dock::DockTarget> docked = part->maps().current();
    QVERIFY(docked && docked->vina);
    QCOMPARE(docked->vina.get(), minimizing->target.get());
    // Vinardo docking needs a grid of its own: one more build, and the next run reuses it.
    s.scoring = dock::DockScoring::Vinardo;
    part->panel()->setSettings(s);
    QVERIFY(dockAndWait(*part, &ok));
    QVERIFY(ok);
    QCOMPARE(scoringGridBuilds(), grids + 1);
    QVERIFY(dockAndWait(*part, &ok));
    QCOMPARE(scoringGridBuilds(), grids + 1);
}

// The GPU reports what it sees every ~30 ms: generations may be missing and runs interleave. The
// live view keeps one point per reported generation, in order, best over runs and mean of means.
void TestDock::liveViewTakesGenerationsAsTheyCome() {
    DockWatch watch;
    auto report = [&](int run, long generation, double best, double mean) {
        dock::GenerationReport r;
        r.run = run;
        r.generation = generation;
        r.bestEnergy = best;
        r.meanEnergy = mean;
        watch.record(r);
    };
    report(0, 3, -5.0, -1.0);
    report(1, 7, -6.0, -2.0);
    report(1, 3, -4.0, -3.0);
    report(0, 1, -2.0, 0.0);
    DockWatch::Snapshot s;
    QVERIFY(watch.changedSince(0, &s));
    QCOMPARE(s.generation, (std::vector<long>{1, 3, 7}));
    QCOMPARE(s.best, (std::vector<double>{-2.0, -5.0, -6.0}));
    QCOMPARE(s.mean, (std::vector<double>{0.0, -2.0, -2.0}));
    QCOMPARE(s.bestEnergy, std::numeric_limits<double>::infinity()); // no pose was handed over
    QVERIFY(!watch.changedSince(s.version, &s));
}

void TestDock::refineHandsThePoseToMinimization() {
    MainWindow w;
    QVERIFY(openExample(w));
    auto* part = w.part<DockPart>();
    auto* refine = w.part<RefinePart>();
    QVERIFY(refine);
    DockSettings s = part->panel()->settings();
    s.runs = 3;
    part->panel()->setSettings(s);
    bool ok = false;
    QVERIFY(dockAndWait(*part, &ok));
    QVERIFY(ok);
    const Molecule docked = part->outcome().poses.front().molecule;
    QSignalSpy minimized(refine, &RefinePart::minimizationFinished);
    auto* button = part->panel()->findChild<QPushButton*>(QStringLiteral("dockRefineButton"));
    QVERIFY(button && button->isEnabled());
    QTest::mouseClick(button, Qt::LeftButton);
    QVERIFY(received(minimized, kDockTimeoutMs));
    QVERIFY(minimized.front().front().toBool());
    // The ligand is the docked molecule now, minimized from the docked pose: near it, scored.
    const Molecule& ligand = w.document().ligands()[static_cast<size_t>(w.document().activeLigand())];
    QCOMPARE(ligand.atoms.size(), docked.atoms.size());
    const dock::SymmetryRmsd rmsd(ligand);
    const double moved = rmsd.rmsd(coordinatesOf(ligand), coordinatesOf(docked));
    QVERIFY2(moved < 1.5, qPrintable(QString::number(moved)));
    QVERIFY(w.document().score(w.document().activeLigand()).has_value());
}

// Docked biotin, then another ligand opened: Refine would put biotin in caffeine's place. It says
// why it does not, and leaves the ligand, the undo history and the jobs as they were.
void TestDock::refineRefusesAnotherMolecule() {
    MainWindow w;
    QVERIFY(openExample(w));
    auto* part = w.part<DockPart>();
    DockSettings s = part->panel()->settings();
    s.runs = 2;
    part->panel()->setSettings(s);
    bool ok = false;
    QVERIFY(dockAndWait(*part, &ok));
    QVERIFY(ok);
    QTemporaryDir dir;
    const QString smi = dir.filePath(QStringLiteral("caffeine.smi"));
    {
        QFile f(smi);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("Cn1cnc2c1c(=O)n(C)c(=O)n2C caffeine\n");
    }
    w.openLigands({smi});
    QVERIFY(settle(w));
    QCOMPARE(w.document().ligands().size(), size_t(1));
    const Molecule caffeine = w.document().ligands().front();
    QCOMPARE(caffeine.heavyAtomCount(), 14);
    QCOMPARE(part->panel()->clusterTable()->rowCount(),
             static_cast<int>(part->outcome().poses.size()));
    const int undoSteps = w.undoStack()->count();
    auto* button = part->panel()->findChild<QPushButton*>(QStringLiteral("dockRefineButton"));
    QVERIFY(button && button->isEnabled());
    QTest::mouseClick(button, Qt::LeftButton);
    QVERIFY2(w.lastError().contains(QStringLiteral("not the docked molecule")),
             qPrintable(w.lastError()));
    QCOMPARE(w.undoStack()->count(), undoSteps);
    QVERIFY(!w.busy());
    QCOMPARE(w.document().ligands().front().atoms.size(), caffeine.atoms.size());
    QCOMPARE(w.document().ligands().front().heavyAtomCount(), 14);
}

void TestDock::cudaWithoutAGpuDocksOnTheCpuAndSaysSo() {
    if (!cudaDevices().empty())
        QSKIP("a CUDA device is usable here: no fallback to see");
    MainWindow w;
    QVERIFY(openExample(w));
    auto* part = w.part<DockPart>();
    DockSettings s = part->panel()->settings();
    s.runs = 2;
    s.device = QStringLiteral("cuda");
    part->panel()->setSettings(s);
    bool ok = false;
    QVERIFY(dockAndWait(*part, &ok));
    QVERIFY(ok);
    QVERIFY(!part->outcome().empty());
    QVERIFY(part->outcome().device.startsWith(QStringLiteral("CPU")));
    auto* progress = part->panel()->findChild<QLabel*>(QStringLiteral("dockProgressLabel"));
    QVERIFY2(progress->text().contains(QStringLiteral("using the CPU")),
             qPrintable(progress->text()));
}

void TestDock::damagedDockingPieceIsRefusedClearly() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("damaged.pwsession"));
    {
        MainWindow w;
        QVERIFY(openExample(w));
        QVERIFY(w.saveSession(path));
    }
    // Two clusters said, one pose given.
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QJsonObject root = QJsonDocument::fromJson(f.readAll()).object();
    f.close();
    QJsonObject parts = root[QStringLiteral("parts")].toObject();
    parts[QStringLiteral("dock")] = QJsonObject{
        {"results",
         QJsonObject{{"clusters", QJsonArray{QJsonObject{{"rank", 1}}, QJsonObject{{"rank", 2}}}},
                     {"poses_sdf", QStringLiteral("x\n\n\n  0  0  0  0  0  0  0  0  0  0999 "
                                                  "V2000\nM  END\n$$$$\n")}}}};
    root[QStringLiteral("parts")] = parts;
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(QJsonDocument(root).toJson());
    f.close();

    MainWindow w;
    w.setErrorDialogsEnabled(false);
    w.show();
    QSignalSpy opened(&w, &MainWindow::sessionOpened);
    w.openSession(path);
    QVERIFY(received(opened, 60000));
    // The session's molecules are there; the docking piece is refused, saying what and where.
    QVERIFY(w.document().hasReceptor());
    QVERIFY2(w.lastError().contains(QStringLiteral("parts.dock.results")),
             qPrintable(w.lastError()));
    QVERIFY(w.part<DockPart>()->outcome().empty());
    QCOMPARE(w.part<DockPart>()->panel()->clusterTable()->rowCount(), 0);
}

// The README's layout: a 1280 x 900 window with the Docking panel shown keeps the whole panel
// without scrolling and the cluster table at least seven rows high, nine here (the settings
// fold; the table takes the larger share of a splitter with the plot).
void TestDock::resultsStayInViewInA900PixelWindow() {
    MainWindow w;
    QVERIFY(openExample(w));
    w.resize(1280, 900);
    auto* part = w.part<DockPart>();
    part->dockAction()->trigger();
    QVERIFY(part->dockWidget()->isVisible());
    DockSettings s = part->panel()->settings();
    s.runs = 3;
    part->panel()->setSettings(s);
    bool ok = false;
    QVERIFY(dockAndWait(*part, &ok));
    QVERIFY(ok);
    QTableWidget* table = part->panel()->clusterTable();
    QVERIFY(table->rowCount() > 0);
    QTRY_COMPARE_WITH_TIMEOUT(w.height(), 900, 10000);
    auto* scroll = qobject_cast<QScrollArea*>(part->dockWidget()->widget());
    QVERIFY(scroll);
    QTRY_COMPARE_WITH_TIMEOUT(scroll->verticalScrollBar()->maximum(), 0, 10000);
    const int rowHeight = table->rowHeight(0);
    QVERIFY(rowHeight > 0);
    QTRY_VERIFY2_WITH_TIMEOUT(table->viewport()->height() >= 7 * rowHeight,
                              qPrintable(QStringLiteral("table %1 px, rows of %2 px")
                                             .arg(table->viewport()->height())
                                             .arg(rowHeight)),
                              10000);
    qInfo("1280 x 900: the cluster table is %d px high, rows of %d px", table->viewport()->height(),
          rowHeight);
    // Opening the box's fields still leaves room for the best clusters.
    part->panel()->setBoxExpanded(true);
    QTRY_VERIFY_WITH_TIMEOUT(table->viewport()->height() >= 3 * rowHeight, 10000);
}

// A ligand read from SMILES has coordinates RDKit made up: no RMSD is claimed against them.
void TestDock::smilesLigandHasNoRmsdColumn() {
    QTemporaryDir dir;
    const QString smi = dir.filePath(QStringLiteral("biotin.smi"));
    {
        QFile f(smi);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("OC(=O)CCCC[C@@H]1SC[C@@H]2NC(=O)N[C@H]12 biotin\n");
    }
    MainWindow w;
    QVERIFY(openExample(w));
    w.openLigands({smi});
    QVERIFY(settle(w));
    QCOMPARE(w.document().ligands().size(), size_t(1));
    QCOMPARE(QString::fromStdString(w.document().ligands().front().sourceFile), smi);
    auto* part = w.part<DockPart>();
    DockSettings s = part->panel()->settings();
    s.runs = 2;
    part->panel()->setSettings(s);
    bool ok = false;
    QVERIFY(dockAndWait(*part, &ok));
    QVERIFY(ok);
    QVERIFY(!part->outcome().empty());
    for (const DockedPose& p : part->outcome().poses)
        QVERIFY(!p.rmsdToLoaded);
    QVERIFY(part->panel()->clusterTable()->isColumnHidden(3));
}

QTEST_MAIN(TestDock)
#include "test_dock.moc"
