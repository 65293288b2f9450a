// Qt Test for flexible receptor side chains in the app (issue 18 item 3) on Vina's flexible
// docking example (tests/data/flex: 1fpu, imatinib, its box; 1fpu_receptor_whole.pdbqt is the
// rigid part with THR A 315's CA and side chain from 1fpu_receptor_flex.pdbqt put back after its
// backbone atoms). THR A 315 chosen by name and by a double-click in the view is highlighted;
// Minimize pose moves ligand and side chain together, the side chain is drawn where each frame
// puts it, and the score equals `posewright-cli minimize --flex-residues A:THR315` from the same
// start; bad choices are refused with the reason and refine nothing; sessions keep the choice.
#include "FlexResiduePanel.h"
#include "LigandEditCommand.h"
#include "GuiTestSetup.h"
#include "MainWindow.h"
#include "MoleculeView.h"
#include "RefinePart.h"
#include "SettingsPanel.h"
#include "TrajectoryPlayer.h"
#include "chem/FlexResidueReader.h"

#include <QAction>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

#include <cmath>
#include <set>

using namespace pw;

namespace {

const QString kFlex = QStringLiteral(POSEWRIGHT_TEST_DATA "/flex/");
const QString kReceptor = kFlex + QStringLiteral("1fpu_receptor_whole.pdbqt");
const QString kLigand = kFlex + QStringLiteral("1iep_ligand.pdbqt");
const QString kBox = kFlex + QStringLiteral("1fpu_receptor.box.txt");

// Opens 1fpu, its box and imatinib, and waits until the maps are built and the pose scored.
bool openExample(MainWindow& w) {
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
                   w.document().score(0).has_value() && w.moleculeView()->framesRendered() > 0;
        },
        180000);
}

bool minimize(MainWindow& w, bool* ok) {
    QSignalSpy finished(w.part<RefinePart>(), &RefinePart::minimizationFinished);
    w.part<RefinePart>()->minimizeAction()->trigger();
    if (finished.isEmpty() && !finished.wait(300000))
        return false;
    *ok = finished.front().front().toBool();
    return true;
}

std::vector<std::array<double, 3>> highlightPositions(const MoleculeView& view) {
    std::vector<std::array<double, 3>> out;
    for (const MoleculeDrawing& d : view.highlights())
        for (const DrawAtom& a : d.atoms)
            out.push_back(a.position);
    return out;
}

double largestMove(const std::vector<std::array<double, 3>>& a,
                   const std::vector<std::array<double, 3>>& b) {
    if (a.size() != b.size())
        return -1;
    double d = 0;
    for (size_t i = 0; i < a.size(); ++i)
        d = std::max(d, std::hypot(a[i][0] - b[i][0], a[i][1] - b[i][1], a[i][2] - b[i][2]));
    return d;
}

// `posewright-cli minimize --flex-residues SPEC` on the same inputs: its JSON line.
QJsonObject cliMinimize(const QString& spec) {
    QProcess cli;
    cli.start(QStringLiteral(POSEWRIGHT_CLI),
              {QStringLiteral("minimize"), QStringLiteral("--receptor"), kReceptor,
               QStringLiteral("--flex-residues"), spec, QStringLiteral("--ligands"), kLigand,
               QStringLiteral("--box"), kBox, QStringLiteral("--threads"), QStringLiteral("1"),
               QStringLiteral("--json")});
    // A crash is not an answer: exitCode() means nothing after one.
    if (!cli.waitForFinished(300000) || cli.exitStatus() != QProcess::NormalExit ||
        cli.exitCode() != 0) {
        qWarning("%s", cli.readAllStandardError().constData());
        return {};
    }
    return QJsonDocument::fromJson(cli.readAllStandardOutput().trimmed()).object();
}

// The spec of the receptor residue of `atom` in the document.
QString residueOf(const Molecule& receptor, int atom) {
    if (atom < 0 || receptor.atoms[static_cast<size_t>(atom)].residue < 0)
        return {};
    const Residue& r =
        receptor.residues[static_cast<size_t>(receptor.atoms[static_cast<size_t>(atom)].residue)];
    return QStringLiteral("%1:%2%3")
        .arg(QChar(r.chain))
        .arg(QString::fromStdString(r.name))
        .arg(r.number);
}

