// PDBQT ligands with several torsion trees one after another in one record (issue 13): Open Babel
// writes a salt or any multi-part SMILES that way (`obabel -ismi -opdbqt -m --gen3d -h`). The
// reader keeps the largest fragment (most heavy atoms, ties: the first), warns once per ligand,
// and gives exactly the Molecule that the kept fragment written alone gives.
//
// Data: tests/data/formats/obabel_salt_253.pdbqt and obabel_salt_280.pdbqt are Open Babel 3.1's
// files for SMILES 253 "NN.OB1OB(O1)OB2OB(O)O2" and 280 "CCCCN(CCCC)CCCNC1=C2CCCCC2=NC3=C1C=CC=C3
// .OP(O)(O)=O" of the 716-ligand NCI screen (tests/bench/RESULTS.md): in 253 the larger fragment
// comes second, in 280 first; both number their atoms from 1 again in the second fragment.
#include "chem/MoleculeReader.h"
#include "core/InputError.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <sstream>

using namespace pw;

namespace {

const std::string kData = POSEWRIGHT_TEST_DATA;

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// The text up to and including the first "TORSDOF" line, and the rest: the two fragments of a
// two-fragment file, each a complete PDBQT ligand of its own.
std::pair<std::string, std::string> splitAtFirstTorsdof(const std::string& text) {
    const size_t at = text.find("TORSDOF");
    const size_t end = text.find('\n', at) + 1;
    return {text.substr(0, end), text.substr(end)};
}

struct Read {
    std::vector<Molecule> molecules;
    std::vector<std::string> warnings;
};

Read readAll(const std::string& path) {
    Read r;
    ReadOptions options;
    options.warn = [&](const std::string& w) { r.warnings.push_back(w); };
    r.molecules = readMolecules(path, options);
    return r;
}

std::string errorOf(const std::string& path) {
    try {
        readMolecules(path);
    } catch (const InputError& e) {
        return e.what();
    }
    return "<no InputError thrown>";
}

// Field by field, so that a difference names what differs.
void compareMolecules(const Molecule& a, const Molecule& b) {
    QCOMPARE(a.name, b.name);
    QCOMPARE(a.atoms.size(), b.atoms.size());
    for (size_t i = 0; i < a.atoms.size(); ++i) {
        const Atom &x = a.atoms[i], &y = b.atoms[i];
        QCOMPARE(x.name, y.name);
        QCOMPARE(x.serial, y.serial);
        QCOMPARE(x.element, y.element);
        QCOMPARE(x.ad4Type, y.ad4Type);
        QCOMPARE(x.charge, y.charge);
        QCOMPARE(x.formalCharge, y.formalCharge);
        QCOMPARE(x.aromatic, y.aromatic);
        QCOMPARE(x.residue, y.residue);
        QVERIFY(x.position == y.position);
    }
    QCOMPARE(a.residues.size(), b.residues.size());
    QCOMPARE(a.bonds.size(), b.bonds.size());
    for (size_t i = 0; i < a.bonds.size(); ++i) {
        QCOMPARE(a.bonds[i].a, b.bonds[i].a);
        QCOMPARE(a.bonds[i].b, b.bonds[i].b);
        QCOMPARE(a.bonds[i].order, b.bonds[i].order);
        QCOMPARE(a.bonds[i].rotatable, b.bonds[i].rotatable);
    }
    QCOMPARE(a.properties, b.properties);
    QVERIFY(a.torsionTree && b.torsionTree);
    QCOMPARE(a.torsionTree->nodes.size(), b.torsionTree->nodes.size());
    for (size_t n = 0; n < a.torsionTree->nodes.size(); ++n) {
        const TorsionNode &x = a.torsionTree->nodes[n], &y = b.torsionTree->nodes[n];
        QCOMPARE(x.parent, y.parent);
        QCOMPARE(x.axisParentAtom, y.axisParentAtom);
        QCOMPARE(x.axisChildAtom, y.axisChildAtom);
        QCOMPARE(x.atoms, y.atoms);
        QCOMPARE(x.children, y.children);
    }
}

} // namespace

class TestPdbqtFragments : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    std::string write(const std::string& name, const std::string& content) {
        const std::string path = dir_.path().toStdString() + "/" + name;
        std::ofstream(path, std::ios::binary) << content;
        return path;
    }

