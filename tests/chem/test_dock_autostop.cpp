// AutoStop pooled over a ligand's runs (dock::PooledAutoStop) in the CPU engine: an easy ligand
// (biotin in 1stp, Vina) stops well before its budget with all its runs together, at a checkpoint
// the test itself confirms from the engine's trace; its pose stays as good; a ligand's result does
// not depend on the batch around it, the threads or the group it lands in; off means every run
// spends its budget.
#include "chem/LigandPreparation.h"
#include "chem/MoleculeReader.h"
#include "chem/ReceptorPreparation.h"
#include "dock/AutoStop.h"
#include "dock/DockEngine.h"

#include <QtTest>

#include <memory>

using namespace pw;
using namespace pw::dock;

namespace {

std::string complexFile(const char* id, const char* name) {
    return std::string(POSEWRIGHT_TEST_DATA) + "/complexes/" + id + "/" + name;
}

// 8 runs, the default search (population 150, BFGS), a budget of 300k evaluations per run.
DockOptions options(int threads) {
    DockOptions o;
    o.runs = 8;
    o.seed = 42;
    o.threads = threads;
    o.lga.maxEvaluations = 300000;
    return o;
}

void compareLigand(const LigandDockResult& a, const LigandDockResult& b) {
    QCOMPARE(a.autoStopGeneration, b.autoStopGeneration);
    QCOMPARE(a.autoStopTrace.size(), b.autoStopTrace.size());
    QCOMPARE(a.runs.size(), b.runs.size());
    for (size_t r = 0; r < a.runs.size(); ++r) {
        QCOMPARE(a.runs[r].score, b.runs[r].score);
        QCOMPARE(a.runs[r].searchEnergy, b.runs[r].searchEnergy);
        QCOMPARE(a.runs[r].generations, b.runs[r].generations);
        QCOMPARE(a.runs[r].evaluations, b.runs[r].evaluations);
        QCOMPARE(a.runs[r].autoStopped, b.runs[r].autoStopped);
        QVERIFY(a.runs[r].coordinates == b.runs[r].coordinates);
    }
}

} // namespace

class TestDockAutoStop : public QObject {
    Q_OBJECT
    Molecule receptor_, crystal_, other_;
    std::shared_ptr<DockingTarget> target_;
    LigandDockResult alone_; // biotin docked alone with AutoStop (the first test)

private slots:
    void initTestCase() {
        receptor_ = prepareReceptor(readMolecule(complexFile("1stp", "receptor.pdbqt")));
        crystal_ = prepareLigand(readMolecule(complexFile("1stp", "ligand_xtal.pdbqt")));
        other_ = prepareLigand(readMolecule(complexFile("3ce3", "ligand_xtal.pdbqt")));
        target_ = std::make_shared<DockingTarget>(
            receptor_, readBoxConfig(complexFile("1stp", "box.txt")), ScoringKind::Vina, 2);
    }

    void anEasyLigandStopsEarlyWithAllItsRuns() {
        const DockTarget t = DockTarget::forVina(target_);
        std::vector<LigandDockResult> on, off;
        const BatchStatus s = dockLigands(t, {crystal_}, options(2), on, nullptr, &crystal_);
        QVERIFY(s.complete());
        const LigandDockResult& r = on[0];
        alone_ = r;
        QVERIFY2(r.error.empty(), r.error.c_str());
        QVERIFY(r.autoStopGeneration > 0);
        long evaluations = 0;
        for (const DockRun& run : r.runs) {
            QVERIFY(run.autoStopped);
            QCOMPARE(run.generations, r.autoStopGeneration);
            QVERIFY(run.evaluations < 300000);
            evaluations += run.evaluations;
        }
        // The trace: one check per generation, converged at the last one only, and a fresh
        // test fed the same run bests takes the same decisions.
        QCOMPARE(long(r.autoStopTrace.size()), r.autoStopGeneration);
        PooledAutoStop replay(options(2).lga, 8);
        for (const AutoStopCheck& c : r.autoStopTrace) {
            std::vector<double> bests(8, c.best + 1.0);
            for (int k = 0; k < c.agreeing; ++k)
                bests[k] = c.best;
            QCOMPARE(replay.check(c.generation, bests), c.converged);
            QCOMPARE(c.converged, c.generation == r.autoStopGeneration);
        }
        QVERIFY(r.autoStopTrace.back().agreeing >= 2);
        QVERIFY2(*r.clusters[0].rmsdToReference < 2.0,
                 qPrintable(QString::number(*r.clusters[0].rmsdToReference)));

        // Off: every run spends its budget, and the best found is no better than with the stop
        // by more than the tolerance.
        DockOptions o = options(2);
        o.lga.autoStop = false;
        dockLigands(t, {crystal_}, o, off, nullptr, &crystal_);
        QCOMPARE(off[0].autoStopGeneration, 0L);
        QVERIFY(off[0].autoStopTrace.empty());
        long offEvaluations = 0;
        for (const DockRun& run : off[0].runs) {
            QVERIFY(!run.autoStopped);
            QVERIFY(run.evaluations >= 300000);
            offEvaluations += run.evaluations;
        }
        double bestOn = 1e9, bestOff = 1e9;
        for (const DockRun& run : r.runs)
            bestOn = std::min(bestOn, run.searchEnergy);
        for (const DockRun& run : off[0].runs)
            bestOff = std::min(bestOff, run.searchEnergy);
        qInfo("biotin, 8 runs: %ld evaluations with AutoStop (generation %ld, best %.3f), %ld "
              "without (best %.3f)",
              evaluations, r.autoStopGeneration, bestOn, offEvaluations, bestOff);
        QVERIFY(evaluations < offEvaluations * 3 / 4);
        QVERIFY2(bestOn < bestOff + options(2).lga.autoStopTolerance,
                 qPrintable(QString("%1 against %2").arg(bestOn).arg(bestOff)));
    }

    // A criterion every checkpoint meets (any run agrees, any progress counts as none): the
    // runs stop together at generation window + 1, the trace records the checks before it.
    void anAlwaysMetCriterionStopsAfterTheWindow() {
        const DockTarget t = DockTarget::forVina(target_);
        DockOptions o = options(2);
        o.lga.autoStopTolerance = 1000;
        o.lga.autoStopProgress = 1000;
        o.lga.autoStopWindow = 2;
        std::vector<LigandDockResult> r;
        dockLigands(t, {crystal_}, o, r);
        QCOMPARE(r[0].autoStopGeneration, 3L);
        QCOMPARE(int(r[0].autoStopTrace.size()), 3);
        QVERIFY(r[0].autoStopTrace.back().converged && !r[0].autoStopTrace[1].converged);
        QCOMPARE(r[0].autoStopTrace.back().agreeing, o.runs);
        for (const DockRun& run : r[0].runs) {
            QVERIFY(run.autoStopped);
            QCOMPARE(run.generations, 3L);
        }
    }

    // Biotin alone (above) and followed by another ligand on other threads: the same runs, the
    // same stop.
    void aLigandsResultDoesNotDependOnItsBatch() {
        QVERIFY(alone_.autoStopGeneration > 0); // the stop is part of what must not change
        const DockTarget t = DockTarget::forVina(target_);
        std::vector<LigandDockResult> pair;
        dockLigands(t, {crystal_, other_}, options(3), pair, nullptr, &crystal_);
        QCOMPARE(int(pair.size()), 2);
        QVERIFY2(pair[1].error.empty(), pair[1].error.c_str());
        compareLigand(alone_, pair[0]);
    }
};

QTEST_GUILESS_MAIN(TestDockAutoStop)
#include "test_dock_autostop.moc"
