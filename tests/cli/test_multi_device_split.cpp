// How a batch is cut between devices (engine/parallel/MultiDeviceBackend, issue 17), seen through
// the phase timings each device records (one entry per backend call) and a recording stand-in:
// docking is cut into chunks of at least the configured runs, handed out longest first to every
// lane (a device's second backend included), each ligand docked once with its own random
// stream; minimization cuts a batch finer than one piece per device only where each piece keeps
// 8,192 poses, and the lent form leaves the caller's ligands as they were; the results stay
// those of one device. CPU backends stand in for GPUs.
#include "backend/Backend.h"
#include "chem/LigandPreparation.h"
#include "chem/MoleculeReader.h"
#include "chem/ReceptorPreparation.h"
#include "core/PhaseTimings.h"
#include "dock/DockTarget.h"
#include "dock/LigandDockScoring.h"
#include "parallel/MultiDeviceBackend.h"
#include "score/BoxConfig.h"

#include "parallel/LanePool.h"
#include "parallel/WorkSplit.h"

#include <QtTest>

#include <atomic>
#include <chrono>
#include <future>
#include <mutex>
#include <thread>

#include "cli/CliRun.h"

using namespace pw;
using namespace pw::test;

namespace {

std::string data(const QString& rel) { return testData(rel).toStdString(); }

std::unique_ptr<MultiDeviceBackend> standIns(int devices, int chunksPerDevice) {
    std::vector<std::unique_ptr<Backend>> list;
    for (int i = 0; i < devices; ++i)
        list.push_back(makeCpuBackend(1));
    return std::make_unique<MultiDeviceBackend>(std::move(list), chunksPerDevice);
}

// A CPU backend that records the ligand range of every dock call, in call order.
class RecordingBackend final : public Backend {
public:
    struct Call {
        long first;
        size_t count;
    };
    RecordingBackend(std::mutex& m, std::vector<Call>& calls)
        : cpu_(makeCpuBackend(1)), m_(m), calls_(calls) {}
    std::string description() const override { return "recording " + cpu_->description(); }
    bool isGpu() const override { return false; }
    void minimize(const DockingTarget& target, const std::vector<Molecule>& ligands,
                  const MinimizeBatchOptions& options, std::vector<RefinementResult>& results,
                  Progress* progress) override {
        cpu_->minimize(target, ligands, options, results, progress);
    }
    BatchStatus dock(const dock::DockTarget& target, const std::vector<Molecule>& ligands,
                     const dock::DockOptions& options, std::vector<dock::LigandDockResult>& results,
                     Progress* progress, const Molecule* reference,
                     dock::LigandKeys keys) override {
        {
            std::lock_guard lock(m_);
            calls_.push_back({keys[0], ligands.size()});
        }
        if (busy_.exchange(true)) // a backend runs one launch at a time
            ++sharedEntries;
        const BatchStatus s =
            cpu_->dock(target, ligands, options, results, progress, reference, keys);
        busy_ = false;
        return s;
    }
    std::atomic<int> sharedEntries{0}; // dock calls that came while another one ran
    std::unique_ptr<OverlayBatch> prepareOverlay(const shape::ShapeModel& reference,
                                                 const shape::OverlayOptions& options) override {
        return cpu_->prepareOverlay(reference, options);
    }
    std::unique_ptr<LingoComparison> prepareLingo(const lingo::LingoSet& queries,
                                                  const lingo::LingoSet& database,
                                                  bool allVsAll) override {
        return cpu_->prepareLingo(queries, database, allVsAll);
    }

private:
    std::unique_ptr<Backend> cpu_;
    std::mutex& m_;
    std::vector<Call>& calls_;
    std::atomic<bool> busy_{false};
};

// A device that fails every minimization (a lost GPU).
class FailingBackend final : public Backend {
public:
    std::string description() const override { return "failing"; }
    bool isGpu() const override { return false; }
    void minimize(const DockingTarget&, const std::vector<Molecule>&, const MinimizeBatchOptions&,
                  std::vector<RefinementResult>&, Progress*) override {
        throw std::runtime_error("device lost");
    }
    std::unique_ptr<OverlayBatch> prepareOverlay(const shape::ShapeModel&,
                                                 const shape::OverlayOptions&) override {
        return nullptr;
    }
    std::unique_ptr<LingoComparison> prepareLingo(const lingo::LingoSet&, const lingo::LingoSet&,
                                                  bool) override {
        return nullptr;
    }
};

dock::DockOptions smallDock() {
    dock::DockOptions options;
    options.runs = 2;
    options.seed = 3;
    options.threads = 1;
    options.lga.populationSize = 10;
    options.lga.maxEvaluations = 500;
    options.lga.localSearchIterations = 10;
    return options;
}

// Every run of every ligand the same, to the bit: the output of one device.
void compareDocking(const std::vector<dock::LigandDockResult>& many,
                    const std::vector<dock::LigandDockResult>& one) {
    QCOMPARE(many.size(), one.size());
    for (size_t i = 0; i < one.size(); ++i) {
        QCOMPARE(many[i].ligand, one[i].ligand);
        QCOMPARE(many[i].error, one[i].error);
        QCOMPARE(many[i].runs.size(), one[i].runs.size());
        for (size_t r = 0; r < one[i].runs.size(); ++r) {
            QCOMPARE(many[i].runs[r].score, one[i].runs[r].score);
            QCOMPARE(many[i].runs[r].coordinates.size(), one[i].runs[r].coordinates.size());
            for (size_t a = 0; a < one[i].runs[r].coordinates.size(); ++a)
                QVERIFY(many[i].runs[r].coordinates[a] == one[i].runs[r].coordinates[a]);
        }
        QCOMPARE(many[i].clusters.size(), one[i].clusters.size());
        for (size_t c = 0; c < one[i].clusters.size(); ++c)
            QCOMPARE(many[i].clusters[c].bestScore, one[i].clusters[c].bestScore);
    }
}

// The 1iep box (Vina) and ligands of two sizes: biotin (16 heavy atoms, 5 torsions) and imatinib
// (37, more torsions).
struct TwoSizes {
    dock::DockTarget target = dock::DockTarget::forVina(std::make_shared<DockingTarget>(
        prepareReceptor(readMolecule(data("complexes/1iep/receptor.pdbqt"))),
        readBoxConfig(data("complexes/1iep/box.txt")), ScoringKind::Vina, 1));
    Molecule biotin = prepareLigand(readMolecule(data("complexes/1stp/ligand_xtal.pdbqt")));
    Molecule imatinib = prepareLigand(readMolecule(data("complexes/1iep/ligand_xtal.pdbqt")));
};

long callsOf(const PhaseTimings& t, const std::string& phase) {
    for (const PhaseTimings::Entry& e : t.entries())
        if (e.group == "cpu" && e.phase == phase)
            return e.count;
    return 0;
}

} // namespace

