// Flexible side chains in minimization (minimize --flex): the pose vector grows by the side
// chains' torsions, its analytic gradient matches central differences, the side chains keep their
// geometry, and the command writes the ligands (ranked SDF) and the moved residues (PDBQT, one
// MODEL per ligand) and ends no higher than Vina 1.2.3's --local_only --flex from the same starts.
#include <QFile>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTextStream>
#include <QtTest>

#include "cli/CliRun.h"
#include "cli/FlexVinaRows.h"
#include "chem/FlexResidueReader.h"
#include "chem/FlexResidueSplit.h"
#include "core/InputError.h"
#include "chem/LigandPreparation.h"
#include "chem/MoleculeReader.h"
#include "minimize/FlexPoseObjective.h"
#include "minimize/FlexRefinement.h"
#include "score/DockingTarget.h"

#include <algorithm>
#include <cmath>

using namespace pw;
using namespace pw::test;

namespace {

std::string flexPath(const char* name) {
    return std::string(POSEWRIGHT_TEST_DATA) + "/flex/" + name;
}
QString flexData(const QString& name) { return testData("flex/" + name); }

// The 1fpu target with its side chains, and one ligand, as `minimize --flex` builds them.
struct FlexCase {
    Molecule receptor;
    std::unique_ptr<DockingTarget> target;
    std::unique_ptr<FlexModel> flex;
    Molecule ligand;
    std::unique_ptr<LigandScorer> ligandScorer;
    std::unique_ptr<FlexScorer> scorer;

    FlexCase(const char* rigid, const char* flexFile, const char* ligandFile) {
        receptor = readMolecule(flexPath(rigid));
        const SearchBox box = readBoxConfig(flexPath("1fpu_receptor.box.txt"));
        target = std::make_unique<DockingTarget>(receptor, box, ScoringKind::Vina, 1);
        std::vector<FlexResidue> residues = readFlexResidues(flexPath(flexFile));
        checkFlexResiduesInReceptor(residues, receptor, rigid);
        flex = std::make_unique<FlexModel>(std::move(residues), receptor);
        ligand = prepareLigand(readMolecule(flexPath(ligandFile)));
        ligandScorer =
            std::make_unique<LigandScorer>(ligand, target->scoring(), target->receptor());
        scorer = std::make_unique<FlexScorer>(*ligandScorer, *flex,
                                              &target->gridFor(flex->movableTypes()));
    }
};

} // namespace

class TestCliFlexMinimize : public QObject {
    Q_OBJECT
private slots:
    void typesAndPairsAsVina() {
        FlexCase c("1fpu_rigid_2res.pdbqt", "flex_2res.pdbqt", "1iep_ligand.pdbqt");
        const FlexModel& f = *c.flex;
        QCOMPARE(f.residueCount(), 2);
        QCOMPARE(f.torsionCount(), 2 + 5);
        // THR 315: CA (bonded to the rigid backbone N) and CB stay; CG2, OG1, HG1 move.
        QCOMPARE(f.types()[0], int(XsType::C_P));
        QCOMPARE(f.types()[1], int(XsType::C_P));  // CB, bonded to OG1
        QCOMPARE(f.types()[2], int(XsType::C_H));  // CG2
        QCOMPARE(f.types()[3], int(XsType::O_DA)); // OG1 with its HD
        QCOMPARE(f.types()[4], -1);                // HG1
        QCOMPARE(int(f.movable()[0]) + int(f.movable()[1]), 0);
        QVERIFY(f.movable()[2] && f.movable()[3] && f.movable()[4]);
        // LYS 271: NZ with three HD is a donor; CA and CB fixed.
        const int lys = f.atomOffset(1);
        QCOMPARE(f.types()[lys + 5], int(XsType::N_D));
        QVERIFY(!f.movable()[lys] && !f.movable()[lys + 1] && f.movable()[lys + 2]);
        // Pairs: none inside THR (its moving heavy atoms are within three bonds of every other
        // heavy atom); inside LYS the 1-5 pairs and beyond; between residues all but CA/CB pairs.
        int inside = 0, between = 0;
        for (const auto& p : f.pairs()) {
            const bool a = p.i >= lys, b = p.j >= lys;
            if (a && b)
                ++inside;
            else if (a != b)
                ++between;
            else
                QFAIL("a pair inside THR 315");
        }
        QCOMPARE(inside, 3); // CA-CE, CA-NZ, CB-NZ
        QCOMPARE(between, 4 * 6 - 2 * 2); // THR heavy (CA, CB, CG2, OG1) x LYS heavy (6), less
                                          // the fixed-fixed pairs (CA, CB of each)
    }