// Where a double-click lands on an atom of A:THR315's side chain and nothing of the ligand: the
// atom's projection, if the view would pick that residue there (kind: 1 receptor, 2 highlight).
std::optional<QPoint> pickPointOfThr315(MainWindow& w, int kind) {
    const Molecule& receptor = w.document().receptor();
    MoleculeView* view = w.moleculeView();
    for (size_t i = 0; i < receptor.atoms.size(); ++i) {
        const Atom& a = receptor.atoms[i];
        if (residueOf(receptor, static_cast<int>(i)) != QLatin1String("A:THR315") ||
            (a.name != "CB" && a.name != "OG1" && a.name != "CG2"))
            continue;
        const QPointF image =
            view->projectToImage({a.position.x(), a.position.y(), a.position.z()});
        const QPointF p = image / view->devicePixelRatioF();
        if (p.x() < 1 || p.y() < 1 || p.x() > view->width() - 2 || p.y() > view->height() - 2)
            continue;
        if (view->pickAtom(p, 0) >= 0 || (kind == 2 && view->pickAtom(p, 2) < 0))
            continue;
        const int picked = view->pickAtom(p, kind == 2 ? 2 : 1);
        if (residueOf(receptor, picked) == QLatin1String("A:THR315"))
            return p.toPoint();
    }
    return std::nullopt;
}

} // namespace

class TestFlexResidues : public QObject {
    Q_OBJECT

private slots:
    void chosenByNameMovesWithTheLigand();
    void pickedInTheViewToggles();
    void badChoicesAreRefusedAndRefineNothing();
    void sessionKeepsTheChoice();
    void cancelledRunLeavesThePose();
    void undoAndRedoFindEachResultsSideChains();
};

