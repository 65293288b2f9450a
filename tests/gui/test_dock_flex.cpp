// Qt Test for docking with flexible receptor side chains in the app (issue 18 item 3, docking
// panel) on Vina's flexible docking example (tests/data/flex: 1fpu with THR A 315 in the rigid
// file, imatinib, its box; see test_flexresidues): the residue chosen in the Energy panel docks
// with the ligand when the panel's Flexible box is ticked, giving the runs, energies and poses of
// `posewright-cli dock --flex-residues A:THR315` with the same seed and budget; the selected pose
// shows its side chain; a session keeps the side chains; AD4 is refused, a GPU device docks on
// the CPU and says so, a cancelled run keeps the previous results, unticked docks rigid; Refine
// minimizes from the docked side chains, not the receptor's.
// Budget: the panel's "Quick" budget (population 50, 100 local-search steps, 30,000 evaluations
// per run), 2 runs, seed 0: under a second on one core.
#include "DockPanel.h"
#include "DockPart.h"
#include "FlexMinimization.h"
#include "GuiTestSetup.h"
#include "MainWindow.h"
#include "MoleculeView.h"
#include "RefinePart.h"
#include "TargetBuilder.h"
#include "chem/MoleculeReader.h"

#include <QCheckBox>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace pw;

namespace {

constexpr int kDockTimeoutMs = 300000; // a loaded 2-core machine; it takes a second when idle

const QString kFlex = QStringLiteral(POSEWRIGHT_TEST_DATA "/flex/");
const QString kReceptor = kFlex + QStringLiteral("1fpu_receptor_whole.pdbqt");
const QString kLigand = kFlex + QStringLiteral("1iep_ligand.pdbqt");
const QString kBox = kFlex + QStringLiteral("1fpu_receptor.box.txt");
const QString kThr315 = QStringLiteral("A:THR315");
// Another choice than the docked one (THR 315 and a neighbour in the pocket).
const QString kOtherChoice = QStringLiteral("A:THR315,A:LYS271");

// Opens 1fpu, its box and imatinib, and waits until the maps are built and the pose scored.
bool openFlexExample(MainWindow& w) {
    w.setErrorDialogsEnabled(false);
    w.show();
    if (!QTest::qWaitForWindowExposed(&w))
        return false;
    w.openReceptor(kReceptor);
    if (!QTest::qWaitFor([&] { return w.pendingLoads() == 0; }, 120000) || !w.openBoxConfig(kBox))
        return false;
    w.openLigands(kLigand);
    return QTest::qWaitFor(
        [&] {
            return w.pendingLoads() == 0 && w.targetReady() && !w.busy() &&
                   w.document().score(0).has_value();
        },
        180000);
}

bool received(QSignalSpy& spy, int timeoutMs) {
    return !spy.isEmpty() || spy.wait(timeoutMs);
}

bool dockAndWait(DockPart& part, bool* ok) {
    QSignalSpy finished(&part, &DockPart::dockingFinished);
    part.dock();
    if (!received(finished, kDockTimeoutMs))
        return false;
    *ok = finished.front().front().toBool();
    return true;
}

// The panel's Quick budget, `runs` runs, seed 0.
void setQuick(DockPart& part, int runs) {
    DockSettings s = part.panel()->settings();
    s.runs = runs;
    s.seed = 0;
    s.quick = true;
    s.scoring = dock::DockScoring::Vina;
    s.device = QStringLiteral("cpu");
    s.flexible = true;
    part.panel()->setSettings(s);
}

// `posewright-cli dock --flex-residues A:THR315` with the Quick budget: its JSON line (empty on
// failure); the ranked SDF goes to sdfPath.
QJsonObject cliDock(int runs, const QString& jsonPath, const QString& sdfPath) {
    QProcess cli;
    cli.start(QStringLiteral(POSEWRIGHT_CLI), {QStringLiteral("dock"),
                                               QStringLiteral("--receptor"),
                                               kReceptor,
                                               QStringLiteral("--flex-residues"),
                                               kThr315,
                                               QStringLiteral("--ligands"),
                                               kLigand,
                                               QStringLiteral("--box"),
                                               kBox,
                                               QStringLiteral("--runs"),
                                               QString::number(runs),
                                               QStringLiteral("--seed"),
                                               QStringLiteral("0"),
                                               QStringLiteral("--population"),
                                               QString::number(kQuickPopulation),
                                               QStringLiteral("--ls-iterations"),
                                               QString::number(kQuickLocalSearchIterations),
                                               QStringLiteral("--evaluations"),
                                               QString::number(kQuickEvaluationsPerRun),
                                               QStringLiteral("--threads"),
                                               QStringLiteral("1"),
                                               QStringLiteral("--json"),
                                               jsonPath,
                                               QStringLiteral("--out"),
                                               sdfPath});
    if (!cli.waitForFinished(kDockTimeoutMs) || cli.exitStatus() != QProcess::NormalExit ||
        cli.exitCode() != 0) {
        qWarning("%s", cli.readAllStandardError().constData());
        return {};
    }
    QFile f(jsonPath);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll().trimmed()).object();
}

