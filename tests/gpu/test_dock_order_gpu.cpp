// The docking launch order (CudaDocker::setLongestFirst, issue 17): runs of ligands of very
// different size launched longest first give, run for run, exactly what the input order gives
// (same energies, evaluations, generations and coordinates); only the block each run lands in
// changes. Likewise the split local search (CudaDocker::setLocalSearchWarps: every generation in
// three launches, the searches spread over many blocks) against each run's block searching its
// own population.
#include "GpuTestMain.h"

#include "chem/LigandPreparation.h"
#include "chem/MoleculeReader.h"
#include "chem/ReceptorPreparation.h"
#include "chem/SmilesReader.h"
#include "cuda/DockGpu.h"
#include "dock/DockOptions.h"
#include "score/BoxConfig.h"
#include "score/DockingTarget.h"

using namespace pw;

namespace {

std::string dataPath(const std::string& rel) {
    return std::string(POSEWRIGHT_TEST_DATA) + "/" + rel;
}

// Small to large (2 to ~10 torsions): the input order is the opposite of longest first.
std::vector<Molecule> ligands() {
    std::vector<Molecule> out;
    for (const char* smi :
         {"CC(=NO)C(C)=NO", "CC1=NN(C(=O)C1)C2=CC=CC=C2", "CCCCOC(=O)C1=CC=CC=C1C(=O)OCCCC"})
        out.push_back(prepareLigand(moleculeFromSmiles(smi, smi, true)));
    out.push_back(prepareLigand(readMolecule(dataPath("complexes/1iep/ligand_xtal.pdbqt"))));
    return out;
}

// 1iep's Vina grid for the ligands' types, made once for the suite.
const DockingTarget& vinaTarget() {
    static const DockingTarget target = [] {
        const std::string dir = dataPath("complexes/1iep/");
        DockingTarget t(prepareReceptor(readMolecule(dir + "receptor.pdbqt")),
                        readBoxConfig(dir + "box.txt"), ScoringKind::Vina, 0);
        t.gridFor(DockingTarget::commonLigandTypes());
        return t;
    }();
    return target;
}

void compareRuns(const std::vector<cuda::GpuDockRun>& a, const std::vector<cuda::GpuDockRun>& b) {
    QCOMPARE(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i) {
        QCOMPARE(a[i].ligand, b[i].ligand);
        QCOMPARE(a[i].run, b[i].run);
        QCOMPARE(a[i].energy, b[i].energy);
        QCOMPARE(a[i].evaluations, b[i].evaluations);
        QCOMPARE(a[i].generations, b[i].generations);
        QCOMPARE(a[i].coordinates.size(), b[i].coordinates.size());
        for (size_t k = 0; k < a[i].coordinates.size(); ++k)
            QVERIFY(a[i].coordinates[k] == b[i].coordinates[k]);
    }
}

} // namespace

class TestDockOrderGpu : public QObject {
    Q_OBJECT

private slots:
    void longestFirstChangesNoResult() {
        const DockingTarget& target = vinaTarget();
        const std::vector<Molecule> ligs = ligands();
        dock::DockOptions o;
        o.runs = pw::test::racecheckProblems() ? 2 : 8;
        o.seed = 11;
        o.lga.localSearch = dock::LocalSearchMethod::Bfgs;
        o.lga.populationSize = 40;
        o.lga.localSearchIterations = 30;
        o.lga.maxEvaluations = 40000;
        pw::test::shrinkDockingForRacecheck(o, 300);
        cuda::CudaDocker docker(0);
        docker.setLongestFirst(false);
        const auto inputOrder = docker.dock(target, ligs, o);
        docker.setLongestFirst(true);
        const auto longestFirst = docker.dock(target, ligs, o);
        QCOMPARE(int(inputOrder.size()), int(ligs.size()) * o.runs);
        compareRuns(inputOrder, longestFirst);
        // Different ligands did differ (the comparison is not between equal runs).
        QVERIFY(inputOrder.front().energy != inputOrder.back().energy);
    }

    // Both local searches, AutoStop on (a step per checkpoint either way) and off (one launch
    // for the whole search against a step per generation), warps per block that do not divide
    // the population (a block's last warps have no individual), and a batch that starts in its
    // runs' own blocks and splits once runs have ended (splitBelow: the batch's run count). BFGS
    // differed in every run when the split search was a kernel of its own: the compiler had fused
    // multiplies and adds differently at the two inlined sites (DockKernel.cu).
    void splitLocalSearchChangesNoResult_data() {
        QTest::addColumn<bool>("bfgs");
        QTest::addColumn<bool>("autoStop");
        QTest::addColumn<int>("warps");
        QTest::addColumn<bool>("mixed");
        QTest::newRow("bfgs, AutoStop, 8 warps") << true << true << 8 << false;
        QTest::newRow("bfgs, no AutoStop, 3 warps") << true << false << 3 << false;
        QTest::newRow("adadelta, no AutoStop, 16 warps") << false << false << 16 << false;
        QTest::newRow("bfgs, AutoStop, 4 warps, split once runs end") << true << true << 4 << true;
    }
    void splitLocalSearchChangesNoResult() {
        QFETCH(bool, bfgs);
        QFETCH(bool, autoStop);
        QFETCH(int, warps);
        QFETCH(bool, mixed);
        const DockingTarget& target = vinaTarget();
        const std::vector<Molecule> ligs = ligands();
        dock::DockOptions o;
        o.runs = pw::test::racecheckProblems() ? 2 : 6;
        o.seed = 23;
        o.lga.localSearch =
            bfgs ? dock::LocalSearchMethod::Bfgs : dock::LocalSearchMethod::Adadelta;
        o.lga.autoStop = autoStop;
        o.lga.populationSize = 30;
        o.lga.localSearchIterations = 30;
        o.lga.maxEvaluations = 30000;
        pw::test::shrinkDockingForRacecheck(o, 300);
        cuda::CudaDocker docker(0);
        docker.setLocalSearchWarps(0);
        const auto own = docker.dock(target, ligs, o);
        docker.setLocalSearchWarps(warps);
        docker.setSplitBelowRuns(mixed ? long(ligs.size()) * o.runs : 1L << 40);
        const auto split = docker.dock(target, ligs, o);
        QCOMPARE(int(own.size()), int(ligs.size()) * o.runs);
        int differ = 0;
        for (size_t i = 0; i < own.size(); ++i)
            if (own[i].energy != split[i].energy || own[i].evaluations != split[i].evaluations) {
                if (differ++ < 2)
                    qInfo("run %zu: energy %.9g vs %.9g, evaluations %ld vs %ld, generations %d vs "
                          "%d",
                          i, own[i].energy, split[i].energy, own[i].evaluations,
                          split[i].evaluations, own[i].generations, split[i].generations);
            }
        if (differ)
            qInfo("%d of %zu runs differ", differ, own.size());
        compareRuns(own, split);
        // The searches ran: each run took several generations of local searches.
        for (const auto& r : own)
            QVERIFY2(r.generations >= 2 && r.evaluations > 2L * o.lga.populationSize,
                     "a run did not search");
    }
};

POSEWRIGHT_GPU_TEST_MAIN(TestDockOrderGpu)
#include "test_dock_order_gpu.moc"