    void gradientMatchesDifferences() {
        FlexCase c("1fpu_rigid_2res.pdbqt", "flex_2res.pdbqt", "moved3_ligand.pdbqt");
        LigandKinematics kin(c.ligand);
        FlexPoseObjective objective(kin, *c.scorer);
        Pose pose = objective.startPose();
        QCOMPARE(objective.dimension(), 6 + kin.torsionCount() + 7);
        QCOMPARE(pose.dimension(), objective.dimension());
        // Away from the input: every side-chain torsion turned, the ligand moved a little.
        for (int t = 0; t < pose.torsionCount(); ++t)
            pose.torsions[t] += 0.3 * std::sin(1.7 * t + 0.4);
        pose.position += Vec3(0.1, -0.05, 0.08);
        // The exact energy, and the same on Vina's maps (the guard's Vina path moves on it).
        const ReceptorGrid& grid = c.target->gridFor(
            [&] {
                std::vector<XsType> t = c.flex->movableTypes();
                for (const Atom& a : c.ligand.atoms)
                    if (a.xs != XsType::None && std::find(t.begin(), t.end(), a.xs) == t.end())
                        t.push_back(a.xs);
                return t;
            }());
        LigandScorer onGridLigand(c.ligand, c.target->scoring(), c.target->receptor(), &grid);
        FlexPoseObjective onGrid(kin, *c.scorer, onGridLigand, grid);
        for (PoseObjective* f : {static_cast<PoseObjective*>(&objective),
                                 static_cast<PoseObjective*>(&onGrid)}) {
            std::vector<double> g(f->dimension());
            f->evaluate(pose, g.data());
            const double h = 1e-6;
            for (int k = 0; k < f->dimension(); ++k) {
                std::vector<double> step(f->dimension(), 0.0);
                step[k] = 1.0;
                Pose plus = pose, minus = pose;
                plus.applyStep(step.data(), h);
                minus.applyStep(step.data(), -h);
                const double fd =
                    (f->evaluate(plus, nullptr) - f->evaluate(minus, nullptr)) / (2 * h);
                QVERIFY2(std::abs(fd - g[k]) <= 1e-4 * std::max(1.0, std::abs(fd)),
                         qPrintable(QString("%1 component %2: analytic %3, differences %4")
                                        .arg(f == &objective ? "exact" : "maps")
                                        .arg(k).arg(g[k]).arg(fd)));
            }
        }
    }

    void sideChainsMoveRigidlyAndLower() {
        FlexCase c("1fpu_rigid_2res.pdbqt", "flex_2res.pdbqt", "moved1_ligand.pdbqt");
        const FlexRefinementResult r = refineWithFlex(c.ligand, *c.scorer);
        QVERIFY(r.score.inter() + r.score.intra() < r.start.inter() + r.start.intra() - 1.0);
        const std::vector<Vec3>& before = c.flex->referenceCoordinates();
        bool moved = false;
        // Bond lengths inside each residue are those of the input; fixed atoms stay.
        for (int res = 0; res < c.flex->residueCount(); ++res) {
            const Molecule& m = c.flex->residue(res).mol;
            const int o = c.flex->atomOffset(res);
            for (const Bond& b : m.bonds) {
                const double d0 = (before[o + b.a] - before[o + b.b]).norm();
                const double d1 = (r.flexCoordinates[o + b.a] - r.flexCoordinates[o + b.b]).norm();
                QVERIFY(std::abs(d0 - d1) < 1e-9);
            }
            for (int i = 0; i < static_cast<int>(m.atoms.size()); ++i) {
                if (!c.flex->movable()[o + i])
                    QVERIFY((before[o + i] - r.flexCoordinates[o + i]).norm() < 1e-9);
                else
                    moved = moved || (before[o + i] - r.flexCoordinates[o + i]).norm() > 0.05;
            }
        }
        QVERIFY(moved);
        // The reported numbers are the score of the returned coordinates.
        const FlexScore again = c.scorer->finalScore(r.ligandCoordinates, r.flexCoordinates);
        QCOMPARE(again.affinity, r.score.affinity);
    }