class TestMultiDeviceSplit : public QObject {
    Q_OBJECT

private slots:
    void smallDockGivesEachLaneOneLaunch() {
        const Molecule receptor = prepareReceptor(readMolecule(data("complexes/1stp/receptor.pdbqt")));
        auto vina = std::make_shared<DockingTarget>(
            receptor, readBoxConfig(data("complexes/1stp/box.txt")), ScoringKind::Vina, 1);
        const dock::DockTarget target = dock::DockTarget::forVina(vina);
        const Molecule biotin = prepareLigand(readMolecule(data("complexes/1stp/ligand_xtal.pdbqt")));
        std::vector<Molecule> ligands(9, biotin);
        dock::DockOptions options;
        options.runs = 2;
        options.seed = 3;
        options.threads = 1;
        options.lga.populationSize = 10;
        options.lga.maxEvaluations = 500;
        options.lga.localSearchIterations = 10;
        std::vector<dock::LigandDockResult> one, many;
        makeCpuBackend(1)->dock(target, ligands, options, one);
        PhaseTimings timings;
        options.timings = &timings;
        QVERIFY(standIns(3, 3)->dock(target, ligands, options, many).complete());
        // 18 runs, fewer than the default chunk's 528: one launch per lane (not 9)
        QCOMPARE(callsOf(timings, "search_and_rescore"), 3L);
        QCOMPARE(many.size(), one.size());
        for (size_t i = 0; i < one.size(); ++i) {
            QCOMPARE(many[i].ligand, one[i].ligand);
            QCOMPARE(many[i].clusters.size(), one[i].clusters.size());
            QCOMPARE(many[i].clusters[0].bestScore, one[i].clusters[0].bestScore);
        }
    }

