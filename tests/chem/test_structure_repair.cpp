// Tests for StructureRepair through the SDF and MOL2 readers: files other tools write with
// impossible valences (a four-valent N without its charge, aromatic bonds on chains) are read
// as Open Babel reads them, with one warning per record, and every repaired record then passes
// preparation (RDKit sanitization). Valid records are left alone; what cannot be mended is
// still refused.
#include "chem/LigandPreparation.h"
#include "chem/MoleculeReader.h"
#include "chem/SdfReader.h"
#include "chem/StructureRepair.h"
#include "core/InputError.h"

#include <QtTest>

#include <memory>
#include <sstream>

using namespace pw;

namespace {
const std::string kData = POSEWRIGHT_TEST_DATA;

struct Read {
    std::vector<Molecule> mols;
    std::vector<std::string> warnings;
};

Read readText(const std::string& text, FileFormat format) {
    Read r;
    ReadOptions o;
    o.warn = [&r](const std::string& w) { r.warnings.push_back(w); };
    auto reader =
        MoleculeReader::fromStream(std::make_unique<std::istringstream>(text), format, "in", o);
    Molecule m;
    while (reader->next(m))
        r.mols.push_back(m);
    return r;
}

int formalChargeSum(const Molecule& m) {
    int q = 0;
    for (const Atom& a : m.atoms)
        q += a.formalCharge;
    return q;
}

int bondsOfOrder(const Molecule& m, BondOrder o) {
    int n = 0;
    for (const Bond& b : m.bonds)
        n += b.order == o;
    return n;
}

// An SDF V2000 record from atom lines "x y z El" and bond lines "a b order".
std::string sdf(const std::string& name, const std::vector<std::string>& atoms,
                const std::vector<std::array<int, 3>>& bonds) {
    std::ostringstream s;
    s << name << "\n  test\n\n";
    char line[128];
    std::snprintf(line, sizeof line, "%3zu%3zu  0  0  0  0  0  0  0  0999 V2000\n", atoms.size(),
                  bonds.size());
    s << line;
    for (const std::string& a : atoms) {
        double x, y, z;
        char el[4];
        std::sscanf(a.c_str(), "%lf %lf %lf %3s", &x, &y, &z, el);
        std::snprintf(line, sizeof line,
                      "%10.4f%10.4f%10.4f %-3s 0  0  0  0  0  0  0  0  0  0  0  0\n", x, y, z,
                      el);
        s << line;
    }
    for (const auto& b : bonds) {
        std::snprintf(line, sizeof line, "%3d%3d%3d  0  0  0  0\n", b[0], b[1], b[2]);
        s << line;
    }
    s << "M  END\n$$$$\n";
    return s.str();
}

// Methylammonium with all hydrogens and no charge, as Open Babel writes a protonated amine
// from a PDBQT (PDBQT carries no formal charges).
std::string methylammonium() {
    return sdf("methylammonium",
               {"0 0 0 C", "1.47 0 0 N", "-0.36 1.03 0 H", "-0.36 -0.51 0.89 H",
                "-0.36 -0.51 -0.89 H", "1.83 -1.03 0 H", "1.83 0.51 0.89 H",
                "1.83 0.51 -0.89 H"},
               {{1, 2, 1}, {1, 3, 1}, {1, 4, 1}, {1, 5, 1}, {2, 6, 1}, {2, 7, 1}, {2, 8, 1}});
}

// Methyl azide written C-N=N=N without charges (as in Open Babel's 3o8g_uff.sdf).
std::string methylAzide() {
    return sdf("methyl azide", {"0 0 0 C", "1.47 0 0 N", "2.1 1.05 0 N", "2.7 2.1 0 N"},
               {{1, 2, 1}, {2, 3, 2}, {3, 4, 2}});
}

// A MOL2 record: atom lines "name x y z type", bond lines "a b type", optional UNITY charges.
std::string mol2(const std::string& name, const std::vector<std::string>& atoms,
                 const std::vector<std::string>& bonds,
                 const std::vector<std::pair<int, int>>& charges = {}) {
    std::ostringstream s;
    s << "@<TRIPOS>MOLECULE\n" << name << "\n" << atoms.size() << " " << bonds.size()
      << " 1\nSMALL\nUSER_CHARGES\n\n@<TRIPOS>ATOM\n";
    for (size_t i = 0; i < atoms.size(); ++i)
        s << "  " << i + 1 << " " << atoms[i] << " 1 UNL1 0.0000\n";
    if (!charges.empty()) {
        s << "@<TRIPOS>UNITY_ATOM_ATTR\n";
        for (auto [atom, q] : charges)
            s << atom << " 1\ncharge " << q << "\n";
    }
    s << "@<TRIPOS>BOND\n";
    for (size_t i = 0; i < bonds.size(); ++i)
        s << "  " << i + 1 << " " << bonds[i] << "\n";
    return s.str();
}

// Acetate with its carboxylate as two "ar" bonds (Open Babel's and SYBYL's O.co2 convention).
std::string acetate(bool chargeOnSecondOxygen) {
    std::vector<std::pair<int, int>> charges;
    if (chargeOnSecondOxygen)
        charges.push_back({4, -1});
    return mol2("acetate",
                {"C1 0 0 0 C.3", "C2 1.52 0 0 C.2", "O1 2.15 1.08 0 O.co2",
                 "O2 2.15 -1.08 0 O.co2", "H1 -0.36 1.03 0 H", "H2 -0.36 -0.51 0.89 H",
                 "H3 -0.36 -0.51 -0.89 H"},
                {"1 2 1", "2 3 ar", "2 4 ar", "1 5 1", "1 6 1", "1 7 1"}, charges);
}

} // namespace

