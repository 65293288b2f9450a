// Several GPUs behind one backend (label gpu; engine/parallel/MultiDeviceBackend): minimize, dock
// and overlay split over the devices give exactly one GPU's results (same poses, same seed, same
// ligand indices), and the CPU reference agrees with both as it does with one GPU. With two or
// more GPUs the split is `cuda:all`; with one, two backends share that GPU (each with its own
// streams), which checks the same host logic. Docking lanes (two backends per GPU, launches at
// once on one GPU) give the same runs too.
#include "GpuTestMain.h"

#include "backend/DeviceSelection.h"
#include "cuda/DeviceMemory.h"
#include "chem/LigandPreparation.h"
#include "chem/MoleculeReader.h"
#include "chem/ReceptorPreparation.h"
#include "dock/DockTarget.h"
#include "parallel/MultiDeviceBackend.h"
#include "score/BoxConfig.h"

#include <QtTest>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <thread>

using namespace pw;

namespace {

std::string data(const std::string& rel) { return std::string(POSEWRIGHT_TEST_DATA) + "/" + rel; }

std::unique_ptr<Backend> oneGpu() {
    std::string note;
    DeviceRequest r;
    r.kind = DeviceRequest::Kind::Cuda;
    auto b = createBackend(r, 0, note);
    if (!b->isGpu())
        qFatal("no GPU backend: %s", note.c_str());
    return b;
}

std::unique_ptr<Backend> severalGpus(std::string& note) {
    int count = 0;
    cudaGetDeviceCount(&count);
    if (count >= 2)
        return createBackend(parseDeviceRequest("cuda:all"), 0, note);
    std::vector<std::unique_ptr<Backend>> two;
    two.push_back(oneGpu());
    two.push_back(oneGpu());
    auto multi = std::make_unique<MultiDeviceBackend>(std::move(two));
    note = "device: " + multi->description() + " (one GPU, two backends)";
    return multi;
}

// A stream held busy by the host: a host function queued on it waits until open() (at most
// kGiveUp, so that a wait for the whole device becomes a failed check instead of a hung suite).
// Anything that waits for every stream of the device (cudaFree, cudaDeviceSynchronize) cannot
// return before open(): had it waited, the gate gave up first and openedInTime() is false.
class StreamGate {
public:
    StreamGate() {
        cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking);
        cudaLaunchHostFunc(stream_, &StreamGate::hold, this);
    }
    ~StreamGate() {
        open();
        cudaStreamSynchronize(stream_);
        cudaStreamDestroy(stream_);
    }
    void open() { open_ = true; }
    bool openedInTime() {
        open();
        cudaStreamSynchronize(stream_);
        return openedInTime_;
    }

private:
    static constexpr auto kGiveUp = std::chrono::seconds(120);
    static void hold(void* self) {
        auto* g = static_cast<StreamGate*>(self);
        const auto end = std::chrono::steady_clock::now() + kGiveUp;
        while (!g->open_ && std::chrono::steady_clock::now() < end)
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        g->openedInTime_ = g->open_.load();
    }
    cudaStream_t stream_ = nullptr;
    std::atomic<bool> open_{false}, openedInTime_{false};
};

} // namespace

class TestMultiGpu : public QObject {
    Q_OBJECT
    std::unique_ptr<Backend> one_, many_;

private slots:
    void initTestCase() {
        std::string note;
        one_ = oneGpu();
        many_ = severalGpus(note);
        qInfo("%s", note.c_str());
        QVERIFY(many_->isGpu());
        QVERIFY(backendDeviceCount(*many_) >= 2);
    }