    // Ligands of two sizes (biotin: 16 heavy atoms, 5 torsions; imatinib: 37, more torsions) in the
    // 1iep box, cut into one-ligand chunks: one lane takes them heaviest first; two devices with
    // a second lane each (four workers) dock every ligand exactly once; both give the one
    // device's output.
    void dockChunksLongestFirstSameOutput() {
        const TwoSizes c;
        const dock::DockTarget& target = c.target;
        const Molecule &biotin = c.biotin, &imatinib = c.imatinib;
        std::vector<Molecule> ligands{biotin, biotin, imatinib, biotin, imatinib, biotin, biotin};
        dock::DockOptions options = smallDock();
        QVERIFY(dockWork(imatinib, options) > dockWork(biotin, options));
        std::vector<dock::LigandDockResult> one;
        makeCpuBackend(1)->dock(target, ligands, options, one, nullptr, nullptr, 40);

        // One lane, chunks of >= 2 runs (one ligand each): heaviest chunks first.
        {
            std::mutex m;
            std::vector<RecordingBackend::Call> calls;
            std::vector<std::unique_ptr<Backend>> list;
            list.push_back(std::make_unique<RecordingBackend>(m, calls));
            MultiDeviceBackend multi(std::move(list));
            multi.setDockChunking(2, 8);
            std::vector<dock::LigandDockResult> many;
            QVERIFY(multi.dock(target, ligands, options, many, nullptr, nullptr, 40).complete());
            compareDocking(many, one);
            QCOMPARE(calls.size(), ligands.size()); // 14 runs / 2: 7 chunks, one ligand each
            QCOMPARE(calls[0].first, 42L);          // the first imatinib (input index 40 + 2)
            QCOMPARE(calls[1].first, 44L);          // the second
            for (size_t k = 2; k < calls.size(); ++k) // then the biotins, in input order
                QVERIFY(calls[k].first > calls[k - 1].first || k == 2);
            QCOMPARE(calls[2].first, 40L);
        }
        // Two devices, a second lane each: four workers, chunks of >= 4 runs.
        {
            std::mutex m;
            std::vector<RecordingBackend::Call> calls;
            std::vector<std::unique_ptr<Backend>> list;
            list.push_back(std::make_unique<RecordingBackend>(m, calls));
            list.push_back(std::make_unique<RecordingBackend>(m, calls));
            MultiDeviceBackend multi(std::move(list));
            multi.addDockLane(0, std::make_unique<RecordingBackend>(m, calls));
            multi.addDockLane(1, std::make_unique<RecordingBackend>(m, calls));
            QCOMPARE(multi.dockLaneCount(), size_t(4));
            QCOMPARE(multi.deviceCount(), 2);
            multi.setDockChunking(4, 2);
            PhaseTimings timings;
            dock::DockOptions timed = options;
            timed.timings = &timings;
            std::vector<dock::LigandDockResult> many;
            QVERIFY(multi.dock(target, ligands, timed, many, nullptr, nullptr, 40).complete());
            compareDocking(many, one);
            // 14 runs / 4 = 3 parts, raised to one per lane: 4 chunks covering each ligand once.
            QCOMPARE(calls.size(), size_t(4));
            std::vector<int> covered(ligands.size(), 0);
            for (const RecordingBackend::Call& c : calls)
                for (size_t i = 0; i < c.count; ++i)
                    ++covered[size_t(c.first - 40) + i];
            for (int n : covered)
                QCOMPARE(n, 1);
            // The extra lanes' phases are a group of their own ("cpu lane 2"), never added to
            // the device's group, whose phases would otherwise overlap.
            long deviceCalls = 0;
            for (const PhaseTimings::Entry& e : timings.entries()) {
                QVERIFY2(e.group == "cpu" || e.group == "cpu lane 2", e.group.c_str());
                if (e.group == "cpu" && e.phase == "search_and_rescore")
                    deviceCalls += e.count;
            }
            QVERIFY(deviceCalls <= 4); // the devices' own calls; the lanes' are apart
        }
    }