std::vector<Vec3> highlightPositions(const MoleculeView& view) {
    std::vector<Vec3> out;
    for (const MoleculeDrawing& d : view.highlights())
        for (const DrawAtom& a : d.atoms)
            out.emplace_back(a.position[0], a.position[1], a.position[2]);
    return out;
}

// Every drawn side-chain atom is at one of the docked coordinates.
bool drawnAt(const MoleculeView& view, const std::vector<Vec3>& docked) {
    const std::vector<Vec3> drawn = highlightPositions(view);
    if (drawn.empty())
        return false;
    for (const Vec3& p : drawn) {
        bool found = false;
        for (const Vec3& q : docked)
            found = found || (p - q).norm() < 1e-6;
        if (!found)
            return false;
    }
    return true;
}

// The MODEL and atom records of a PDBQT file (the REMARK lines name who wrote it).
QStringList atomLines(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QStringList out;
    for (const QByteArray& line : f.readAll().split('\n'))
        if (line.startsWith("ATOM") || line.startsWith("HETATM") || line.startsWith("MODEL"))
            out << QString::fromLatin1(line);
    return out;
}

} // namespace

class TestDockFlex : public QObject {
    Q_OBJECT

private slots:
    void docksWithTheChosenSideChainsAsTheCli();
    void sessionKeepsTheDockedSideChains();
    void flexibleNeedsVinaAndRunsOnTheCpu();
    void cancelKeepsThePreviousResults();
    void untickedDocksRigid();
    void refineKeepsTheBetterOfTheDockedAndTheReceptorStarts();
    void refineSaysWhenTheChoiceChangedSinceDocking();
};

