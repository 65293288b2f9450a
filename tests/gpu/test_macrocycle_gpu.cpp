// Macrocycles (Meeko's CG0/G0 ring closure) asked of the CUDA backend: its kernels have no
// ring-closure term, so docking, minimization and exact scoring must fall back to the CPU reference
// and give exactly the CPU backend's results, rings closed. Skipped (77) without a usable device.
#include "GpuTestMain.h"

#include "backend/Backend.h"
#include "backend/DeviceSelection.h"
#include "chem/LigandPreparation.h"
#include "chem/MoleculeReader.h"
#include "chem/ReceptorPreparation.h"
#include "core/RingClosure.h"
#include "dock/DockOptions.h"
#include "dock/DockTarget.h"
#include "score/BoxConfig.h"
#include "score/DockingTarget.h"

using namespace pw;

namespace {

const std::string kDir = std::string(POSEWRIGHT_TEST_DATA) + "/macrocycle/";

// Distance from each pseudo-atom to the carbon across its broken ring bond: ~0 when closed.
double widestOpening(const Molecule& m, const std::vector<Vec3>& x) {
    std::vector<ClosureBond> closures;
    if (!findRingClosures(m, closures).empty() || closures.empty())
        qFatal("no ring closure in the test ligand");
    double widest = 0;
    for (const ClosureBond& c : closures) {
        widest = std::max(widest, (x[c.dummyOfA] - x[c.b]).norm());
        widest = std::max(widest, (x[c.dummyOfB] - x[c.a]).norm());
    }
    return widest;
}

std::unique_ptr<Backend> cudaBackend() {
    DeviceRequest request;
    request.kind = DeviceRequest::Kind::Cuda;
    std::string note;
    auto gpu = createBackend(request, 0, note);
    if (!gpu || !gpu->isGpu())
        qFatal("no CUDA backend: %s", note.c_str());
    return gpu;
}

} // namespace

class TestMacrocycleGpu : public QObject {
    Q_OBJECT
private slots:
    void dockFallsBackToTheCpuReference() {
        const Molecule receptor = prepareReceptor(readMolecule(kDir + "receptor.pdbqt"));
        const Molecule ligand = prepareLigand(readMolecule(kDir + "bace1_ligand.pdbqt"));
        auto docking = std::make_shared<DockingTarget>(receptor, readBoxConfig(kDir + "box.txt"),
                                                       ScoringKind::Vina, 0);
        const dock::DockTarget target = dock::DockTarget::forVina(docking);
        dock::DockOptions o;
        o.runs = 4;
        o.seed = 3;
        o.lga.maxEvaluations = 50000;
        std::vector<dock::LigandDockResult> g, c;
        cudaBackend()->dock(target, {ligand}, o, g, nullptr, &ligand);
        makeCpuBackend(0)->dock(target, {ligand}, o, c, nullptr, &ligand);
        QVERIFY2(g[0].error.empty(), g[0].error.c_str());
        QCOMPARE(g[0].runs.size(), c[0].runs.size());
        for (size_t r = 0; r < g[0].runs.size(); ++r) {
            QCOMPARE(g[0].runs[r].score, c[0].runs[r].score);
            QVERIFY(widestOpening(ligand, g[0].runs[r].coordinates) < 0.5);
        }
    }

    void exactScoreFallsBackToTheCpuReference() {
        const Molecule receptor = prepareReceptor(readMolecule(kDir + "receptor.pdbqt"));
        std::vector<Molecule> ligands;
        for (const Molecule& m : readMolecules(kDir + "starts.pdbqt"))
            ligands.push_back(prepareLigand(m));
        DockingTarget target(receptor, readBoxConfig(kDir + "box.txt"), ScoringKind::Vina, 0);
        std::vector<VinaScore> g, c;
        cudaBackend()->scoreExact(target, ligands, g);
        makeCpuBackend(0)->scoreExact(target, ligands, c);
        QCOMPARE(g.size(), ligands.size());
        for (size_t i = 0; i < g.size(); ++i) {
            QCOMPARE(g[i].affinity, c[i].affinity);
            QCOMPARE(g[i].unbound, c[i].unbound);
        }
    }

    void minimizeFallsBackToTheCpuReference() {
        const Molecule receptor = prepareReceptor(readMolecule(kDir + "receptor.pdbqt"));
        const std::vector<Molecule> starts = readMolecules(kDir + "starts.pdbqt");
        std::vector<Molecule> ligands;
        for (const Molecule& m : starts)
            ligands.push_back(prepareLigand(m));
        DockingTarget target(receptor, readBoxConfig(kDir + "box.txt"), ScoringKind::Vina, 0);
        target.gridFor(DockingTarget::commonLigandTypes());
        MinimizeBatchOptions options;
        std::vector<RefinementResult> g, c;
        cudaBackend()->minimize(target, ligands, options, g);
        makeCpuBackend(0)->minimize(target, ligands, options, c);
        QCOMPARE(g.size(), ligands.size());
        for (size_t i = 0; i < g.size(); ++i) {
            QCOMPARE(g[i].score.affinity, c[i].score.affinity);
            QVERIFY(widestOpening(ligands[i], g[i].coordinates) < 0.5);
        }
    }
};

POSEWRIGHT_GPU_TEST_MAIN(TestMacrocycleGpu)
#include "test_macrocycle_gpu.moc"
