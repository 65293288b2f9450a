// Qt Test for interactive pose editing in the main window (1iep, imatinib: 40 atoms, 14
// rotatable bonds): edit-mode drags turn and slide the ligand rigidly, Shift+drag on an atom turns
// its rotatable bond only, each drag is one undo step, the score follows every step (a
// move is rescored before the next), and hovering an atom tells its name and energy.
#include "ExampleWindow.h"
#include "GuiTestSetup.h"
#include "MainWindow.h"
#include "MoleculeView.h"
#include "ScoringTarget.h"
#include "ViewEnvironment.h"

#include <QAction>
#include <QStandardPaths>
#include <QStatusBar>
#include <QUndoStack>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

using namespace pw;

namespace {

const QString kComplex = QStringLiteral(POSEWRIGHT_TEST_DATA "/complexes/1iep/");

// Largest change of any interatomic distance: 0 for a rigid motion.
double rigidDeviation(const std::vector<Vec3>& a, const std::vector<Vec3>& b) {
    double d = 0;
    for (size_t i = 0; i < a.size(); ++i)
        for (size_t j = i + 1; j < a.size(); ++j)
            d = std::max(d, std::abs((a[i] - a[j]).norm() - (b[i] - b[j]).norm()));
    return d;
}

// A drag in `steps` moves; returns after how many of the moves `stepDone` was false (0 when it
// held after every one). How long a step takes is a benchmark's business (tests/gui/bench_editing):
// a test that asserts a time fails whenever the machine is busy.
int drag(
    MoleculeView* view, QPoint from, QPoint delta, Qt::KeyboardModifiers mods, int steps = 8,
    const std::function<bool()>& stepDone = [] { return true; }) {
    QTest::mousePress(view, Qt::LeftButton, mods, from);
    int failed = 0;
    for (int s = 1; s <= steps; ++s) {
        QTest::mouseMove(view, from + delta * s / steps);
        failed += stepDone() ? 0 : 1;
    }
    QTest::mouseRelease(view, Qt::LeftButton, mods, from + delta);
    return failed;
}

} // namespace

class TestEditing : public QObject {
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void dragTurnsTheLigandRigidlyAsOneUndoStep();
    void ctrlDragSlidesTheLigand();
    void shiftDragTurnsOneBond();
    void hoverTellsAtomAndEnergy();

private:
    // The score the document holds for the ligand equals one computed from scratch.
    void verifyScoreIsFresh();
    bool scoreIsFresh() const;

    std::unique_ptr<MainWindow> w_;
    std::shared_ptr<const ScoringTarget> target_;
};

void TestEditing::init() {
    w_ = std::make_unique<MainWindow>();
    w_->setErrorDialogsEnabled(false);
    w_->show();
    QVERIFY(QTest::qWaitForWindowExposed(w_.get()));
    w_->openReceptor(kComplex + "receptor.pdbqt");
    w_->openLigands(kComplex + "ligand_xtal.pdbqt");
    QVERIFY(QTest::qWaitFor(
        [&] { return w_->pendingLoads() == 0 && w_->targetReady() && !w_->busy(); }, 120000));
    QVERIFY2(w_->lastError().isEmpty(), qPrintable(w_->lastError()));
    QCOMPARE(w_->document().boxSource(), BoxSource::File); // box.txt next to the receptor
    QVERIFY(w_->document().score(0).has_value());
    w_->editModeAction()->setChecked(true);
    QVERIFY(w_->moleculeView()->editMode());
    if (!target_) {
        const Document& d = w_->document();
        target_ = buildScoringTarget(d.receptor(), 0, *d.box(), d.scoring(), 1);
    }
}

void TestEditing::cleanup() {
    w_.reset();
}

bool TestEditing::scoreIsFresh() const {
    const std::optional<Molecule> prepared = preparedInPlace(w_->document().ligands()[0]);
    return prepared && w_->document().score(0) &&
           std::abs(w_->document().score(0)->affinity - scorePose(*target_, *prepared).affinity) <
               1e-9;
}

