// Tests for the LGA's optional generation observer (DockOptions::onGeneration, the app's live
// view of a search): one report per generation, in order, with the population's best and mean
// energies and best genotype; the run's result is the same whether it is watched or not.
#include "DockTestScoring.h"
#include "core/PoseTestLigands.h"
#include "dock/LgaRun.h"

#include <QtTest>

#include <cmath>
#include <vector>

using namespace pw;
using namespace pw::dock;

class TestDockObserver : public QObject {
    Q_OBJECT
    Molecule ligand_ = test::handBuiltLigand();
    LigandKinematics kin_{ligand_, RootOrigin::RootCentroid};
    test::WellScoring scoring_{[this] {
        Pose p = kin_.referencePose();
        p.position = Vec3(1.5, 1.0, -0.5);
        p.torsions = {0.4, -1.2, 2.0};
        return kin_.coordinates(p);
    }()};

    LgaRunSetup setup() const {
        LgaRunSetup s;
        s.kinematics = &kin_;
        s.scoring = &scoring_;
        s.box = SearchBox{Vec3(1.0, 2.0, -1.0), Vec3(12.0, 10.0, 14.0)};
        s.options.populationSize = 30;
        s.options.localSearch = LocalSearchMethod::Bfgs;
        s.options.localSearchIterations = 30;
        s.options.autoStop = false;
        s.evaluationBudget = 40000;
        s.seed = 5;
        s.ligand = 1;
        s.run = 2;
        return s;
    }

private slots:
    void reportsEveryGenerationInOrder() {
        struct Seen {
            long generation;
            int run;
            long ligand;
            double best, mean;
            std::vector<Vec3> coordinates;
        };
        std::vector<Seen> seen;
        const GenerationObserver observer = [&](const GenerationReport& r) {
            QVERIFY(r.best && r.kinematics);
            seen.push_back({r.generation, r.run, r.ligand, r.bestEnergy, r.meanEnergy,
                            r.kinematics->coordinates(*r.best)});
        };
        LgaRunSetup s = setup();
        s.observer = &observer;
        const DockRun run = runLga(s);

        QVERIFY(run.generations > 2);
        QCOMPARE(static_cast<long>(seen.size()), run.generations);
        for (size_t i = 0; i < seen.size(); ++i) {
            QCOMPARE(seen[i].generation, static_cast<long>(i + 1));
            QCOMPARE(seen[i].run, 2);
            QCOMPARE(seen[i].ligand, 1L);
            QVERIFY(seen[i].best <= seen[i].mean);
            // The reported genotype is the one with the reported energy.
            QVERIFY(std::abs(scoring_.evaluate(seen[i].coordinates, nullptr) - seen[i].best) <
                    1e-9);
            if (i > 0) // elitism: the best never gets worse
                QVERIFY(seen[i].best <= seen[i - 1].best + 1e-12);
        }
        // The last generation's best is the run's result.
        QCOMPARE(seen.back().best, run.searchEnergy);
        QCOMPARE(seen.back().coordinates.size(), run.coordinates.size());
        for (size_t a = 0; a < run.coordinates.size(); ++a)
            QVERIFY((seen.back().coordinates[a] - run.coordinates[a]).norm() < 1e-12);
    }

    void watchingDoesNotChangeTheRun() {
        const DockRun unwatched = runLga(setup());
        long reports = 0;
        const GenerationObserver observer = [&](const GenerationReport&) { ++reports; };
        LgaRunSetup s = setup();
        s.observer = &observer;
        const DockRun watched = runLga(s);
        QVERIFY(reports > 0);
        QCOMPARE(watched.searchEnergy, unwatched.searchEnergy);
        QCOMPARE(watched.evaluations, unwatched.evaluations);
        QCOMPARE(watched.generations, unwatched.generations);
        for (size_t a = 0; a < watched.coordinates.size(); ++a)
            QCOMPARE(watched.coordinates[a], unwatched.coordinates[a]);
    }

    void anEmptyObserverIsNeverCalled() {
        const GenerationObserver empty;
        LgaRunSetup s = setup();
        s.observer = &empty; // set but empty: the run must not call it (it would throw)
        const DockRun run = runLga(s);
        QVERIFY(run.generations > 0);
    }
};

QTEST_APPLESS_MAIN(TestDockObserver)
#include "test_dock_observer.moc"
