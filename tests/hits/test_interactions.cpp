// Interactions of the 1stp crystal pose (biotin in streptavidin): the hydrogen-bond network the
// literature describes (Weber et al., Science 243, 85 (1989); Freitag et al., Protein Sci. 6,
// 1157 (1997)): N23, S27, Y43 to the ureido oxygen, S45 and D128 to the ureido NHs, T90 to the
// sulfur, N49 and S88 to the carboxylate; and the same through `hits import --receptor`.
#include "chem/MoleculeReader.h"
#include "chem/MoleculeWriter.h"
#include "hits/PoseInteractions.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <set>

#include <Eigen/Geometry>

#include "cli/CliRun.h"

using namespace pw;
using namespace pw::hits;
using namespace pw::test;

namespace {

// A made-up receptor: PHE1's ring in the z = 0 plane around the origin, LYS2's NZ at (10, 0, 0),
// GLY3's backbone O at (0, 10, 0) with its carbon placed for a 120 degree X...O=C angle.
Molecule syntheticReceptor() {
    Molecule r;
    r.residues = {
        {"PHE", 1, 'A', ' ', false}, {"LYS", 2, 'A', ' ', false}, {"GLY", 3, 'A', ' ', false}};
    auto add = [&](const char* name, int element, Vec3 p, int residue) {
        Atom a;
        a.name = name;
        a.element = element;
        a.position = p;
        a.residue = residue;
        r.atoms.push_back(a);
        return int(r.atoms.size()) - 1;
    };
    const char* ring[] = {"CG", "CD1", "CE1", "CZ", "CE2", "CD2"};
    for (int k = 0; k < 6; ++k) {
        const double t = k * M_PI / 3;
        add(ring[k], 6, Vec3(1.39 * std::cos(t), 1.39 * std::sin(t), 0), 0);
        if (k)
            r.bonds.push_back({k - 1, k, BondOrder::Single, false});
    }
    r.bonds.push_back({5, 0, BondOrder::Single, false});
    add("NZ", 7, Vec3(10, 0, 0), 1);
    const int o = add("O", 8, Vec3(0, 10, 0), 2);
    const int c = add("C", 6, Vec3(0, 10, 0) + 1.23 * Vec3(0.866, 0.5, 0), 2);
    r.bonds.push_back({o, c, BondOrder::Double, false});
    return r;
}

// Benzene centred at `centre` with ring normal `normal` (aromatic bonds).
Molecule benzene(Vec3 centre, Vec3 normal) {
    Molecule m;
    normal.normalize();
    Vec3 u = normal.unitOrthogonal(), v = normal.cross(u);
    for (int k = 0; k < 6; ++k) {
        Atom a;
        a.element = 6;
        a.aromatic = true;
        const double t = k * M_PI / 3;
        a.position = centre + 1.39 * (std::cos(t) * u + std::sin(t) * v);
        m.atoms.push_back(a);
        m.bonds.push_back({k, (k + 1) % 6, BondOrder::Aromatic, false});
    }
    return m;
}

// Acetate with its carboxylate oxygens' centre at `centre` (formal charge -1 on one O).
Molecule acetate(Vec3 centre) {
    Molecule m;
    auto add = [&](int element, Vec3 p, int charge = 0) {
        Atom a;
        a.element = element;
        a.position = centre + p;
        a.formalCharge = charge;
        m.atoms.push_back(a);
    };
    add(6, Vec3(0, -0.6, 0));     // carboxyl C
    add(8, Vec3(1.1, 0, 0));      // =O
    add(8, Vec3(-1.1, 0, 0), -1); // O-
    add(6, Vec3(0, -2.1, 0));     // methyl
    m.bonds = {{0, 1, BondOrder::Double, false},
               {0, 2, BondOrder::Single, false},
               {0, 3, BondOrder::Single, false}};
    return m;
}

// Chloromethane with the C-Cl axis along `axis`, Cl at `chlorine`.
Molecule chloromethane(Vec3 chlorine, Vec3 axis) {
    Molecule m;
    Atom c, cl;
    c.element = 6;
    c.position = chlorine - 1.77 * axis.normalized();
    cl.element = 17;
    cl.position = chlorine;
    m.atoms = {c, cl};
    m.bonds = {{0, 1, BondOrder::Single, false}};
    return m;
}

int countKind(const std::vector<Interaction>& found, const std::string& kind,
              const std::string& residue) {
    int n = 0;
    for (const Interaction& x : found)
        n += x.kind == kind && x.residueLabel() == residue;
    return n;
}

} // namespace

class TestInteractions : public QObject {
    Q_OBJECT
private slots:
    void biotinHydrogenBondsInStreptavidin() {
        const Molecule receptor =
            readMolecule(testData("complexes/1stp/receptor.pdb").toStdString());
        const Molecule ligand =
            readMolecule(testData("complexes/1stp/ligand_xtal.pdb").toStdString());
        ReceptorSites sites(receptor);
        const auto found = sites.interactions(ligand);
        std::set<std::string> hbondResidues, hydrophobicResidues;
        for (const Interaction& x : found) {
            QVERIFY(x.distance > 0);
            if (x.kind == "hbond") {
                QVERIFY(x.distance <= 4.1);
                hbondResidues.insert(x.residueLabel());
            }
            if (x.kind == "hydrophobic")
                hydrophobicResidues.insert(x.residueLabel());
        }
        QString list;
        for (const auto& r : hbondResidues)
            list += QString::fromStdString(r) + " ";
        for (const char* expected :
             {"ASN23", "SER27", "TYR43", "SER45", "ASN49", "SER88", "THR90", "ASP128"})
            QVERIFY2(hbondResidues.count(expected),
                     qPrintable("missing " + QString(expected) + " in " + list));
        // Residues far from the pocket never appear; the pocket's tryptophans touch biotin.
        QVERIFY(!hbondResidues.count("ALA13"));
        QVERIFY2(hydrophobicResidues.count("TRP79") || hydrophobicResidues.count("TRP108"),
                 "no hydrophobic contact with the tryptophans");
    }