void TestDockFlex::docksWithTheChosenSideChainsAsTheCli() {
    MainWindow w;
    QVERIFY(openFlexExample(w));
    auto* part = w.part<DockPart>();
    auto* refine = w.part<RefinePart>();
    QVERIFY(part && refine);
    auto* flexible = part->panel()->findChild<QCheckBox*>(QStringLiteral("dockFlexibleBox"));
    QVERIFY(flexible);
    QVERIFY(!flexible->isEnabled()); // nothing chosen yet
    QVERIFY(refine->setFlexResidues(kThr315));
    QVERIFY2(flexible->text().contains(kThr315), qPrintable(flexible->text()));
    QVERIFY(flexible->isEnabled());
    QVERIFY(flexible->isChecked());
    setQuick(*part, 2);
    bool ok = false;
    QVERIFY(dockAndWait(*part, &ok));
    QVERIFY2(ok, qPrintable(w.lastError()));
    const DockOutcome& o = part->outcome();
    QCOMPARE(o.flexResidues, kThr315);
    QCOMPARE(o.poses.size(), size_t(2));
    QVERIFY(part->liveRedraws() > 0); // the live view watched it

    // The CLI, same inputs, seed and budget: the same runs in the same order, the same energies
    // (its JSON prints 6 significant digits) and the same ligand poses (its SDF: 4 decimals).
    QTemporaryDir dir;
    const QString sdf = dir.filePath(QStringLiteral("cli.sdf"));
    const QJsonObject cli = cliDock(2, dir.filePath(QStringLiteral("cli.json")), sdf);
    const QJsonArray poses = cli[QStringLiteral("poses")].toArray();
    QCOMPARE(poses.size(), qsizetype(2));
    const std::vector<Molecule> cliPoses = readMolecules(sdf.toStdString());
    QCOMPARE(cliPoses.size(), size_t(2));
    for (int k = 0; k < 2; ++k) {
        const QJsonObject p = poses[k].toObject();
        const DockedPose& a = o.poses[static_cast<size_t>(k)];
        QCOMPARE(a.run, p[QStringLiteral("run")].toInt());
        const double cliAffinity = p[QStringLiteral("affinity")].toDouble();
        QVERIFY2(std::abs(a.score - cliAffinity) < 1e-4,
                 qPrintable(QStringLiteral("app %1, CLI %2").arg(a.score).arg(cliAffinity)));
        const Molecule& c = cliPoses[static_cast<size_t>(k)];
        QCOMPARE(c.atoms.size(), a.molecule.atoms.size());
        for (size_t i = 0; i < c.atoms.size(); ++i)
            QVERIFY((c.atoms[i].position - a.molecule.atoms[i].position).norm() < 2e-4);
        QVERIFY(!a.flexCoordinates.empty());
    }
    qInfo("best affinity: app %.5f, posewright-cli dock --flex-residues %.5f", o.poses[0].score,
          poses[0].toObject()[QStringLiteral("affinity")].toDouble());

    // The best pose is drawn with its side chain where the docking left it; another row, its own.
    QCOMPARE(part->panel()->selectedRow(), 0);
    QCOMPARE(part->shownSideChains(), o.poses[0].flexCoordinates);
    QVERIFY(drawnAt(*w.moleculeView(), o.poses[0].flexCoordinates));
    part->panel()->selectRow(1);
    QCOMPARE(part->shownSideChains(), o.poses[1].flexCoordinates);
    QVERIFY(drawnAt(*w.moleculeView(), o.poses[1].flexCoordinates));
    // Export: the ranked SDF and, beside it, the side chains as the CLI writes them (its
    // OUT_flex.pdbqt): the same atoms at the same places, model for model.
    const QString exported = dir.filePath(QStringLiteral("app.sdf"));
    QVERIFY(part->exportTo(exported));
    QCOMPARE(DockPart::sideChainsPathFor(exported), dir.filePath(QStringLiteral("app_flex.pdbqt")));
    QCOMPARE(atomLines(dir.filePath(QStringLiteral("app_flex.pdbqt"))),
             atomLines(dir.filePath(QStringLiteral("cli_flex.pdbqt"))));
    QVERIFY(atomLines(dir.filePath(QStringLiteral("app_flex.pdbqt"))).size() > 2);
    // A folder that does not exist: neither file is written.
    QVERIFY(!part->exportTo(dir.filePath(QStringLiteral("missing/x.sdf"))));

    // The side chain moved in at least one run (its torsions were searched).
    bool moved = false;
    for (const DockedPose& p : o.poses)
        for (size_t i = 0; i < p.flexCoordinates.size(); ++i)
            moved = moved || (p.flexCoordinates[i] - o.poses[0].flexCoordinates[i]).norm() > 0.1;
    QVERIFY(moved);
}

