// Tests for the core molecule model: elements, atom types, adjacency and the torsion tree order.
#include "core/AtomTypes.h"
#include "core/BondPerception.h"
#include "core/Element.h"
#include "core/InputError.h"
#include "core/Molecule.h"

#include <QtTest>

using namespace pw;

class TestMolecule : public QObject {
    Q_OBJECT
private slots:
    void elements() {
        QCOMPARE(elementFromSymbol("CL"), 17);
        QCOMPARE(elementFromSymbol("c"), 6);
        QCOMPARE(elementFromSymbol("Xx"), 0);
        QCOMPARE(elementFromSymbol("Th"), 90); // real SDF records carry actinides
        QCOMPARE(elementFromSymbol("Og"), 118);
        QCOMPARE(covalentRadius(110), 1.5);
        QCOMPARE(std::string(elementSymbol(35)), std::string("Br"));
        QVERIFY(isMetal(30));
        QVERIFY(!isMetal(6));
    }
    void ad4Types() {
        QCOMPARE(elementOfAd4Type("A"), 6);
        QCOMPARE(elementOfAd4Type("OA"), 8);
        QCOMPARE(elementOfAd4Type("HD"), 1);
        QVERIFY(ad4IsAcceptor("NA"));
        QVERIFY(!ad4IsAcceptor("N"));
        QCOMPARE(xsTypeFromName("N_DA"), XsType::N_DA);
        QVERIFY(xsIsDonor(XsType::N_DA) && xsIsAcceptor(XsType::N_DA));
        QVERIFY(xsIsHydrophobic(XsType::Cl_H));
    }
    void adjacencyAndBox() {
        Molecule m;
        for (int i = 0; i < 3; ++i) {
            Atom a;
            a.element = 6;
            a.position = Vec3(i, 2 * i, -i);
            m.atoms.push_back(a);
        }
        m.bonds.push_back({0, 1});
        m.bonds.push_back({1, 2});
        auto adj = m.neighbours();
        QCOMPARE(adj[1].size(), size_t(2));
        QCOMPARE(m.findBond(2, 1), 1);
        QCOMPARE(m.findBond(0, 2), -1);
        auto [lo, hi] = m.boundingBox();
        QCOMPARE(lo.z(), -2.0);
        QCOMPARE(hi.y(), 4.0);
    }
    void treeOrder() {
        TorsionTree t;
        t.nodes.resize(4);
        t.nodes[0].children = {1, 3};
        t.nodes[1].parent = 0;
        t.nodes[1].children = {2};
        t.nodes[2].parent = 1;
        t.nodes[3].parent = 0;
        QCOMPARE(t.topologicalOrder(), (std::vector<int>{0, 1, 2, 3}));
        QCOMPARE(t.torsionCount(), 3);
    }
    // A finite but huge coordinate (fuzz_mol2 found 2.4e54) and coordinates whose span is beyond
    // double's range: the bond grid stays defined (no cell index outside int64; UBSan) and the
    // two close atoms are still bonded.
    void bondPerceptionWithHugeCoordinates() {
        for (const double far : {2.4e54, 1e308}) {
            Molecule m;
            for (const Vec3& p : {Vec3(0, 0, 0), Vec3(1.5, 0, 0), Vec3(far, 0, 0), Vec3(-far, 0, 0)}) {
                Atom a;
                a.element = 6;
                a.position = p;
                m.atoms.push_back(a);
            }
            QCOMPARE(perceiveBonds(m), 1);
            QCOMPARE(m.bonds.size(), size_t(1));
        }
    }
    void errorMessage() {
        InputError e("lig.sdf", 12, "expected 'M  END'");
        QCOMPARE(QString(e.what()), QString("lig.sdf:12: expected 'M  END'"));
    }
};

QTEST_GUILESS_MAIN(TestMolecule)
#include "test_molecule.moc"
