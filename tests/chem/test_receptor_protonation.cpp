// Tests for ReceptorProtonation through prepareReceptor: a receptor PDB as the PDB archive
// gives it (1stp's receptor.pdb: 901 heavy atoms, no hydrogens) gets the polar hydrogens that
// AutoDockTools put into the shipped receptor.pdbqt, residue by residue; formal charges follow
// the pH; the geometry is sane; what cannot be protonated is still refused.
#include "chem/MoleculeReader.h"
#include "chem/ReceptorPreparation.h"
#include "core/InputError.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <map>
#include <tuple>

using namespace pw;

namespace {
const std::string kComplexes = std::string(POSEWRIGHT_TEST_DATA) + "/complexes/";

using ResidueKey = std::tuple<char, int, std::string>; // chain, number, name

// Hydrogens bonded to N or O, per residue.
std::map<ResidueKey, int> polarHydrogensByResidue(const Molecule& m) {
    std::map<ResidueKey, int> count;
    const auto adj = m.neighbours();
    for (size_t i = 0; i < m.atoms.size(); ++i) {
        if (m.atoms[i].element != 1 || adj[i].empty())
            continue;
        const int parent = m.atoms[adj[i][0]].element;
        if (parent != 7 && parent != 8)
            continue;
        const Residue& r = m.residues.at(m.atoms[i].residue);
        ++count[{r.chain, r.number, r.name}];
    }
    return count;
}

int total(const std::map<ResidueKey, int>& counts) {
    int n = 0;
    for (const auto& [k, c] : counts)
        n += c;
    return n;
}

int formalChargeSum(const Molecule& m) {
    int q = 0;
    for (const Atom& a : m.atoms)
        q += a.formalCharge;
    return q;
}

Molecule protonated(double pH, std::string* note = nullptr) {
    ReceptorPreparationOptions o;
    o.pH = pH;
    o.note = [note](const std::string& n) {
        if (note)
            *note = n;
    };
    return prepareReceptor(readMolecule(kComplexes + "1stp/receptor.pdb"), o);
}

} // namespace

class TestReceptorProtonation : public QObject {
    Q_OBJECT
private slots:
    void matchesAutoDockToolsResidueByResidue() {
        // AutoDockTools protonates every His on both ring nitrogens; below His's pKa (6.0)
        // the rules here do the same, so at pH 5 every residue must carry exactly the polar
        // hydrogens of the shipped receptor.pdbqt (215 in all).
        const auto ours = polarHydrogensByResidue(protonated(5.0));
        const auto adt =
            polarHydrogensByResidue(prepareReceptor(readMolecule(kComplexes + "1stp/receptor.pdbqt")));
        QCOMPARE(total(adt), 215);
        QCOMPARE(total(ours), 215);
        for (const auto& [key, n] : adt) {
            auto it = ours.find(key);
            const int mine = it == ours.end() ? 0 : it->second;
            if (mine != n)
                QFAIL(qPrintable(QString("residue %1 %2 %3: %4 polar hydrogens, AutoDockTools %5")
                                     .arg(QString::fromStdString(std::get<2>(key)))
                                     .arg(std::get<0>(key))
                                     .arg(std::get<1>(key))
                                     .arg(mine)
                                     .arg(n)));
        }
        QCOMPARE(ours.size(), adt.size());
    }

    void matchesAutoDockToolsOnStrippedReceptors() {
        // 3ce3 and 1iep ship only as PDBQT: their heavy atoms alone (hydrogens, types, charges
        // and bonds dropped, as a PDB from the archive) get back exactly AutoDockTools'
        // polar hydrogens, residue by residue, at pH 5 (513 and 473).
        for (const char* complex : {"3ce3", "1iep"}) {
            const Molecule pdbqt = readMolecule(kComplexes + complex + "/receptor.pdbqt");
            Molecule bare = pdbqt;
            bare.atoms.clear();
            bare.bonds.clear();
            for (Atom a : pdbqt.atoms)
                if (a.element != 1) {
                    a.ad4Type.clear();
                    a.xs = XsType::None;
                    a.charge = 0;
                    bare.atoms.push_back(a);
                }
            ReceptorPreparationOptions o;
            o.pH = 5.0;
            const auto ours = polarHydrogensByResidue(prepareReceptor(bare, o));
            const auto adt = polarHydrogensByResidue(prepareReceptor(pdbqt));
            QVERIFY(total(adt) > 400);
            QCOMPARE(total(ours), total(adt));
            QVERIFY(ours == adt);
        }
    }