    void writesLigandsAndMovedResidues() {
        QTemporaryDir dir;
        const QString sdf = dir.filePath("out.sdf");
        const CliRun r = runCli({"minimize", "--receptor", flexData("1fpu_rigid_2res.pdbqt"),
                                 "--flex", flexData("flex_2res.pdbqt"), "--ligands",
                                 flexData("moved1_ligand.pdbqt"), flexData("moved3_ligand.pdbqt"),
                                 "--box", flexData("1fpu_receptor.box.txt"), "--out", sdf,
                                 "--json", "--threads", "1"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const auto objs = jsonLines(r.out);
        QCOMPARE(objs.size(), 2);
        QFile flexOut(dir.filePath("out_flex.pdbqt"));
        QVERIFY(flexOut.open(QIODevice::ReadOnly));
        const QByteArray text = flexOut.readAll();
        QCOMPARE(text.count("MODEL "), 2);
        QCOMPARE(text.count("BEGIN_RES THR A 315"), 2);
        QCOMPARE(text.count("END_RES LYS A 271"), 2);
        QFile sdfFile(sdf);
        QVERIFY(sdfFile.open(QIODevice::ReadOnly));
        const QByteArray sdfText = sdfFile.readAll();
        QCOMPARE(sdfText.count("$$$$"), 2);
        QVERIFY(sdfText.contains("<flexModel>"));
        QVERIFY(sdfText.contains("<minimizedFlexReceptor>"));
        // Each model's residues, scored again with its ligand, give the reported affinity.
        for (const QJsonObject& o : objs) {
            const int model = o.value("flex_model").toInt();
            const int begin = text.indexOf("MODEL " + QByteArray::number(model) + "\n");
            const int end = text.indexOf("ENDMDL", begin);
            QVERIFY(begin >= 0 && end > begin);
            QByteArray block = text.mid(begin, end - begin);
            block = block.mid(block.indexOf("BEGIN_RES"));
            QFile f(dir.filePath("model.pdbqt"));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(block);
            f.close();
            // The ligand of this model: its SDF coordinates on the input PDBQT's lines (the
            // atom order is the same; an SDF would be prepared again, with its own typing).
            int at = 0;
            for (int k = 1; k < model; ++k)
                at = sdfText.indexOf("$$$$\n", at) + 5;
            const QList<QByteArray> rec = sdfText.mid(at).split('\n');
            const int atoms = rec[3].left(3).trimmed().toInt();
            const QString input = o.value("index").toInt() == 0 ? "moved1_ligand.pdbqt"
                                                                 : "moved3_ligand.pdbqt";
            QFile in(flexData(input));
            QVERIFY(in.open(QIODevice::ReadOnly));
            QByteArray ligText;
            int atom = 0;
            for (QByteArray line : in.readAll().split('\n')) {
                if (line.startsWith("ATOM") || line.startsWith("HETATM")) {
                    QVERIFY(atom < atoms);
                    const QList<QByteArray> xyz = rec[4 + atom++].simplified().split(' ');
                    line = line.left(30) +
                           QString::asprintf("%8.3f%8.3f%8.3f", xyz[0].toDouble(),
                                             xyz[1].toDouble(), xyz[2].toDouble())
                               .toLatin1() +
                           line.mid(54);
                }
                ligText += line + "\n";
            }
            QCOMPARE(atom, atoms);
            QFile lig(dir.filePath("lig.pdbqt"));
            QVERIFY(lig.open(QIODevice::WriteOnly));
            lig.write(ligText);
            lig.close();
            const CliRun s = runCli({"score", "--receptor", flexData("1fpu_rigid_2res.pdbqt"),
                                     "--flex", dir.filePath("model.pdbqt"), "--ligand",
                                     dir.filePath("lig.pdbqt"), "--box",
                                     flexData("1fpu_receptor.box.txt"), "--json"});
            QVERIFY2(s.exitCode == 0, s.err.constData());
            const double again = jsonLines(s.out)[0].value("affinity").toDouble();
            QVERIFY2(std::abs(again - o.value("affinity").toDouble()) < 0.01,
                     qPrintable(QString("rescored %1, reported %2")
                                    .arg(again).arg(o.value("affinity").toDouble())));
        }
    }

    // Vina's numbers after vina --local_only --flex from the same start (tests/data/flex/
    // vina_reference.sh --local_only wrote them): our end is never above on the minimized
    // objective, inter + intra as Vina reports them (within its printed rounding).
    void neverAboveVinaLocalOnly_data() { addFlexVinaRows("vina_local_only.txt"); }
    void neverAboveVinaLocalOnly() {
        QFETCH(QStringList, fields);
        const CliRun r = runCli({"minimize", "--receptor", flexData(fields[1]), "--flex",
                                 flexData(fields[2]), "--ligands", flexData(fields[3]), "--box",
                                 flexData("1fpu_receptor.box.txt"), "--json", "--threads", "1"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject o = jsonLines(r.out).value(0);
        const double ours = o.value("inter").toDouble() + o.value("intra").toDouble();
        const double vina = fields[5].toDouble() + fields[8].toDouble();
        QVERIFY2(ours <= vina + 0.002,
                 qPrintable(QString("inter + intra %1 here, %2 after Vina --local_only (path %3)")
                                .arg(ours).arg(vina).arg(o.value("path").toString())));
        // The start's numbers are Vina's --score_only numbers of the same input.
        QVERIFY(o.value("start_inter").toDouble() + o.value("start_intra").toDouble() >= ours);
    }

    // --flex-residues: side chains cut from the receptor get the torsions prepare_flexreceptor.py
    // gives them (terminal groups of heavy atoms turn, amide and guanidinium C-N bonds and ring
    // bonds do not, a hydroxyl turns for its polar H), and the rigid part loses CA and side chain.
    void splitsResiduesFromTheReceptor() {
        const Molecule receptor = readMolecule(flexPath("1fpu_receptor_rigid.pdbqt"));
        const std::vector<std::pair<const char*, int>> expected{
            {"A:ARG239", 4}, {"A:PHE283", 2}, {"A:SER228", 2}, {"A:TYR232", 3}, {"A:MET225", 3},
            {"A:ASN297", 2}, {"A:HIS246", 2}, {"A:GLU236", 3}, {"A:ASP233", 2}, {"A:THR240", 2},
            {"A:GLN252", 3}, {"A:TRP235", 2}, {"A:LYS271", 5}};
        for (const auto& [spec, torsions] : expected) {
            const FlexSplit split =
                splitFlexResidues(receptor, parseFlexResidueSpecs(spec), "receptor");
            QCOMPARE(split.residues.size(), size_t(1));
            const FlexResidue& r = split.residues[0];
            QVERIFY2(r.mol.torsionTree->torsionCount() == torsions,
                     qPrintable(QString("%1: %2 torsions").arg(spec).arg(
                         r.mol.torsionTree->torsionCount())));
            QCOMPARE(r.mol.atoms[r.mol.torsionTree->nodes[0].atoms[0]].name, std::string("CA"));
            QCOMPARE(split.rigid.atoms.size() + r.mol.atoms.size(), receptor.atoms.size());
            for (const Atom& a : split.rigid.atoms)
                if (a.residue >= 0 && receptor.residues[a.residue].number == r.resSeq)
                    QVERIFY(a.name == "N" || a.name == "C" || a.name == "O" || a.name == "H");
        }
        // Errors name the option and the residue.
        auto message = [&](const char* list) {
            try {
                splitFlexResidues(receptor, parseFlexResidueSpecs(list), "receptor");
            } catch (const InputError& e) {
                return std::string(e.what());
            }
            return std::string();
        };
        QVERIFY(message("A:GLY383").find("has no rotatable side-chain bond") != std::string::npos);
        QVERIFY(message("A:ALA380").find("ALA A 380 has no rotatable") != std::string::npos);
        QVERIFY(message("B:LYS271").find("no such residue") != std::string::npos);
        QVERIFY(message("A:SER271").find("no such residue") != std::string::npos);
        QVERIFY(message("A:").find("expected CHAIN:NAMENUMBER") != std::string::npos);
    }

    // --flex-residues A:LYS271 on the whole receptor scores as the hand-split rigid part with
    // flex_2res.pdbqt (Vina's numbers in vina_score.txt, 2res_xtal).
    void flexResiduesOptionMatchesVina() {
        const CliRun r = runCli({"score", "--receptor", flexData("1fpu_receptor_rigid.pdbqt"),
                                 "--flex", flexData("1fpu_receptor_flex.pdbqt"),
                                 "--flex-residues", "A:LYS271", "--ligand",
                                 flexData("1iep_ligand.pdbqt"), "--box",
                                 flexData("1fpu_receptor.box.txt"), "--json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject o = jsonLines(r.out).value(0);
        const std::pair<const char*, double> vina[] = {
            {"affinity", -4.518},     {"ligand_receptor", -5.382}, {"ligand_flex", -0.794},
            {"ligand_intra", -0.485}, {"flex_receptor", -0.218},   {"flex_flex", -0.015},
            {"unbound", -0.527}};
        for (const auto& [key, value] : vina)
            QVERIFY2(std::abs(o.value(key).toDouble() - value) <= 0.0015, key);
        const CliRun out = runCli({"score", "--receptor", flexData("1fpu_receptor_rigid.pdbqt"),
                                   "--flex-residues", "A:ARG386", "--ligand",
                                   flexData("1iep_ligand.pdbqt"), "--box",
                                   flexData("1fpu_receptor.box.txt")});
        QCOMPARE(out.exitCode, 1);
        QVERIFY2(out.err.contains("ARG A 386") && out.err.contains("outside the box"),
                 out.err.constData());
    }

    // --device cuda takes one GPU (the CPU, said in the device line, where none is usable);
    // several GPUs are refused.
    void deviceChoices() {
        const QStringList common{"minimize", "--receptor", flexData("1fpu_receptor_rigid.pdbqt"),
                                 "--flex", flexData("1fpu_receptor_flex.pdbqt"), "--ligands",
                                 flexData("1iep_ligand.pdbqt"), "--box",
                                 flexData("1fpu_receptor.box.txt"), "--json"};
        for (const char* several : {"cuda:all", "cuda:0,1"}) {
            const CliRun r = runCli(common + QStringList{"--device", several});
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(r.err.contains("--flex runs on one GPU"), r.err.constData());
        }
        const CliRun one = runCli(common + QStringList{"--device", "cuda"});
        QVERIFY2(one.exitCode == 0, one.err.constData());
        QVERIFY2(one.err.contains("device: "), one.err.constData());
        const QJsonObject j = jsonLines(one.out).value(0);
        QVERIFY(j.value("inter").toDouble() + j.value("intra").toDouble() <=
                j.value("start_inter").toDouble() + j.value("start_intra").toDouble());
        const CliRun o = runCli({"minimize", "--receptor", flexData("1fpu_receptor_rigid.pdbqt"),
                                 "--flex-out", "x.pdbqt", "--ligands",
                                 flexData("1iep_ligand.pdbqt"), "--box",
                                 flexData("1fpu_receptor.box.txt")});
        QCOMPARE(o.exitCode, 2);
        QVERIFY2(o.err.contains("--flex-out needs --flex"), o.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliFlexMinimize)
#include "test_cli_flex_minimize.moc"