    // A docking lane's buffers grow while the other lane's launch runs on the same GPU: growing
    // (free + allocate), uploading and destroying a device buffer must not wait for the other
    // stream (cudaFree waited for the whole device: seconds of a lane's pack_and_upload).
    void bufferGrowthWaitsForNoOtherStream() {
        cudaSetDevice(0);
        std::vector<float> values(1 << 20);
        for (size_t i = 0; i < values.size(); ++i)
            values[i] = float(i);
        std::vector<float> back(values.size());
        {
            StreamGate busy; // "the other lane's launch"
            {
                cuda::DeviceBuffer<float> b;
                b.reserve(16);
                cuda::uploadVector(b, std::vector<float>(16, 1.0f));
                for (size_t n = 1024; n <= values.size(); n *= 4)
                    b.reserve(n); // each growth frees the old block
                cuda::uploadVector(b, values);
                // This thread's own streams still see the upload (read back on a stream of its
                // own, which does not wait for the busy one either).
                cudaStream_t mine = nullptr;
                QCOMPARE(cudaStreamCreateWithFlags(&mine, cudaStreamNonBlocking), cudaSuccess);
                QCOMPARE(cudaMemcpyAsync(back.data(), b.data(), back.size() * sizeof(float),
                                         cudaMemcpyDeviceToHost, mine),
                         cudaSuccess);
                QCOMPARE(cudaStreamSynchronize(mine), cudaSuccess);
                cudaStreamDestroy(mine);
            } // destroyed: freed
            QVERIFY2(busy.openedInTime(), "a buffer's growth, upload or free waited for another "
                                          "stream's work");
        }
        QVERIFY(back == values);
    }

    // A refused allocation (1 GiB more than the GPU has) is one clear error, and the buffer and the
    // device stay usable after it.
    void refusedAllocationIsAClearError() {
        cudaSetDevice(0);
        size_t freeBytes = 0, totalBytes = 0;
        QCOMPARE(cudaMemGetInfo(&freeBytes, &totalBytes), cudaSuccess);
        cuda::DeviceBuffer<char> b;
        b.reserve(64);
        bool refused = false;
        try {
            b.reserve(totalBytes + (size_t(1) << 30)); // more than the device has
        } catch (const DeviceMemoryError& e) {
            refused = true;
            QVERIFY2(std::string(e.what()).find("not enough GPU memory") != std::string::npos,
                     e.what());
        }
        QVERIFY(refused);
        QCOMPARE(b.data(), nullptr);
        b.reserve(1 << 20);
        QVERIFY(b.data() != nullptr);
        cuda::uploadVector(b, std::vector<char>(1 << 20, 7));
        std::vector<char> back(1 << 20);
        QCOMPARE(cudaMemcpy(back.data(), b.data(), back.size(), cudaMemcpyDeviceToHost),
                 cudaSuccess);
        QVERIFY(std::all_of(back.begin(), back.end(), [](char c) { return c == 7; }));
    }

    void minimizeEqualsOneGpu() {
        const Molecule receptor = prepareReceptor(readMolecule(data("complexes/1iep/receptor.pdbqt")));
        DockingTarget target(receptor, readBoxConfig(data("complexes/1iep/box.txt")),
                             ScoringKind::Vina, 0);
        target.gridFor(DockingTarget::commonLigandTypes());
        std::vector<Molecule> ligands;
        for (int copy = 0; copy < 40; ++copy) // 400 poses: several chunks per device
            for (int i = 0; i < 10; ++i)
                ligands.push_back(prepareLigand(readMolecule(
                    data("complexes/1iep/poses/pose0" + std::to_string(i) + ".pdbqt"))));
        MinimizeBatchOptions options;
        options.refinement = RefinementOptions::standard();
        options.refinement.vinaGuard = false; // the GPU minimizes without it
        std::vector<RefinementResult> a, b;
        one_->minimize(target, ligands, options, a);
        many_->minimize(target, ligands, options, b);
        QCOMPARE(b.size(), a.size());
        // Bit for bit: a pose's minimization must not depend on the batch it runs in. The count
        // and the largest difference say how far off a failure is.
        int same = 0;
        double worst = 0;
        for (size_t i = 0; i < a.size(); ++i) {
            same += b[i].score.affinity == a[i].score.affinity && b[i].coordinates == a[i].coordinates;
            worst = std::max(worst, std::abs(b[i].score.affinity - a[i].score.affinity));
        }
        QVERIFY2(same == int(a.size()), qPrintable(QString("%1 of %2 poses identical, largest "
                                                           "affinity difference %3")
                                                       .arg(same)
                                                       .arg(a.size())
                                                       .arg(worst)));
    }

