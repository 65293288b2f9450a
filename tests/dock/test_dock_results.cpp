// Tests for what docking reports and refuses: symmetry-aware RMSD (automorphisms, a reference
// listed in another atom order), clustering at a tolerance ranked by score, and the inputs the
// engine refuses (too many atoms or torsions, a ligand longer than the box).
#include "core/InputError.h"
#include "dock/Clustering.h"
#include "dock/DockEngine.h"
#include "dock/SymmetryRmsd.h"

#include <QtTest>

#include <cmath>

using namespace pw;
using namespace pw::dock;

namespace {

// Toluene's heavy atoms (ring 0-5, methyl 6 on atom 0) with hydrogens on 1..5 (atoms 7-11).
Molecule toluene() {
    Molecule m;
    m.name = "toluene";
    m.sourceFile = "toluene.sdf";
    for (int i = 0; i < 6; ++i) {
        Atom a;
        a.element = 6;
        a.position = Vec3(1.4 * std::cos(i * M_PI / 3), 1.4 * std::sin(i * M_PI / 3), 0);
        m.atoms.push_back(a);
    }
    Atom methyl;
    methyl.element = 6;
    methyl.position = Vec3(2.9, 0, 0);
    m.atoms.push_back(methyl);
    for (int i = 1; i < 6; ++i) {
        Atom h;
        h.element = 1;
        h.position = 2.5 / 1.4 * m.atoms[i].position;
        m.atoms.push_back(h);
    }
    for (int i = 0; i < 6; ++i)
        m.bonds.push_back({i, (i + 1) % 6, BondOrder::Aromatic, false});
    m.bonds.push_back({0, 6, BondOrder::Single, false});
    for (int i = 1; i < 6; ++i)
        m.bonds.push_back({i, 6 + i, BondOrder::Single, false});
    return m;
}

std::vector<Vec3> positions(const Molecule& m) {
    std::vector<Vec3> p;
    for (const Atom& a : m.atoms)
        p.push_back(a.position);
    return p;
}

DockRun runAt(int index, double score, const std::vector<Vec3>& coords) {
    DockRun r;
    r.run = index;
    r.score = score;
    r.coordinates = coords;
    return r;
}

} // namespace