void TestEditing::verifyScoreIsFresh() {
    const Molecule& ligand = w_->document().ligands()[0];
    const std::optional<Molecule> prepared = preparedInPlace(ligand);
    QVERIFY(prepared.has_value());
    const VinaScore fresh = scorePose(*target_, *prepared);
    QVERIFY(w_->document().score(0).has_value());
    QVERIFY2(std::abs(w_->document().score(0)->affinity - fresh.affinity) < 1e-9,
             qPrintable(QStringLiteral("document %1, fresh %2")
                            .arg(w_->document().score(0)->affinity)
                            .arg(fresh.affinity)));
}

void TestEditing::dragTurnsTheLigandRigidlyAsOneUndoStep() {
    MoleculeView* view = w_->moleculeView();
    const Molecule& ligand = w_->document().ligands()[0];
    QVERIFY(ligand.atoms.size() >= 40);
    const std::vector<Vec3> start = coordinatesOf(ligand);
    const double startAffinity = w_->document().score(0)->affinity;
    const Vec3 c0 = ligand.centroid();
    const QPoint centre = widgetPoint(*view, c0);
    // Every move is rescored before the next event is handled: the score the document holds
    // after each move is that of the pose on screen.
    const int staleSteps =
        drag(view, centre, QPoint(80, 30), Qt::NoModifier, 8, [this] { return scoreIsFresh(); });
    QCOMPARE(staleSteps, 0);

    const std::vector<Vec3> after = coordinatesOf(w_->document().ligands()[0]);
    double moved = 0;
    for (size_t i = 0; i < after.size(); ++i)
        moved = std::max(moved, (after[i] - start[i]).norm());
    QVERIFY2(moved > 1.0, qPrintable(QString::number(moved)));
    QVERIFY(rigidDeviation(start, after) < 1e-9);
    // Turned about its centre: the heavy-atom centroid stays.
    QVERIFY((w_->document().ligands()[0].centroid() - c0).norm() < 0.5);
    // Every step rescored; the score is that of the pose, and it changed.
    verifyScoreIsFresh();
    QVERIFY(w_->document().score(0)->affinity != startAffinity);

    // Eight moves, one undo step.
    QCOMPARE(w_->undoStack()->count(), 1);
    QCOMPARE(w_->undoStack()->text(0), QStringLiteral("Turn ligand"));
    w_->undoStack()->undo();
    const std::vector<Vec3> undone = coordinatesOf(w_->document().ligands()[0]);
    for (size_t i = 0; i < undone.size(); ++i)
        QVERIFY((undone[i] - start[i]).norm() < 1e-12);
    QCOMPARE(w_->document().score(0)->affinity, startAffinity);

    // A second drag is a second step.
    w_->undoStack()->redo();
    drag(view, centre, QPoint(-40, 0), Qt::NoModifier, 3);
    QCOMPARE(w_->undoStack()->count(), 2);
}

void TestEditing::ctrlDragSlidesTheLigand() {
    MoleculeView* view = w_->moleculeView();
    const std::vector<Vec3> start = coordinatesOf(w_->document().ligands()[0]);
    const Vec3 c0 = w_->document().ligands()[0].centroid();
    const QPoint centre = widgetPoint(*view, c0);
    drag(view, centre, QPoint(60, 0), Qt::ControlModifier);
    const Vec3 c1 = w_->document().ligands()[0].centroid();
    const std::vector<Vec3> after = coordinatesOf(w_->document().ligands()[0]);
    QVERIFY(rigidDeviation(start, after) < 1e-9);
    QVERIFY((c1 - c0).norm() > 0.5);
    // It follows the cursor: the centroid lands about 60 px to the right.
    const QPoint landed = widgetPoint(*view, c1);
    QVERIFY2(std::abs(landed.x() - (centre.x() + 60)) <= 3 &&
                 std::abs(landed.y() - centre.y()) <= 3,
             qPrintable(QStringLiteral("%1,%2").arg(landed.x()).arg(landed.y())));
    verifyScoreIsFresh();
    QCOMPARE(w_->undoStack()->count(), 1);
    QCOMPARE(w_->undoStack()->text(0), QStringLiteral("Move ligand"));
}

