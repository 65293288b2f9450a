// Rotatable bonds, ring membership and torsion trees on small molecules built in code
// (core only: no RDKit). Hydrogens are added to fill standard valences, as preparation does.
#include "core/InputError.h"
#include "core/Rings.h"
#include "core/RotatableBonds.h"
#include "core/TorsionTreeBuilder.h"

#include <QtTest>

#include <algorithm>
#include <tuple>
#include <vector>

using namespace pw;

namespace {

// Heavy atoms by element, bonds (a, b, order), then hydrogens up to the usual valence.
Molecule build(const std::string& name, const std::vector<int>& elements,
               const std::vector<std::tuple<int, int, int>>& bonds) {
    Molecule m;
    m.name = name;
    for (int e : elements) {
        Atom a;
        a.element = e;
        a.position = Vec3(m.atoms.size() * 1.5, 0, 0);
        m.atoms.push_back(a);
    }
    std::vector<int> valence(m.atoms.size(), 0);
    for (auto [a, b, order] : bonds) {
        m.bonds.push_back({a, b, static_cast<BondOrder>(order), false});
        valence[a] += order;
        valence[b] += order;
    }
    const size_t heavy = m.atoms.size();
    for (size_t i = 0; i < heavy; ++i) {
        int want = m.atoms[i].element == 6   ? 4
                   : m.atoms[i].element == 7 ? 3
                   : m.atoms[i].element == 8 ? 2
                                             : 1;
        for (int k = valence[i]; k < want; ++k) {
            Atom h;
            h.element = 1;
            m.atoms.push_back(h);
            m.bonds.push_back({static_cast<int>(i), static_cast<int>(m.atoms.size() - 1),
                               BondOrder::Single, false});
        }
    }
    return m;
}

int rotatableCount(const Molecule& m, RotatableBondOptions o = {}) {
    auto r = findRotatableBonds(m, o);
    return static_cast<int>(std::count(r.begin(), r.end(), true));
}

bool isRot(const Molecule& m, int a, int b, RotatableBondOptions o = {}) {
    return findRotatableBonds(m, o)[m.findBond(a, b)];
}

// Benzene ring (Kekulé) on atoms first..first+5, as bond triples.
void addBenzene(std::vector<std::tuple<int, int, int>>& bonds, int f) {
    for (int k = 0; k < 6; ++k)
        bonds.emplace_back(f + k, f + (k + 1) % 6, k % 2 ? 1 : 2);
}

} // namespace

class TestTorsionTree : public QObject {
    Q_OBJECT
private slots:
    void ringsAreBondsThatAreNotBridges() {
        // Cyclohexyl-ethane: ring bonds in a ring, the chain bonds not.
        Molecule m = build("ethylcyclohexane", {6, 6, 6, 6, 6, 6, 6, 6},
                           {{0, 1, 1},
                            {1, 2, 1},
                            {2, 3, 1},
                            {3, 4, 1},
                            {4, 5, 1},
                            {5, 0, 1},
                            {0, 6, 1},
                            {6, 7, 1}});
        RingMembership r = findRingMembership(m);
        for (int i = 0; i < 6; ++i) {
            QVERIFY(r.bondInRing[i]);
            QVERIFY(r.atomInRing[i]);
        }
        QVERIFY(!r.bondInRing[6]);
        QVERIFY(!r.bondInRing[7]);
        QVERIFY(!r.atomInRing[6]);
        QVERIFY(!r.atomInRing[7]);
        // Ring bonds never rotate; the ring-CH2 bond does, the CH2-CH3 one does not (methyl).
        QVERIFY(!isRot(m, 0, 1));
        QVERIFY(isRot(m, 0, 6));
        QVERIFY(!isRot(m, 6, 7));
        QCOMPARE(rotatableCount(m), 1);
    }

    void fusedRingsShareRingBonds() {
        // Decalin: the shared bond is in a ring too.
        Molecule m = build("decalin", {6, 6, 6, 6, 6, 6, 6, 6, 6, 6},
                           {{0, 1, 1},
                            {1, 2, 1},
                            {2, 3, 1},
                            {3, 4, 1},
                            {4, 5, 1},
                            {5, 0, 1},
                            {4, 6, 1},
                            {6, 7, 1},
                            {7, 8, 1},
                            {8, 9, 1},
                            {9, 5, 1}});
        RingMembership r = findRingMembership(m);
        QVERIFY(r.bondInRing[m.findBond(4, 5)]);
        QCOMPARE(rotatableCount(m), 0);
        TorsionTree t = buildTorsionTree(m);
        QCOMPARE(t.torsionCount(), 0);
        QCOMPARE(static_cast<int>(t.nodes[0].atoms.size()), static_cast<int>(m.atoms.size()));
    }