void TestFlexResidues::chosenByNameMovesWithTheLigand() {
    MainWindow w;
    QVERIFY(openExample(w));
    auto* part = w.part<RefinePart>();
    MoleculeView* view = w.moleculeView();
    QVERIFY(view->highlights().empty());
    part->flexPanel()->field()->setText(QStringLiteral("a:thr315"));
    QTest::mouseClick(part->flexPanel()->applyButton(), Qt::LeftButton);
    QCOMPARE(part->flexResidueText(), QStringLiteral("A:THR315"));
    QVERIFY2(
        part->flexPanel()->summary()->text().contains(QStringLiteral("THR A 315 (2 torsions)")),
        qPrintable(part->flexPanel()->summary()->text()));
    // Highlighted as the receptor holds it: CA, CB, CG2, OG1, HG1 (no hydrogen on carbon).
    QCOMPARE(view->highlights().size(), size_t(1));
    QCOMPARE(view->highlights().front().style, DrawStyle::FlexibleResidue);
    QCOMPARE(view->highlights().front().atoms.size(), size_t(5));
    const auto before = highlightPositions(*view);

    // The Device setting names a GPU: flexible residues still run on the CPU, and say so.
    w.document().setDevice(QStringLiteral("cuda"));
    // Paced, so that the run lasts long enough for the GUI to draw many of its frames.
    w.settingsPanel()->setLivePaceMs(5);
    std::set<std::vector<std::array<double, 3>>> drawn;
    QMetaObject::Connection watch = connect(view, &MoleculeView::frameRendered, this, [&] {
        if (part->running())
            drawn.insert(highlightPositions(*view));
    });
    bool ok = false;
    QVERIFY(minimize(w, &ok));
    disconnect(watch);
    QVERIFY2(ok, qPrintable(w.lastError()));
    QVERIFY2(w.statusBar()->currentMessage().contains(QStringLiteral("on the CPU")),
             qPrintable(w.statusBar()->currentMessage()));
    // Drawn as it moved: several distinct side-chain positions while the minimization ran.
    QVERIFY2(drawn.size() >= 3, qPrintable(QString::number(drawn.size())));

    const FlexOutcome* result = part->flexResult(0);
    QVERIFY(result);
    const auto after = highlightPositions(*view);
    QCOMPARE(after.size(), before.size());
    QVERIFY2(largestMove(before, after) > 0.05,
             qPrintable(QString::number(largestMove(before, after))));
    // The CA is the residue's fixed ROOT: it stays where it was.
    double caShift = 1e9;
    for (const auto& a : after)
        caShift = std::min(caShift, largestMove({before.front()}, {a}));
    QVERIFY2(caShift < 1e-6, qPrintable(QString::number(caShift)));

    // The same numbers as the CLI from the same start: the same engine code in double precision
    // on the same prepared inputs, so only the JSON's 6 significant digits differ (<= 5e-5 on
    // these values); 1e-3 kcal/mol leaves room for nothing else.
    const QJsonObject cli = cliMinimize(QStringLiteral("A:THR315"));
    QVERIFY2(!cli.isEmpty(), "posewright-cli minimize --flex-residues failed");
    const auto& score = w.document().score(0);
    QVERIFY(score.has_value());
    qInfo("app: affinity %.4f (start %.4f, ligand-flex %.4f, kept %s); cli: affinity %.4f",
          score->affinity, result->start.affinity, result->score.ligandFlex,
          qPrintable(result->path), cli["affinity"].toDouble());
    QVERIFY2(
        std::abs(score->affinity - cli["affinity"].toDouble()) < 1e-3,
        qPrintable(
            QStringLiteral("app %1, cli %2").arg(score->affinity).arg(cli["affinity"].toDouble())));
    QVERIFY(std::abs(result->score.ligandFlex - cli["ligand_flex"].toDouble()) < 1e-3);
    QVERIFY(std::abs(result->score.flexReceptor - cli["flex_receptor"].toDouble()) < 1e-3);
    QVERIFY(std::abs(result->score.inter() - cli["inter"].toDouble()) < 1e-3);
    QVERIFY(std::abs(result->score.intra() - cli["intra"].toDouble()) < 1e-3);
    QVERIFY(std::abs(result->start.affinity - cli["start_affinity"].toDouble()) < 1e-3);
    // The term table shows the flexible split.
    QTableWidget* table = part->termTable();
    QVERIFY(table->rowCount() > 3);
    QCOMPARE(table->item(0, 0)->text(), QStringLiteral("Affinity (flexible side chains)"));
    QVERIFY(std::abs(table->item(0, 1)->text().toDouble() - cli["affinity"].toDouble()) < 2e-3);
    // The kept trajectory replays the side chains too: its first frame has them as they started.
    QVERIFY(part->trajectory().size() >= 2);
    QVERIFY(!part->trajectory().back().flexCoordinates.empty());
    part->player()->setCurrentFrame(0);
    const auto replayed = highlightPositions(*view);
    QCOMPARE(replayed.size(), before.size());
    for (const auto& b : before) {
        double nearest = 1e9;
        for (const auto& r : replayed)
            nearest = std::min(nearest, largestMove({b}, {r}));
        QVERIFY2(nearest < 1e-6, qPrintable(QString::number(nearest)));
    }
    part->player()->setCurrentFrame(static_cast<int>(part->trajectory().size()) - 1);
    QVERIFY(largestMove(after, highlightPositions(*view)) < 1e-9);

    // Exported as Vina writes --flex residues, readable again, at the minimized positions.
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("flex_out.pdbqt"));
    QVERIFY(part->exportFlexResidues(out));
    const std::vector<FlexResidue> back = readFlexResidues(out.toStdString());
    QCOMPARE(back.size(), size_t(1));
    QCOMPARE(QString::fromStdString(back[0].label()), QStringLiteral("THR A 315"));
    double moved = 0;
    for (size_t i = 0; i < back[0].mol.atoms.size(); ++i)
        moved =
            std::max(moved, (back[0].mol.atoms[i].position - result->flexCoordinates[i]).norm());
    QVERIFY2(moved < 2e-3, qPrintable(QString::number(moved))); // PDBQT's 3 decimals

    // Undo: the ligand goes back, and the side chain with it.
    w.undoStack()->undo();
    QVERIFY(!part->flexResult(0));
    QVERIFY(largestMove(before, highlightPositions(*view)) < 1e-9);
    QCOMPARE(part->flexResidueText(), QStringLiteral("A:THR315")); // the choice stays
}

