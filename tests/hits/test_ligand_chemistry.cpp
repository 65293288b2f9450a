// LigandChemistry: the interaction roles of ligand atoms (donors, acceptors, charge centres,
// aromatic rings) on small molecules read from SMILES (3D-embedded, Kekulé bond orders).
#include "chem/MoleculeReader.h"
#include "hits/LigandChemistry.h"

#include <QTemporaryDir>
#include <QtTest>

#include "HitsTestData.h"

using namespace pw;
using namespace pw::hits;
using namespace pw::test;

namespace {

// Indices of the atoms of one element that satisfy a role.
template <class F> std::vector<int> atomsWhere(const Molecule& m, int element, F role) {
    std::vector<int> out;
    for (int i = 0; i < int(m.atoms.size()); ++i)
        if (m.atoms[i].element == element && role(i))
            out.push_back(i);
    return out;
}

} // namespace

class TestLigandChemistry : public QObject {
    Q_OBJECT
    std::map<std::string, Molecule> mols_;

    const Molecule& mol(const char* name) { return mols_.at(name); }

private slots:
    void initTestCase() {
        QTemporaryDir dir;
        const QString smi = dir.filePath("roles.smi");
        writeText(smi, "CC(=O)O acid\nCN methylamine\nCC(N)=O acetamide\nc1ccncc1 pyridine\n"
                       "c1cc[nH]c1 pyrrole\nC1CCCCC1 cyclohexane\nNC(N)=N guanidine\n"
                       "CS(=O)(=O)O sulfonic\nCSC sulfide\nCC(=O)[O-] acetate\n");
        for (const Molecule& m : readMolecules(smi.toStdString()))
            mols_[m.name] = m;
        QCOMPARE(mols_.size(), size_t(10));
    }

    void donorsAndAcceptors() {
        {
            const Molecule& m = mol("acid");
            LigandChemistry c(m);
            QCOMPARE(atomsWhere(m, 8, [&](int i) { return c.isAcceptor(i); }).size(), size_t(2));
            QCOMPARE(atomsWhere(m, 8, [&](int i) { return c.isDonor(i); }).size(), size_t(1));
        }
        {
            const Molecule& m = mol("acetamide");
            LigandChemistry c(m);
            QCOMPARE(atomsWhere(m, 7, [&](int i) { return c.isDonor(i); }).size(), size_t(1));
            QCOMPARE(atomsWhere(m, 7, [&](int i) { return c.isAcceptor(i); }).size(), size_t(0));
        }
        {
            const Molecule& m = mol("pyridine");
            LigandChemistry c(m);
            QCOMPARE(atomsWhere(m, 7, [&](int i) { return c.isAcceptor(i); }).size(), size_t(1));
            QCOMPARE(atomsWhere(m, 7, [&](int i) { return c.isDonor(i); }).size(), size_t(0));
        }
        {
            const Molecule& m = mol("pyrrole");
            LigandChemistry c(m);
            QCOMPARE(atomsWhere(m, 7, [&](int i) { return c.isDonor(i); }).size(), size_t(1));
            QCOMPARE(atomsWhere(m, 7, [&](int i) { return c.isAcceptor(i); }).size(), size_t(0));
        }
        {
            const Molecule& m = mol("sulfide");
            LigandChemistry c(m);
            QCOMPARE(atomsWhere(m, 16, [&](int i) { return c.isAcceptor(i); }).size(), size_t(1));
        }
        {
            const Molecule& m = mol("cyclohexane");
            LigandChemistry c(m);
            QCOMPARE(atomsWhere(m, 6, [&](int i) { return c.isHydrophobicCarbon(i); }).size(),
                     size_t(6));
        }
    }

    void chargeCentres() {
        auto counts = [&](const char* name) {
            LigandChemistry c(mol(name));
            return std::make_pair(c.positiveCentres().size(), c.negativeCentres().size());
        };
        QCOMPARE(counts("acid"), std::make_pair(size_t(0), size_t(1)));
        QCOMPARE(counts("acetate"), std::make_pair(size_t(0), size_t(1)));
        QCOMPARE(counts("sulfonic"), std::make_pair(size_t(0), size_t(1)));
        QCOMPARE(counts("methylamine"), std::make_pair(size_t(1), size_t(0)));
        QCOMPARE(counts("guanidine"), std::make_pair(size_t(1), size_t(0))); // one centre, not 3
        QCOMPARE(counts("acetamide"), std::make_pair(size_t(0), size_t(0)));
        QCOMPARE(counts("pyridine"), std::make_pair(size_t(0), size_t(0)));
        // The carboxylate centre lies between its two oxygens.
        const Molecule& acid = mol("acid");
        const auto neg = LigandChemistry(acid).negativeCentres();
        std::vector<int> oxygens = atomsWhere(acid, 8, [](int) { return true; });
        const Vec3 mid = 0.5 * (acid.atoms[oxygens[0]].position + acid.atoms[oxygens[1]].position);
        QVERIFY((neg[0].centre - mid).norm() < 1e-9);
    }

    void aromaticRings() {
        QCOMPARE(LigandChemistry(mol("pyridine")).aromaticRings().size(), size_t(1));
        QCOMPARE(LigandChemistry(mol("pyrrole")).aromaticRings().size(), size_t(1));
        QCOMPARE(LigandChemistry(mol("pyrrole")).aromaticRings()[0].size(), size_t(5));
        QCOMPARE(LigandChemistry(mol("cyclohexane")).aromaticRings().size(), size_t(0));
        QCOMPARE(LigandChemistry(mol("acid")).aromaticRings().size(), size_t(0));
    }
};

QTEST_GUILESS_MAIN(TestLigandChemistry)
#include "test_ligand_chemistry.moc"