    void methylAndHydroxylAreNotTorsionsByDefault() {
        // Ethanol: C-C ends in a methyl, C-O in a hydroxyl: both only move hydrogens.
        Molecule m = build("ethanol", {6, 6, 8}, {{0, 1, 1}, {1, 2, 1}});
        QCOMPARE(rotatableCount(m), 0);
        // Meeko's convention: the polar hydrogen of -OH rotates (but a methyl never does).
        RotatableBondOptions o;
        o.hydrogenTorsions = true;
        QVERIFY(isRot(m, 1, 2, o));
        QVERIFY(!isRot(m, 0, 1, o));
        // Ethylamine -NH2 behaves like -OH.
        Molecule amine = build("ethylamine", {6, 6, 7}, {{0, 1, 1}, {1, 2, 1}});
        QCOMPARE(rotatableCount(amine), 0);
        QCOMPARE(rotatableCount(amine, o), 1);
    }

    void amidesAreRigidUnlessAsked() {
        // N-methylacetamide CH3-C(=O)-NH-CH3: amide C-N rigid; both other bonds hit methyls.
        Molecule m = build("NMA", {6, 6, 8, 7, 6}, {{0, 1, 1}, {1, 2, 2}, {1, 3, 1}, {3, 4, 1}});
        QVERIFY(!isRot(m, 1, 3));
        RotatableBondOptions flex;
        flex.flexibleAmides = true;
        QVERIFY(isRot(m, 1, 3, flex));
        // N-propylacetamide: the N-CH2 bond rotates, the amide bond does not.
        Molecule p = build("N-propylacetamide", {6, 6, 8, 7, 6, 6, 6},
                           {{0, 1, 1}, {1, 2, 2}, {1, 3, 1}, {3, 4, 1}, {4, 5, 1}, {5, 6, 1}});
        QVERIFY(!isRot(p, 1, 3));
        QVERIFY(isRot(p, 3, 4));
        QVERIFY(isRot(p, 4, 5));
        QCOMPARE(rotatableCount(p), 2);
    }

    void tertiaryAmideRotatesOnlyWithDifferentSubstituents() {
        // Tertiary amides on a propanoyl C(=O) so that both sides carry heavy atoms.
        // N,N-dimethyl: equivalent substituents, rigid.
        Molecule same = build("N,N-dimethylpropanamide", {6, 6, 6, 8, 7, 6, 6},
                              {{0, 1, 1}, {1, 2, 1}, {2, 3, 2}, {2, 4, 1}, {4, 5, 1}, {4, 6, 1}});
        QVERIFY(!isRot(same, 2, 4));
        // N-ethyl-N-methyl: different substituents, the amide bond rotates (as in Meeko).
        Molecule diff =
            build("N-ethyl-N-methylpropanamide", {6, 6, 6, 8, 7, 6, 6, 6},
                  {{0, 1, 1}, {1, 2, 1}, {2, 3, 2}, {2, 4, 1}, {4, 5, 1}, {4, 6, 1}, {6, 7, 1}});
        QVERIFY(isRot(diff, 2, 4));
        auto cls = symmetryClasses(same);
        QCOMPARE(cls[5], cls[6]);
        QVERIFY(cls[0] != cls[5]);
    }

    void linearGroupsDoNotRotate() {
        // Butyronitrile CH3-CH2-CH2-C#N: the CH2-C(N) bond is on the nitrile's axis.
        Molecule m =
            build("butyronitrile", {6, 6, 6, 6, 7}, {{0, 1, 1}, {1, 2, 1}, {2, 3, 1}, {3, 4, 3}});
        QVERIFY(!isRot(m, 2, 3));
        QVERIFY(isRot(m, 1, 2));
        QCOMPARE(rotatableCount(m), 1);
    }