void TestFlexResidues::pickedInTheViewToggles() {
    MainWindow w;
    QVERIFY(openExample(w));
    auto* part = w.part<RefinePart>();
    MoleculeView* view = w.moleculeView();
    const std::optional<QPoint> p = pickPointOfThr315(w, 1);
    QVERIFY2(p, "no atom of THR A 315's side chain can be picked clear of the ligand");
    QTest::mouseDClick(view, Qt::LeftButton, Qt::NoModifier, *p);
    QCOMPARE(part->flexResidueText(), QStringLiteral("A:THR315"));
    QCOMPARE(part->flexPanel()->field()->text(), QStringLiteral("A:THR315"));
    QCOMPARE(view->highlights().front().atoms.size(), size_t(5));
    // A second double-click on the highlighted side chain takes it out again.
    const std::optional<QPoint> q = pickPointOfThr315(w, 2);
    QVERIFY(q);
    QTest::mouseDClick(view, Qt::LeftButton, Qt::NoModifier, *q);
    QCOMPARE(part->flexResidueText(), QString());
    QVERIFY(view->highlights().empty());
    // Each change is one undo step.
    w.undoStack()->undo();
    QCOMPARE(part->flexResidueText(), QStringLiteral("A:THR315"));
    w.undoStack()->undo();
    QCOMPARE(part->flexResidueText(), QString());
}

void TestFlexResidues::badChoicesAreRefusedAndRefineNothing() {
    MainWindow w;
    QVERIFY(openExample(w));
    auto* part = w.part<RefinePart>();
    const Molecule ligandBefore = w.document().ligands()[0];
    const int undoSteps = w.undoStack()->count();
    QSignalSpy errors(&w, &MainWindow::errorOccurred);

    // Not in the receptor: typed, then Minimize pose: the error, and nothing moves.
    part->flexPanel()->field()->setText(QStringLiteral("A:GLY999"));
    bool ok = true;
    QVERIFY(minimize(w, &ok));
    QVERIFY(!ok);
    QVERIFY2(w.lastError().contains(QStringLiteral("A:GLY999")) &&
                 w.lastError().contains(QStringLiteral("no such residue")),
             qPrintable(w.lastError()));
    QCOMPARE(coordinatesOf(w.document().ligands()[0]), coordinatesOf(ligandBefore));
    QCOMPARE(w.undoStack()->count(), undoSteps);
    QCOMPARE(part->flexResidueText(), QString());

    // No rotatable side-chain bond: the receptor's first glycine.
    const Molecule& receptor = w.document().receptor();
    QString glycine;
    for (size_t i = 0; i < receptor.atoms.size() && glycine.isEmpty(); ++i)
        if (receptor.atoms[i].residue >= 0 &&
            receptor.residues[static_cast<size_t>(receptor.atoms[i].residue)].name == "GLY")
            glycine = residueOf(receptor, static_cast<int>(i));
    QVERIFY(!glycine.isEmpty());
    QVERIFY(!part->setFlexResidues(glycine));
    QVERIFY2(w.lastError().contains(QStringLiteral("no rotatable side-chain bond")),
             qPrintable(w.lastError()));

    // Too many torsions: ten lysines (5 each) are more than the limit of 32.
    QStringList lysines;
    for (const Residue& r : receptor.residues)
        if (r.name == "LYS" && lysines.size() < 10)
            lysines << QStringLiteral("%1:LYS%2").arg(QChar(r.chain)).arg(r.number);
    QCOMPARE(lysines.size(), 10);
    QVERIFY(!part->setFlexResidues(lysines.join(QLatin1Char(','))));
    QVERIFY2(w.lastError().contains(QStringLiteral("too many torsions")),
             qPrintable(w.lastError()));

    // Not a residue name at all.
    QVERIFY(!part->setFlexResidues(QStringLiteral("A-THR315")));
    QVERIFY2(w.lastError().contains(QStringLiteral("expected CHAIN:NAMENUMBER")),
             qPrintable(w.lastError()));
    QVERIFY(errors.size() >= 4);
    QCOMPARE(part->flexResidueText(), QString());
    QCOMPARE(coordinatesOf(w.document().ligands()[0]), coordinatesOf(ligandBefore));
    QVERIFY(w.moleculeView()->highlights().empty());
}

