// Tests for the MOL2 reader: SYBYL types, aromatic/amide bonds, partial charges, substructures,
// several molecules per file (files written by Open Babel 3 from this repository's SDF data).
#include "chem/Mol2Reader.h"
#include "chem/MoleculeReader.h"
#include "core/InputError.h"

#include <QtTest>

using namespace pw;

namespace {
const std::string kData = POSEWRIGHT_TEST_DATA;
}

class TestMol2 : public QObject {
    Q_OBJECT
private slots:
    void imatinib() {
        // 1iep_ligand.mol2 = tests/data/complexes/1iep/ligand_xtal.sdf through Open Babel:
        // 69 atoms, 73 bonds (47 "1", 1 "2", 1 "am", 24 "ar"), 24 "*.ar" atoms, charges
        // summing to +1.0000, one N.4.
        Molecule m = readMolecule(kData + "/formats/1iep_ligand.mol2");
        Molecule sdf = readMolecule(kData + "/complexes/1iep/ligand_xtal.sdf");
        QCOMPARE(m.name, std::string("STI"));
        QCOMPARE(m.atoms.size(), size_t(69));
        QCOMPARE(m.bonds.size(), size_t(73));
        int single = 0, dbl = 0, arom = 0, aromAtoms = 0, cationic = 0;
        double charge = 0;
        for (const Bond& b : m.bonds) {
            single += b.order == BondOrder::Single;
            dbl += b.order == BondOrder::Double;
            arom += b.order == BondOrder::Aromatic;
        }
        for (const Atom& a : m.atoms) {
            aromAtoms += a.aromatic;
            charge += a.charge;
            cationic += a.formalCharge == 1;
        }
        QCOMPARE(single, 48); // 47 "1" + 1 "am"
        QCOMPARE(dbl, 1);
        QCOMPARE(arom, 24);
        QCOMPARE(aromAtoms, 24);
        QCOMPARE(cationic, 1);
        QVERIFY(std::abs(charge - 1.0) < 1e-3);
        QCOMPARE(m.atoms[0].charge, -0.0430);
        for (size_t i = 0; i < m.atoms.size(); ++i) {
            QCOMPARE(m.atoms[i].element, sdf.atoms[i].element);
            QVERIFY((m.atoms[i].position - sdf.atoms[i].position).norm() < 1e-4);
        }
        QCOMPARE(m.residues.size(), size_t(1));
        QCOMPARE(m.residues[0].name, std::string("UNL"));
        QCOMPARE(m.residues[0].number, 1);
    }

    void severalMolecules() {
        std::vector<Molecule> mols = readMolecules(kData + "/formats/cdk2_first3.mol2");
        std::vector<Molecule> sdf = readMolecules(kData + "/shapes/cdk2.sdf");
        QCOMPARE(mols.size(), size_t(3));
        for (size_t i = 0; i < 3; ++i) {
            QCOMPARE(mols[i].name, sdf[i].name);
            QCOMPARE(mols[i].atoms.size(), sdf[i].atoms.size());
            QCOMPARE(mols[i].bonds.size(), sdf[i].bonds.size());
            QCOMPARE(mols[i].sourceRecord, static_cast<long>(i + 1));
        }
    }

    void sybylTypes() {
        QCOMPARE(elementOfSybylType("C.ar"), 6);
        QCOMPARE(elementOfSybylType("N.pl3"), 7);
        QCOMPARE(elementOfSybylType("Cl"), 17);
        QCOMPARE(elementOfSybylType("O.co2"), 8);
        QCOMPARE(elementOfSybylType("Du"), 0);
        QCOMPARE(elementOfSybylType("Hal"), -1);
        QCOMPARE(elementOfSybylType("Xx.3"), -1);
    }

    void badRecordIsSkipped() {
        // The middle molecule names an atom missing from its ATOM section.
        std::string text = "@<TRIPOS>MOLECULE\na\n 1 0\nSMALL\nNO_CHARGES\n\n@<TRIPOS>ATOM\n"
                           "1 C1 0 0 0 C.3 1 LIG1 0.0\n"
                           "@<TRIPOS>MOLECULE\nb\n 2 1\nSMALL\nNO_CHARGES\n\n@<TRIPOS>ATOM\n"
                           "1 C1 0 0 0 C.3\n2 O1 1.4 0 0 O.3\n@<TRIPOS>BOND\n1 1 3 1\n"
                           "@<TRIPOS>MOLECULE\nc\n 1 0\nSMALL\nNO_CHARGES\n\n@<TRIPOS>ATOM\n"
                           "1 N1 0 0 0 N.3\n";
        std::vector<std::string> warnings;
        ReadOptions o;
        o.warn = [&](const std::string& w) { warnings.push_back(w); };
        auto reader = MoleculeReader::fromStream(std::make_unique<std::istringstream>(text),
                                                 FileFormat::Mol2, "mem.mol2", o);
        Molecule m;
        QVERIFY(reader->next(m));
        QCOMPARE(m.name, std::string("a"));
        QVERIFY(reader->next(m));
        QCOMPARE(m.name, std::string("c"));
        QVERIFY(!reader->next(m));
        QCOMPARE(reader->recordsSkipped(), 1);
        QCOMPARE(warnings.size(), size_t(1));
        QVERIFY2(warnings[0].find("mem.mol2:19: bond 1: expected two different atom ids") == 0,
                 warnings[0].c_str());
    }
};

QTEST_GUILESS_MAIN(TestMol2)
#include "test_mol2.moc"