class TestStructureRepair : public QObject {
    Q_OBJECT
private slots:
    void fourValentNitrogenIsCharged() {
        Read r = readText(methylammonium(), FileFormat::Sdf);
        QCOMPARE(r.mols.size(), size_t(1));
        QCOMPARE(r.warnings.size(), size_t(1));
        QVERIFY2(r.warnings[0].find("in:1: molecule 'methylammonium' was repaired") == 0,
                 r.warnings[0].c_str());
        QVERIFY2(r.warnings[0].find("charged N atom 2 +1") != std::string::npos,
                 r.warnings[0].c_str());
        QCOMPARE(r.mols[0].atoms[1].formalCharge, 1);
        QCOMPARE(formalChargeSum(r.mols[0]), 1);
        Molecule prepared = prepareLigand(r.mols[0]); // sanitizes: throws if still invalid
        QCOMPARE(prepared.atoms.size(), size_t(8)); // no hydrogen added or lost
    }

    void azideGetsBothCharges() {
        Read r = readText(methylAzide(), FileFormat::Sdf);
        QCOMPARE(r.mols.size(), size_t(1));
        QCOMPARE(r.warnings.size(), size_t(1));
        const Molecule& m = r.mols[0];
        QCOMPARE(m.atoms[2].formalCharge, 1);
        QCOMPARE(m.atoms[3].formalCharge, -1);
        QCOMPARE(formalChargeSum(m), 0);
        Molecule prepared = prepareLigand(m);
        // CH3-N3: 3 hydrogens on carbon, none on the terminal nitrogen (a neutral N=N end
        // would have taken one).
        QCOMPARE(prepared.atoms.size(), size_t(7));
    }

