// AutoStop on the GPU (CudaDocker launches every live run up to the next checkpoint; the host
// tests each ligand's runs with dock::PooledAutoStop, the CPU engine's code) against the CPU
// reference: pausing a run between launches changes nothing in its search (a run launched every
// generation equals one launched once), a ligand's runs all stop at the same generation on both
// devices, the GPU's decisions follow its trace, and a ligand's result does not depend on the
// batch around it.
#include "GpuTestMain.h"

#include "backend/DeviceSelection.h"
#include "chem/LigandPreparation.h"
#include "chem/MoleculeReader.h"
#include "chem/ReceptorPreparation.h"
#include "cuda/DockGpu.h"
#include "dock/AutoStop.h"
#include "dock/DockEngine.h"
#include "dock/DockOptions.h"
#include "score/BoxConfig.h"
#include "score/DockingTarget.h"

#include <algorithm>
#include <memory>

using namespace pw;
using pw::test::shrinkDockingForRacecheck;
using pw::test::sized;
using pw::test::smallProblems;

namespace {

std::string complexFile(const char* id, const char* name) {
    return std::string(POSEWRIGHT_TEST_DATA) + "/complexes/" + id + "/" + name;
}

// 8 runs of the default search with 300k evaluations each: biotin converges well within.
dock::DockOptions options() {
    dock::DockOptions o;
    o.runs = 8;
    o.seed = 42;
    o.lga.maxEvaluations = sized(300000, 30000);
    shrinkDockingForRacecheck(o, 3000);
    return o;
}

void compareRuns(const cuda::GpuDockRun& a, const cuda::GpuDockRun& b) {
    QCOMPARE(a.energy, b.energy);
    QCOMPARE(a.generations, b.generations);
    QCOMPARE(a.evaluations, b.evaluations);
    QCOMPARE(a.autostopped, b.autostopped);
    QCOMPARE(a.autoStopGeneration, b.autoStopGeneration);
    QCOMPARE(a.coordinates.size(), b.coordinates.size());
    for (size_t k = 0; k < a.coordinates.size(); ++k)
        QVERIFY(a.coordinates[k] == b.coordinates[k]);
}

} // namespace

class TestDockAutoStopGpu : public QObject {
    Q_OBJECT
    Molecule receptor_, biotin_, other_;
    std::shared_ptr<DockingTarget> target_;

private slots:
    void initTestCase() {
        receptor_ = prepareReceptor(readMolecule(complexFile("1stp", "receptor.pdbqt")));
        biotin_ = prepareLigand(readMolecule(complexFile("1stp", "ligand_xtal.pdbqt")));
        other_ = prepareLigand(readMolecule(complexFile("3ce3", "ligand_xtal.pdbqt")));
        target_ = std::make_shared<DockingTarget>(
            receptor_, readBoxConfig(complexFile("1stp", "box.txt")), ScoringKind::Vina, 0);
        target_->gridFor(DockingTarget::commonLigandTypes());
    }

    // A launch per generation (AutoStop on, but a test that can never pass) against one launch
    // for the whole run (AutoStop off): the state kept in global memory between launches
    // (population, energies, generation, evaluations) continues the search exactly.
    void pausingBetweenLaunchesChangesNothing() {
        cuda::CudaDocker docker(0);
        dock::DockOptions once = options();
        once.runs = 4;
        once.lga.maxEvaluations = sized(60000, 8000);
        once.lga.populationSize = sized(150, 30); // several generations in small mode too
        shrinkDockingForRacecheck(once);
        once.lga.autoStop = false;
        dock::DockOptions stepped = once;
        stepped.lga.autoStop = true;
        stepped.lga.autoStopQuorum = 1.0;
        stepped.lga.autoStopWindow = 1000000;
        const auto a = docker.dock(*target_, {biotin_, other_}, once);
        const auto b = docker.dock(*target_, {biotin_, other_}, stepped);
        QCOMPARE(a.size(), b.size());
        for (size_t i = 0; i < a.size(); ++i) {
            QVERIFY(a[i].generations > 1); // paused at least once
            QVERIFY(!b[i].autostopped);
            compareRuns(a[i], b[i]);
        }
        QCOMPARE(int(docker.lastAutoStopTraces().size()), 2);
        QVERIFY(!docker.lastAutoStopTraces()[0].empty());
    }