void TestEditing::shiftDragTurnsOneBond() {
    MoleculeView* view = w_->moleculeView();
    const Molecule ligand = w_->document().ligands()[0];
    QVERIFY(ligand.torsionTree.has_value());
    const TorsionTree& tree = *ligand.torsionTree;
    const std::vector<int> owner = tree.nodeOfAtom(static_cast<int>(ligand.atoms.size()));
    // A heavy atom of a leaf branch that the view picks under the cursor.
    int atom = -1;
    for (size_t i = 0; i < ligand.atoms.size() && atom < 0; ++i) {
        const int node = owner[i];
        if (node <= 0 || !tree.nodes[static_cast<size_t>(node)].children.empty() ||
            ligand.atoms[i].element == 1 ||
            static_cast<int>(i) == tree.nodes[static_cast<size_t>(node)].axisChildAtom)
            continue;
        if (view->pickAtom(widgetPoint(*view, ligand.atoms[i].position), 0) == static_cast<int>(i))
            atom = static_cast<int>(i);
    }
    QVERIFY2(atom >= 0, "no pickable atom on a leaf branch");
    const int node = owner[static_cast<size_t>(atom)];
    drag(view, widgetPoint(*view, ligand.atoms[static_cast<size_t>(atom)].position), QPoint(50, 0),
         Qt::ShiftModifier, 5);

    const Molecule& after = w_->document().ligands()[0];
    int movedInBranch = 0;
    for (size_t i = 0; i < ligand.atoms.size(); ++i) {
        const double d = (after.atoms[i].position - ligand.atoms[i].position).norm();
        if (owner[i] == node)
            movedInBranch += d > 1e-3 ? 1 : 0;
        else
            QVERIFY2(d < 1e-12,
                     qPrintable(QStringLiteral("atom %1 of node %2 moved").arg(i).arg(owner[i])));
    }
    QVERIFY(movedInBranch >= 1);
    // Bond lengths are kept: only a dihedral changed.
    for (const Bond& b : ligand.bonds) {
        const double before = (ligand.atoms[b.a].position - ligand.atoms[b.b].position).norm();
        const double now = (after.atoms[b.a].position - after.atoms[b.b].position).norm();
        QVERIFY(std::abs(before - now) < 1e-9);
    }
    verifyScoreIsFresh();
    QCOMPARE(w_->undoStack()->count(), 1);
    QCOMPARE(w_->undoStack()->text(0), QStringLiteral("Turn bond"));
    // Shift+drag on empty space does nothing.
    drag(view, QPoint(5, 5), QPoint(50, 0), Qt::ShiftModifier, 3);
    QCOMPARE(w_->undoStack()->count(), 1);
}

void TestEditing::hoverTellsAtomAndEnergy() {
    MoleculeView* view = w_->moleculeView();
    const Molecule& ligand = w_->document().ligands()[0];
    int atom = -1;
    for (size_t i = 0; i < ligand.atoms.size() && atom < 0; ++i)
        if (ligand.atoms[i].element == 7 &&
            view->pickAtom(widgetPoint(*view, ligand.atoms[i].position), 0) == static_cast<int>(i))
            atom = static_cast<int>(i);
    QVERIFY(atom >= 0);
    QTest::mouseMove(view, QPoint(2, 2));
    QTest::mouseMove(view, widgetPoint(*view, ligand.atoms[static_cast<size_t>(atom)].position));
    const QString text = w_->statusBar()->currentMessage();
    QVERIFY2(text.startsWith(QString::fromStdString(ligand.atoms[static_cast<size_t>(atom)].name)),
             qPrintable(text));
    QVERIFY2(text.contains(QString::fromStdString(ligand.atoms[static_cast<size_t>(atom)].ad4Type)),
             qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("kcal/mol")), qPrintable(text));
}

QTEST_MAIN(TestEditing)
#include "test_editing.moc"
