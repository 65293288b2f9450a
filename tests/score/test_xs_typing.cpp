// Vina's XS typing rules (AutoDock Vina 1.2.3 model.cpp assign_types) on small molecules built
// by hand, through Molecule::bonds and through Vina's own bond perception.
#include "core/XsTyping.h"
#include "score/VinaTopology.h"

#include <QtTest>

using namespace pw;

class TestXsTyping : public QObject {
    Q_OBJECT

    static int add(Molecule& m, const char* ad4, int element, Vec3 p = Vec3::Zero()) {
        Atom a;
        a.ad4Type = ad4;
        a.element = element;
        a.position = p;
        m.atoms.push_back(a);
        return static_cast<int>(m.atoms.size()) - 1;
    }
    static void bond(Molecule& m, int a, int b) { m.bonds.push_back({a, b}); }

private slots:
    void carbonsPolarNextToHeteroatoms() {
        Molecule m;
        const int c1 = add(m, "C", 6), c2 = add(m, "A", 6), n = add(m, "N", 7);
        const int c3 = add(m, "C", 6), zn = add(m, "Zn", 30), c4 = add(m, "C", 6);
        const int h = add(m, "H", 1);
        bond(m, c1, c2);
        bond(m, c2, n);
        bond(m, c3, zn);
        bond(m, c4, h);
        bond(m, c4, c1);
        assignXsTypes(m);
        QCOMPARE(m.atoms[c1].xs, XsType::C_H);
        QCOMPARE(m.atoms[c2].xs, XsType::C_P); // aromatic carbon next to N
        QCOMPARE(m.atoms[c3].xs, XsType::C_P); // metals count as heteroatoms
        QCOMPARE(m.atoms[c4].xs, XsType::C_H); // hydrogens do not
        QCOMPARE(m.atoms[zn].xs, XsType::Met_D);
        QCOMPARE(m.atoms[h].xs, XsType::None);
        QCOMPARE(m.atoms[n].xs, XsType::N_P);
    }

    void nitrogenAndOxygenDonorsAcceptors() {
        Molecule m;
        const int nP = add(m, "N", 7), nD = add(m, "N", 7), nA = add(m, "NA", 7);
        const int nDA = add(m, "NA", 7), oA = add(m, "OA", 8), oDA = add(m, "OA", 8);
        const int oP = add(m, "O", 8), nH = add(m, "N", 7);
        const int h1 = add(m, "HD", 1), h2 = add(m, "HD", 1), h3 = add(m, "HD", 1);
        const int hNonPolar = add(m, "H", 1);
        bond(m, nD, h1);
        bond(m, nDA, h2);
        bond(m, oDA, h3);
        bond(m, nH, hNonPolar); // only HD makes a donor
        assignXsTypes(m);
        QCOMPARE(m.atoms[nP].xs, XsType::N_P);
        QCOMPARE(m.atoms[nD].xs, XsType::N_D);
        QCOMPARE(m.atoms[nA].xs, XsType::N_A);
        QCOMPARE(m.atoms[nDA].xs, XsType::N_DA);
        QCOMPARE(m.atoms[oA].xs, XsType::O_A);
        QCOMPARE(m.atoms[oDA].xs, XsType::O_DA);
        QCOMPARE(m.atoms[oP].xs, XsType::O_P);
        QCOMPARE(m.atoms[nH].xs, XsType::N_P);
    }

    void otherElements() {
        Molecule m;
        const int s = add(m, "S", 16), sa = add(m, "SA", 16), se = add(m, "Se", 34);
        const int p = add(m, "P", 15), f = add(m, "F", 9), cl = add(m, "Cl", 17);
        const int br = add(m, "Br", 35), i = add(m, "I", 53), cu = add(m, "Cu", 29);
        const int mg = add(m, "Mg", 12);
        assignXsTypes(m);
        QCOMPARE(m.atoms[s].xs, XsType::S_P);
        QCOMPARE(m.atoms[sa].xs, XsType::S_P); // Vina ignores SA as an acceptor
        QCOMPARE(m.atoms[se].xs, XsType::S_P); // Vina reads Se as S
        QCOMPARE(m.atoms[p].xs, XsType::P_P);
        QCOMPARE(m.atoms[f].xs, XsType::F_H);
        QCOMPARE(m.atoms[cl].xs, XsType::Cl_H);
        QCOMPARE(m.atoms[br].xs, XsType::Br_H);
        QCOMPARE(m.atoms[i].xs, XsType::I_H);
        QCOMPARE(m.atoms[cu].xs, XsType::Met_D);
        QCOMPARE(m.atoms[mg].xs, XsType::Met_D);
    }

    void vinaBondPerceptionTypesAHydroxyl() {
        // Methanol with a polar H, no bonds given: Vina finds C-O and O-H by distance.
        Molecule m;
        const int c = add(m, "C", 6, Vec3(0, 0, 0));
        const int o = add(m, "OA", 8, Vec3(1.43, 0, 0));
        const int h = add(m, "HD", 1, Vec3(1.75, 0.91, 0));
        const auto adj = vinaRigidBonds(m);
        QCOMPARE(static_cast<int>(adj[c].size()), 1);
        QCOMPARE(static_cast<int>(adj[o].size()), 2);
        QCOMPARE(adj[h], std::vector<int>{o});
        const auto types = vinaRigidXsTypes(m);
        QCOMPARE(types[c], XsType::C_P);
        QCOMPARE(types[o], XsType::O_DA);
        // The same atoms 1.1 x (0.77 + 0.73) = 1.65 Å apart are not bonded any more.
        m.atoms[o].position = Vec3(1.66, 0, 0);
        m.atoms[h].position = Vec3(5, 5, 5);
        const auto types2 = vinaRigidXsTypes(m);
        QCOMPARE(types2[c], XsType::C_H);
        QCOMPARE(types2[o], XsType::O_A);
    }

    void atomBetweenBlocksABond() {
        // Vina does not bond two atoms when a third sits closer to both (model.cpp
        // atom_exists_between): two calcium atoms within bonding range with a carbon between.
        Molecule m;
        const int a = add(m, "Ca", 20, Vec3(0, 0, 0));
        const int b = add(m, "Ca", 20, Vec3(3.6, 0, 0)); // 3.6 < 1.1 * 3.48 = 3.83
        const int c = add(m, "C", 6, Vec3(1.8, 0.3, 0)); // closer to both than 3.6
        const auto adj = vinaRigidBonds(m);
        QVERIFY(std::find(adj[a].begin(), adj[a].end(), b) == adj[a].end());
        QVERIFY(std::find(adj[a].begin(), adj[a].end(), c) != adj[a].end());
        m.atoms[c].position = Vec3(1.8, 5, 0);
        const auto adj2 = vinaRigidBonds(m);
        QVERIFY(std::find(adj2[a].begin(), adj2[a].end(), b) != adj2[a].end());
    }
};

QTEST_GUILESS_MAIN(TestXsTyping)
#include "test_xs_typing.moc"