    void validRecordsAreLeftAlone() {
        // The same ammonium with its charge given: nothing to mend, no warning.
        std::string text = methylammonium();
        text.replace(text.find("M  END"), 6, "M  CHG  1   2   1\nM  END");
        Read r = readText(text + methylAzide(), FileFormat::Sdf);
        QCOMPARE(r.mols.size(), size_t(2));
        QCOMPARE(r.warnings.size(), size_t(1)); // the azide's only
        QCOMPARE(r.mols[0].atoms[1].formalCharge, 1);
        QVERIFY(r.warnings[0].find("methyl azide") != std::string::npos);
        // Benzene with SDF aromatic bonds (type 4) in its ring: kept aromatic, no warning.
        std::vector<std::string> ring;
        std::vector<std::array<int, 3>> ringBonds;
        for (int k = 0; k < 6; ++k) {
            ring.push_back(std::to_string(1.39 * std::cos(k * M_PI / 3)) + " " +
                           std::to_string(1.39 * std::sin(k * M_PI / 3)) + " 0 C");
            ringBonds.push_back({k + 1, (k + 1) % 6 + 1, 4});
        }
        r = readText(sdf("benzene", ring, ringBonds), FileFormat::Sdf);
        QCOMPARE(r.mols.size(), size_t(1));
        QVERIFY(r.warnings.empty());
        QCOMPARE(bondsOfOrder(r.mols[0], BondOrder::Aromatic), 6);
        // A clean file from this repository reads without any warning.
        std::vector<std::string> warnings;
        ReadOptions o;
        o.warn = [&](const std::string& w) { warnings.push_back(w); };
        readMolecules(kData + "/complexes/1iep/ligand_xtal.sdf", o);
        readMolecules(kData + "/formats/1iep_ligand.mol2", o);
        readMolecules(kData + "/formats/cdk2_first3.mol2", o);
        QVERIFY(warnings.empty());
    }

    void openBabelSdfFromPdbqt() {
        // tests/data/formats/1iep_obabel_from_pdbqt.sdf: `obabel ligand_xtal.pdbqt -O x.sdf`
        // (Open Babel 3.1.1) on tests/data/complexes/1iep: polar hydrogens only, and the
        // protonated piperazine N with four bonds and no charge. Refused before this repair.
        std::vector<std::string> warnings;
        ReadOptions o;
        o.warn = [&](const std::string& w) { warnings.push_back(w); };
        std::vector<Molecule> mols =
            readMolecules(kData + "/formats/1iep_obabel_from_pdbqt.sdf", o);
        QCOMPARE(mols.size(), size_t(1));
        QCOMPARE(warnings.size(), size_t(1));
        QVERIFY2(warnings[0].find("charged N atom 38 +1") != std::string::npos,
                 warnings[0].c_str());
        Molecule ob = prepareLigand(mols[0]);
        Molecule ref = prepareLigand(readMolecule(kData + "/complexes/1iep/ligand_xtal.sdf"));
        // The same chemistry as the crystal ligand's SDF: atoms with hydrogens, net charge +1.
        QCOMPARE(ob.atoms.size(), ref.atoms.size());
        QCOMPARE(ob.heavyAtomCount(), ref.heavyAtomCount());
        QCOMPARE(formalChargeSum(ob), formalChargeSum(ref));
        QCOMPARE(formalChargeSum(ob), 1);
    }

    void carboxylateAromaticBonds() {
        Read r = readText(acetate(false), FileFormat::Mol2);
        QCOMPARE(r.mols.size(), size_t(1));
        QCOMPARE(r.warnings.size(), size_t(1));
        const Molecule& m = r.mols[0];
        QCOMPARE(bondsOfOrder(m, BondOrder::Aromatic), 0);
        QCOMPARE(bondsOfOrder(m, BondOrder::Double), 1);
        QCOMPARE(m.atoms[2].formalCharge + m.atoms[3].formalCharge, -1);
        for (const Atom& a : m.atoms)
            QVERIFY(!a.aromatic);
        QVERIFY2(r.warnings[0].find("made 2 aromatic bonds outside rings single") !=
                     std::string::npos,
                 r.warnings[0].c_str());
        Molecule prepared = prepareLigand(m);
        QCOMPARE(prepared.atoms.size(), size_t(7)); // CH3COO-: no hydrogen on the oxygens
    }