void TestDockFlex::sessionKeepsTheDockedSideChains() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("flexdock.pwsession"));
    DockOutcome saved;
    {
        MainWindow w;
        QVERIFY(openFlexExample(w));
        QVERIFY(w.part<RefinePart>()->setFlexResidues(kThr315));
        auto* part = w.part<DockPart>();
        setQuick(*part, 2);
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
    QCOMPARE(back.flexResidues, kThr315);
    QCOMPARE(back.poses.size(), saved.poses.size());
    for (size_t k = 0; k < back.poses.size(); ++k) {
        QCOMPARE(back.poses[k].score, saved.poses[k].score);
        QCOMPARE(back.poses[k].flexCoordinates, saved.poses[k].flexCoordinates);
    }
    QVERIFY(part->panel()->settings().flexible);
    // Once the receptor is prepared, a row draws its side chain from the session's coordinates.
    QVERIFY(QTest::qWaitFor([&] { return w.targetReady() && !w.busy(); }, 180000));
    part->panel()->selectRow(1);
    QCOMPARE(part->shownSideChains(), saved.poses[1].flexCoordinates);
    QVERIFY(drawnAt(*w.moleculeView(), saved.poses[1].flexCoordinates));

    // A side-chain entry that is not x, y, z numbers is refused, saying where.
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QJsonObject root = QJsonDocument::fromJson(f.readAll()).object();
    f.close();
    QJsonObject parts = root[QStringLiteral("parts")].toObject();
    QJsonObject piece = parts[QStringLiteral("dock")].toObject();
    QJsonObject results = piece[QStringLiteral("results")].toObject();
    QJsonArray clusters = results[QStringLiteral("clusters")].toArray();
    QJsonObject first = clusters[0].toObject();
    first[QStringLiteral("flex")] = QJsonArray{1.0, 2.0};
    clusters[0] = first;
    results[QStringLiteral("clusters")] = clusters;
    piece[QStringLiteral("results")] = results;
    parts[QStringLiteral("dock")] = piece;
    root[QStringLiteral("parts")] = parts;
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(QJsonDocument(root).toJson());
    f.close();
    MainWindow damaged;
    damaged.setErrorDialogsEnabled(false);
    damaged.show();
    QSignalSpy reopened(&damaged, &MainWindow::sessionOpened);
    damaged.openSession(path);
    QVERIFY(received(reopened, 60000));
    QVERIFY2(damaged.lastError().contains(QStringLiteral("\"flex\"")),
             qPrintable(damaged.lastError()));
    QVERIFY(damaged.part<DockPart>()->outcome().empty());
}

void TestDockFlex::flexibleNeedsVinaAndRunsOnTheCpu() {
    MainWindow w;
    QVERIFY(openFlexExample(w));
    QVERIFY(w.part<RefinePart>()->setFlexResidues(kThr315));
    auto* part = w.part<DockPart>();
    setQuick(*part, 1);
    DockSettings s = part->panel()->settings();
    s.scoring = dock::DockScoring::Ad4;
    part->panel()->setSettings(s);
    bool ok = true;
    QVERIFY(dockAndWait(*part, &ok));
    QVERIFY(!ok);
    QVERIFY2(w.lastError().contains(QStringLiteral("Vina or Vinardo")), qPrintable(w.lastError()));
    QVERIFY(part->outcome().empty());
    QVERIFY(QTest::qWaitFor([&] { return !w.busy(); }, 10000));

    // A GPU asked for: the side chains dock on the CPU, and the progress line says so.
    s.scoring = dock::DockScoring::Vinardo;
    s.device = QStringLiteral("cuda");
    part->panel()->setSettings(s);
    QVERIFY(dockAndWait(*part, &ok));
    QVERIFY2(ok, qPrintable(w.lastError()));
    QCOMPARE(part->outcome().flexResidues, kThr315);
    QVERIFY(part->outcome().device.startsWith(QStringLiteral("CPU")));
    auto* progress = part->panel()->findChild<QLabel*>(QStringLiteral("dockProgressLabel"));
    QVERIFY2(progress->text().contains(QStringLiteral("flexible side chains dock on the CPU")),
             qPrintable(progress->text()));
}