    // The stop itself, on both devices: with a criterion every checkpoint meets (any run agrees,
    // any progress counts as none) the ligand's runs must all stop at generation window + 1 on
    // the GPU as on the CPU, well within the budget, and the trace says so. (With the default
    // criterion the two devices' searches differ -- float energies, the GPU's own draws from the
    // same streams -- so whether and when biotin converges differs too: see the next test.)
    void allRunsStopTogetherOnBothDevices() {
        const dock::DockTarget target = dock::DockTarget::forVina(target_);
        DeviceRequest request;
        request.kind = DeviceRequest::Kind::Cuda;
        std::string note;
        auto gpu = createBackend(request, 0, note);
        QVERIFY2(gpu && gpu->isGpu(), note.c_str());
        dock::DockOptions o = options();
        o.lga.autoStopTolerance = 1000;
        o.lga.autoStopProgress = 1000;
        o.lga.autoStopWindow = 2;
        o.lga.maxGenerations = 1000;
        if (!pw::test::racecheckProblems())
            o.lga.populationSize = sized(150, 30); // small mode: 3 generations within 30k
        std::vector<dock::LigandDockResult> g, c;
        gpu->dock(target, {biotin_}, o, g, nullptr, &biotin_);
        dock::dockLigands(target, {biotin_}, o, c, nullptr, &biotin_);
        QCOMPARE(c[0].autoStopGeneration, 3L);
        QCOMPARE(g[0].autoStopGeneration, 3L);
        for (const auto* r : {&g[0], &c[0]}) {
            QCOMPARE(int(r->autoStopTrace.size()), 3);
            QVERIFY(r->autoStopTrace.back().converged && !r->autoStopTrace[1].converged);
            QCOMPARE(r->autoStopTrace.back().agreeing, o.runs);
            for (const dock::DockRun& run : r->runs) {
                QVERIFY(run.autoStopped);
                QCOMPARE(run.generations, 3L);
                QVERIFY(run.evaluations < o.lga.maxEvaluations);
            }
        }
    }

    // The default criterion on biotin (8 runs): the GPU's decision at every checkpoint is the
    // pooled test's on the values it recorded, and when it stops every run stops there.
    void gpuDecisionsFollowTheTrace() {
        if (smallProblems())
            QSKIP("small-problem mode: the budget is too small to converge");
        cuda::CudaDocker docker(0);
        const dock::DockOptions o = options();
        const std::vector<long> keys{0};
        const auto runs = docker.dock(*target_, {biotin_}, o, nullptr, &keys);
        const auto& trace = docker.lastAutoStopTraces().at(0);
        for (const dock::AutoStopCheck& k : trace)
            qInfo("GPU, biotin, generation %ld: best %.3f, %d of 8 runs within %.2f", k.generation,
                  k.best, k.agreeing, o.lga.autoStopTolerance);
        QVERIFY(!trace.empty());
        dock::PooledAutoStop replay(o.lga, o.runs);
        for (const dock::AutoStopCheck& k : trace) {
            std::vector<double> bests(o.runs, k.best + o.lga.autoStopTolerance + 1.0);
            for (int r = 0; r < k.agreeing; ++r)
                bests[r] = k.best;
            QCOMPARE(replay.check(k.generation, bests), k.converged);
        }
        const long stop = runs[0].autoStopGeneration;
        QCOMPARE(stop > 0, trace.back().converged);
        for (const cuda::GpuDockRun& r : runs) {
            QCOMPARE(r.autoStopGeneration, stop);
            QCOMPARE(r.autostopped, stop > 0);
            if (stop > 0)
                QCOMPARE(long(r.generations), stop);
            else
                QVERIFY(r.evaluations >= o.lga.maxEvaluations);
        }
    }

    // Biotin's runs alone and beside another ligand (its stream keys the same): the same
    // launches, the same stop, the same output; the other ligand stops at its own generation, so
    // the later launches carry only part of the runs.
    void aLigandsResultDoesNotDependOnItsBatch() {
        cuda::CudaDocker docker(0);
        const dock::DockOptions o = options();
        const std::vector<long> aloneKeys{7}, pairKeys{3, 7};
        const auto alone = docker.dock(*target_, {biotin_}, o, nullptr, &aloneKeys);
        const auto pair = docker.dock(*target_, {other_, biotin_}, o, nullptr, &pairKeys);
        QCOMPARE(int(pair.size()), 2 * o.runs);
        for (int r = 0; r < o.runs; ++r)
            compareRuns(alone[r], pair[o.runs + r]);
        qInfo("biotin stopped at generation %ld, the other ligand at %ld",
              alone[0].autoStopGeneration, pair[0].autoStopGeneration);
        docker.setLongestFirst(false);
        const auto inOrder = docker.dock(*target_, {other_, biotin_}, o, nullptr, &pairKeys);
        for (size_t i = 0; i < pair.size(); ++i)
            compareRuns(pair[i], inOrder[i]);
    }
};

POSEWRIGHT_GPU_TEST_MAIN(TestDockAutoStopGpu)
#include "test_dock_autostop_gpu.moc"