    // Two batches docked at once (a command hands over its next batch while the one before is
    // in flight): each equals one device's docking, every ligand docks once, and no lane runs
    // two chunks at the same time (the lanes are shared, not owned by a batch).
    void concurrentDocksShareTheLanes() {
        const TwoSizes c;
        const dock::DockTarget& target = c.target;
        const Molecule &biotin = c.biotin, &imatinib = c.imatinib;
        const std::vector<Molecule> first{imatinib, biotin, imatinib, biotin, biotin, imatinib};
        const std::vector<Molecule> second{biotin, biotin, imatinib, biotin, biotin};
        const dock::DockOptions options = smallDock();
        dock::prepareTargetFor(target, first); // concurrent batches need a target that is ready
        std::vector<dock::LigandDockResult> one1, one2;
        makeCpuBackend(1)->dock(target, first, options, one1, nullptr, nullptr, 0);
        makeCpuBackend(1)->dock(target, second, options, one2, nullptr, nullptr, 6);

        std::mutex m;
        std::vector<RecordingBackend::Call> calls;
        std::vector<RecordingBackend*> lanes;
        std::vector<std::unique_ptr<Backend>> list;
        for (int d = 0; d < 2; ++d) {
            list.push_back(std::make_unique<RecordingBackend>(m, calls));
            lanes.push_back(static_cast<RecordingBackend*>(list.back().get()));
        }
        MultiDeviceBackend multi(std::move(list));
        for (size_t d = 0; d < 2; ++d) {
            auto lane = std::make_unique<RecordingBackend>(m, calls);
            lanes.push_back(lane.get());
            multi.addDockLane(d, std::move(lane));
        }
        multi.setDockChunking(2, 8); // one ligand per chunk: many chunks for four lanes
        for (int repeat = 0; repeat < 3; ++repeat) {
            calls.clear();
            std::vector<dock::LigandDockResult> many1, many2;
            auto a = std::async(std::launch::async, [&] {
                return multi.dock(target, first, options, many1, nullptr, nullptr, 0);
            });
            auto b = std::async(std::launch::async, [&] {
                return multi.dock(target, second, options, many2, nullptr, nullptr, 6);
            });
            QVERIFY(a.get().complete());
            QVERIFY(b.get().complete());
            compareDocking(many1, one1);
            compareDocking(many2, one2);
            std::vector<int> covered(first.size() + second.size(), 0);
            for (const RecordingBackend::Call& c : calls)
                for (size_t i = 0; i < c.count; ++i)
                    ++covered[size_t(c.first) + i];
            for (int n : covered)
                QCOMPARE(n, 1);
        }
        for (RecordingBackend* lane : lanes)
            QCOMPARE(lane->sharedEntries.load(), 0);
    }

