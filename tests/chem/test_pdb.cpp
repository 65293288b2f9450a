// Tests for the PDB reader and bond perception: real receptors (counts from the files, bonds
// agreeing with the PDBQT of the same structure), and a hand-made snippet for alternate
// locations, insertion codes, hetero groups, waters, CONECT and multi-MODEL files.
#include "chem/MoleculeReader.h"
#include "core/BondPerception.h"
#include "core/InputError.h"

#include <QElapsedTimer>
#include <QtTest>

#include <random>

using namespace pw;

namespace {

const std::string kData = POSEWRIGHT_TEST_DATA;

int heavyBonds(const Molecule& m) {
    int n = 0;
    for (const Bond& b : m.bonds)
        n += m.atoms[b.a].element != 1 && m.atoms[b.b].element != 1;
    return n;
}

int findAtom(const Molecule& m, const std::string& name, int resNumber, char insertion = ' ') {
    for (size_t i = 0; i < m.atoms.size(); ++i) {
        const Residue& r = m.residues[m.atoms[i].residue];
        if (m.atoms[i].name == name && r.number == resNumber && r.insertion == insertion)
            return static_cast<int>(i);
    }
    return -1;
}

} // namespace

class TestPdb : public QObject {
    Q_OBJECT
private slots:
    void streptavidinReceptor() {
        // 1stp/receptor.pdb: 901 ATOM lines, 121 residues (chain + number + insertion).
        Molecule m = readMolecule(kData + "/complexes/1stp/receptor.pdb");
        QCOMPARE(m.atoms.size(), size_t(901));
        QCOMPARE(m.residues.size(), size_t(121));
        QCOMPARE(m.residues[0].name, std::string("ALA"));
        QCOMPARE(m.residues[0].number, 13);
        QCOMPARE(m.residues[0].chain, 'A');
        QCOMPARE(m.atoms[1].name, std::string("CA"));
        QCOMPARE(m.atoms[1].element, 6);
        QCOMPARE(m.name, std::string("receptor"));
        // The PDBQT of the same structure (polar hydrogens added) has the same heavy-atom
        // bonds: perception must agree with itself across formats and with the chemistry.
        Molecule q = readMolecule(kData + "/complexes/1stp/receptor.pdbqt");
        QCOMPARE(q.heavyAtomCount(), 901);
        QCOMPARE(heavyBonds(m), heavyBonds(q));
        QCOMPARE(static_cast<int>(m.bonds.size()), heavyBonds(m));
        // No heavy atom of a protein has more than four bonds.
        for (const auto& adj : m.neighbours())
            QVERIFY(adj.size() <= 4);
    }

    void hydrogensBondOnce() {
        // 1iep/receptorH.pdb: 4412 atoms, 2183 of them hydrogens (element columns).
        Molecule m = readMolecule(kData + "/complexes/1iep/receptorH.pdb");
        QCOMPARE(m.atoms.size(), size_t(4412));
        QCOMPARE(static_cast<int>(m.atoms.size()) - m.heavyAtomCount(), 2183);
        auto adj = m.neighbours();
        for (size_t i = 0; i < m.atoms.size(); ++i)
            if (m.atoms[i].element == 1)
                QCOMPARE(adj[i].size(), size_t(1));
    }

    void ligandHetatm() {
        Molecule m = readMolecule(kData + "/complexes/1stp/ligand_xtal.pdb");
        QCOMPARE(m.atoms.size(), size_t(16));
        QCOMPARE(m.residues.size(), size_t(1));
        QVERIFY(m.residues[0].hetero);
        QCOMPARE(m.residues[0].name, std::string("BTN"));
        QCOMPARE(m.atoms[8].element, 16); // S1
        // Same bonds as the heavy part of the PDBQT ligand.
        Molecule q = readMolecule(kData + "/complexes/1stp/ligand_xtal.pdbqt");
        QCOMPARE(static_cast<int>(m.bonds.size()), heavyBonds(q));
        QCOMPARE(m.bonds.size(), size_t(17)); // biotin: 16 heavy atoms, two rings
    }

    void altlocInsertionHeteroWater() {
        Molecule m = readMolecule(kData + "/formats/altloc_insertion.pdb");
        // Model 1 only; ALA 50 CB keeps altloc A; SER 51 CA keeps B (its first altloc).
        QCOMPARE(m.atoms.size(), size_t(16));
        QCOMPARE(m.residues.size(), size_t(8));
        int cb = findAtom(m, "CB", 50);
        QVERIFY(cb >= 0);
        QCOMPARE(m.atoms[cb].position.z(), -1.220);
        int serCa = findAtom(m, "CA", 51);
        QCOMPARE(m.atoms[serCa].position.x(), 3.970);
        // 52 and 52A are two residues.
        int n52 = findAtom(m, "N", 52), n52a = findAtom(m, "N", 52, 'A');
        QVERIFY(n52 >= 0 && n52a >= 0);
        QVERIFY(m.atoms[n52].residue != m.atoms[n52a].residue);
        QCOMPARE(m.residues[m.atoms[n52a].residue].insertion, 'A');
        // Elements: columns 77-78, or the name's alignment when they are blank.
        QCOMPARE(m.atoms[findAtom(m, "CA", 52, 'A')].element, 6); // " CA " carbon
        int calcium = findAtom(m, "CA", 102);
        QCOMPARE(m.atoms[calcium].element, 20); // "CA  " calcium
        QVERIFY(m.residues[m.atoms[calcium].residue].hetero);
        int zinc = findAtom(m, "ZN", 101);
        QCOMPARE(m.atoms[zinc].element, 30);
        QCOMPARE(m.atoms[zinc].formalCharge, 2);
        // CONECT is honoured even beyond bonding distance.
        QVERIFY(m.findBond(zinc, n52a) >= 0);
        // Water: O-H inside the residue; the other water's O clashes with N 52A (1.6 Å) but
        // water bonds only within its own residue.
        int o201 = findAtom(m, "O", 201), o203 = findAtom(m, "O", 203);
        QVERIFY(m.findBond(o201, findAtom(m, "H1", 201)) >= 0);
        QVERIFY(m.findBond(o201, findAtom(m, "H2", 201)) >= 0);
        QCOMPARE(m.neighbours()[o203].size(), size_t(0));
        // ALA N-CA, CA-C, C-O, CA-CB; peptide C-N; SER N-CA; GLY 52A N-CA; CONECT; water 2.
        QCOMPARE(m.bonds.size(), size_t(10));
    }

    void perceptionIsFastOnLargeSystems() {
        // 100k atoms: 20,000 five-atom chains on a lattice, bonded within chains only.
        Molecule m;
        std::mt19937 rng(7);
        std::uniform_real_distribution<double> jitter(-0.02, 0.02);
        for (int c = 0; c < 20000; ++c) {
            Vec3 origin((c % 40) * 10.0, ((c / 40) % 25) * 4.0, (c / 1000) * 4.0);
            for (int k = 0; k < 5; ++k) {
                Atom a;
                a.element = 6;
                a.position = origin + Vec3(k * 1.53 + jitter(rng), jitter(rng), jitter(rng));
                m.atoms.push_back(a);
            }
        }
        QElapsedTimer t;
        t.start();
        int added = perceiveBonds(m);
        QVERIFY2(t.elapsed() < 2000, qPrintable(QString("took %1 ms").arg(t.elapsed())));
        QCOMPARE(added, 20000 * 4);
        // Existing bonds are kept and never duplicated.
        QCOMPARE(perceiveBonds(m), 0);
    }
};

QTEST_GUILESS_MAIN(TestPdb)
#include "test_pdb.moc"
