// MoleculeDescriptors against RDKit's own Python implementation: QED (our C++ code from the
// paper's functions and weights) and the RDKit C++ descriptors we store (MW, cLogP, TPSA, HBD,
// HBA, strict rotatable bonds), plus QED's inputs (acceptor patterns, aromatic rings, alerts).
#include "chem/MoleculeDescriptors.h"
#include "chem/MoleculeReader.h"
#include "core/InputError.h"

#include <QtTest>

#include <cmath>

using namespace pw;

namespace {

struct Reference {
    const char* smiles;
    double qed, mw, clogp, tpsa;
    int hbd, hba, rotb, qedHba, arom, alerts;
};

// Printed by RDKit 2022.09.3's Python (Debian python3-rdkit) on this machine, 2026-11-26:
// QED.qed(m), Descriptors.MolWt, Crippen.MolLogP, rdMolDescriptors.CalcTPSA, CalcNumHBD,
// CalcNumHBA, CalcNumRotatableBonds(Strict), QED.properties(m).HBA/.AROM/.ALERTS. The rows from
// "N=C(CCSC..." on are the QED paper's examples (RDKit's doctests: 0.253, 0.234, 0.234).
const Reference kReferences[] = {
    {"CC(=O)Oc1ccccc1C(=O)O", 0.550122, 180.1590, 1.3101, 63.6000, 1, 3, 2, 4, 1, 2},
    {"O=C(O)CCCC[C@@H]1SC[C@@H]2NC(=O)N[C@H]12", 0.493478, 244.3160, 0.7968, 78.4300, 3, 3, 5, 4, 0,
     2},
    {"CN1CCN(Cc2ccc(C(=O)Nc3ccc(C)c(Nc4nccc(-c5cccnc5)n4)c3)cc2)CC1", 0.389416, 493.6150, 4.5903,
     86.2800, 2, 7, 7, 7, 4, 0},
    {"c1ccccc1", 0.442628, 78.1140, 1.6866, 0.0000, 0, 0, 0, 0, 1, 0},
    {"CC(C)Cc1ccc(C(C)C(=O)O)cc1", 0.821600, 206.2850, 3.0732, 37.3000, 1, 1, 4, 2, 1, 0},
    {"OCC1OC(O)C(O)C(O)C1O", 0.290153, 180.1560, -3.2214, 110.3800, 5, 6, 1, 6, 0, 0},
    {"Clc1ccc(Br)cc1I", 0.505415, 317.3510, 3.7071, 0.0000, 0, 0, 0, 0, 1, 2},
    {"C[N+](C)(C)CC(=O)[O-]", 0.410409, 117.1480, -1.5575, 40.1300, 0, 2, 2, 2, 0, 1},
    {"N=C(CCSCc1csc(N=C(N)N)n1)NS(N)(=O)=O", 0.253143, 337.4560, -0.5583, 173.3300, 5, 7, 7, 6, 1,
     3},
    {"CNC(=NCCSCc1nc[nH]c1C)NC#N", 0.234659, 252.3470, 0.5974, 88.8900, 3, 4, 5, 5, 1, 5},
    {"CCCCCNC(=N)NN=Cc1c[nH]c2ccc(CO)cc12", 0.234872, 301.3940, 2.2983, 96.2900, 5, 3, 7, 3, 2, 4},
    {"CC(C)C1=CC2=C(C)C=CC2=C(C)C=C1", 0.631128, 198.3090, 4.5316, 0.0000, 0, 0, 1, 0, 2, 0},
    {"CC1=C2C=C(C=CC2=NC=C1)C(=O)O", 0.744356, 187.1980, 2.2414, 50.1900, 1, 2, 1, 3, 2, 0},
};

} // namespace

class TestDescriptors : public QObject {
    Q_OBJECT
private slots:
    void matchesRdkitPython() {
        for (const Reference& r : kReferences) {
            const MoleculeDescriptors d = descriptorsFromSmiles(r.smiles);
            const QByteArray where = QByteArray("for ") + r.smiles;
            QVERIFY2(std::abs(d.qed - r.qed) < 2e-6, where + " qed " + QByteArray::number(d.qed));
            QVERIFY2(std::abs(d.mw - r.mw) < 1e-3, where);
            QVERIFY2(std::abs(d.clogp - r.clogp) < 1e-3, where);
            QVERIFY2(std::abs(d.tpsa - r.tpsa) < 1e-3, where);
            QCOMPARE(d.hbd, r.hbd);
            QCOMPARE(d.hba, r.hba);
            QCOMPARE(d.rotatableBonds, r.rotb);
            QCOMPARE(d.qedInputs.hba, r.qedHba);
            QCOMPARE(d.qedInputs.arom, r.arom);
            QCOMPARE(d.qedInputs.alerts, r.alerts);
        }
    }

    void qedIsAWeightedGeometricMean() {
        // Moving one input away from its optimum can only lower QED; all desirabilities lie in
        // (0, 1], so QED does too.
        QedProperties p{300, 2.5, 3, 1, 60, 3, 1, 0};
        const double good = qedScore(p);
        QVERIFY(good > 0 && good <= 1.0);
        QedProperties heavy = p;
        heavy.mw = 900;
        QVERIFY(qedScore(heavy) < good);
        QedProperties alerting = p;
        alerting.alerts = 4;
        QVERIFY(qedScore(alerting) < good);
    }

    void poseStereochemistryFromCoordinates() {
        // The 1stp crystal biotin is D-biotin, O=C(O)CCCC[C@@H]1SC[C@@H]2NC(=O)N[C@H]12. Its PDB
        // file has no bond orders (the reader leaves the C=O single), so the expected SMILES is
        // that skeleton with the same three stereocentres (RDKit's Python reading of the same
        // PDB with AssignStereochemistryFrom3D gives OC(O)CCCC[C@@H]1SC[C@@H]2NC(O)N[C@@H]21).
        const Molecule btn = readMolecule(
            QString(POSEWRIGHT_TEST_DATA "/complexes/1stp/ligand_xtal.pdb").toStdString());
        const std::string smiles = computeDescriptors(btn).smiles;
        QCOMPARE(smiles, std::string("OC(O)CCCC[C@@H]1SC[C@@H]2NC(O)N[C@@H]21"));
        QCOMPARE(smiles, descriptorsFromSmiles("OC(O)CCCC[C@@H]1SC[C@@H]2NC(O)N[C@H]12").smiles);
        // Its mirror image is L-biotin: another SMILES.
        Molecule mirror = btn;
        for (Atom& a : mirror.atoms)
            a.position.x() = -a.position.x();
        QVERIFY(computeDescriptors(mirror).smiles != smiles);
        // A flat drawing (z = 0) fixes no stereochemistry.
        Molecule flat = btn;
        for (Atom& a : flat.atoms)
            a.position.z() = 0;
        QVERIFY(computeDescriptors(flat).smiles.find('@') == std::string::npos);
    }

    void badSmilesIsAnInputError() {
        QVERIFY_THROWS_EXCEPTION(InputError, descriptorsFromSmiles("C1CC(")); // unclosed ring
    }
};

QTEST_GUILESS_MAIN(TestDescriptors)
#include "test_descriptors.moc"
