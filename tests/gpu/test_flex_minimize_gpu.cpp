// Flexible side chains in the CUDA minimizer (MinimizeBatchOptions::flex) against the CPU's
// FlexScorer, on AutoDock-Vina's 1fpu example (THR 315, and THR 315 + LYS 271), and
// `minimize --flex --device cuda` against Vina 1.2.3's --local_only --flex from the same starts
// (tests/data/flex/vina_local_only.txt), the criterion the CPU path meets
// (tests/cli/test_cli_flex_minimize).
#include "GpuTestMain.h"
#include "cli/FlexVinaRows.h"

#include "backend/DeviceSelection.h"
#include "chem/FlexResidueReader.h"
#include "chem/LigandPreparation.h"
#include "chem/MoleculeReader.h"
#include "minimize/FlexRefinement.h"
#include "score/BoxConfig.h"
#include "score/DockingTarget.h"
#include "score/flex/FlexScorer.h"

#include <QFile>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTextStream>
#include <QtTest>

#include <cmath>
#include <memory>

using namespace pw;
using namespace pw::test;

namespace {

std::string flexPath(const QString& name) {
    return std::string(POSEWRIGHT_TEST_DATA) + "/flex/" + name.toStdString();
}
QString flexData(const QString& name) { return testData("flex/" + name); }

struct FlexCase {
    Molecule receptor;
    std::unique_ptr<DockingTarget> target;
    std::unique_ptr<FlexModel> flex;
    Molecule ligand;
    std::unique_ptr<LigandScorer> exact;
    std::unique_ptr<FlexScorer> scorer;

    FlexCase(const QString& rigid, const QString& flexFile, const QString& ligandFile) {
        receptor = readMolecule(flexPath(rigid));
        target = std::make_unique<DockingTarget>(
            receptor, readBoxConfig(flexPath("1fpu_receptor.box.txt")), ScoringKind::Vina, 0);
        flex = std::make_unique<FlexModel>(readFlexResidues(flexPath(flexFile)), receptor);
        ligand = prepareLigand(readMolecule(flexPath(ligandFile)));
        exact = std::make_unique<LigandScorer>(ligand, target->scoring(), target->receptor());
        std::vector<XsType> types = flex->movableTypes();
        for (const Atom& a : ligand.atoms)
            if (a.xs != XsType::None && std::find(types.begin(), types.end(), a.xs) == types.end())
                types.push_back(a.xs);
        scorer = std::make_unique<FlexScorer>(*exact, *flex, &target->gridFor(types));
    }
    // The ligand's atoms, then the side chains' as read.
    Molecule combined() const {
        Molecule m = ligand;
        for (int r = 0; r < flex->residueCount(); ++r)
            for (const Atom& a : flex->residue(r).mol.atoms)
                m.atoms.push_back(a);
        return m;
    }
};

} // namespace

class TestFlexMinimizeGpu : public QObject {
    Q_OBJECT
private slots:
    // One descent on the exact energy and one on Vina's maps (its --local_only steps): the
    // kernel's final objective is the CPU's FlexScorer at the coordinates it returns, the
    // energy went down, the side chains' fixed atoms did not move, and every moving atom kept
    // its distance to its fragment's neighbours (torsions only).
    void kernelObjectiveIsFlexScorers_data() {
        QTest::addColumn<QString>("rigid");
        QTest::addColumn<QString>("flexFile");
        QTest::addColumn<QString>("ligandFile");
        QTest::newRow("THR 315, crystal") << "1fpu_receptor_rigid.pdbqt"
                                          << "1fpu_receptor_flex.pdbqt" << "1iep_ligand.pdbqt";
        QTest::newRow("THR 315, moved3") << "1fpu_receptor_rigid.pdbqt"
                                         << "1fpu_receptor_flex.pdbqt" << "moved3_ligand.pdbqt";
        QTest::newRow("THR 315 + LYS 271, moved1")
            << "1fpu_rigid_2res.pdbqt" << "flex_2res.pdbqt" << "moved1_ligand.pdbqt";
        QTest::newRow("THR 315 + LYS 271, clash (moved2)")
            << "1fpu_rigid_2res.pdbqt" << "flex_2res.pdbqt" << "moved2_ligand.pdbqt";
    }
    void kernelObjectiveIsFlexScorers() {
        QFETCH(QString, rigid);
        QFETCH(QString, flexFile);
        QFETCH(QString, ligandFile);
        FlexCase c(rigid, flexFile, ligandFile);
        std::string note;
        DeviceRequest request;
        request.kind = DeviceRequest::Kind::Cuda;
        auto gpu = createBackend(request, 0, note);
        QVERIFY2(gpu->isGpu(), note.c_str());
        const size_t nL = c.ligand.atoms.size();
        std::vector<Vec3> startLig, startSide = c.flex->referenceCoordinates();
        for (const Atom& a : c.ligand.atoms)
            startLig.push_back(a.position);
        const double startExact = c.scorer->evaluate(startLig, startSide, nullptr, nullptr);

        for (const bool vinaPath : {false, true}) {
            MinimizeBatchOptions o;
            o.refinement.minimize = flexMinimizeOptions();
            o.refinement.vinaSteps = vinaPath;
            o.exact = !vinaPath;
            o.gridReport = true;
            o.flex = c.flex.get();
            std::vector<RefinementResult> out;
            gpu->minimize(*c.target, {c.combined()}, o, out);
            QCOMPARE(out.size(), size_t(1));
            const RefinementResult& r = out[0];
            QCOMPARE(r.coordinates.size(), nL + size_t(c.flex->atomCount()));
            const std::vector<Vec3> lig(r.coordinates.begin(), r.coordinates.begin() + long(nL));
            const std::vector<Vec3> side(r.coordinates.begin() + long(nL), r.coordinates.end());
            const LigandScorer onGrid(c.ligand, c.target->scoring(), c.target->receptor(),
                                      c.target->grid());
            const double cpu =
                vinaPath ? c.scorer->evaluateOnGrid(onGrid, *c.target->grid(), lig, side, nullptr,
                                                    nullptr)
                         : c.scorer->evaluate(lig, side, nullptr, nullptr);
            qInfo("%s: kernel objective %.5f, CPU's at its coordinates %.5f (start %.4f exact), "
                  "%d steps",
                  vinaPath ? "Vina path on the maps" : "exact", r.energy, cpu, startExact,
                  r.iterations);
            QVERIFY2(std::abs(r.energy - cpu) <= 1e-3 + 1e-4 * std::abs(cpu),
                     qPrintable(QString("kernel %1, CPU %2").arg(r.energy).arg(cpu)));
            if (!vinaPath)
                QVERIFY(cpu <= startExact + 1e-3);
            QVERIFY(r.iterations > 0);
            double fixedMoved = 0, bondChange = 0;
            for (int f = 0; f < c.flex->atomCount(); ++f) {
                if (!c.flex->movable()[size_t(f)])
                    fixedMoved = std::max(fixedMoved, (side[size_t(f)] - startSide[size_t(f)]).norm());
                for (int g = 0; g < c.flex->atomCount(); ++g) {
                    const double d0 = (startSide[size_t(f)] - startSide[size_t(g)]).norm();
                    if (d0 < 1.7) // bonded: the distance is kept by any torsion
                        bondChange = std::max(
                            bondChange, std::abs((side[size_t(f)] - side[size_t(g)]).norm() - d0));
                }
            }
            QVERIFY2(fixedMoved < 1e-4, qPrintable(QString("a fixed atom moved %1 A").arg(fixedMoved)));
            QVERIFY2(bondChange < 1e-3, qPrintable(QString("a bond changed by %1 A").arg(bondChange)));
        }
    }

