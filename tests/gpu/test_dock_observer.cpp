// The GPU docking search's live view (DockOptions::onGeneration on CudaDocker): reports arrive
// from the calling thread while the kernel runs, each run's generations increase, the reported
// best genotype re-scored by the CPU's search objective equals the reported best energy (float
// vs double: 0.01 kcal/mol), the last report of a run is its result, and a watched search gives
// exactly the output of an unwatched one with the same seed.
#include "GpuTestMain.h"

#include "chem/LigandPreparation.h"
#include "chem/MoleculeReader.h"
#include "chem/ReceptorPreparation.h"
#include "core/LigandKinematics.h"
#include "core/Progress.h"
#include "cuda/DockGpu.h"
#include "dock/DockOptions.h"
#include "dock/DockTarget.h"
#include "dock/LigandDockScoring.h"
#include "score/BoxConfig.h"
#include "score/DockingTarget.h"

#include <cmath>
#include <map>
#include <thread>
#include <utility>
#include <vector>

using namespace pw;

namespace {

struct Seen {
    long ligand = 0;
    int run = 0;
    long generation = 0;
    double best = 0, mean = 0;
    std::vector<Vec3> coordinates;
};

struct Complex {
    Molecule ligand;
    std::shared_ptr<DockingTarget> target;
};

Complex load1stp() {
    const std::string dir = std::string(POSEWRIGHT_TEST_DATA) + "/complexes/1stp/";
    Complex c;
    const Molecule receptor = prepareReceptor(readMolecule(dir + "receptor.pdbqt"));
    c.ligand = prepareLigand(readMolecule(dir + "ligand_xtal.pdbqt"));
    c.target = std::make_shared<DockingTarget>(receptor, readBoxConfig(dir + "box.txt"),
                                               ScoringKind::Vina, 0);
    c.target->gridFor(DockingTarget::commonLigandTypes());
    return c;
}

dock::DockOptions options() {
    dock::DockOptions o;
    o.runs = 4;
    o.seed = 11;
    // Tens of generations: several looks at every run (small-problem mode: a few generations,
    // still several looks, since a sanitizer slows each generation past the report interval).
    o.lga.maxEvaluations = pw::test::sized(1500000, 200000);
    pw::test::shrinkDockingForRacecheck(o, 3000); // ~17 generations: still several looks
    return o;
}

} // namespace

class TestDockObserverGpu : public QObject {
    Q_OBJECT
    Complex c_ = load1stp();

private slots:
    void reportsArriveAndMatchTheCpu() {
        cuda::CudaDocker docker(0);
        dock::DockOptions o = options();
        std::vector<Seen> seen;
        const std::thread::id caller = std::this_thread::get_id();
        bool otherThread = false;
        o.onGeneration = [&](const dock::GenerationReport& r) {
            otherThread |= std::this_thread::get_id() != caller;
            QVERIFY(r.best && r.kinematics);
            seen.push_back({r.ligand, r.run, r.generation, r.bestEnergy, r.meanEnergy,
                            r.kinematics->coordinates(*r.best)});
        };
        Progress progress; // the app watches with a progress as well (the other poll path)
        long progressCalls = 0;
        progress.onProgress = [&](long, long) { ++progressCalls; };
        const std::vector<long> keys = {3, 8}; // the stream keys are the reports' ligand numbers
        const auto runs = docker.dock(*c_.target, {c_.ligand, c_.ligand}, o, &progress, &keys);
        QCOMPARE(int(runs.size()), 8);
        QVERIFY(!otherThread);
        QVERIFY(progressCalls >= 1);

        const dock::DockTarget target = dock::DockTarget::forVina(c_.target);
        const auto scoring = dock::makeLigandDockScoring(target, c_.ligand);
        std::map<std::pair<long, int>, std::vector<const Seen*>> byRun;
        for (const Seen& s : seen)
            byRun[{s.ligand, s.run}].push_back(&s);
        QCOMPARE(int(byRun.size()), 8); // every run was watched
        long reports = 0;
        for (const cuda::GpuDockRun& g : runs) {
            const auto& list = byRun[{keys[g.ligand], g.run}];
            QVERIFY(!list.empty());
            for (size_t i = 1; i < list.size(); ++i)
                QVERIFY(list[i]->generation > list[i - 1]->generation);
            for (const Seen* s : list) {
                QVERIFY(s->generation >= 1 && s->generation <= g.generations);
                // (a float mean of nearly equal energies may round a little below their best)
                QVERIFY(s->best <= s->mean + 1e-3);
                const double cpu = scoring->evaluate(s->coordinates, nullptr);
                const double tol = std::max(0.01, 1e-4 * std::abs(cpu));
                QVERIFY2(std::abs(cpu - s->best) <= tol,
                         qPrintable(QString("ligand %1 run %2 generation %3: reported %4, CPU %5")
                                        .arg(s->ligand)
                                        .arg(s->run)
                                        .arg(s->generation)
                                        .arg(s->best)
                                        .arg(cpu)));
            }
            // The last look is the run's end: its generation count, energy and pose.
            const Seen& last = *list.back();
            QCOMPARE(last.generation, long(g.generations));
            QCOMPARE(last.best, g.energy);
            QCOMPARE(last.coordinates.size(), g.coordinates.size());
            for (size_t a = 0; a < g.coordinates.size(); ++a)
                QVERIFY((last.coordinates[a] - g.coordinates[a]).norm() < 1e-3);
            reports += static_cast<long>(list.size());
        }
        qInfo("%ld reports for 8 runs of %d generations (first run)", reports,
              runs.front().generations);
        QVERIFY(reports > 8); // looks during the runs, not only the final one
    }

    void watchingChangesNothing() {
        cuda::CudaDocker docker(0);
        dock::DockOptions o = options();
        const auto plain = docker.dock(*c_.target, {c_.ligand}, o);
        long reports = 0;
        o.onGeneration = [&](const dock::GenerationReport&) { ++reports; };
        const auto watched = docker.dock(*c_.target, {c_.ligand}, o); // no progress: watch only
        QVERIFY(reports >= long(watched.size()));
        QCOMPARE(watched.size(), plain.size());
        for (size_t i = 0; i < plain.size(); ++i) {
            QCOMPARE(watched[i].energy, plain[i].energy);
            QCOMPARE(watched[i].evaluations, plain[i].evaluations);
            QCOMPARE(watched[i].generations, plain[i].generations);
            QCOMPARE(watched[i].pose.torsions, plain[i].pose.torsions);
            for (size_t a = 0; a < plain[i].coordinates.size(); ++a)
                QVERIFY(watched[i].coordinates[a] == plain[i].coordinates[a]);
        }
    }

    // Only the batch's first 256 runs are watched (a screen is not streamed to the host).
    void onlyTheFirstRunsAreWatched() {
        cuda::CudaDocker docker(0);
        dock::DockOptions o = options();
        o.runs = 300;
        o.lga.maxEvaluations = 20000;
        pw::test::shrinkDockingForRacecheck(o, 200);
        std::map<int, long> runsSeen;
        o.onGeneration = [&](const dock::GenerationReport& r) { ++runsSeen[r.run]; };
        const auto runs = docker.dock(*c_.target, {c_.ligand}, o);
        QCOMPARE(int(runs.size()), 300);
        QCOMPARE(int(runsSeen.size()), 256);
        QCOMPARE(runsSeen.begin()->first, 0);
        QCOMPARE(runsSeen.rbegin()->first, 255);
    }
};

POSEWRIGHT_GPU_TEST_MAIN(TestDockObserverGpu)
#include "test_dock_observer.moc"