    void dockEqualsOneGpu() {
        const Molecule receptor = prepareReceptor(readMolecule(data("complexes/1stp/receptor.pdbqt")));
        auto vina = std::make_shared<DockingTarget>(
            receptor, readBoxConfig(data("complexes/1stp/box.txt")), ScoringKind::Vina, 0);
        const dock::DockTarget target = dock::DockTarget::forVina(vina);
        const Molecule biotin = prepareLigand(readMolecule(data("complexes/1stp/ligand_xtal.pdbqt")));
        std::vector<Molecule> ligands(pw::test::sized(12, 3), biotin);
        dock::DockOptions options;
        options.runs = pw::test::sized(8, 2);
        options.seed = 11;
        if (pw::test::smallProblems())
            options.lga.maxEvaluations = 20000; // one generation: the split is what is checked
        pw::test::shrinkDockingForRacecheck(options);
        std::vector<dock::LigandDockResult> a, b;
        QVERIFY(one_->dock(target, ligands, options, a, nullptr, nullptr, 100).complete());
        QVERIFY(many_->dock(target, ligands, options, b, nullptr, nullptr, 100).complete());
        QCOMPARE(b.size(), a.size());
        for (size_t i = 0; i < a.size(); ++i) {
            QCOMPARE(b[i].ligand, 100 + int(i));
            QCOMPARE(b[i].runs.size(), a[i].runs.size());
            for (size_t r = 0; r < a[i].runs.size(); ++r) {
                QCOMPARE(b[i].runs[r].score, a[i].runs[r].score);
                QVERIFY(b[i].runs[r].coordinates == a[i].runs[r].coordinates);
            }
        }
    }

    // Two docking lanes per device (a second CudaBackend on the same GPU, as cuda:all makes
    // them) and small chunks: launches of several lanes run at once on one GPU; the runs are
    // still one GPU's, bit for bit.
    void dockWithLanesEqualsOneGpu() {
        const Molecule receptor = prepareReceptor(readMolecule(data("complexes/1stp/receptor.pdbqt")));
        auto vina = std::make_shared<DockingTarget>(
            receptor, readBoxConfig(data("complexes/1stp/box.txt")), ScoringKind::Vina, 0);
        const dock::DockTarget target = dock::DockTarget::forVina(vina);
        const Molecule biotin = prepareLigand(readMolecule(data("complexes/1stp/ligand_xtal.pdbqt")));
        std::vector<Molecule> ligands(pw::test::sized(12, 4), biotin);
        dock::DockOptions options;
        options.runs = pw::test::sized(8, 2);
        options.seed = 13;
        if (pw::test::smallProblems())
            options.lga.maxEvaluations = 20000;
        pw::test::shrinkDockingForRacecheck(options, 300);
        std::vector<std::unique_ptr<Backend>> two;
        two.push_back(oneGpu());
        two.push_back(oneGpu());
        MultiDeviceBackend lanes(std::move(two));
        lanes.addDockLane(0, oneGpu());
        lanes.addDockLane(1, oneGpu());
        lanes.setDockChunking(options.runs, 4); // one ligand per chunk at least: many launches
        std::vector<dock::LigandDockResult> a, b;
        QVERIFY(one_->dock(target, ligands, options, a, nullptr, nullptr, 7).complete());
        QVERIFY(lanes.dock(target, ligands, options, b, nullptr, nullptr, 7).complete());
        QCOMPARE(b.size(), a.size());
        for (size_t i = 0; i < a.size(); ++i) {
            QCOMPARE(b[i].ligand, 7 + int(i));
            QCOMPARE(b[i].runs.size(), a[i].runs.size());
            for (size_t r = 0; r < a[i].runs.size(); ++r) {
                QCOMPARE(b[i].runs[r].score, a[i].runs[r].score);
                QVERIFY(b[i].runs[r].coordinates == a[i].runs[r].coordinates);
            }
        }
    }

    void overlayEqualsOneGpu() {
        std::vector<shape::ShapeModel> fits;
        for (const Molecule& m : readMolecules(data("shapes/cdk2.sdf")))
            fits.push_back(shape::makeShapeModel(m, {}));
        std::vector<shape::ShapeModel> many;
        for (int copy = 0; copy < pw::test::sized(50, 5); ++copy)
            many.insert(many.end(), fits.begin(), fits.end());
        shape::OverlayOptions options;
        std::vector<shape::ShapeScores> a, b;
        QVERIFY(one_->overlay(fits[0], many, options, false, a).complete());
        QVERIFY(many_->overlay(fits[0], many, options, false, b).complete());
        QCOMPARE(b.size(), a.size());
        for (size_t i = 0; i < a.size(); ++i)
            QCOMPARE(b[i].tanimoto, a[i].tanimoto);
    }
};

POSEWRIGHT_GPU_TEST_MAIN(TestMultiGpu)
#include "test_multi_gpu.moc"
