// Tests for the LGA's parts on a smooth energy with a known minimum: genotypes inside the box,
// crossover and mutation, each local search lowering the energy, a whole run finding the
// minimum, determinism of runs, and AutoStop.
#include "DockTestScoring.h"
#include "core/PoseTestLigands.h"
#include "dock/AutoStop.h"
#include "dock/DockObjective.h"
#include "dock/Genotype.h"
#include "dock/LgaRun.h"
#include "dock/LocalSearch.h"

#include <QtTest>

#include <algorithm>
#include <cmath>

using namespace pw;
using namespace pw::dock;

namespace {

SearchBox testBox() {
    SearchBox b;
    b.center = Vec3(1.0, 2.0, -1.0);
    b.size = Vec3(12.0, 10.0, 14.0);
    return b;
}

bool inBox(const Pose& p, const SearchBox& b) {
    return ((p.position - b.center).cwiseAbs().array() <= 0.5 * b.size.array() + 1e-12).all();
}

} // namespace

class TestDockSearch : public QObject {
    Q_OBJECT
    Molecule ligand_ = test::handBuiltLigand();
    LigandKinematics kin_{ligand_, RootOrigin::RootCentroid};
    // The minimum: the reference conformation moved to the box centre area.
    Pose target_ = [this] {
        Pose p = kin_.referencePose();
        p.position = testBox().center + Vec3(1.5, -1.0, 0.5);
        p.orientation = quaternionFromAxisAngle(Vec3(0, 0, 1), 0.7);
        p.torsions = {0.4, -1.2, 2.0};
        return p;
    }();
    test::WellScoring scoring_{kin_.coordinates(target_)};

private slots:
    void randomGenotypesAreInsideTheBox() {
        DockRandom rng(1, 0, 0);
        const SearchBox box = testBox();
        for (int i = 0; i < 1000; ++i) {
            const Pose p = randomGenotype(3, box, rng);
            QVERIFY(inBox(p, box));
            QVERIFY(std::abs(p.orientation.norm() - 1.0) < 1e-12);
            QCOMPARE(p.torsionCount(), 3);
            for (double t : p.torsions)
                QVERIFY(t >= -M_PI && t < M_PI);
        }
    }
    void genotypeGivesARigidlyMovedLigand() {
        // A genotype places the root fragment's centroid at its position and keeps every bond
        // length (the kinematics only turn torsions and move the whole).
        DockRandom rng(9, 0, 0);
        const SearchBox box = testBox();
        const std::vector<Vec3> ref = kin_.coordinates(kin_.referencePose());
        const auto& root = ligand_.torsionTree->nodes[0].atoms;
        for (int i = 0; i < 50; ++i) {
            const Pose p = randomGenotype(3, box, rng);
            const std::vector<Vec3> x = kin_.coordinates(p);
            Vec3 centroid = Vec3::Zero();
            for (int a : root)
                centroid += x[a];
            centroid /= double(root.size());
            QVERIFY((centroid - p.position).norm() < 1e-9);
            for (const auto& n : ligand_.torsionTree->nodes)
                for (size_t k = 1; k < n.atoms.size(); ++k)
                    QVERIFY(std::abs((x[n.atoms[k]] - x[n.atoms[0]]).norm() -
                                     (ref[n.atoms[k]] - ref[n.atoms[0]]).norm()) < 1e-9);
        }
    }
    void crossoverTakesEveryGeneFromAParent() {
        DockRandom rng(2, 0, 0);
        const SearchBox box = testBox();
        bool mixed = false;
        for (int i = 0; i < 200; ++i) {
            const Pose a = randomGenotype(3, box, rng), b = randomGenotype(3, box, rng);
            Pose c;
            crossover(a, b, c, rng);
            int fromA = 0, fromB = 0;
            for (int d = 0; d < 3; ++d) {
                QVERIFY(c.position[d] == a.position[d] || c.position[d] == b.position[d]);
                (c.position[d] == a.position[d] ? fromA : fromB)++;
            }
            QVERIFY(c.orientation.coeffs() == a.orientation.coeffs() ||
                    c.orientation.coeffs() == b.orientation.coeffs());
            for (int t = 0; t < 3; ++t) {
                QVERIFY(c.torsions[t] == a.torsions[t] || c.torsions[t] == b.torsions[t]);
                (c.torsions[t] == a.torsions[t] ? fromA : fromB)++;
            }
            QVERIFY(inBox(c, box));
            mixed = mixed || (fromA > 0 && fromB > 0);
        }
        QVERIFY(mixed);
    }
    void mutationStaysInBoundsAndFollowsTheRate() {
        DockRandom rng(3, 0, 0);
        SearchBox box = testBox();
        LgaOptions o;
        o.mutationRate = 1.0; // every gene moves
        for (int i = 0; i < 500; ++i) {
            Pose p = randomGenotype(3, box, rng);
            p.position = box.center + 0.5 * box.size; // a corner: moves must be clamped
            const Pose before = p;
            mutate(p, o, box, rng);
            QVERIFY(inBox(p, box));
            QVERIFY(std::abs(p.orientation.norm() - 1.0) < 1e-12);
            for (int t = 0; t < 3; ++t) {
                QVERIFY(p.torsions[t] >= -M_PI && p.torsions[t] <= M_PI);
                QVERIFY(p.torsions[t] != before.torsions[t]);
                QVERIFY(std::abs(normalizeAngle(p.torsions[t] - before.torsions[t])) <=
                        o.maxAngleMutationDegrees * M_PI / 180 + 1e-12);
            }
            const double turned =
                2 * std::acos(std::min(1.0, std::abs(p.orientation.dot(before.orientation))));
            QVERIFY(turned <= o.maxAngleMutationDegrees * M_PI / 180 + 1e-9);
        }
        o.mutationRate = 0.0;
        Pose p = randomGenotype(3, box, rng);
        const Pose before = p;
        mutate(p, o, box, rng);
        QVERIFY(p.position == before.position && p.torsions == before.torsions);
    }
    void eachLocalSearchLowersTheEnergy_data() {
        QTest::addColumn<int>("method");
        QTest::newRow("sw") << int(LocalSearchMethod::SolisWets);
        QTest::newRow("adadelta") << int(LocalSearchMethod::Adadelta);
        QTest::newRow("bfgs") << int(LocalSearchMethod::Bfgs);
    }
    void eachLocalSearchLowersTheEnergy() {
        QFETCH(int, method);
        const auto m = static_cast<LocalSearchMethod>(method);
        const SearchBox box = testBox();
        LgaOptions o;
        DockObjective f(kin_, scoring_);
        LocalSearchWorkspace ws;
        DockRandom rng(4, 0, 0);
        double totalStart = 0, totalEnd = 0;
        for (int i = 0; i < 20; ++i) {
            // Starts near the minimum (within the basin a local search is for).
            Pose p = target_;
            p.position += Vec3(rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1));
            p.orientation = quaternionFromAxisAngle(randomAxis(rng), 0.5) * p.orientation;
            for (double& t : p.torsions)
                t = normalizeAngle(t + rng.uniform(-0.6, 0.6));
            double e = f.energy(p);
            const double start = e;
            const long before = f.evaluations();
            const long used = localSearch(m, f, p, e, o, box, rng, ws);
            QCOMPARE(used, f.evaluations() - before);
            QVERIFY(used > 0);
            QVERIFY(e <= start);
            QVERIFY(std::abs(e - f.energy(p)) < 1e-9); // the reported energy is the pose's
            QVERIFY(inBox(p, box));
            totalStart += start;
            totalEnd += e;
        }
        // Clearly lower on average: at most a fifth of where they started.
        QVERIFY2(totalEnd < 0.2 * totalStart,
                 qPrintable(QString("start %1 end %2").arg(totalStart).arg(totalEnd)));
    }
    // AutoDock-GPU's early stop of ADADELTA (AdadeltaOptions::stopRhoLowerBound): off, every
    // search spends its iterations; on, searches end once improvements stop (never before 29
    // iterations) and still lower the energy.
    void adadeltaEarlyStopEndsStalledSearches() {
        const SearchBox box = testBox();
        LgaOptions o;
        DockObjective f(kin_, scoring_);
        LocalSearchWorkspace ws;
        DockRandom rng(5, 0, 0);
        long usedOff = 0, usedOn = 0, shortest = o.localSearchIterations;
        for (int i = 0; i < 10; ++i) {
            Pose start = target_;
            start.position += Vec3(rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1));
            const double e0 = f.energy(start);
            for (const double bound : {0.0, 0.01}) {
                o.adadelta.stopRhoLowerBound = bound;
                Pose p = start;
                double e = e0;
                const long used = localSearch(LocalSearchMethod::Adadelta, f, p, e, o, box, rng, ws);
                QVERIFY(e <= e0);
                if (bound == 0) {
                    QCOMPARE(used, long(o.localSearchIterations));
                    usedOff += used;
                } else {
                    QVERIFY(used >= 29);
                    usedOn += used;
                    shortest = std::min(shortest, used);
                }
            }
        }
        qInfo("ADADELTA evaluations over 10 searches: %ld without the early stop, %ld with it "
              "(shortest %ld)", usedOff, usedOn, shortest);
        QVERIFY(shortest < o.localSearchIterations);
    }

    void aRunFindsTheMinimumDeterministically_data() {
        QTest::addColumn<int>("method");
        QTest::newRow("sw") << int(LocalSearchMethod::SolisWets);
        QTest::newRow("adadelta") << int(LocalSearchMethod::Adadelta);
        QTest::newRow("bfgs") << int(LocalSearchMethod::Bfgs);
    }
    void aRunFindsTheMinimumDeterministically() {
        QFETCH(int, method);
        LgaRunSetup s;
        s.kinematics = &kin_;
        s.scoring = &scoring_;
        s.box = testBox();
        s.options.populationSize = 50;
        s.options.localSearch = static_cast<LocalSearchMethod>(method);
        s.options.localSearchIterations = 100;
        s.options.autoStop = false;
        s.evaluationBudget = 150000;
        s.seed = 11;
        s.ligand = 2;
        s.run = 3;
        const DockRun a = runLga(s);
        QVERIFY2(a.searchEnergy < 0.1, // RMSD below 0.1 A over 11 atoms
                 qPrintable(QString::number(a.searchEnergy)));
        QVERIFY(a.evaluations >= s.evaluationBudget);
        QVERIFY(a.generations > 0);
        QCOMPARE(int(a.coordinates.size()), kin_.atomCount());
        const DockRun b = runLga(s);
        QCOMPARE(a.searchEnergy, b.searchEnergy);
        QVERIFY(a.pose.position == b.pose.position && a.pose.torsions == b.pose.torsions);
        QCOMPARE(a.evaluations, b.evaluations);
        s.run = 4; // another stream
        s.evaluationBudget = 2000;
        const DockRun c = runLga(s);
        s.run = 3;
        const DockRun d = runLga(s);
        QVERIFY(c.pose.position != d.pose.position);
    }
    // The pooled test: a quorum of runs at the overall best, and no progress over the window.
    void pooledAutoStopNeedsAQuorumAndNoProgress() {
        LgaOptions o; // frequency 1, window 4, tolerance 0.15, quorum 0.25 (3 to 10 runs)
        PooledAutoStop stop(o, 20);
        QCOMPARE(stop.quorum(), 5);
        std::vector<double> best(20, -5.0);
        for (int r = 0; r < 5; ++r)
            best[r] = -8.0 + 0.01 * r; // 5 runs within 0.15 of -8
        int stoppedAt = -1;
        for (int g = 1; g <= 10 && stoppedAt < 0; ++g)
            if (stop.check(g, best))
                stoppedAt = g;
        QCOMPARE(stoppedAt, 5); // checks 1..4 fill the window; 5 is 4 checks after 1
        QCOMPARE(int(stop.trace().size()), 5);
        QCOMPARE(stop.trace().back().agreeing, 5);
        QCOMPARE(stop.trace().back().best, -8.0);
        QVERIFY(stop.trace().back().converged && !stop.trace()[3].converged);

        PooledAutoStop fewAgree(o, 20);
        best[4] = -7.8; // 4 runs only
        for (int g = 1; g <= 30; ++g)
            QVERIFY(!fewAgree.check(g, best));
        // ...until the default stagnation: 30 checks without progress after the first.
        QVERIFY(fewAgree.check(31, best));
        QVERIFY(!fewAgree.trace()[29].converged && fewAgree.trace()[30].agreeing == 4);

        PooledAutoStop improving(o, 20);
        for (int g = 1; g <= 20; ++g) {
            std::vector<double> e(20, -6.0 - 0.02 * g); // every run agrees, the best moves
            QVERIFY(!improving.check(g, e));
        }
        // A small batch needs 3 runs (or all, below 3); a single run never stops.
        QCOMPARE(PooledAutoStop(o, 8).quorum(), 3);
        QCOMPARE(PooledAutoStop(o, 40).quorum(), 10);
        QCOMPARE(PooledAutoStop(o, 100).quorum(), 10); // the cap: ten agreeing runs are enough
        LgaOptions uncapped = o;
        uncapped.autoStopQuorumCap = 0;
        QCOMPARE(PooledAutoStop(uncapped, 100).quorum(), 25);
        uncapped.autoStopQuorumCap = 2; // never below kMinAgreeingRuns
        QCOMPARE(PooledAutoStop(uncapped, 100).quorum(), 3);
        QCOMPARE(PooledAutoStop(o, 2).quorum(), 2);
        QCOMPARE(PooledAutoStop(o, 1).quorum(), 2);
        PooledAutoStop single(o, 1);
        for (int g = 1; g <= 10; ++g)
            QVERIFY(!single.check(g, {-8.0}));
        // Stagnation: stops without a quorum after that many still checks (0: never).
        o.autoStopStagnation = 0;
        PooledAutoStop never(o, 20);
        for (int g = 1; g <= 100; ++g)
            QVERIFY(!never.check(g, best));
        o.autoStopStagnation = 6;
        PooledAutoStop stagnant(o, 20);
        std::vector<double> lone(20, -5.0);
        lone[0] = -9.0; // one run alone at the best
        int stagnantAt = -1;
        for (int g = 1; g <= 20 && stagnantAt < 0; ++g)
            if (stagnant.check(g, lone))
                stagnantAt = g;
        QCOMPARE(stagnantAt, 7);
    }
    void autoStopCheckpoints() {
        LgaOptions o;
        o.autoStopFrequency = 5;
        o.maxGenerations = 12;
        PooledAutoStop stop(o, 20);
        QVERIFY(!stop.isCheckpoint(0) && stop.isCheckpoint(5) && !stop.isCheckpoint(6));
        QCOMPARE(stop.nextCheckpoint(0), 5L);
        QCOMPARE(stop.nextCheckpoint(5), 10L);
        QCOMPARE(stop.nextCheckpoint(10), 12L); // the cap
        o.autoStop = false;
        PooledAutoStop off(o, 20);
        QVERIFY(!off.isCheckpoint(5));
        QCOMPARE(off.nextCheckpoint(0), 12L);
    }
    // A run advanced in steps searches exactly as one advanced at once.
    void aRunInStepsEqualsOneStep() {
        LgaRunSetup s;
        s.kinematics = &kin_;
        s.scoring = &scoring_;
        s.box = testBox();
        s.options.populationSize = 30;
        s.options.localSearchIterations = 30;
        s.evaluationBudget = 40000;
        s.seed = 5;
        const DockRun whole = runLga(s);
        LgaRun stepped(s);
        for (long g = 1; !stepped.ended(); ++g) {
            stepped.advance(g);
            QVERIFY(stepped.generation() <= g);
        }
        const DockRun r = stepped.result();
        QCOMPARE(r.searchEnergy, whole.searchEnergy);
        QCOMPARE(r.generations, whole.generations);
        QCOMPARE(r.evaluations, whole.evaluations);
        QVERIFY(r.pose.position == whole.pose.position && r.pose.torsions == whole.pose.torsions);
        QCOMPARE(stepped.bestEnergy(), whole.searchEnergy);
    }
};

QTEST_APPLESS_MAIN(TestDockSearch)
#include "test_dock_search.moc"
