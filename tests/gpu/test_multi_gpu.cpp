// Several GPUs behind one backend (label gpu; engine/parallel/MultiDeviceBackend): minimize, dock
// and overlay split over the devices give exactly one GPU's results (same poses, same seed, same
// ligand indices), and the CPU reference agrees with both as it does with one GPU. With two or
// more GPUs the split is `cuda:all`; with one, two backends share that GPU (each with its own
// streams), which checks the same host logic. Docking lanes (two backends per GPU, launches at
// once on one GPU) give the same runs too.
#include "GpuTestMain.h"

#include "backend/DeviceSelection.h"
#include "chem/LigandPreparation.h"
#include "chem/MoleculeReader.h"
#include "chem/ReceptorPreparation.h"
#include "dock/DockTarget.h"
#include "parallel/MultiDeviceBackend.h"
#include "score/BoxConfig.h"

#include <QtTest>

#include <algorithm>
#include <cmath>

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