    // The pool: a free lane goes to the oldest batch waiting, on the least busy device.
    void lanePoolServesTheOldestBatchFirst() {
        LanePool pool({0, 1, 0, 1}); // two devices, two lanes each
        std::vector<LanePool::Lease> held;
        held.push_back(pool.acquire(0));
        held.push_back(pool.acquire(0));
        QVERIFY(held[0].lane() != held[1].lane());
        // The second lease went to the other device (its device had no busy lane).
        QCOMPARE(held[1].lane() % 2, 1 - held[0].lane() % 2);
        held.push_back(pool.acquire(0));
        held.push_back(pool.acquire(0));
        // All four held: batch 2 waits, then batch 1 waits; one lane freed goes to batch 1.
        std::mutex m;
        std::vector<long> order;
        auto waiter = [&](long batch) {
            LanePool::Lease lease = pool.acquire(batch);
            {
                std::lock_guard lock(m);
                order.push_back(batch);
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        };
        auto waitForWaiters = [&](size_t n) {
            for (int t = 0; t < 2000 && pool.waiting() < n; ++t)
                std::this_thread::sleep_for(std::chrono::milliseconds(5));
            return pool.waiting() == n;
        };
        std::thread late(waiter, 2);
        QVERIFY(waitForWaiters(1));
        std::thread early(waiter, 1);
        QVERIFY(waitForWaiters(2));
        {
            std::lock_guard lock(m);
            QVERIFY(order.empty()); // no lane was free
        }
        held.pop_back(); // one lane: batch 1 first, then (when it ends) batch 2
        early.join();
        late.join();
        QCOMPARE(order, (std::vector<long>{1, 2}));
    }

    // Lanes from a factory are made at the first docking batch only, one more per device.
    void dockLaneFactoryMakesLanesAtFirstDock() {
        const Molecule receptor = prepareReceptor(readMolecule(data("complexes/1stp/receptor.pdbqt")));
        auto vina = std::make_shared<DockingTarget>(
            receptor, readBoxConfig(data("complexes/1stp/box.txt")), ScoringKind::Vina, 1);
        const dock::DockTarget target = dock::DockTarget::forVina(vina);
        const Molecule biotin = prepareLigand(readMolecule(data("complexes/1stp/ligand_xtal.pdbqt")));
        const std::vector<Molecule> ligands(5, biotin);
        const dock::DockOptions options = smallDock();
        std::vector<dock::LigandDockResult> one, many;
        makeCpuBackend(1)->dock(target, ligands, options, one);
        auto multi = standIns(2, 1);
        std::vector<size_t> asked;
        multi->setDockLaneFactory(2, [&asked](size_t d) {
            asked.push_back(d);
            return makeCpuBackend(1);
        });
        QCOMPARE(multi->dockLaneCount(), size_t(2));
        QVERIFY(asked.empty());
        QVERIFY(multi->dock(target, ligands, options, many).complete());
        QCOMPARE(asked, (std::vector<size_t>{0, 1}));
        QCOMPARE(multi->dockLaneCount(), size_t(4));
        compareDocking(many, one);
        QVERIFY(multi->dock(target, ligands, options, many).complete()); // no more lanes
        QCOMPARE(multi->dockLaneCount(), size_t(4));
        compareDocking(many, one);
    }

    // The lent minimize: the same results as one device, and the caller's poses back in place.
    void minimizeLentLeavesLigandsInPlace() {
        const Molecule receptor = prepareReceptor(readMolecule(data("complexes/1iep/receptor.pdbqt")));
        DockingTarget target(receptor, readBoxConfig(data("complexes/1iep/box.txt")),
                             ScoringKind::Vina, 1);
        target.gridFor(DockingTarget::commonLigandTypes());
        std::vector<Molecule> ligands;
        for (int i = 0; i < 6; ++i)
            ligands.push_back(prepareLigand(readMolecule(
                data(QString("complexes/1iep/poses/pose%1.pdbqt").arg(i, 2, 10, QChar('0'))))));
        const std::vector<Molecule> before = ligands;
        MinimizeBatchOptions options;
        options.refinement = RefinementOptions::standard();
        options.refinement.minimize.maxIterations = 5;
        std::vector<RefinementResult> one, lent;
        makeCpuBackend(1)->minimize(target, ligands, options, one);
        auto multi = standIns(2, 3);
        minimizeBatch(*multi, target, ligands, options, lent);
        QCOMPARE(lent.size(), one.size());
        for (size_t i = 0; i < one.size(); ++i) {
            QCOMPARE(lent[i].score.affinity, one[i].score.affinity);
            QCOMPARE(lent[i].coordinates.size(), one[i].coordinates.size());
            for (size_t a = 0; a < one[i].coordinates.size(); ++a)
                QVERIFY(lent[i].coordinates[a] == one[i].coordinates[a]);
        }
        QCOMPARE(ligands.size(), before.size());
        for (size_t i = 0; i < before.size(); ++i) {
            QCOMPARE(ligands[i].name, before[i].name);
            QCOMPARE(ligands[i].atoms.size(), before[i].atoms.size());
            for (size_t a = 0; a < before[i].atoms.size(); ++a)
                QVERIFY(ligands[i].atoms[a].position == before[i].atoms[a].position);
            QVERIFY(ligands[i].torsionTree.has_value() == before[i].torsionTree.has_value());
        }
    }

    // Two lent batches in a row into one results vector (made beside the devices' work, each
    // device's piece results moved in): the second, smaller batch holds only its own results,
    // each one device's; a device that fails stops the batch with its message (no crash while
    // the results are still being made) and leaves the caller's ligands in place.
    void minimizeLentTwiceThenAFailingDevice() {
        const Molecule receptor = prepareReceptor(readMolecule(data("complexes/1iep/receptor.pdbqt")));
        DockingTarget target(receptor, readBoxConfig(data("complexes/1iep/box.txt")),
                             ScoringKind::Vina, 1);
        target.gridFor(DockingTarget::commonLigandTypes());
        std::vector<Molecule> ligands;
        for (int i = 0; i < 8; ++i)
            ligands.push_back(prepareLigand(readMolecule(
                data(QString("complexes/1iep/poses/pose%1.pdbqt").arg(i, 2, 10, QChar('0'))))));
        MinimizeBatchOptions options;
        options.refinement = RefinementOptions::standard();
        options.refinement.minimize.maxIterations = 5;
        std::vector<RefinementResult> one, lent;
        auto multi = standIns(2, 3);
        minimizeBatch(*multi, target, ligands, options, lent); // 8 poses
        std::vector<Molecule> fewer(ligands.begin() + 3, ligands.end());
        makeCpuBackend(1)->minimize(target, fewer, options, one);
        minimizeBatch(*multi, target, fewer, options, lent); // 5 poses into the same vector
        QCOMPARE(lent.size(), fewer.size());
        for (size_t i = 0; i < one.size(); ++i) {
            QCOMPARE(lent[i].score.affinity, one[i].score.affinity);
            QVERIFY(lent[i].coordinates == one[i].coordinates);
        }

        std::vector<std::unique_ptr<Backend>> devices;
        devices.push_back(std::make_unique<FailingBackend>()); // both: whichever takes a piece
        devices.push_back(std::make_unique<FailingBackend>());
        MultiDeviceBackend failing(std::move(devices), 3);
        const std::vector<Molecule> before = ligands;
        std::vector<RefinementResult> results;
        bool stopped = false;
        try {
            minimizeBatch(failing, target, ligands, options, results);
        } catch (const std::runtime_error& e) {
            stopped = true;
            QCOMPARE(QString(e.what()), QString("device lost"));
        }
        QVERIFY(stopped);
        QCOMPARE(ligands.size(), before.size());
        for (size_t i = 0; i < before.size(); ++i) {
            QCOMPARE(ligands[i].atoms.size(), before[i].atoms.size());
            QVERIFY(ligands[i].atoms[0].position == before[i].atoms[0].position);
        }
    }

    void minimizeCutsFinerOnlyForLargePieces() {
        const Molecule receptor = prepareReceptor(readMolecule(data("complexes/1iep/receptor.pdbqt")));
        DockingTarget target(receptor, readBoxConfig(data("complexes/1iep/box.txt")),
                             ScoringKind::Vina, 1);
        target.gridFor(DockingTarget::commonLigandTypes());
        std::vector<Molecule> ligands;
        for (int i = 0; i < 6; ++i)
            ligands.push_back(prepareLigand(readMolecule(
                data(QString("complexes/1iep/poses/pose%1.pdbqt").arg(i, 2, 10, QChar('0'))))));
        MinimizeBatchOptions options;
        options.refinement = RefinementOptions::standard();
        options.refinement.minimize.maxIterations = 5;
        PhaseTimings timings;
        options.timings = &timings;
        std::vector<RefinementResult> results;
        standIns(2, 3)->minimize(target, ligands, options, results);
        QCOMPARE(callsOf(timings, "minimize_and_rescore"), 2L); // 6 poses: one piece per device
        QCOMPARE(results.size(), ligands.size());
        for (const RefinementResult& r : results)
            QCOMPARE(r.coordinates.size(), ligands[0].atoms.size());
    }
};

QTEST_GUILESS_MAIN(TestMultiDeviceSplit)
#include "test_multi_device_split.moc"
