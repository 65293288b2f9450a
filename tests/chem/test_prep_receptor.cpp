// Receptor preparation: a PDB with hydrogens (1iep, reduce-style) typed like the reference
// PDBQT of the same structure; a PDBQT taken as given; a PDB without polar hydrogens refused.
#include "chem/MoleculeReader.h"
#include "chem/ReceptorPreparation.h"
#include "core/InputError.h"

#include <QtTest>

#include <cmath>
#include <map>
#include <sstream>

using namespace pw;

namespace {

const std::string kComplexes = POSEWRIGHT_TEST_DATA "/complexes/";

std::string counts(const Molecule& m, bool xs) {
    std::map<std::string, int> c;
    for (const Atom& a : m.atoms) {
        if (xs && a.element != 1)
            ++c[std::string(xsTypeName(a.xs))];
        if (!xs && a.ad4Type != "H") // the PDBQT keeps no non-polar hydrogens
            ++c[a.ad4Type];
    }
    std::ostringstream s;
    for (const auto& [k, v] : c)
        s << k << ":" << v << " ";
    return s.str();
}

} // namespace

class TestPrepReceptor : public QObject {
    Q_OBJECT
private slots:
    void pdbWithHydrogensIsTypedLikeTheReference() {
        Molecule pdb = readMolecule(kComplexes + "1iep/receptorH.pdb");
        Molecule rec = prepareReceptor(pdb);
        Molecule ref = prepareReceptor(readMolecule(kComplexes + "1iep/receptor.pdbqt"));
        QCOMPARE(rec.atoms.size(), pdb.atoms.size());
        qInfo("AD4 %s", counts(rec, false).c_str());
        QCOMPARE(counts(rec, false), counts(ref, false));
        QCOMPARE(counts(rec, true), counts(ref, true));
    }

    void gasteigerChargesAddUpToTheFormalCharge() {
        Molecule rec = prepareReceptor(readMolecule(kComplexes + "1iep/receptorH.pdb"));
        double total = 0, maxAbs = 0;
        int formal = 0, charged = 0;
        for (const Atom& a : rec.atoms) {
            total += a.charge;
            maxAbs = std::max(maxAbs, std::abs(a.charge));
            formal += a.formalCharge;
            charged += a.formalCharge != 0;
        }
        QVERIFY(charged > 20); // Lys, Arg, Asp, Glu, His+ and the termini of a kinase domain
        QVERIFY2(std::abs(total - formal) < 1e-3,
                 qPrintable(QString("sum %1, formal %2").arg(total).arg(formal)));
        QVERIFY(maxAbs > 0.2 && maxAbs < 1.2);
        // Backbone carbonyl O of the first residue is negative, its C positive.
        int c = -1, o = -1;
        for (size_t i = 0; i < rec.atoms.size() && (c < 0 || o < 0); ++i) {
            if (rec.atoms[i].name == "C" && c < 0)
                c = static_cast<int>(i);
            if (rec.atoms[i].name == "O" && o < 0)
                o = static_cast<int>(i);
        }
        QVERIFY(rec.atoms[c].charge > 0.1);
        QVERIFY(rec.atoms[o].charge < -0.2);
    }

    void pdbqtIsTakenAsGiven() {
        Molecule read = readMolecule(kComplexes + "1stp/receptor.pdbqt");
        Molecule rec = prepareReceptor(read);
        QCOMPARE(rec.atoms.size(), read.atoms.size());
        for (size_t i = 0; i < rec.atoms.size(); ++i) {
            QCOMPARE(rec.atoms[i].ad4Type, read.atoms[i].ad4Type);
            QCOMPARE(rec.atoms[i].charge, read.atoms[i].charge);
            QVERIFY(rec.atoms[i].element == 1 || rec.atoms[i].xs != XsType::None);
        }
    }

    void receptorWithoutPolarHydrogensIsRefused() {
        // Only when protonation is switched off: by default ReceptorProtonation adds them
        // (tests/chem/test_receptor_protonation.cpp).
        const std::string path = kComplexes + "1stp/receptor.pdb";
        Molecule pdb = readMolecule(path);
        ReceptorPreparationOptions noProtonation;
        noProtonation.addPolarHydrogens = false;
        try {
            prepareReceptor(pdb, noProtonation);
            QFAIL("a receptor without hydrogens was accepted");
        } catch (const InputError& e) {
            QCOMPARE(QString::fromStdString(e.detail()),
                     QString::fromStdString("receptor " + path +
                                            " has no polar hydrogens: add them (e.g. reduce, "
                                            "pdbfixer, or openbabel -h) or give a PDBQT"));
            QCOMPARE(QString::fromStdString(e.file()), QString::fromStdString(path));
        }
    }
};

QTEST_GUILESS_MAIN(TestPrepReceptor)
#include "test_prep_receptor.moc"