class TestDockResults : public QObject {
    Q_OBJECT
private slots:
    void rmsdIgnoresSymmetry() {
        const Molecule m = toluene();
        const SymmetryRmsd rmsd(m);
        QCOMPARE(rmsd.mappingCount(), 2); // identity and the mirror through the methyl axis
        QCOMPARE(rmsd.heavyAtomCount(), 7);
        // Swap the ortho (1 <-> 5) and meta (2 <-> 4) positions: the same pose.
        std::vector<Vec3> a = positions(m), b = a;
        std::swap(b[1], b[5]);
        std::swap(b[2], b[4]);
        QVERIFY(rmsd.rmsd(a, b) < 1e-12);
        // A plain translation by 1 A is 1 A whatever the mapping.
        for (Vec3& p : b)
            p += Vec3(0, 0, 1);
        QVERIFY(std::abs(rmsd.rmsd(a, b) - 1.0) < 1e-12);
        // Moving only the methyl by 0.7 A: sqrt(0.49 / 7).
        std::vector<Vec3> c = a;
        c[6] += Vec3(0, 0.7, 0);
        QVERIFY(std::abs(rmsd.rmsd(a, c) - std::sqrt(0.49 / 7)) < 1e-12);
    }
    void rmsdAgainstAReferenceInAnotherAtomOrder() {
        const Molecule m = toluene();
        Molecule ref; // heavy atoms only, listed backwards, Kekulé bonds
        ref.name = "xtal";
        for (int i = 6; i >= 0; --i)
            ref.atoms.push_back(m.atoms[i]);
        auto idx = [](int i) { return 6 - i; };
        for (int i = 0; i < 6; ++i)
            ref.bonds.push_back(
                {idx(i), idx((i + 1) % 6), i % 2 ? BondOrder::Single : BondOrder::Double, false});
        ref.bonds.push_back({idx(0), idx(6), BondOrder::Single, false});
        const SymmetryRmsd rmsd(m, ref);
        QVERIFY(rmsd.rmsd(positions(m), positions(ref)) < 1e-12);
        std::vector<Vec3> moved = positions(m);
        for (Vec3& p : moved)
            p += Vec3(0.5, 0, 0);
        QVERIFY(std::abs(rmsd.rmsd(moved, positions(ref)) - 0.5) < 1e-12);

        Molecule other = ref; // a ring without its methyl is another molecule
        other.atoms.erase(other.atoms.begin());
        other.bonds.pop_back();
        for (Bond& b : other.bonds) {
            --b.a;
            --b.b;
        }
        other.sourceFile = "other.sdf";
        try {
            SymmetryRmsd bad(m, other);
            QFAIL("a different molecule was accepted as reference");
        } catch (const InputError& e) {
            QVERIFY(QString(e.what()).contains("other.sdf"));
            QVERIFY(QString(e.what()).contains("not the same molecule"));
        }
    }
    void clustersGroupWithinToleranceRankedByScore() {
        const Molecule m = toluene();
        const SymmetryRmsd rmsd(m);
        const std::vector<Vec3> base = positions(m);
        auto shifted = [&](double dx) {
            std::vector<Vec3> p = base;
            for (Vec3& v : p)
                v.x() += dx;
            return p;
        };
        std::vector<DockRun> runs = {runAt(0, -5.0, shifted(0.0)), runAt(1, -7.0, shifted(10.0)),
                                     runAt(2, -6.0, shifted(1.0)), runAt(3, -6.5, shifted(11.5)),
                                     runAt(4, -4.0, shifted(3.0))};
        runs.push_back(DockRun{}); // an unfinished run (no coordinates) is left out
        runs.back().run = 5;
        const auto clusters = clusterRuns(runs, rmsd, 2.0);
        QCOMPARE(int(clusters.size()), 3);
        QCOMPARE(clusters[0].rank, 1);
        QCOMPARE(clusters[0].members, (std::vector<int>{1, 3}));
        QCOMPARE(clusters[0].bestScore, -7.0);
        QCOMPARE(clusters[1].members, (std::vector<int>{2, 0})); // best first
        QCOMPARE(clusters[1].bestScore, -6.0);
        // Run 4 lies 2 A from run 2 (the cluster's best): not within the tolerance.
        QCOMPARE(clusters[2].members, (std::vector<int>{4}));
        QCOMPARE(clusters[2].size(), 1);
    }
    void refusesWhatTheEngineCannotTake() {
        SearchBox box;
        box.size = Vec3(20, 20, 20);
        Molecule m = toluene();
        checkDockable(m, box); // fits

        SearchBox tiny;
        tiny.size = Vec3(1.5, 1.5, 1.5); // diagonal 2.6 A; toluene spans 4.3 A
        QVERIFY_THROWS_EXCEPTION(InputError, checkDockable(m, tiny));
        try {
            checkDockable(m, tiny);
        } catch (const InputError& e) {
            const QString w = e.what();
            QVERIFY2(w.startsWith("toluene.sdf") && w.contains("box") && w.contains("toluene"),
                     qPrintable(w));
        }

        Molecule big = m;
        while (big.atoms.size() <= size_t(kMaxDockAtoms))
            big.atoms.push_back(m.atoms[7]);
        try {
            checkDockable(big, box);
            QFAIL("accepted too many atoms");
        } catch (const InputError& e) {
            QVERIFY2(QString(e.what()).contains(QString("at most %1").arg(kMaxDockAtoms)),
                     e.what());
        }

        Molecule floppy = m;
        TorsionTree tree;
        tree.nodes.resize(kMaxDockTorsions + 2);
        floppy.torsionTree = tree;
        try {
            checkDockable(floppy, box);
            QFAIL("accepted too many torsions");
        } catch (const InputError& e) {
            QVERIFY2(
                QString(e.what()).contains(QString("%1 rotatable bonds").arg(kMaxDockTorsions + 1)),
                e.what());
            QVERIFY(QString(e.what()).contains(QString("at most %1").arg(kMaxDockTorsions)));
        }
    }
};

QTEST_APPLESS_MAIN(TestDockResults)
#include "test_dock_results.moc"
