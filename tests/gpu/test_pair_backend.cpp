// One pose, one number, whatever the device (issue 18): the CUDA backend's exact scoring and the
// numbers it reports for minimized poses equal the CPU exact scorer's (LigandScorer::finalScore)
// for the same coordinates within 1e-4 x max(|cpu|, 1).
#include "GpuTestMain.h"

#include "backend/DeviceSelection.h"
#include "chem/LigandPreparation.h"
#include "chem/MoleculeReader.h"
#include "chem/ReceptorPreparation.h"
#include "minimize/PosePerturbation.h"
#include "score/BoxConfig.h"
#include "score/DockingTarget.h"

#include <algorithm>
#include <cmath>

using namespace pw;

namespace {

struct Complex {
    Molecule receptor, ligand;
    std::unique_ptr<DockingTarget> target;
};

Complex load(const std::string& id) {
    Complex c;
    const std::string dir = std::string(POSEWRIGHT_TEST_DATA) + "/complexes/" + id + "/";
    c.receptor = prepareReceptor(readMolecule(dir + "receptor.pdbqt"));
    c.ligand = prepareLigand(readMolecule(dir + "ligand_xtal.pdbqt"));
    c.target = std::make_unique<DockingTarget>(c.receptor, readBoxConfig(dir + "box.txt"),
                                               ScoringKind::Vina, 0);
    return c;
}

std::unique_ptr<Backend> backend(DeviceRequest::Kind kind) {
    std::string note;
    DeviceRequest r;
    r.kind = kind;
    return createBackend(r, 0, note);
}

double relErr(double a, double b) {
    return std::abs(a - b) / std::max(std::abs(b), 1.0);
}

// The CPU's finalScore of a pose.
VinaScore cpuScore(const Complex& c, const Molecule& ligand, const std::vector<Vec3>& coords) {
    LigandScorer s(ligand, c.target->scoring(), c.target->receptor());
    return s.finalScore(coords);
}

double worstDifference(const VinaScore& g, const VinaScore& c) {
    return std::max({relErr(g.affinity, c.affinity), relErr(g.inter, c.inter),
                     relErr(g.intra, c.intra), relErr(g.torsional, c.torsional),
                     relErr(g.unbound, c.unbound)});
}

} // namespace

class TestPairBackend : public QObject {
    Q_OBJECT
private slots:
    void scoreExactEqualsCpu() {
        Complex c = load("3ce3");
        auto gpu = backend(DeviceRequest::Kind::Cuda);
        auto cpu = backend(DeviceRequest::Kind::Cpu);
        QVERIFY(gpu->isGpu());
        PosePerturbation p(c.ligand);
        std::vector<Molecule> ligands{c.ligand};
        for (int i = 0; i < 300; ++i)
            ligands.push_back(p.perturbed(5, i));
        std::vector<VinaScore> g, r;
        gpu->scoreExact(*c.target, ligands, g);
        cpu->scoreExact(*c.target, ligands, r);
        QCOMPARE(g.size(), ligands.size());
        double worst = 0;
        for (size_t i = 0; i < ligands.size(); ++i)
            worst = std::max(worst, worstDifference(g[i], r[i]));
        qInfo("scoreExact: %zu poses, worst relative difference GPU vs CPU %.2e", g.size(), worst);
        QVERIFY(worst <= 1e-4);
    }

    // The GPU minimizes on the grid in float; what it reports for its start and its end pose is
    // what the CPU reports for those coordinates. With gridReport it keeps the grid numbers.
    void minimizedPosesAreReportedExactly() {
        Complex c = load("1iep");
        c.target->gridFor(DockingTarget::commonLigandTypes());
        auto gpu = backend(DeviceRequest::Kind::Cuda);
        PosePerturbation p(c.ligand);
        std::vector<Molecule> ligands;
        for (int i = 0; i < 200; ++i)
            ligands.push_back(p.perturbed(6, i));
        MinimizeBatchOptions options;
        options.refinement = RefinementOptions::standard();
        std::vector<RefinementResult> exact, grid;
        gpu->minimize(*c.target, ligands, options, exact);
        options.gridReport = true;
        gpu->minimize(*c.target, ligands, options, grid);
        double worst = 0;
        int gridDiffers = 0;
        for (size_t i = 0; i < ligands.size(); ++i) {
            QCOMPARE(exact[i].coordinates.size(), ligands[i].atoms.size());
            std::vector<Vec3> start;
            for (const Atom& a : ligands[i].atoms)
                start.push_back(a.position);
            worst = std::max(worst, worstDifference(exact[i].start, cpuScore(c, ligands[i], start)));
            const VinaScore end = cpuScore(c, ligands[i], exact[i].coordinates);
            worst = std::max(worst, worstDifference(exact[i].score, end));
            gridDiffers += std::abs(grid[i].score.affinity - end.affinity) > 1e-3;
        }
        qInfo("minimize: %zu poses, worst relative difference of the reported numbers from the "
              "CPU's for the same poses %.2e; grid-reported numbers differ on %d",
              ligands.size(), worst, gridDiffers);
        QVERIFY(worst <= 1e-4);
        QVERIFY2(gridDiffers > 0, "gridReport must keep the grid numbers");
    }
};

POSEWRIGHT_GPU_TEST_MAIN(TestPairBackend)
#include "test_pair_backend.moc"