    void biphenylRotatesBetweenRings() {
        std::vector<std::tuple<int, int, int>> bonds;
        addBenzene(bonds, 0);
        addBenzene(bonds, 6);
        bonds.emplace_back(0, 6, 1);
        Molecule m = build("biphenyl", std::vector<int>(12, 6), bonds);
        QCOMPARE(rotatableCount(m), 1);
        QVERIFY(isRot(m, 0, 6));
        markRotatableBonds(m);
        TorsionTree t = buildTorsionTree(m);
        QCOMPARE(t.torsionCount(), 1);
        QVERIFY(checkTorsionTree(m, t).empty());
        // Two equal halves: the root is the one holding atom 0.
        QVERIFY(std::count(t.nodes[0].atoms.begin(), t.nodes[0].atoms.end(), 0) == 1);
        QCOMPARE(t.nodes[1].axisParentAtom, 0);
        QCOMPARE(t.nodes[1].axisChildAtom, 6);
    }

    void rootIsTheCentralFragment() {
        // Heptane: C2-C3, C3-C4, C4-C5, C5-C6 rotate (C1-C2, C6-C7 end in methyls).
        Molecule m = build("heptane", {6, 6, 6, 6, 6, 6, 6},
                           {{0, 1, 1}, {1, 2, 1}, {2, 3, 1}, {3, 4, 1}, {4, 5, 1}, {5, 6, 1}});
        QCOMPARE(markRotatableBonds(m), 4);
        TorsionTree t = buildTorsionTree(m);
        QCOMPARE(t.torsionCount(), 4);
        QVERIFY(checkTorsionTree(m, t).empty());
        // The middle CH2 (atom 3) is the root; each side hangs as a chain of depth 2.
        QVERIFY(std::count(t.nodes[0].atoms.begin(), t.nodes[0].atoms.end(), 3) == 1);
        QCOMPARE(static_cast<int>(t.nodes[0].atoms.size()), 3); // C + 2 H
        QCOMPARE(static_cast<int>(t.nodes[0].children.size()), 2);
        for (int node : t.topologicalOrder())
            if (node != 0)
                QVERIFY(t.nodes[node].parent >= 0);
        // Forcing the root onto the end methyl gives a chain of depth 4 from there.
        TorsionTree end = buildTorsionTree(m, 0);
        QVERIFY(std::count(end.nodes[0].atoms.begin(), end.nodes[0].atoms.end(), 0) == 1);
        QCOMPARE(static_cast<int>(end.nodes[0].children.size()), 1);
        QVERIFY(checkTorsionTree(m, end).empty());
    }

    void checkFindsBrokenTrees() {
        Molecule m = build("butane", {6, 6, 6, 6}, {{0, 1, 1}, {1, 2, 1}, {2, 3, 1}});
        markRotatableBonds(m);
        TorsionTree t = buildTorsionTree(m);
        QCOMPARE(t.torsionCount(), 1);
        QVERIFY(checkTorsionTree(m, t).empty());
        TorsionTree missing = t;
        missing.nodes[1].atoms.pop_back();
        QVERIFY(checkTorsionTree(m, missing).find("is in no node") != std::string::npos);
        TorsionTree badAxis = t;
        badAxis.nodes[1].axisParentAtom = badAxis.nodes[1].axisChildAtom;
        QVERIFY(checkTorsionTree(m, badAxis).find("wrong fragments") != std::string::npos);
    }

    void refusesDisconnectedOrEmptyMolecules() {
        Molecule salt = build("salt", {6, 6, 8}, {{0, 1, 1}});
        salt.sourceFile = "hits.sdf";
        salt.sourceRecord = 7;
        try {
            buildTorsionTree(salt);
            QFAIL("a disconnected molecule was accepted");
        } catch (const InputError& e) {
            QCOMPARE(QString::fromStdString(e.what()),
                     QString("hits.sdf:7: molecule 'salt' has 2 disconnected parts; a torsion "
                             "tree needs one connected molecule"));
        }
        Molecule empty;
        empty.name = "nothing";
        QVERIFY_THROWS_EXCEPTION(InputError, buildTorsionTree(empty));
        // A rotatable flag on a ring bond cannot make a tree.
        Molecule ring = build("cyclopropane", {6, 6, 6}, {{0, 1, 1}, {1, 2, 1}, {2, 0, 1}});
        ring.bonds[0].rotatable = true;
        QVERIFY_THROWS_EXCEPTION(InputError, buildTorsionTree(ring));
    }
};

QTEST_GUILESS_MAIN(TestTorsionTree)
#include "test_torsion_tree.moc"