private slots:
    void keepsTheLargerFragmentWhenItComesSecond() {
        const std::string path = kData + "/formats/obabel_salt_253.pdbqt";
        const Read r = readAll(path);
        QCOMPARE(r.molecules.size(), size_t(1));
        const Molecule& m = r.molecules[0];
        QCOMPARE(m.name, std::string("253"));
        QCOMPARE(m.atoms.size(), size_t(13)); // B4O7H2 (the boroxine), not N2H4
        QCOMPARE(m.heavyAtomCount(), 11);
        QCOMPARE(m.torsionTree->torsionCount(), 4);
        QCOMPARE(*m.property("TORSDOF"), std::string("4"));
        QCOMPARE(m.atoms[0].element, 8);
        // One warning, at the dropped fragment's ROOT (line 11), saying what was kept.
        QCOMPARE(r.warnings.size(), size_t(1));
        const std::string& w = r.warnings[0];
        QVERIFY2(w.rfind(path + ":11: ", 0) == 0, w.c_str());
        QVERIFY2(w.find("kept the largest of 2 fragments (11 heavy atoms, ROOT at line 32)") !=
                     std::string::npos,
                 w.c_str());
        QVERIFY2(w.find("dropped the fragment at line 11 (2 heavy atoms)") != std::string::npos,
                 w.c_str());
    }

    void keepsTheLargerFragmentWhenItComesFirst() {
        const std::string path = kData + "/formats/obabel_salt_280.pdbqt";
        const Read r = readAll(path);
        QCOMPARE(r.molecules.size(), size_t(1));
        const Molecule& m = r.molecules[0];
        QCOMPARE(m.atoms.size(), size_t(28)); // the amine, not the phosphoric acid
        QCOMPARE(m.torsionTree->torsionCount(), 11);
        QCOMPARE(*m.property("TORSDOF"), std::string("11"));
        QCOMPARE(r.warnings.size(), size_t(1));
        QVERIFY2(r.warnings[0].rfind(path + ":96: ", 0) == 0, r.warnings[0].c_str());
    }

    void keptFragmentEqualsTheFragmentAlone_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<bool>("keptIsFirst");
        QTest::newRow("253, second kept") << "obabel_salt_253.pdbqt" << false;
        QTest::newRow("280, first kept") << "obabel_salt_280.pdbqt" << true;
    }

    void keptFragmentEqualsTheFragmentAlone() {
        QFETCH(QString, file);
        QFETCH(bool, keptIsFirst);
        const std::string text = slurp(kData + "/formats/" + file.toStdString());
        const auto [first, second] = splitAtFirstTorsdof(text);
        const std::string alonePath =
            write("alone_" + file.toStdString(), keptIsFirst ? first : second);
        const Read both = readAll(kData + "/formats/" + file.toStdString());
        const Read alone = readAll(alonePath);
        QVERIFY(alone.warnings.empty());
        compareMolecules(both.molecules[0], alone.molecules[0]);
    }

    void orderOfFragmentsDoesNotChangeTheLigand() {
        const auto [first, second] =
            splitAtFirstTorsdof(slurp(kData + "/formats/obabel_salt_253.pdbqt"));
        const Read swapped = readAll(write("swapped.pdbqt", second + first));
        const Read original = readAll(kData + "/formats/obabel_salt_253.pdbqt");
        compareMolecules(swapped.molecules[0], original.molecules[0]);
        QCOMPARE(swapped.warnings.size(), size_t(1));
        QVERIFY2(swapped.warnings[0].find(":45: ") != std::string::npos,
                 swapped.warnings[0].c_str()); // the hydrazine's ROOT, now second
    }

    void aTieKeepsTheFirst() {
        const std::string first =
            splitAtFirstTorsdof(slurp(kData + "/formats/obabel_salt_253.pdbqt")).first;
        std::string renamed = first;
        renamed.replace(renamed.find("Name = 253"), 10, "Name = 254");
        const Read r = readAll(write("tie.pdbqt", first + renamed + renamed));
        QCOMPARE(r.molecules[0].name, std::string("253"));
        QCOMPARE(r.warnings.size(), size_t(1));
        QVERIFY2(r.warnings[0].find("kept the largest of 3 fragments (2 heavy atoms, ROOT at "
                                    "line 11); dropped the fragments at lines 32 (2 heavy atoms), "
                                    "53 (2 heavy atoms)") != std::string::npos,
                 r.warnings[0].c_str());
    }

    void branchSerialsResolveWithinTheirFragment() {
        // Fragment 2's BRANCH names serial 5, which only fragment 1 has.
        const std::string path = write(
            "cross.pdbqt",
            "ROOT\n"
            "ATOM      1  C   UNL     1       0.000   0.000   0.000  0.00  0.00    +0.000 C \n"
            "ATOM      5  C   UNL     1       1.500   0.000   0.000  0.00  0.00    +0.000 C \n"
            "ENDROOT\nTORSDOF 0\nROOT\n"
            "ATOM      1  C   UNL     1       5.000   0.000   0.000  0.00  0.00    +0.000 C \n"
            "ENDROOT\nBRANCH   5   2\n"
            "ATOM      2  C   UNL     1       6.500   0.000   0.000  0.00  0.00    +0.000 C \n"
            "ENDBRANCH   5   2\nTORSDOF 1\n");
        QCOMPARE(errorOf(path), path + ":9: BRANCH 5 2: atom 5 must be an atom of the enclosing "
                                       "ROOT or BRANCH");
    }

    void secondRootInsideATreeIsStillAnError_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("line");
        const QString a = "ATOM      1  C   UNL     1       0.000   0.000   0.000  0.00  0.00    "
                          "+0.000 C \n";
        const QString b = "ATOM      2  C   UNL     1       1.500   0.000   0.000  0.00  0.00    "
                          "+0.000 C \n";
        QTest::newRow("inside an open BRANCH")
            << "ROOT\n" + a + "ENDROOT\nBRANCH   1   2\n" + b + "ROOT\n"
            << 6;
        QTest::newRow("inside ROOT") << "ROOT\n" + a + "ROOT\n" << 3;
        QTest::newRow("before TORSDOF") << "ROOT\n" + a + "ENDROOT\nROOT\n" << 4;
        QTest::newRow("after ENDBRANCH, before TORSDOF")
            << "ROOT\n" + a + "ENDROOT\nBRANCH   1   2\n" + b + "ENDBRANCH   1   2\nROOT\n"
            << 7;
    }

    void secondRootInsideATreeIsStillAnError() {
        QFETCH(QString, text);
        QFETCH(int, line);
        const std::string path = write("inside.pdbqt", text.toStdString());
        QCOMPARE(errorOf(path), path + ":" + std::to_string(line) +
                                    ": second ROOT record; expected one ROOT per ligand (or "
                                    "complete torsion trees one after another, each ended by "
                                    "TORSDOF)");
    }

    void modelsStayOneLigandEach() {
        // A multi-ligand file (as ob_all.pdbqt of the screen): MODEL 1 is the two-fragment 253,
        // MODEL 2 the two-fragment 280, MODEL 3 253's boroxine alone.
        const std::string s253 = slurp(kData + "/formats/obabel_salt_253.pdbqt");
        const std::string s280 = slurp(kData + "/formats/obabel_salt_280.pdbqt");
        const std::string path = write(
            "models.pdbqt", "MODEL 1\n" + s253 + "ENDMDL\nMODEL 2\n" + s280 + "ENDMDL\nMODEL 3\n" +
                                splitAtFirstTorsdof(s253).second + "ENDMDL\n");
        const Read r = readAll(path);
        QCOMPARE(r.molecules.size(), size_t(3));
        QCOMPARE(r.molecules[0].atoms.size(), size_t(13));
        QCOMPARE(r.molecules[0].sourceRecord, 1L);
        QCOMPARE(r.molecules[1].atoms.size(), size_t(28));
        QCOMPARE(r.molecules[1].name, std::string("280"));
        QCOMPARE(r.molecules[1].sourceRecord, 2L);
        QCOMPARE(r.molecules[2].atoms.size(), size_t(13));
        QCOMPARE(r.warnings.size(), size_t(2)); // one per two-fragment ligand, none for MODEL 3
        QVERIFY2(r.warnings[0].rfind(path + ":12: ", 0) == 0, r.warnings[0].c_str());
        QVERIFY2(r.warnings[1].rfind(path + ":154: ", 0) == 0, r.warnings[1].c_str());
    }
};

QTEST_GUILESS_MAIN(TestPdbqtFragments)
#include "test_pdbqt_fragments.moc"
