// A ligand read from PDBQT gets its bond orders and charges from Meeko's SMILES remarks, so that
// minimized poses written as SDF are the same chemistry when read back and prepared again.
#include "chem/LigandPreparation.h"
#include "chem/MoleculeReader.h"
#include "chem/MoleculeWriter.h"
#include "chem/PdbqtBondOrders.h"

#include <QTemporaryDir>
#include <QtTest>

#include <map>

using namespace pw;

namespace {

std::string data(const char* rel) { return std::string(POSEWRIGHT_TEST_DATA) + "/" + rel; }

int countOrder(const Molecule& m, BondOrder order) {
    int n = 0;
    for (const Bond& b : m.bonds)
        n += b.order == order;
    return n;
}

std::map<XsType, int> heavyTypes(const Molecule& m) {
    std::map<XsType, int> counts;
    for (const Atom& a : m.atoms)
        if (a.element != 1)
            ++counts[a.xs];
    return counts;
}

} // namespace

class TestPdbqtBondOrders : public QObject {
    Q_OBJECT
private slots:
    void imatinibFromSmilesRemarks() {
        Molecule fromPdbqt = prepareLigand(readMolecule(data("complexes/1iep/ligand_xtal.pdbqt")));
        Molecule fromSdf = readMolecule(data("complexes/1iep/ligand_xtal.sdf"));
        // The crystal SDF is Kekulé: the same number of double bonds and the same net charge.
        QCOMPARE(countOrder(fromPdbqt, BondOrder::Double), countOrder(fromSdf, BondOrder::Double));
        int charge = 0;
        for (const Atom& a : fromPdbqt.atoms)
            charge += a.formalCharge;
        QCOMPARE(charge, 1);
    }
    void sdfRoundTripKeepsChemistry() {
        Molecule lig = prepareLigand(readMolecule(data("complexes/1iep/ligand_xtal.pdbqt")));
        QTemporaryDir dir;
        const std::string path = dir.filePath("pose.sdf").toStdString();
        writeMolecules(path, {lig});
        Molecule again = prepareLigand(readMolecule(path));
        QCOMPARE(again.heavyAtomCount(), lig.heavyAtomCount());
        QCOMPARE(again.torsionTree->torsionCount(), lig.torsionTree->torsionCount());
        QVERIFY(heavyTypes(again) == heavyTypes(lig));
    }
    void withoutRemarksNothingChanges() {
        Molecule m = readMolecule(data("complexes/1stp/ligand_xtal.pdbqt")); // no SMILES remark
        const std::vector<Bond> before = m.bonds;
        QVERIFY(!applySmilesBondOrders(m));
        QCOMPARE(m.bonds.size(), before.size());
        for (size_t i = 0; i < before.size(); ++i)
            QCOMPARE(m.bonds[i].order, before[i].order);
    }
    void mismatchedRemarksAreIgnored() {
        Molecule m = readMolecule(data("complexes/1iep/ligand_xtal.pdbqt"));
        m.setProperty("SMILES", "CCO"); // not this molecule
        QVERIFY(!applySmilesBondOrders(m));
        QCOMPARE(countOrder(m, BondOrder::Double), 0);
    }
};

QTEST_GUILESS_MAIN(TestPdbqtBondOrders)
#include "test_pdbqt_bond_orders.moc"