    void saysWhatItAddedAtPh74() {
        std::string note;
        Molecule m = protonated(7.4, &note);
        // At pH 7.4 both His are neutral (H on NE2 or ND1): two hydrogens fewer than ADT.
        QCOMPARE(total(polarHydrogensByResidue(m)), 213);
        QVERIFY2(note.find("1stp/receptor.pdb: receptor had no polar hydrogens: added 213 polar "
                           "hydrogens") != std::string::npos,
                 note.c_str());
        QVERIFY2(note.find("at pH 7.4") != std::string::npos, note.c_str());
        QVERIFY2(note.find("His: 2 neutral with H on NE2, 0 on ND1, 0 charged") !=
                     std::string::npos,
                 note.c_str());
        // Every added hydrogen is typed as a donor hydrogen and bonded to its parent at the
        // ideal length; none sits on another heavy atom.
        const auto adj = m.neighbours();
        double closest = 1e9;
        for (size_t i = 901; i < m.atoms.size(); ++i) {
            const Atom& h = m.atoms[i];
            QCOMPARE(h.element, 1);
            QCOMPARE(h.ad4Type, std::string("HD"));
            QCOMPARE(adj[i].size(), size_t(1));
            const Atom& parent = m.atoms[adj[i][0]];
            const double d = (h.position - parent.position).norm();
            QVERIFY(std::abs(d - (parent.element == 8 ? 0.96 : 1.01)) < 1e-6);
            for (size_t k = 0; k < 901; ++k)
                if (static_cast<int>(k) != adj[i][0])
                    closest = std::min(closest, (h.position - m.atoms[k].position).norm());
        }
        QVERIFY2(closest > 1.4, qPrintable(QString::number(closest)));
    }

    void chargesFollowThePh() {
        // Count the ionizable groups from the residue names, then check the net formal charge:
        // +1 per Lys, Arg and N-terminus, -1 per Asp, Glu and C-terminus at pH 7.4 (His 0).
        Molecule pdb = readMolecule(kComplexes + "1stp/receptor.pdb");
        std::map<std::string, int> names;
        for (const Residue& r : pdb.residues)
            ++names[r.name];
        int oxt = 0;
        for (const Atom& a : pdb.atoms)
            oxt += a.name == "OXT";
        QVERIFY(names["LYS"] > 0 && names["ASP"] > 0 && names["ARG"] > 0 && names["GLU"] > 0);
        const int expected = names["LYS"] + names["ARG"] + 1 - names["ASP"] - names["GLU"] - oxt;
        QCOMPARE(formalChargeSum(protonated(7.4)), expected);
        // pH 5: His protonated too; pH 2: every acid neutral; pH 11: Lys and N-terminus neutral.
        QCOMPARE(formalChargeSum(protonated(5.0)), expected + names["HIS"]);
        QCOMPARE(formalChargeSum(protonated(2.0)), names["LYS"] + names["ARG"] + 1 + names["HIS"]);
        QCOMPARE(formalChargeSum(protonated(11.0)),
                 names["ARG"] - names["ASP"] - names["GLU"] - oxt);
    }

    void refusesWhatItCannotProtonate() {
        // No standard residue (a hetero group alone): refused, saying why.
        QTemporaryDir dir;
        const std::string path = dir.filePath("het.pdb").toStdString();
        std::ofstream(path) << "HETATM    1  C1  LIG A   1       0.000   0.000   0.000  1.00  0.00           C\n"
                               "HETATM    2  O1  LIG A   1       1.430   0.000   0.000  1.00  0.00           O\n"
                               "END\n";
        try {
            prepareReceptor(readMolecule(path));
            QFAIL("a receptor without standard residues was accepted");
        } catch (const InputError& e) {
            QVERIFY2(std::string(e.what()).find("has no polar hydrogens") != std::string::npos &&
                         std::string(e.what()).find("no standard amino-acid residues") !=
                             std::string::npos,
                     e.what());
        }
        // Protonation switched off: the old refusal.
        ReceptorPreparationOptions off;
        off.addPolarHydrogens = false;
        QVERIFY_THROWS_EXCEPTION(
            InputError, prepareReceptor(readMolecule(kComplexes + "1stp/receptor.pdb"), off));
    }
};

QTEST_APPLESS_MAIN(TestReceptorProtonation)
#include "test_receptor_protonation.moc"
