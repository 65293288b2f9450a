// Several devices behind one backend (engine/parallel, `--device cuda:all` / `cuda:0,2`): the host
// logic with CPU backends standing in for GPUs. The batch is cut by work into contiguous chunks
// that cover it in order; minimize, dock and overlay through three stand-in devices give exactly
// the results of one device (same seed, same ligand indices); progress adds up over the devices;
// and the --device values parse (cuda:all, cuda:0,2) or are refused with exit 2. The same check
// on real GPUs is tests/gpu/test_multi_gpu.cpp.
#include "backend/DeviceSelection.h"
#include "chem/LigandPreparation.h"
#include "chem/MoleculeReader.h"
#include "chem/ReceptorPreparation.h"
#include "core/InputError.h"
#include "dock/DockTarget.h"
#include "parallel/MultiDeviceBackend.h"
#include "parallel/WorkSplit.h"
#include "score/BoxConfig.h"
#include "shape/ShapeModel.h"

#include <QtTest>

#include "cli/CliRun.h"

using namespace pw;
using namespace pw::test;

namespace {

std::string data(const QString& rel) { return testData(rel).toStdString(); }

// Three single-thread CPU backends standing in for three GPUs.
std::unique_ptr<MultiDeviceBackend> standIns(int devices = 3, int chunksPerDevice = 2) {
    std::vector<std::unique_ptr<Backend>> list;
    for (int i = 0; i < devices; ++i)
        list.push_back(makeCpuBackend(1));
    return std::make_unique<MultiDeviceBackend>(std::move(list), chunksPerDevice);
}

void requireSameCoordinates(const std::vector<Vec3>& a, const std::vector<Vec3>& b) {
    QCOMPARE(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i)
        QVERIFY(a[i] == b[i]);
}

} // namespace

class TestMultiDevice : public QObject {
    Q_OBJECT

private slots:
    void splitCoversTheBatchInOrderByWork() {
        const std::vector<double> work{1, 1, 1, 1, 100, 1, 1, 1, 1, 1};
        for (size_t parts : {1, 2, 3, 4, 10, 25}) {
            const auto chunks = splitByWork(work, parts);
            QVERIFY(!chunks.empty() && chunks.size() <= std::min(parts, work.size()));
            size_t next = 0;
            for (const WorkChunk& c : chunks) {
                QCOMPARE(c.begin, next); // contiguous, in order, none empty
                QVERIFY(c.end > c.begin);
                next = c.end;
            }
            QCOMPARE(next, work.size());
        }
        // The heavy item closes the first of two chunks (equal work would not be equal count).
        const auto two = splitByWork(work, 2);
        QCOMPARE(two.size(), size_t(2));
        QCOMPARE(two[0].end, size_t(5));
        // Ten equal items in five parts: two each.
        const auto five = splitByWork(std::vector<double>(10, 1.0), 5);
        QCOMPARE(five.size(), size_t(5));
        for (const WorkChunk& c : five)
            QCOMPARE(c.end - c.begin, size_t(2));
        QVERIFY(splitByWork({}, 3).empty());
    }

    void minimizeOnStandInsEqualsOneDevice() {
        const Molecule receptor = prepareReceptor(readMolecule(data("complexes/1iep/receptor.pdbqt")));
        DockingTarget target(receptor, readBoxConfig(data("complexes/1iep/box.txt")),
                             ScoringKind::Vina, 1);
        target.gridFor(DockingTarget::commonLigandTypes());
        std::vector<Molecule> ligands;
        for (int i = 0; i < 10; ++i)
            ligands.push_back(prepareLigand(readMolecule(
                data(QString("complexes/1iep/poses/pose%1.pdbqt").arg(i, 2, 10, QChar('0'))))));
        MinimizeBatchOptions options;
        options.refinement = RefinementOptions::standard();
        std::vector<RefinementResult> one, many;
        makeCpuBackend(1)->minimize(target, ligands, options, one);
        Progress progress;
        std::atomic<long> last{0};
        progress.onProgress = [&](long done, long total) {
            QCOMPARE(total, 10L);
            last = std::max(last.load(), done);
        };
        auto multi = standIns();
        QCOMPARE(multi->deviceCount(), 3);
        QCOMPARE(backendDeviceCount(*multi), 3);
        multi->minimize(target, ligands, options, many, &progress);
        QCOMPARE(last.load(), 10L);
        QCOMPARE(many.size(), one.size());
        for (size_t i = 0; i < one.size(); ++i) {
            QCOMPARE(many[i].score.affinity, one[i].score.affinity);
            QCOMPARE(many[i].iterations, one[i].iterations);
            requireSameCoordinates(many[i].coordinates, one[i].coordinates);
        }
    }