    void unityChargeDecidesWhichOxygen() {
        // UNITY_ATOM_ATTR puts the -1 on atom 4: the double bond goes to atom 3.
        Read r = readText(acetate(true), FileFormat::Mol2);
        QCOMPARE(r.mols.size(), size_t(1));
        const Molecule& m = r.mols[0];
        QCOMPARE(m.atoms[3].formalCharge, -1);
        QCOMPARE(m.atoms[2].formalCharge, 0);
        QCOMPARE(m.bonds[m.findBond(1, 2)].order, BondOrder::Double);
        QCOMPARE(m.bonds[m.findBond(1, 3)].order, BondOrder::Single);
    }

    void unityChargesAloneNeedNoRepair() {
        // An N.pl3 with four bonds, charged by UNITY_ATOM_ATTR (Open Babel's culgi_04.mol2).
        std::string text = mol2(
            "methylammonium",
            {"C1 0 0 0 C.3", "N1 1.47 0 0 N.pl3", "H1 -0.36 1.03 0 H", "H2 -0.36 -0.51 0.89 H",
             "H3 -0.36 -0.51 -0.89 H", "H4 1.83 -1.03 0 H", "H5 1.83 0.51 0.89 H",
             "H6 1.83 0.51 -0.89 H"},
            {"1 2 1", "1 3 1", "1 4 1", "1 5 1", "2 6 1", "2 7 1", "2 8 1"}, {{2, 1}});
        Read r = readText(text, FileFormat::Mol2);
        QCOMPARE(r.mols.size(), size_t(1));
        QVERIFY(r.warnings.empty());
        QCOMPARE(r.mols[0].atoms[1].formalCharge, 1);
        // A UNITY_ATOM_ATTR line naming an atom that does not exist is a clear error.
        text.replace(text.find("2 1\ncharge"), 1, "9");
        r = readText(text, FileFormat::Mol2);
        QVERIFY(r.mols.empty());
        QCOMPARE(r.warnings.size(), size_t(1));
        QVERIFY2(r.warnings[0].find("UNITY_ATOM_ATTR names atom id 9") != std::string::npos,
                 r.warnings[0].c_str());
    }

    void guanidiniumAndNitro() {
        // Guanidinium as C.cat with three "ar" bonds, and nitromethane as N.pl3 with two.
        std::string text =
            mol2("guanidinium",
                 {"C1 0 0 0 C.cat", "N1 1.33 0 0 N.pl3", "N2 -0.66 1.15 0 N.pl3",
                  "N3 -0.66 -1.15 0 N.pl3", "H1 1.83 0.87 0 H", "H2 1.83 -0.87 0 H",
                  "H3 -0.17 2.02 0 H", "H4 -1.66 1.15 0 H", "H5 -0.17 -2.02 0 H",
                  "H6 -1.66 -1.15 0 H"},
                 {"1 2 ar", "1 3 ar", "1 4 ar", "2 5 1", "2 6 1", "3 7 1", "3 8 1", "4 9 1",
                  "4 10 1"}) +
            mol2("nitromethane",
                 {"C1 0 0 0 C.3", "N1 1.49 0 0 N.pl3", "O1 2.1 1.06 0 O.2", "O2 2.1 -1.06 0 O.2",
                  "H1 -0.36 1.03 0 H", "H2 -0.36 -0.51 0.89 H", "H3 -0.36 -0.51 -0.89 H"},
                 {"1 2 1", "2 3 ar", "2 4 ar", "1 5 1", "1 6 1", "1 7 1"});
        Read r = readText(text, FileFormat::Mol2);
        QCOMPARE(r.mols.size(), size_t(2));
        QCOMPARE(r.warnings.size(), size_t(2));
        QCOMPARE(formalChargeSum(r.mols[0]), 1);
        QCOMPARE(bondsOfOrder(r.mols[0], BondOrder::Double), 1);
        QCOMPARE(formalChargeSum(r.mols[1]), 0);
        QCOMPARE(r.mols[1].atoms[1].formalCharge, 1);
        QCOMPARE(bondsOfOrder(r.mols[1], BondOrder::Double), 1);
        QCOMPARE(prepareLigand(r.mols[0]).atoms.size(), size_t(10));
        QCOMPARE(prepareLigand(r.mols[1]).atoms.size(), size_t(7));
    }