void TestFlexResidues::sessionKeepsTheChoice() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("flex.pwsession"));
    std::vector<Vec3> savedSideChains;
    double savedAffinity = 0;
    {
        MainWindow w;
        QVERIFY(openExample(w));
        auto* part = w.part<RefinePart>();
        QVERIFY(part->setFlexResidues(QStringLiteral("A:THR315")));
        w.settingsPanel()->setLivePaceMs(0);
        bool ok = false;
        QVERIFY(minimize(w, &ok));
        QVERIFY2(ok, qPrintable(w.lastError()));
        QVERIFY(part->flexResult(0));
        savedSideChains = part->flexResult(0)->flexCoordinates;
        savedAffinity = part->flexResult(0)->score.affinity;
        QVERIFY(w.saveSession(path));
    }
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonObject root = QJsonDocument::fromJson(file.readAll()).object();
    file.close();
    QCOMPARE(root["parts"].toObject()["refine"].toObject()["flexResidues"].toString(),
             QStringLiteral("A:THR315"));

    auto reopen = [&](const QJsonObject& session, MainWindow& w) {
        const QString p = dir.filePath(QStringLiteral("variant.pwsession"));
        QFile f(p);
        f.open(QIODevice::WriteOnly | QIODevice::Truncate);
        f.write(QJsonDocument(session).toJson());
        f.close();
        w.setErrorDialogsEnabled(false);
        w.show();
        QSignalSpy opened(&w, &MainWindow::sessionOpened);
        w.openSession(p);
        return (!opened.isEmpty() || opened.wait(120000)) && opened.front().front().toBool();
    };
    {
        MainWindow w;
        QVERIFY(reopen(root, w));
        QCOMPARE(w.part<RefinePart>()->flexResidueText(), QStringLiteral("A:THR315"));
        QCOMPARE(w.part<RefinePart>()->flexPanel()->field()->text(), QStringLiteral("A:THR315"));
        // The minimized side chains come back with the pose, once the receptor is prepared.
        auto* part = w.part<RefinePart>();
        QVERIFY(QTest::qWaitFor([&] { return part->flexResult(0) != nullptr; }, 120000));
        QCOMPARE(part->flexResult(0)->flexCoordinates, savedSideChains);
        QCOMPARE(part->flexResult(0)->score.affinity, savedAffinity);
        QCOMPARE(part->termTable()->item(0, 0)->text(),
                 QStringLiteral("Affinity (flexible side chains)"));
        std::vector<std::array<double, 3>> saved;
        for (const Vec3& v : savedSideChains)
            saved.push_back({v.x(), v.y(), v.z()});
        const auto drawn = highlightPositions(*w.moleculeView());
        QCOMPARE(drawn.size(), saved.size());
        for (const auto& d : drawn) {
            double nearest = 1e9;
            for (const auto& v : saved)
                nearest = std::min(nearest, largestMove({d}, {v}));
            QVERIFY(nearest < 1e-9);
        }
    }
    {
        // Side chains of a ligand the session does not have: the reason; the choice stays.
        QJsonObject bad = root;
        QJsonObject parts = bad["parts"].toObject();
        QJsonObject refine = parts["refine"].toObject();
        QJsonArray results = refine["flexResults"].toArray();
        QCOMPARE(results.size(), 1);
        QJsonObject first = results[0].toObject();
        first["ligand"] = 7;
        refine["flexResults"] = QJsonArray{first};
        parts["refine"] = refine;
        bad["parts"] = parts;
        MainWindow w;
        QVERIFY(reopen(bad, w));
        QVERIFY2(w.lastError().contains(QStringLiteral("flexResults")), qPrintable(w.lastError()));
        QCOMPARE(w.part<RefinePart>()->flexResidueText(), QStringLiteral("A:THR315"));
        QVERIFY(!w.part<RefinePart>()->flexResult(0));
    }
    {
        // An older session (no piece of its own): no flexible residues.
        QJsonObject older = root;
        QJsonObject parts = older["parts"].toObject();
        parts.remove(QStringLiteral("refine"));
        older["parts"] = parts;
        MainWindow w;
        QVERIFY(reopen(older, w));
        QCOMPARE(w.part<RefinePart>()->flexResidueText(), QString());
    }
    {
        // A bad list: the reason, and none chosen.
        QJsonObject bad = root;
        QJsonObject parts = bad["parts"].toObject();
        parts[QStringLiteral("refine")] =
            QJsonObject{{QStringLiteral("flexResidues"), QStringLiteral("A-THR315")}};
        bad["parts"] = parts;
        MainWindow w;
        QSignalSpy errors(&w, &MainWindow::errorOccurred);
        QVERIFY(reopen(bad, w));
        QCOMPARE(w.part<RefinePart>()->flexResidueText(), QString());
        QVERIFY(!errors.isEmpty());
        QVERIFY2(w.lastError().contains(QStringLiteral("flexible residues")) &&
                     w.lastError().contains(QStringLiteral("A-THR315")),
                 qPrintable(w.lastError()));
    }
}