    void dockOnStandInsEqualsOneDevice() {
        const Molecule receptor = prepareReceptor(readMolecule(data("complexes/1stp/receptor.pdbqt")));
        auto vina = std::make_shared<DockingTarget>(
            receptor, readBoxConfig(data("complexes/1stp/box.txt")), ScoringKind::Vina, 1);
        const dock::DockTarget target = dock::DockTarget::forVina(vina);
        const Molecule biotin = prepareLigand(readMolecule(data("complexes/1stp/ligand_xtal.pdbqt")));
        std::vector<Molecule> ligands(5, biotin);
        // One ligand without atoms: refused, by whichever device gets it, the same way.
        ligands[2].atoms.clear();
        ligands[2].bonds.clear();
        ligands[2].torsionTree.reset();
        for (size_t i = 0; i < ligands.size(); ++i)
            ligands[i].name = "biotin" + std::to_string(i);
        dock::DockOptions options;
        options.runs = 3;
        options.seed = 5;
        options.threads = 1;
        options.lga.populationSize = 30;
        options.lga.maxEvaluations = 5000;
        options.lga.localSearchIterations = 50;
        std::vector<dock::LigandDockResult> one, many;
        makeCpuBackend(1)->dock(target, ligands, options, one, nullptr, nullptr, 40);
        const BatchStatus s = standIns()->dock(target, ligands, options, many, nullptr, nullptr, 40);
        QVERIFY(!s.cancelled);
        QCOMPARE(many.size(), one.size());
        QVERIFY(!one[2].error.empty());
        for (size_t i = 0; i < one.size(); ++i) {
            QCOMPARE(many[i].ligand, 40 + int(i)); // the index in the input, whatever the split
            QCOMPARE(many[i].ligand, one[i].ligand);
            QCOMPARE(many[i].error, one[i].error);
            QCOMPARE(many[i].runs.size(), one[i].runs.size());
            for (size_t r = 0; r < one[i].runs.size(); ++r) {
                QCOMPARE(many[i].runs[r].score, one[i].runs[r].score);
                requireSameCoordinates(many[i].runs[r].coordinates, one[i].runs[r].coordinates);
            }
            QCOMPARE(many[i].clusters.size(), one[i].clusters.size());
        }
        // Different ligand indices, different streams: the split must not renumber them.
        QVERIFY(one[0].runs[0].score != one[1].runs[0].score ||
                !(one[0].runs[0].coordinates == one[1].runs[0].coordinates));
    }

    void overlayOnStandInsEqualsOneDevice() {
        const Molecule ref = readMolecule(data("shapes/ref.mol"));
        const shape::ShapeModel refModel = shape::makeShapeModel(ref, {}, {});
        std::vector<shape::ShapeModel> fits;
        for (const Molecule& m : readMolecules(data("shapes/cdk2.sdf")))
            fits.push_back(shape::makeShapeModel(m, {}, {}));
        QVERIFY(fits.size() > 40);
        shape::OverlayOptions options;
        std::vector<shape::ShapeScores> one, many;
        makeCpuBackend(1)->prepareOverlay(refModel, options)->overlay(fits, false, one);
        const BatchStatus s = standIns(2, 3)->prepareOverlay(refModel, options)->overlay(fits, false, many);
        QVERIFY(s.complete());
        QCOMPARE(many.size(), one.size());
        for (size_t i = 0; i < one.size(); ++i) {
            QCOMPARE(many[i].tanimoto, one[i].tanimoto);
            QVERIFY(many[i].rotation == one[i].rotation);
        }
    }

    void deviceListsParse() {
        DeviceRequest r = parseDeviceRequest("cuda:all");
        QVERIFY(r.kind == DeviceRequest::Kind::Cuda && r.allDevices);
        r = parseDeviceRequest("cuda:0,2");
        QCOMPARE(r.indices, (std::vector<int>{0, 2}));
        QCOMPARE(r.index, 0);
        for (const char* bad : {"cuda:0,0", "cuda:1,", "cuda:,1", "cuda:0,x", "cuda:all,1"})
            QVERIFY_THROWS_EXCEPTION(InputError, parseDeviceRequest(bad));
        // On a machine without the GPUs: the CPU, with the reason, never a crash.
        std::string note;
        auto b = createBackend(parseDeviceRequest("cuda:60,61"), 1, note);
        QVERIFY(b);
        QVERIFY2(note.find("device: ") == 0, note.c_str());
        const CliRun run = runCli({"lingo", "--db", testData("smiles/nci_first_300.smi"), "--top",
                                   "1", "--device", "cuda:1,1", "--threads", "1"});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains("cuda:all"), run.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestMultiDevice)
#include "test_multi_device.moc"
