// The docking work estimate that cuts a batch between GPUs (parallel/WorkSplit.h, dockWork):
// it is ligandWork x budget x runs, so it follows the evaluation budget, which grows with the
// torsion count; a batch of unequal ligands is cut by that work, not by count; and the launch
// order of a batch's runs (core/LongestFirst.h) is longest first, stable, every run once; the
// chunks of a batch go to the devices heaviest item first (WorkSplit's longestFirst).
#include "core/LongestFirst.h"
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

    void chunksGoHeaviestItemFirst() {
        // Chunks [0,2) [2,4) [4,6) [6,8): heaviest items 3, 9, 3, 9; sums 4, 10, 6, 10.
        const std::vector<double> work{1, 3, 9, 1, 3, 3, 1, 9};
        const std::vector<WorkChunk> chunks{{0, 2}, {2, 4}, {4, 6}, {6, 8}};
        // The two holding a 9 first (tie on the sum: input order), then by sum (6 before 4).
        QCOMPARE(longestFirst(chunks, work), (std::vector<size_t>{1, 3, 2, 0}));
        QVERIFY(longestFirst({}, work).empty());
        // The cut of splitByWork, handed out in that order, covers every item once.
        std::vector<double> mixed;
        for (int i = 0; i < 40; ++i)
            mixed.push_back(double(1 + (i * 7) % 13));
        const auto cut = splitByWork(mixed, 6);
        std::vector<int> seen(mixed.size(), 0);
        for (size_t c : longestFirst(cut, mixed))
            for (size_t i = cut[c].begin; i < cut[c].end; ++i)
                ++seen[i];
        for (int n : seen)
            QCOMPARE(n, 1);
    }

    void launchOrderIsLongestFirst() {
        // Three ligands of 2 runs each: costs 1, 5, 5 per run.
        const std::vector<long> order = longestFirstOrder({1.0, 5.0, 5.0}, 2);
        QCOMPARE(order, (std::vector<long>{2, 3, 4, 5, 0, 1})); // ties keep input order
        QCOMPARE(longestFirstOrder({}, 4).size(), size_t(0));
        // A permutation of every id, whatever the costs.
        std::vector<double> cost;
        for (int i = 0; i < 50; ++i)
            cost.push_back(double((i * 37) % 11));
        std::vector<long> all = longestFirstOrder(cost, 3);
        for (size_t j = 1; j < all.size(); ++j)
            QVERIFY(cost[size_t(all[j - 1] / 3)] >= cost[size_t(all[j] / 3)]);
        std::sort(all.begin(), all.end());
        for (size_t id = 0; id < all.size(); ++id)
            QCOMPARE(all[id], long(id));
    }
};

QTEST_GUILESS_MAIN(TestDockWork)
#include "test_dock_work.moc"
