// Tests for the PDBQT reader: receptors (types, charges, residues), ligand torsion trees checked
// against the files' ROOT/BRANCH structure, bonds by distance, and Vina's multi-MODEL output.
#include "chem/MoleculeReader.h"
#include "core/InputError.h"

#include <QtTest>

#include <fstream>
#include <map>
#include <set>
#include <sstream>

using namespace pw;

namespace {

const std::string kData = POSEWRIGHT_TEST_DATA;

// Independent reading of a PDBQT's tree: for each ROOT/BRANCH scope, the serials of its atoms,
// and for each BRANCH its two serials (the first MODEL only).
struct FileTree {
    std::vector<std::vector<int>> nodeSerials;
    std::vector<std::pair<int, int>> axes; // per node (root: 0 0)
};

FileTree scanTree(const std::string& path) {
    FileTree t;
    std::ifstream in(path);
    std::string line;
    std::vector<int> stack;
    while (std::getline(in, line)) {
        if (line.rfind("ENDMDL", 0) == 0)
            break;
        if (line.rfind("ROOT", 0) == 0) {
            t.nodeSerials.emplace_back();
            t.axes.emplace_back(0, 0);
            stack.push_back(0);
        } else if (line.rfind("ENDROOT", 0) == 0 || line.rfind("ENDBRANCH", 0) == 0) {
            stack.pop_back();
        } else if (line.rfind("BRANCH", 0) == 0) {
            std::istringstream f(line.substr(6));
            int a, b;
            f >> a >> b;
            t.nodeSerials.emplace_back();
            t.axes.emplace_back(a, b);
            stack.push_back(static_cast<int>(t.nodeSerials.size()) - 1);
        } else if (line.rfind("ATOM", 0) == 0 || line.rfind("HETATM", 0) == 0) {
            t.nodeSerials[stack.back()].push_back(std::stoi(line.substr(6, 5)));
        }
    }
    return t;
}

void checkTreeMatchesFile(const Molecule& m, const std::string& path) {
    FileTree expected = scanTree(path);
    QVERIFY(m.torsionTree.has_value());
    const TorsionTree& tree = *m.torsionTree;
    QCOMPARE(tree.nodes.size(), expected.nodeSerials.size());
    for (size_t n = 0; n < tree.nodes.size(); ++n) {
        std::vector<int> serials;
        for (int a : tree.nodes[n].atoms)
            serials.push_back(m.atoms[a].serial);
        QCOMPARE(serials, expected.nodeSerials[n]);
        if (n == 0)
            continue;
        const TorsionNode& node = tree.nodes[n];
        QCOMPARE(m.atoms[node.axisParentAtom].serial, expected.axes[n].first);
        QCOMPARE(m.atoms[node.axisChildAtom].serial, expected.axes[n].second);
        int bond = m.findBond(node.axisParentAtom, node.axisChildAtom);
        QVERIFY(bond >= 0);
        QVERIFY(m.bonds[bond].rotatable);
        // The parent atom belongs to the parent node.
        const auto& parentAtoms = tree.nodes[node.parent].atoms;
        QVERIFY(std::find(parentAtoms.begin(), parentAtoms.end(), node.axisParentAtom) !=
                parentAtoms.end());
    }
}

} // namespace

class TestPdbqt : public QObject {
    Q_OBJECT
private slots:
    void ligandTree_data() {
        QTest::addColumn<QString>("complex");
        QTest::addColumn<int>("atoms");    // ATOM/HETATM lines in ligand_xtal.pdbqt
        QTest::addColumn<int>("branches"); // BRANCH lines (= TORSDOF in these files)
        QTest::addColumn<int>("aromatic"); // atoms typed "A"
        QTest::newRow("1iep") << "1iep" << 40 << 7 << 21;
        QTest::newRow("1stp") << "1stp" << 18 << 5 << 3;
        QTest::newRow("3ce3") << "3ce3" << 37 << 5 << 24;
    }
    void ligandTree() {
        QFETCH(QString, complex);
        QFETCH(int, atoms);
        QFETCH(int, branches);
        QFETCH(int, aromatic);
        const std::string path =
            kData + "/complexes/" + complex.toStdString() + "/ligand_xtal.pdbqt";
        Molecule m = readMolecule(path);
        QCOMPARE(static_cast<int>(m.atoms.size()), atoms);
        QCOMPARE(m.torsionTree->torsionCount(), branches);
        QCOMPARE(*m.property("TORSDOF"), std::to_string(branches));
        int arom = 0, rotatable = 0;
        for (const Atom& a : m.atoms)
            arom += a.aromatic;
        for (const Bond& b : m.bonds)
            rotatable += b.rotatable;
        QCOMPARE(arom, aromatic);
        QCOMPARE(rotatable, branches);
        checkTreeMatchesFile(m, path);
        // Every atom is in exactly one node.
        std::vector<int> owner = m.torsionTree->nodeOfAtom(static_cast<int>(m.atoms.size()));
        QVERIFY(std::find(owner.begin(), owner.end(), -1) == owner.end());
    }

