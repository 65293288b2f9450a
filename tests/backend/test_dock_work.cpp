// The docking work estimate that cuts a batch between GPUs (parallel/WorkSplit.h, dockWork):
// it is ligandWork x budget x runs, so it follows the evaluation budget, which grows with the
// torsion count; and a batch of unequal ligands is cut by that work, not by count.
#include "core/TorsionTree.h"
#include "dock/DockOptions.h"
#include "parallel/WorkSplit.h"

#include <QtTest>


using namespace pw;

namespace {

// A molecule with `atoms` carbons and a torsion tree of `torsions` + 1 nodes (the estimate only
// counts them).
Molecule shaped(int atoms, int torsions) {
    Molecule m;
    m.atoms.resize(atoms);
    m.torsionTree.emplace();
    m.torsionTree->nodes.resize(torsions + 1);
    return m;
}

} // namespace

class TestDockWork : public QObject {
    Q_OBJECT
private slots:
    void followsTheBudget() {
        dock::DockOptions o;
        o.runs = 10;
        const Molecule rigid = shaped(20, 0), flexible = shaped(20, 10);
        const double budget0 = double(dock::evaluationBudget(o.lga, 0, 10));
        const double budget10 = double(dock::evaluationBudget(o.lga, 10, 10));
        QVERIFY(budget10 > 2 * budget0);
        QCOMPARE(dockWork(rigid, o), ligandWork(rigid) * budget0 * 10);
        QCOMPARE(dockWork(flexible, o), ligandWork(flexible) * budget10 * 10);
        // A fixed budget: work in proportion to atoms x (torsions + 1) and runs.
        o.lga.maxEvaluations = 1000;
        QCOMPARE(dockWork(flexible, o), 20.0 * 11 * 1000 * 10);
        o.runs = 20;
        QCOMPARE(dockWork(flexible, o), 20.0 * 11 * 1000 * 20);
    }

    void cutsByWorkNotCount() {
        dock::DockOptions o;
        o.runs = 10;
        // One flexible ligand first, then nine rigid ones: two devices do not get five each.
        std::vector<double> work{dockWork(shaped(40, 12), o)};
        for (int i = 0; i < 9; ++i)
            work.push_back(dockWork(shaped(20, 0), o));
        const auto chunks = splitByWork(work, 2);
        QCOMPARE(chunks.size(), size_t(2));
        QCOMPARE(chunks[0].begin, size_t(0));
        QVERIFY(chunks[0].end < 5);
        QCOMPARE(chunks[1].end, work.size());
    }
};

QTEST_GUILESS_MAIN(TestDockWork)
#include "test_dock_work.moc"
