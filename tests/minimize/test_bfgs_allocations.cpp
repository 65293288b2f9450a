// Tests that the minimizer's hot loop allocates nothing once its workspace and result have been
// used (global operator new is counted in this executable), and reports the per-step overhead.
#include "core/PoseTestLigands.h"

#include "minimize/BfgsMinimizer.h"

#include <QtTest>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <new>

namespace {
std::atomic<long> allocations{0};
std::atomic<bool> counting{false};
} // namespace

void* operator new(std::size_t size) {
    if (counting.load(std::memory_order_relaxed))
        allocations.fetch_add(1, std::memory_order_relaxed);
    if (void* p = std::malloc(size ? size : 1))
        return p;
    throw std::bad_alloc();
}
void operator delete(void* p) noexcept {
    std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
    std::free(p);
}

using namespace pw;
using namespace pw::test;

class TestBfgsAllocations : public QObject {
    Q_OBJECT
private slots:
    void secondRunAllocatesNothing_data() {
        QTest::addColumn<int>("search");
        QTest::newRow("strong-wolfe") << static_cast<int>(LineSearchKind::StrongWolfe);
        QTest::newRow("armijo") << static_cast<int>(LineSearchKind::Armijo);
        QTest::newRow("vina") << -1;
    }
    void secondRunAllocatesNothing() {
        QFETCH(int, search);
        const Molecule mol = readPdbqtLigand(complexLigand("1iep"));
        LigandKinematics kin(mol);
        std::mt19937_64 rng(4);
        const PullAndRepel energy = makePullAndRepel(mol, kin.coordinates(randomPose(kin, rng)));
        CartesianPoseObjective f(kin, std::cref(energy));
        MinimizeOptions o =
            search < 0 ? MinimizeOptions::vinaLocalOnly(kin.atomCount()) : MinimizeOptions{};
        if (search >= 0)
            o.lineSearch = static_cast<LineSearchKind>(search);
        MinimizerWorkspace ws;
        MinimizeResult result;
        const Pose start = randomPose(kin, rng);
        BfgsMinimizer::minimize(f, start, o, ws, result); // sizes everything

        allocations = 0;
        counting = true;
        BfgsMinimizer::minimize(f, start, o, ws, result);
        counting = false;
        QVERIFY(result.iterations > 5);
        QCOMPARE(allocations.load(), 0L);

        // Per-evaluation cost of kinematics + roll-up + BFGS bookkeeping (energy excluded as far
        // as possible: the pull term only), for the record.
        const std::vector<Vec3>& targets = energy.targets;
        CartesianPoseObjective cheap(kin,
                                     [&targets](const std::vector<Vec3>& x, std::vector<Vec3>& g) {
                                         double e = 0;
                                         for (size_t i = 0; i < x.size(); ++i) {
                                             const Vec3 d = x[i] - targets[i];
                                             e += d.squaredNorm();
                                             g[i] = 2 * d;
                                         }
                                         return e;
                                     });
        const auto t0 = std::chrono::steady_clock::now();
        long evaluations = 0;
        for (int i = 0; i < 200; ++i) {
            BfgsMinimizer::minimize(cheap, start, o, ws, result);
            evaluations += result.evaluations;
        }
        const double us =
            std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0)
                .count();
        qInfo("%s: %.3f us per evaluation (40 atoms, 7 torsions, incl. harmonic energy)",
              QTest::currentDataTag(), us / evaluations);
    }

    void countingWorks() {
        // The counter itself must see allocations, or the test above proves nothing.
        allocations = 0;
        counting = true;
        auto* v = new std::vector<double>(100);
        counting = false;
        delete v;
        QVERIFY(allocations.load() >= 2);
    }
};

QTEST_GUILESS_MAIN(TestBfgsAllocations)
#include "test_bfgs_allocations.moc"