void TestDockFlex::cancelKeepsThePreviousResults() {
    MainWindow w;
    QVERIFY(openFlexExample(w));
    QVERIFY(w.part<RefinePart>()->setFlexResidues(kThr315));
    auto* part = w.part<DockPart>();
    setQuick(*part, 2);
    bool ok = false;
    QVERIFY(dockAndWait(*part, &ok));
    QVERIFY(ok);
    const DockOutcome before = part->outcome();

    // AutoDock-GPU's budget (millions of evaluations a run), 50 runs: cancelled once seen moving.
    DockSettings full = part->panel()->settings();
    full.quick = false;
    full.runs = 50;
    full.seed = 7;
    part->panel()->setSettings(full);
    QSignalSpy finished(part, &DockPart::dockingFinished);
    part->dock();
    QVERIFY(part->running());
    QVERIFY(QTest::qWaitFor([&] { return part->liveRedraws() > 0; }, kDockTimeoutMs));
    QVERIFY(finished.isEmpty());
    QTest::mouseClick(part->panel()->cancelButton(), Qt::LeftButton);
    QVERIFY(received(finished, kDockTimeoutMs));
    QCOMPARE(finished.front().front().toBool(), false);
    QCOMPARE(part->outcome().poses.size(), before.poses.size());
    QCOMPARE(part->outcome().poses.front().score, before.poses.front().score);
    QCOMPARE(part->outcome().poses.front().flexCoordinates, before.poses.front().flexCoordinates);
    QVERIFY(QTest::qWaitFor([&] { return !w.busy(); }, 10000));
    QVERIFY(part->panel()->runButton()->isEnabled());
}

void TestDockFlex::untickedDocksRigid() {
    MainWindow w;
    QVERIFY(openFlexExample(w));
    QVERIFY(w.part<RefinePart>()->setFlexResidues(kThr315));
    auto* part = w.part<DockPart>();
    setQuick(*part, 2);
    auto* flexible = part->panel()->findChild<QCheckBox*>(QStringLiteral("dockFlexibleBox"));
    flexible->click();
    QVERIFY(!part->panel()->settings().flexible);
    bool ok = false;
    QVERIFY(dockAndWait(*part, &ok));
    QVERIFY(ok);
    QVERIFY(part->outcome().flexResidues.isEmpty());
    for (const DockedPose& p : part->outcome().poses)
        QVERIFY(p.flexCoordinates.empty());
    QVERIFY(part->shownSideChains().empty());
}

namespace {

double worstApart(const std::vector<Vec3>& a, const std::vector<Vec3>& b) {
    double worst = a.size() == b.size() ? 0 : 1e9;
    for (size_t i = 0; i < a.size() && i < b.size(); ++i)
        worst = std::max(worst, (a[i] - b[i]).norm());
    return worst;
}

double objective(const FlexScore& s) {
    return s.inter() + s.intra();
}

// Clicks the panel's Refine on the selected pose (or minimizes the active ligand when `button` is
// null) and waits: the refine part's result for the active ligand, null on failure.
const FlexOutcome* refineAndWait(MainWindow& w, QPushButton* button) {
    auto* refine = w.part<RefinePart>();
    QSignalSpy minimized(refine, &RefinePart::minimizationFinished);
    if (button)
        QTest::mouseClick(button, Qt::LeftButton);
    else
        refine->minimize();
    if (!received(minimized, kDockTimeoutMs) || !minimized.front().front().toBool()) {
        qWarning("%s", qPrintable(w.lastError()));
        return nullptr;
    }
    return refine->flexResult(w.document().activeLigand());
}

// One start alone, as the app's worker runs it (no frames): the reference the two-start rule is
// checked against.
MinimizeJobResult oneStart(MainWindow& w, const Molecule& ligand, const QString& name,
                           const std::vector<Vec3>& sideChains) {
    std::vector<FlexStart> starts;
    if (!sideChains.empty())
        starts.push_back(FlexStart{name, sideChains});
    return runFlexMinimization(*w.targets().current(), ligand, parseFlexChoice(kThr315), nullptr,
                               {}, {}, {}, starts);
}

} // namespace