    void ligandBondsMatchSdf() {
        // 1iep: the SDF (all hydrogens) has 41 bonds between heavy atoms; the PDBQT keeps the
        // 37 heavy atoms and 3 polar hydrogens, so distance perception must find 41 + 3 bonds.
        Molecule sdf = readMolecule(kData + "/complexes/1iep/ligand_xtal.sdf");
        int heavyBonds = 0;
        for (const Bond& b : sdf.bonds)
            heavyBonds += sdf.atoms[b.a].element != 1 && sdf.atoms[b.b].element != 1;
        QCOMPARE(heavyBonds, 41);
        Molecule m = readMolecule(kData + "/complexes/1iep/ligand_xtal.pdbqt");
        int hydrogens = static_cast<int>(m.atoms.size()) - m.heavyAtomCount();
        QCOMPARE(hydrogens, 3);
        QCOMPARE(static_cast<int>(m.bonds.size()), heavyBonds + hydrogens);
        QCOMPARE(m.atoms[0].ad4Type, std::string("N"));
        QCOMPARE(m.atoms[2].ad4Type, std::string("OA"));
        QCOMPARE(m.atoms[2].element, 8);
        QCOMPARE(m.atoms[3].element, 1);
        QCOMPARE(m.atoms[0].charge, -0.322);
        QVERIFY(m.property("SMILES"));
        QCOMPARE(*m.property("SMILES"),
                 std::string("Cc1ccc(NC(=O)c2ccc(CN3CC[NH+](C)CC3)cc2)cc1Nc1nccc(-c2cccnc2)n1"));
        // The four "REMARK SMILES IDX" lines are joined into one property.
        QVERIFY(m.property("SMILES IDX")->rfind("6 1 7 2", 0) == 0);
        QVERIFY(m.property("SMILES IDX")->find("18 39") != std::string::npos);
        QCOMPARE(*m.property("H PARENT"), std::string("6 4 25 13 17 40"));
    }

    void receptor_data() {
        QTest::addColumn<QString>("complex");
        QTest::addColumn<int>("atoms");     // ATOM/HETATM lines
        QTest::addColumn<int>("residues");  // distinct chain + number + insertion (columns 22-27)
        QTest::addColumn<double>("charge"); // sum of columns 67-76
        QTest::newRow("1iep") << "1iep" << 2702 << 274 << -7.0;
        QTest::newRow("1stp") << "1stp" << 1116 << 121 << -0.958;
        QTest::newRow("3ce3") << "3ce3" << 2836 << 293 << 5.099;
    }
    void receptor() {
        QFETCH(QString, complex);
        QFETCH(int, atoms);
        QFETCH(int, residues);
        QFETCH(double, charge);
        Molecule m =
            readMolecule(kData + "/complexes/" + complex.toStdString() + "/receptor.pdbqt");
        QVERIFY(!m.torsionTree);
        QCOMPARE(static_cast<int>(m.atoms.size()), atoms);
        QCOMPARE(static_cast<int>(m.residues.size()), residues);
        double sum = 0;
        for (const Atom& a : m.atoms) {
            sum += a.charge;
            QVERIFY(a.element > 0);
            QVERIFY(!a.ad4Type.empty());
            QVERIFY(a.residue >= 0);
        }
        QVERIFY(std::abs(sum - charge) < 1e-6);
        // A protein is one connected chain per segment: almost every heavy atom is bonded, and
        // no atom has absurd valence.
        auto adj = m.neighbours();
        int isolated = 0;
        for (size_t i = 0; i < adj.size(); ++i) {
            isolated += adj[i].empty();
            QVERIFY(adj[i].size() <= 4 || m.atoms[i].element > 10);
        }
        QVERIFY2(isolated * 50 < atoms, "too many atoms without bonds");
        QCOMPARE(m.name, std::string("receptor"));
    }

    void vinaMultiModel() {
        // 1stp_vina_out.pdbqt: AutoDock Vina 1.2.3 docking of 1stp's biotin, 3 modes.
        const std::string path = kData + "/formats/1stp_vina_out.pdbqt";
        std::vector<Molecule> poses = readMolecules(path);
        QCOMPARE(poses.size(), size_t(3));
        const char* results[] = {"-7.132      0.000      0.000", "-5.426      2.495      2.916",
                                 "-5.395      4.512      6.245"};
        for (size_t i = 0; i < poses.size(); ++i) {
            QCOMPARE(poses[i].atoms.size(), size_t(18));
            QCOMPARE(poses[i].sourceRecord, static_cast<long>(i + 1));
            QVERIFY(poses[i].property("VINA RESULT"));
            QCOMPARE(*poses[i].property("VINA RESULT"), std::string(results[i]));
            QCOMPARE(poses[i].torsionTree->torsionCount(), 5);
            QCOMPARE(poses[i].bonds.size(), poses[0].bonds.size());
        }
        QCOMPARE(*poses[0].property("INTER + INTRA"), std::string("-9.539"));
        QCOMPARE(*poses[0].property("TORSDOF"), std::string("5"));
        // ADT's torsion listing is not kept as properties.
        for (const auto& [k, v] : poses[0].properties)
            QVERIFY(k.find("between atoms") == std::string::npos && k != "status");
        checkTreeMatchesFile(poses[0], path);
        // Different poses, same molecule.
        QVERIFY((poses[0].atoms[0].position - poses[1].atoms[0].position).norm() > 0.1);
    }

    void singleModelOutFile() {
        // Vina's *_out.pdbqt of the crystal pose without MODEL lines is one record.
        std::vector<Molecule> m = readMolecules(kData + "/complexes/1iep/poses/pose00_out.pdbqt");
        QCOMPARE(m.size(), size_t(1));
        QCOMPARE(m[0].torsionTree->torsionCount(), 7);
    }
};

QTEST_GUILESS_MAIN(TestPdbqt)
#include "test_pdbqt.moc"