    // `minimize --flex --device cuda` (the guard's descents on the GPU, Vina's numbers from the
    // CPU) never ends above Vina --local_only --flex from the same start.
    void neverAboveVinaLocalOnly_data() { addFlexVinaRows("vina_local_only.txt"); }
    void neverAboveVinaLocalOnly() {
        QFETCH(QStringList, fields);
        QTemporaryDir dir;
        const QString sdf = dir.filePath("out.sdf");
        const CliRun r = runCli({"minimize", "--receptor", flexData(fields[1]), "--flex",
                                 flexData(fields[2]), "--ligands", flexData(fields[3]), "--box",
                                 flexData("1fpu_receptor.box.txt"), "--json", "--device", "cuda",
                                 "--out", sdf});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.err.contains("device: CUDA"), r.err.constData()); // not the CPU fallback
        const QJsonObject o = jsonLines(r.out).value(0);
        const double ours = o.value("inter").toDouble() + o.value("intra").toDouble();
        const double vina = fields[5].toDouble() + fields[8].toDouble();
        qInfo("%s: inter + intra %.3f (path %s), Vina --local_only %.3f", qPrintable(fields[0]),
              ours, qPrintable(o.value("path").toString()), vina);
        QVERIFY2(ours <= vina + 0.002,
                 qPrintable(QString("inter + intra %1 here, %2 after Vina --local_only (path %3)")
                                .arg(ours)
                                .arg(vina)
                                .arg(o.value("path").toString())));
        QVERIFY(o.value("start_inter").toDouble() + o.value("start_intra").toDouble() >= ours);
        QVERIFY(QFile::exists(sdf));
        QVERIFY(QFile::exists(dir.filePath("out_flex.pdbqt")));
    }

    // The side chains' results are the CPU's numbers for the GPU's coordinates: the same start
    // reports the same start numbers on both devices.
    void startNumbersAreTheCpus() {
        const QStringList common{"minimize", "--receptor", flexData("1fpu_rigid_2res.pdbqt"),
                                 "--flex", flexData("flex_2res.pdbqt"), "--ligands",
                                 flexData("moved1_ligand.pdbqt"), "--box",
                                 flexData("1fpu_receptor.box.txt"), "--json"};
        const CliRun gpu = runCli(common + QStringList{"--device", "cuda"});
        const CliRun cpu = runCli(common + QStringList{"--device", "cpu"});
        QVERIFY2(gpu.exitCode == 0 && cpu.exitCode == 0, (gpu.err + cpu.err).constData());
        const QJsonObject g = jsonLines(gpu.out).value(0), c = jsonLines(cpu.out).value(0);
        for (const char* key : {"start_affinity", "start_inter", "start_intra"})
            QCOMPARE(g.value(key).toDouble(), c.value(key).toDouble());
        qInfo("moved1, 2 residues: GPU affinity %.3f (path %s), CPU %.3f (path %s)",
              g.value("affinity").toDouble(), qPrintable(g.value("path").toString()),
              c.value("affinity").toDouble(), qPrintable(c.value("path").toString()));
        QVERIFY(std::abs(g.value("affinity").toDouble() - c.value("affinity").toDouble()) < 1.0);
    }
};

POSEWRIGHT_GPU_TEST_MAIN(TestFlexMinimizeGpu)
#include "test_flex_minimize_gpu.moc"