// Refine on a flexibly docked pose tries two starts of the side chains, where the docking left
// them and where the receptor has them (the ligand at the docked pose in both), and keeps the
// lower end: never worse than either start alone (each run here by itself as the reference), and
// the status line says which start won. A second Refine continues from that result's side chains
// (again with the receptor's as the other start), never ending above the first result.
void TestDockFlex::refineKeepsTheBetterOfTheDockedAndTheReceptorStarts() {
    MainWindow w;
    QVERIFY(openFlexExample(w));
    auto* part = w.part<DockPart>();
    auto* refine = w.part<RefinePart>();
    QVERIFY(refine->setFlexResidues(kThr315));
    setQuick(*part, 2);
    bool ok = false;
    QVERIFY(dockAndWait(*part, &ok));
    QVERIFY2(ok, qPrintable(w.lastError()));
    const DockedPose docked = part->outcome().poses.front();
    QVERIFY(!docked.flexCoordinates.empty());
    // The docked side chain is not where the receptor has it (else the starts would not differ).
    const std::vector<Vec3> asRead =
        flexModelSetup(*w.targets().current(), parseFlexChoice(kThr315))->flex->referenceCoordinates();
    const double apart = worstApart(asRead, docked.flexCoordinates);
    QVERIFY2(apart > 0.1 && apart < 1e9, qPrintable(QString::number(apart)));

    auto* button = part->panel()->findChild<QPushButton*>(QStringLiteral("dockRefineButton"));
    QVERIFY(button && button->isEnabled());
    const FlexOutcome* first = refineAndWait(w, button);
    QVERIFY(first && first->setup);
    const FlexOutcome result = *first;

    // Each start alone, from the docked ligand pose.
    const MinimizeJobResult fromDocked =
        oneStart(w, docked.molecule, QStringLiteral("docked"), docked.flexCoordinates);
    const MinimizeJobResult fromReceptor = oneStart(w, docked.molecule, QString(), {});
    QVERIFY2(fromDocked.ok() && fromReceptor.ok(),
             qPrintable(fromDocked.error + fromReceptor.error));
    // The docked start is the docked state: its energy is the one docking reported.
    QVERIFY2(std::abs(fromDocked.flex->start.affinity - docked.score) < 1e-3,
             qPrintable(QStringLiteral("start %1, docked %2")
                            .arg(fromDocked.flex->start.affinity)
                            .arg(docked.score)));
    qInfo("docked %.5f; alone from the docked side chains %.5f (inter + intra %.5f), from the "
          "receptor's %.5f (%.5f); Refine %.5f (%.5f)",
          docked.score, fromDocked.flex->score.affinity, objective(fromDocked.flex->score),
          fromReceptor.flex->score.affinity, objective(fromReceptor.flex->score),
          result.score.affinity, objective(result.score));
    QVERIFY(objective(result.score) <= objective(fromDocked.flex->score) + 1e-9);
    QVERIFY(objective(result.score) <= objective(fromReceptor.flex->score) + 1e-9);
    // It is the better of the two, side chains and all, and the status line names it.
    const bool receptorWon =
        objective(fromReceptor.flex->score) < objective(fromDocked.flex->score);
    const MinimizeJobResult& better = receptorWon ? fromReceptor : fromDocked;
    QVERIFY(std::abs(result.score.affinity - better.flex->score.affinity) < 1e-9);
    QVERIFY(worstApart(result.flexCoordinates, better.flex->flexCoordinates) < 1e-9);
    QVERIFY(worstApart(result.ligandCoordinates, better.flex->ligandCoordinates) < 1e-9);
    const QString winner = receptorWon ? QStringLiteral("started from the receptor's side chains")
                                       : QStringLiteral("started from the docked side chains");
    QVERIFY2(refine->lastMessage().contains(winner), qPrintable(refine->lastMessage()));
    // The first frame is the kept start: the ligand at the docked pose, its side chains.
    QVERIFY(!refine->trajectory().empty());
    QVERIFY(worstApart(refine->trajectory().front().coordinates,
                       better.trajectory.front().coordinates) < 1e-9);
    QVERIFY(worstApart(refine->trajectory().front().flexCoordinates,
                       receptorWon ? asRead : docked.flexCoordinates) < 1e-6);

    // Refine again: the side chains go on from the first result's (the continued start), with
    // the receptor's as the other start; the end is the better of those two runs alone.
    const Molecule atFirst = w.document().ligands()[static_cast<size_t>(w.document().activeLigand())];
    const FlexOutcome* second = refineAndWait(w, nullptr);
    QVERIFY(second && second->setup);
    const MinimizeJobResult fromPrevious =
        oneStart(w, atFirst, QStringLiteral("previous"), result.flexCoordinates);
    const MinimizeJobResult fromReceptorAgain = oneStart(w, atFirst, QString(), {});
    QVERIFY(fromPrevious.ok() && fromReceptorAgain.ok());
    qInfo("second Refine %.5f (inter + intra %.5f); alone from the previous result's side chains "
          "%.5f (%.5f), from the receptor's %.5f (%.5f)",
          second->score.affinity, objective(second->score), fromPrevious.flex->score.affinity,
          objective(fromPrevious.flex->score), fromReceptorAgain.flex->score.affinity,
          objective(fromReceptorAgain.flex->score));
    // The continued start begins where the first Refine ended (its energy), and ends no higher.
    QVERIFY(std::abs(objective(fromPrevious.flex->start) - objective(result.score)) < 1e-6);
    QVERIFY(objective(second->score) <= objective(result.score) + 1e-9);
    QVERIFY(objective(second->score) <= objective(fromPrevious.flex->score) + 1e-9);
    QVERIFY(objective(second->score) <= objective(fromReceptorAgain.flex->score) + 1e-9);
    const bool previousWon =
        objective(fromPrevious.flex->score) <= objective(fromReceptorAgain.flex->score);
    QVERIFY2(refine->lastMessage().contains(
                 previousWon ? QStringLiteral("started from the previous result's side chains")
                             : QStringLiteral("started from the receptor's side chains")),
             qPrintable(refine->lastMessage()));
    QVERIFY(worstApart(second->flexCoordinates, previousWon
                                                    ? fromPrevious.flex->flexCoordinates
                                                    : fromReceptorAgain.flex->flexCoordinates) <
            1e-9);
}