    void piStackingParallelTShapedAndOffset() {
        ReceptorSites sites(syntheticReceptor());
        const Vec3 z(0, 0, 1), x(1, 0, 0);
        QCOMPARE(countKind(sites.interactions(benzene(Vec3(0, 0, 3.8), z)), "pistack", "PHE1"), 1);
        QCOMPARE(countKind(sites.interactions(benzene(Vec3(1.5, 0, 3.8), z)), "pistack", "PHE1"),
                 1);
        // Offset 2.5 Å in the plane: beyond PLIP's 2.0 Å.
        QCOMPARE(countKind(sites.interactions(benzene(Vec3(2.5, 0, 3.8), z)), "pistack", "PHE1"),
                 0);
        // T-shaped (edge to face) at 5.0 Å; too far at 6.0 Å.
        QCOMPARE(countKind(sites.interactions(benzene(Vec3(0, 0, 5.0), x)), "pistack", "PHE1"), 1);
        QCOMPARE(countKind(sites.interactions(benzene(Vec3(0, 0, 6.0), x)), "pistack", "PHE1"), 0);
        // Tilted by 45 degrees: neither parallel nor perpendicular within 30 degrees.
        QCOMPARE(countKind(sites.interactions(benzene(Vec3(0, 0, 4.0), Vec3(1, 0, 1))), "pistack",
                           "PHE1"),
                 0);
    }

    void saltBridgeByChargeCentreDistance() {
        ReceptorSites sites(syntheticReceptor());
        QCOMPARE(countKind(sites.interactions(acetate(Vec3(10, 0, 5.0))), "saltbridge", "LYS2"), 1);
        QCOMPARE(countKind(sites.interactions(acetate(Vec3(10, 0, 6.0))), "saltbridge", "LYS2"), 0);
    }

    void halogenBondNeedsBothAngles() {
        ReceptorSites sites(syntheticReceptor());
        const Vec3 o(0, 10, 0);
        // C-Cl...O linear (180, within 165 +- 30), Cl...O=C at 120 degrees: a halogen bond.
        QCOMPARE(countKind(sites.interactions(chloromethane(o - Vec3(0, 3.3, 0), Vec3(0, 1, 0))),
                           "halogen", "GLY3"),
                 1);
        // Side-on (C-Cl...O of 90 degrees): none.
        QCOMPARE(countKind(sites.interactions(chloromethane(o - Vec3(0, 3.3, 0), Vec3(1, 0, 0))),
                           "halogen", "GLY3"),
                 0);
        // Too far.
        QCOMPARE(countKind(sites.interactions(chloromethane(o - Vec3(0, 4.3, 0), Vec3(0, 1, 0))),
                           "halogen", "GLY3"),
                 0);
    }

    void hydrogenBondAngleWhenHydrogensAreExplicit() {
        ReceptorSites sites(syntheticReceptor());
        auto methanol = [](Vec3 h) {
            Molecule m;
            Atom c, o, hy;
            c.element = 6;
            c.position = Vec3(-1.4, 7, 0);
            o.element = 8;
            o.position = Vec3(0, 7, 0); // 3.0 Å from GLY3's O
            hy.element = 1;
            hy.position = h;
            m.atoms = {c, o, hy};
            m.bonds = {{0, 1, BondOrder::Single, false}, {1, 2, BondOrder::Single, false}};
            return m;
        };
        QCOMPARE(countKind(sites.interactions(methanol(Vec3(0, 7.96, 0))), "hbond", "GLY3"), 1);
        // The hydrogen points away: D-H...A far below 100 degrees.
        QCOMPARE(countKind(sites.interactions(methanol(Vec3(0.3, 6.1, 0))), "hbond", "GLY3"), 0);
    }

    void storedAndFilteredThroughTheCli() {
        QTemporaryDir dir;
        const QString sdf = dir.filePath("btn.sdf"), db = dir.filePath("h.db");
        {
            Molecule ligand =
                readMolecule(testData("complexes/1stp/ligand_xtal.pdb").toStdString());
            ligand.name = "biotin_xtal";
            ligand.setProperty("dock_score", "-9.5");
            auto w = MoleculeWriter::create(sdf.toStdString());
            w->write(ligand);
            w->commit();
        }
        CliRun r = runCli(
            {"hits", "import", db, sdf, "--receptor", testData("complexes/1stp/receptor.pdb")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        auto count = [&](const QString& where) {
            CliRun q =
                runCli({"hits", "query", db, "--json", "--where", where, "--columns", "name"});
            if (q.exitCode != 0)
                qFatal("%s", q.err.constData());
            return jsonLines(q.out).size();
        };
        QCOMPARE(count("hbond('ASP128') and hbond('SER45') and dock_score < -9"), qsizetype(1));
        QCOMPARE(count("hbond('A:THR90')"), qsizetype(1));
        QCOMPARE(count("hbond('B:THR90')"), qsizetype(0)); // chain given: must match
        QCOMPARE(count("hbond('ALA13') or pistack('ASP128')"), qsizetype(0));
        QCOMPARE(count("interaction_count > 8"), qsizetype(1));
    }
};

QTEST_GUILESS_MAIN(TestInteractions)
#include "test_interactions.moc"