    void parallelParseGivesTheSameWarning() {
        // parseSdfRecord (the minimize and hit-import path) returns the repair warning with
        // the record, word for word as next() reports it.
        Read r = readText(methylAzide(), FileFormat::Sdf);
        SdfRecordText t;
        t.text = methylAzide();
        t.firstLine = 1;
        t.record = 1;
        Molecule m;
        std::string warning;
        QVERIFY(parseSdfRecord(t, "in", {}, m, warning));
        QCOMPARE(warning, r.warnings.at(0));
        QCOMPARE(m.atoms[3].formalCharge, -1);
    }

    void flatDrawingIsNotTakenForAPdbLigand() {
        // Cubane drawn in 2D with 1.0 Å bonds and no hydrogens (as Open Babel's hao_xu_3.mol):
        // short bonds in a drawing say nothing about bond orders, so it is embedded in 3D as
        // C8H8 instead of refused as "has no bond orders (a PDB ligand?)".
        Read r = readText(sdf("cubane",
                              {"0 0 0 C", "1 0 0 C", "1 1 0 C", "0 1 0 C", "0.4 0.4 0 C",
                               "1.4 0.4 0 C", "1.4 1.4 0 C", "0.4 1.4 0 C"},
                              {{1, 2, 1}, {2, 3, 1}, {3, 4, 1}, {4, 1, 1}, {5, 6, 1}, {6, 7, 1},
                               {7, 8, 1}, {8, 5, 1}, {1, 5, 1}, {2, 6, 1}, {3, 7, 1}, {4, 8, 1}}),
                          FileFormat::Sdf);
        QCOMPARE(r.mols.size(), size_t(1));
        Molecule prepared = prepareLigand(r.mols[0]);
        QCOMPARE(prepared.atoms.size(), size_t(16));
        // In 3D the same short single bonds still mean a PDB ligand without orders.
        Molecule lifted = r.mols[0];
        for (size_t i = 4; i < 8; ++i)
            lifted.atoms[i].position.z() = 1.0;
        try {
            prepareLigand(lifted);
            QFAIL("a 3D molecule with 1.0 Å single C-C bonds was accepted");
        } catch (const InputError& e) {
            QVERIFY2(std::string(e.what()).find("has no bond orders") != std::string::npos,
                     e.what());
        }
    }

    void whatCannotBeMendedIsStillRefused() {
        // A five-bonded carbon is no writer's slip: read as is, refused by preparation with
        // the file, record and reason.
        Read r = readText(sdf("pentavalent", {"0 0 0 C", "1.5 0 0 C", "-1.5 0 0 C", "0 1.5 0 C",
                                              "0 -1.5 0 C", "0 0 1.5 C"},
                              {{1, 2, 1}, {1, 3, 1}, {1, 4, 1}, {1, 5, 1}, {1, 6, 1}}),
                          FileFormat::Sdf);
        QCOMPARE(r.mols.size(), size_t(1));
        QVERIFY(r.warnings.empty());
        try {
            prepareLigand(r.mols[0]);
            QFAIL("a five-valent carbon was accepted");
        } catch (const InputError& e) {
            const std::string what = e.what();
            QVERIFY2(what.find("in:1: molecule 'pentavalent' is not a valid structure") == 0,
                     what.c_str());
        }
    }
};

QTEST_APPLESS_MAIN(TestStructureRepair)
#include "test_structure_repair.moc"