// Docked with one choice of residues, refined with another (or none): the docked side chains
// cannot be used, the side chains start from the receptor (one start) or the receptor is rigid,
// and the status line says so.
void TestDockFlex::refineSaysWhenTheChoiceChangedSinceDocking() {
    MainWindow w;
    QVERIFY(openFlexExample(w));
    auto* part = w.part<DockPart>();
    auto* refine = w.part<RefinePart>();
    QVERIFY(refine->setFlexResidues(kThr315));
    setQuick(*part, 1);
    bool ok = false;
    QVERIFY(dockAndWait(*part, &ok));
    QVERIFY2(ok, qPrintable(w.lastError()));
    const DockedPose docked = part->outcome().poses.front();
    QVERIFY(refine->setFlexResidues(kOtherChoice));
    auto* button = part->panel()->findChild<QPushButton*>(QStringLiteral("dockRefineButton"));
    QVERIFY(button && button->isEnabled());
    const FlexOutcome* result = refineAndWait(w, button);
    QVERIFY2(result, qPrintable(w.lastError()));
    const QString message = refine->lastMessage();
    QVERIFY2(message.contains(QStringLiteral("changed since docking (docked with A:THR315, now ")),
             qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("start from the receptor")), qPrintable(message));
    QVERIFY2(!message.contains(QStringLiteral("started from")), qPrintable(message)); // one start
    // The side chains' model is the receptor's, not the docked one.
    const std::vector<Vec3> asRead =
        flexModelSetup(*w.targets().current(), parseFlexChoice(kOtherChoice))
            ->flex->referenceCoordinates();
    QVERIFY(worstApart(result->setup->flex->referenceCoordinates(), asRead) < 1e-9);

    // No residues chosen any more: Refine on the docked pose is rigid, and says the docked side
    // chains are not used.
    QVERIFY(refine->setFlexResidues(QString()));
    QVERIFY(refine->flexResidueText().isEmpty());
    QSignalSpy minimized(refine, &RefinePart::minimizationFinished);
    QTest::mouseClick(button, Qt::LeftButton);
    QVERIFY(received(minimized, kDockTimeoutMs));
    QVERIFY2(minimized.front().front().toBool(), qPrintable(w.lastError()));
    QVERIFY2(refine->lastMessage().startsWith(
                 QStringLiteral("No flexible residues are chosen now (docked with A:THR315)")),
             qPrintable(refine->lastMessage()));
    QVERIFY(!refine->flexResult(w.document().activeLigand()));
}

QTEST_MAIN(TestDockFlex)
#include "test_dock_flex.moc"