void TestFlexResidues::cancelledRunLeavesThePose() {
    MainWindow w;
    QVERIFY(openExample(w));
    auto* part = w.part<RefinePart>();
    QVERIFY(part->setFlexResidues(QStringLiteral("A:THR315")));
    const std::vector<Vec3> ligandBefore = coordinatesOf(w.document().ligands()[0]);
    const auto sideChainBefore = highlightPositions(*w.moleculeView());
    const int undoSteps = w.undoStack()->count();
    // Paced at 30 ms a step: hundreds of steps cannot all have passed after three.
    w.settingsPanel()->setLivePaceMs(30);
    QSignalSpy finished(part, &RefinePart::minimizationFinished);
    part->minimizeAction()->trigger();
    QVERIFY(QTest::qWaitFor([&] { return part->trajectory().size() >= 3 || !finished.isEmpty(); },
                            120000));
    QVERIFY(finished.isEmpty());
    w.cancelJob();
    QVERIFY(!finished.isEmpty() || finished.wait(120000));
    QCOMPARE(finished.front().front().toBool(), false);
    QCOMPARE(coordinatesOf(w.document().ligands()[0]), ligandBefore);
    QVERIFY(!part->flexResult(0));
    QCOMPARE(w.undoStack()->count(), undoSteps);
    QVERIFY(largestMove(sideChainBefore, highlightPositions(*w.moleculeView())) < 1e-9);
    QVERIFY(!w.busy());
}

// Two flexible minimizations with a move between them: undo back to the first one's pose shows
// its side chains again (one result per ligand was kept, so undo lost them), redo the second's.
void TestFlexResidues::undoAndRedoFindEachResultsSideChains() {
    MainWindow w;
    QVERIFY(openExample(w));
    auto* part = w.part<RefinePart>();
    MoleculeView* view = w.moleculeView();
    QVERIFY(part->setFlexResidues(QStringLiteral("A:THR315")));
    const auto receptorSideChain = highlightPositions(*view);
    bool ok = false;
    QVERIFY(minimize(w, &ok));
    QVERIFY2(ok, qPrintable(w.lastError()));
    QVERIFY(part->flexResult(0));
    const std::vector<Vec3> firstSideChain = part->flexResult(0)->flexCoordinates;
    const auto firstDrawn = highlightPositions(*view);
    QVERIFY(largestMove(receptorSideChain, firstDrawn) > 0.05);

    // Moved 0.4 A (an edit of its own), then minimized again from there.
    Molecule moved = w.document().ligands()[0];
    for (Atom& a : moved.atoms)
        a.position.x() += 0.4;
    w.undoStack()->push(new LigandEditCommand(w.document(), 0, w.document().ligands()[0],
                                              w.document().score(0), moved, std::nullopt,
                                              QStringLiteral("Move")));
    QVERIFY(!part->flexResult(0)); // not a minimized pose
    QVERIFY(minimize(w, &ok));
    QVERIFY2(ok, qPrintable(w.lastError()));
    QVERIFY(part->flexResult(0));
    const std::vector<Vec3> secondSideChain = part->flexResult(0)->flexCoordinates;
    const auto secondDrawn = highlightPositions(*view);
    QCOMPARE(secondDrawn.size(), firstDrawn.size());
    QVERIFY2(largestMove(firstDrawn, secondDrawn) > 1e-4, "the two results' side chains are "
                                                          "where the test cannot tell them apart");

    w.undoStack()->undo(); // the second minimization: the moved pose, the receptor's side chain
    QVERIFY(!part->flexResult(0));
    QVERIFY(largestMove(receptorSideChain, highlightPositions(*view)) < 1e-9);
    w.undoStack()->undo(); // the move: the first result's pose, and its side chains
    QVERIFY(part->flexResult(0));
    QCOMPARE(part->flexResult(0)->flexCoordinates, firstSideChain);
    QVERIFY(largestMove(firstDrawn, highlightPositions(*view)) < 1e-9);
    w.undoStack()->redo();
    w.undoStack()->redo();
    QVERIFY(part->flexResult(0));
    QCOMPARE(part->flexResult(0)->flexCoordinates, secondSideChain);
    QVERIFY(largestMove(secondDrawn, highlightPositions(*view)) < 1e-9);
}

QTEST_MAIN(TestFlexResidues)
#include "test_flexresidues.moc"
