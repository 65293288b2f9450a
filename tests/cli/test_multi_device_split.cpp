// How a batch is cut between devices (engine/parallel/MultiDeviceBackend, issue 17), seen through
// the phase timings each device records (one entry per backend call): docking gives every device
// one launch (not the queue's finer chunks: each launch pays its longest run), minimization cuts a
// batch finer than one piece per device only where each piece keeps 8,192 poses; the results stay
// those of one device. CPU backends stand in for GPUs.
#include "backend/Backend.h"
#include "chem/LigandPreparation.h"
#include "chem/MoleculeReader.h"
#include "chem/ReceptorPreparation.h"
#include "core/PhaseTimings.h"
#include "dock/DockTarget.h"
#include "parallel/MultiDeviceBackend.h"
#include "score/BoxConfig.h"

#include <QtTest>

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
    void dockGivesEachDeviceOneLaunch() {
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
        QCOMPARE(callsOf(timings, "search_and_rescore"), 3L); // 3 devices, 3 launches (not 9)
        QCOMPARE(many.size(), one.size());
        for (size_t i = 0; i < one.size(); ++i) {
            QCOMPARE(many[i].ligand, one[i].ligand);
            QCOMPARE(many[i].clusters.size(), one[i].clusters.size());
            QCOMPARE(many[i].clusters[0].bestScore, one[i].clusters[0].bestScore);
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
