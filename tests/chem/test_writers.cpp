// Tests for the writers: SDF round trips (bond orders, charges, tags, V3000 past 999 atoms),
// PDBQT round trips that keep the torsion tree, multi-MODEL output, PDB, and atomic files.
#include "chem/MoleculeReader.h"
#include "chem/MoleculeWriter.h"
#include "chem/PdbqtWriter.h"
#include "chem/SdfWriter.h"
#include "core/Element.h"
#include "core/InputError.h"

#include <QDir>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>

using namespace pw;

namespace {

const std::string kData = POSEWRIGHT_TEST_DATA;

std::string slurp(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// An atom's identity that survives reordering: its rounded coordinates.
std::string key(const Vec3& p) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.3f %.3f %.3f", p.x(), p.y(), p.z());
    return buf;
}

std::vector<std::set<std::string>> nodeSets(const Molecule& m) {
    std::vector<std::set<std::string>> sets;
    for (const TorsionNode& n : m.torsionTree->nodes) {
        std::set<std::string> s;
        for (int a : n.atoms)
            s.insert(key(m.atoms[a].position));
        sets.push_back(s);
    }
    return sets;
}

void compareTrees(const Molecule& a, const Molecule& b) {
    QVERIFY(a.torsionTree && b.torsionTree);
    QCOMPARE(b.torsionTree->torsionCount(), a.torsionTree->torsionCount());
    // Node order may differ; compare as a set of (atom set, axis) per node.
    std::multiset<std::string> sa, sb;
    auto describe = [](const Molecule& m, size_t n, const std::set<std::string>& atoms) {
        const TorsionNode& node = m.torsionTree->nodes[n];
        std::string d;
        for (const std::string& s : atoms)
            d += s + ";";
        if (n > 0)
            d += "axis " + key(m.atoms[node.axisParentAtom].position) + " -> " +
                 key(m.atoms[node.axisChildAtom].position) + " parent " +
                 (node.parent == 0
                      ? "root"
                      : key(m.atoms[m.torsionTree->nodes[node.parent].axisChildAtom].position));
        return d;
    };
    auto na = nodeSets(a), nb = nodeSets(b);
    for (size_t n = 0; n < na.size(); ++n)
        sa.insert(describe(a, n, na[n]));
    for (size_t n = 0; n < nb.size(); ++n)
        sb.insert(describe(b, n, nb[n]));
    QVERIFY(sa == sb);
    QCOMPARE(nb[0], na[0]); // same root
}

} // namespace

class TestWriters : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;
    std::string out(const std::string& name) { return dir_.path().toStdString() + "/" + name; }

private slots:
    void sdfRoundTripKeepsEverything() {
        std::vector<Molecule> in = readMolecules(kData + "/shapes/cdk2.sdf");
        writeMolecules(out("cdk2.sdf"), in);
        std::vector<Molecule> back = readMolecules(out("cdk2.sdf"));
        QCOMPARE(back.size(), in.size());
        int doubles = 0;
        for (size_t r = 0; r < in.size(); ++r) {
            const Molecule& a = in[r];
            const Molecule& b = back[r];
            QCOMPARE(b.name, a.name);
            QCOMPARE(b.atoms.size(), a.atoms.size());
            QCOMPARE(b.bonds.size(), a.bonds.size());
            for (size_t i = 0; i < a.atoms.size(); ++i) {
                QCOMPARE(b.atoms[i].element, a.atoms[i].element);
                QCOMPARE(b.atoms[i].formalCharge, a.atoms[i].formalCharge);
                QVERIFY((b.atoms[i].position - a.atoms[i].position).norm() < 1e-4);
            }
            for (size_t i = 0; i < a.bonds.size(); ++i) {
                QCOMPARE(b.bonds[i].a, a.bonds[i].a);
                QCOMPARE(b.bonds[i].b, a.bonds[i].b);
                QCOMPARE(b.bonds[i].order, a.bonds[i].order);
                doubles += b.bonds[i].order == BondOrder::Double;
            }
            QVERIFY(b.properties == a.properties); // same tags, same values, same order
        }
        QCOMPARE(doubles, 394); // the Kekulé form is kept, not turned into aromatic bonds
    }

    void aromaticBondsWrittenAsFour() {
        // MOL2 "ar" bonds carry no Kekulé form: they are written as SDF bond type 4.
        Molecule m = readMolecule(kData + "/formats/1iep_ligand.mol2");
        writeMolecules(out("arom.sdf"), {m});
        Molecule back = readMolecule(out("arom.sdf"));
        int arom = 0;
        for (const Bond& b : back.bonds)
            arom += b.order == BondOrder::Aromatic;
        QCOMPARE(arom, 24); // "ar" bonds counted in the MOL2 file
        QVERIFY(slurp(out("arom.sdf")).find("  4  0\n") != std::string::npos);
    }

    void sdfChargesAndTags() {
        Molecule m;
        m.name = "ion pair";
        for (int i = 0; i < 2; ++i) {
            Atom a;
            a.element = i == 0 ? 7 : 8;
            a.formalCharge = i == 0 ? 4 : -1; // +4 has no atom-block code: only M  CHG can say it
            a.position = Vec3(i * 1.3, 0.5, -0.25);
            m.atoms.push_back(a);
        }
        m.bonds.push_back(Bond{0, 1, BondOrder::Single, false});
        m.setProperty("score", "-7.25");
        m.setProperty("notes", "two\n\nparagraphs");
        writeMolecules(out("charges.sdf"), {m});
        const std::string text = slurp(out("charges.sdf"));
        QVERIFY(text.find("M  CHG  2   1   4   2  -1\n") != std::string::npos);
        Molecule back = readMolecule(out("charges.sdf"));
        QCOMPARE(back.atoms[0].formalCharge, 4);
        QCOMPARE(back.atoms[1].formalCharge, -1);
        QCOMPARE(*back.property("score"), std::string("-7.25"));
        QCOMPARE(*back.property("notes"), std::string("two\n \nparagraphs"));
        QCOMPARE(back.name, std::string("ion pair"));
    }

    // The V2000 atom and bond blocks are formatted without printf: each line must be the one
    // printf's formats ("%10.4f%10.4f%10.4f %-3s 0%3d  0 ...", "%3d%3d%3d  0") give, for random
    // coordinates, exact ties of the fourth decimal (odd k / 32, as 0.03125: ties go to even),
    // negative zero,
    // values too wide for ten columns, every charge code and bond indices past 99.
    void sdfAtomAndBondLinesAsPrintfWritesThem() {
        std::mt19937_64 random(7);
        std::uniform_real_distribution<double> coordinate(-150.0, 150.0);
        Molecule m;
        m.name = "printf";
        const int elements[] = {0, 1, 6, 7, 8, 9, 15, 16, 17, 35, 53, 26, 30};
        for (int i = 0; i < 900; ++i) {
            Atom a;
            a.element = elements[i % 13];
            a.formalCharge = i % 7 - 3;
            double x = coordinate(random), y = coordinate(random), z = coordinate(random);
            if (i % 5 == 1)
                x = (i - 450) / 32.0, y = -(i % 97) / 32768.0, z = (i * 7) / 64.0;
            if (i == 2)
                x = -0.0, y = -0.00004, z = 123456.78905;
            a.position = Vec3(x, y, z);
            m.atoms.push_back(a);
            if (i)
                m.bonds.push_back(Bond{i - 1, i, BondOrder(1 + i % 3), false});
        }
        std::string text;
        appendSdfRecord(text, m);
        std::istringstream lines(text);
        std::string line;
        for (int k = 0; k < 4; ++k)
            std::getline(lines, line); // title, program, comment, counts
        const auto chargeCode = [](int c) { return c == 0 ? 0 : c > 0 ? 4 - c : 4 - c; };
        char buf[160];
        for (const Atom& a : m.atoms) {
            std::getline(lines, line);
            const std::string symbol = a.element ? std::string(elementSymbol(a.element)) : "*";
            std::snprintf(buf, sizeof buf,
                          "%10.4f%10.4f%10.4f %-3s 0%3d  0  0  0  0  0  0  0  0  0  0",
                          a.position.x(), a.position.y(), a.position.z(), symbol.c_str(),
                          chargeCode(a.formalCharge));
            QCOMPARE(line, std::string(buf));
        }
        for (const Bond& b : m.bonds) {
            std::getline(lines, line);
            std::snprintf(buf, sizeof buf, "%3d%3d%3d  0", b.a + 1, b.b + 1, int(b.order));
            QCOMPARE(line, std::string(buf));
        }
    }

    void v3000PastNineHundredNinetyNineAtoms() {
        Molecule receptor = readMolecule(kData + "/complexes/1iep/receptor.pdbqt");
        QVERIFY(receptor.atoms.size() > 999);
        writeMolecules(out("big.sdf"), {receptor});
        QVERIFY(slurp(out("big.sdf")).find("V3000") != std::string::npos);
        Molecule back = readMolecule(out("big.sdf"));
        QCOMPARE(back.atoms.size(), receptor.atoms.size());
        QCOMPARE(back.bonds.size(), receptor.bonds.size());
        QVERIFY((back.atoms[1234].position - receptor.atoms[1234].position).norm() < 1e-4);
        // A small molecule stays V2000.
        writeMolecules(out("small.sdf"), {readMolecule(kData + "/shapes/ref.mol")});
        QVERIFY(slurp(out("small.sdf")).find("V2000") != std::string::npos);
    }

    void pdbqtRoundTripKeepsTree_data() {
        QTest::addColumn<QString>("complex");
        QTest::newRow("1iep") << "1iep";
        QTest::newRow("1stp") << "1stp";
        QTest::newRow("3ce3") << "3ce3";
    }
    void pdbqtRoundTripKeepsTree() {
        QFETCH(QString, complex);
        const std::string path =
            kData + "/complexes/" + complex.toStdString() + "/ligand_xtal.pdbqt";
        Molecule a = readMolecule(path);
        const std::string written = out(complex.toStdString() + "_lig.pdbqt");
        writeMolecules(written, {a});
        Molecule b = readMolecule(written);
        QCOMPARE(b.atoms.size(), a.atoms.size());
        compareTrees(a, b);
        std::map<std::string, const Atom*> byPos;
        for (const Atom& at : a.atoms)
            byPos[key(at.position)] = &at;
        for (const Atom& at : b.atoms) {
            const Atom* orig = byPos.at(key(at.position));
            QCOMPARE(at.ad4Type, orig->ad4Type);
            QCOMPARE(at.charge, orig->charge);
        }
        QCOMPARE(*b.property("TORSDOF"), *a.property("TORSDOF"));
        // These files are in AutoDock order already, so the text is the same atom for atom.
        QCOMPARE(b.atoms.size(), a.atoms.size());
        for (size_t i = 0; i < a.atoms.size(); ++i)
            QCOMPARE(key(b.atoms[i].position), key(a.atoms[i].position));
    }

    void pdbqtReordersAtomsPerNode() {
        // Shuffle the atoms of 1iep's ligand (tree indices remapped), then write: the file must
        // group atoms per node again, each BRANCH starting with its axis atom, and SMILES IDX
        // must follow the renumbering.
        Molecule a = readMolecule(kData + "/complexes/1iep/ligand_xtal.pdbqt");
        const int n = static_cast<int>(a.atoms.size());
        std::vector<int> perm(n); // new index -> old index
        for (int i = 0; i < n; ++i)
            perm[i] = (i * 17 + 5) % n; // 17 is coprime with 40: a permutation
        std::vector<int> inv(n);
        for (int i = 0; i < n; ++i)
            inv[perm[i]] = i;
        Molecule s = a;
        for (int i = 0; i < n; ++i)
            s.atoms[i] = a.atoms[perm[i]];
        for (Bond& b : s.bonds) {
            b.a = inv[b.a];
            b.b = inv[b.b];
        }
        for (TorsionNode& node : s.torsionTree->nodes) {
            for (int& x : node.atoms)
                x = inv[x];
            if (node.axisChildAtom >= 0) {
                node.axisChildAtom = inv[node.axisChildAtom];
                node.axisParentAtom = inv[node.axisParentAtom];
            }
        }
        const std::string written = out("shuffled.pdbqt");
        writeMolecules(written, {s});
        Molecule b = readMolecule(written);
        compareTrees(a, b);
        // Serials follow file order and every BRANCH's second serial is the next atom.
        std::istringstream text(slurp(written));
        std::string line, pendingChild;
        int expectSerial = 1;
        while (std::getline(text, line)) {
            if (line.rfind("ATOM", 0) == 0 || line.rfind("HETATM", 0) == 0) {
                QCOMPARE(std::stoi(line.substr(6, 5)), expectSerial);
                if (!pendingChild.empty())
                    QCOMPARE(std::stoi(pendingChild), expectSerial);
                pendingChild.clear();
                ++expectSerial;
            } else if (line.rfind("BRANCH", 0) == 0) {
                pendingChild = line.substr(10, 4);
            }
        }
        // SMILES IDX pairs (smiles index, serial): the atom behind each serial is the same.
        auto pairs = [](const Molecule& m) {
            std::istringstream in(*m.property("SMILES IDX"));
            std::map<int, std::string> bySmiles;
            std::map<int, int> serialToIndex;
            for (size_t i = 0; i < m.atoms.size(); ++i)
                serialToIndex[m.atoms[i].serial] = static_cast<int>(i);
            int smi, serial;
            while (in >> smi >> serial)
                bySmiles[smi] = key(m.atoms[serialToIndex.at(serial)].position);
            return bySmiles;
        };
        QVERIFY(pairs(a) == pairs(b));
        QCOMPARE(pairs(b).size(), size_t(37));
    }

    void pdbqtMultiModel() {
        std::vector<Molecule> poses = readMolecules(kData + "/formats/1stp_vina_out.pdbqt");
        writeMolecules(out("poses.pdbqt"), poses);
        const std::string text = slurp(out("poses.pdbqt"));
        QVERIFY(text.rfind("MODEL 1\n", 0) == 0);
        QVERIFY(text.find("ENDMDL\nMODEL 2\n") != std::string::npos);
        std::vector<Molecule> back = readMolecules(out("poses.pdbqt"));
        QCOMPARE(back.size(), size_t(3));
        for (size_t i = 0; i < 3; ++i) {
            QCOMPARE(*back[i].property("VINA RESULT"), *poses[i].property("VINA RESULT"));
            compareTrees(poses[i], back[i]);
        }
        // One molecule: no MODEL lines.
        writeMolecules(out("one.pdbqt"), {poses[0]});
        QVERIFY(slurp(out("one.pdbqt")).find("MODEL") == std::string::npos);
    }

    void pdbqtReceptor() {
        Molecule r = readMolecule(kData + "/complexes/1stp/receptor.pdbqt");
        writeMolecules(out("rec.pdbqt"), {r});
        const std::string text = slurp(out("rec.pdbqt"));
        QVERIFY(text.find("ROOT") == std::string::npos);
        Molecule back = readMolecule(out("rec.pdbqt"));
        QCOMPARE(back.atoms.size(), r.atoms.size());
        QCOMPARE(back.residues.size(), r.residues.size());
        QCOMPARE(back.bonds.size(), r.bonds.size());
        for (size_t i = 0; i < r.atoms.size(); ++i) {
            QCOMPARE(back.atoms[i].ad4Type, r.atoms[i].ad4Type);
            QCOMPARE(back.atoms[i].charge, r.atoms[i].charge);
            QCOMPARE(back.atoms[i].name, r.atoms[i].name);
        }
        QCOMPARE(back.residues[5].name, r.residues[5].name);
        QCOMPARE(back.residues[5].number, r.residues[5].number);
    }

    void rigidLigandFromSdf() {
        // An SDF molecule with no tree is written as a rigid ligand with fallback AD4 types.
        Molecule m = readMolecule(kData + "/shapes/ref.mol");
        writeMolecules(out("rigid.pdbqt"), {m});
        Molecule back = readMolecule(out("rigid.pdbqt"));
        QCOMPARE(back.torsionTree->torsionCount(), 0);
        QCOMPARE(back.atoms.size(), m.atoms.size());
        for (size_t i = 0; i < m.atoms.size(); ++i)
            QCOMPARE(back.atoms[i].element, m.atoms[i].element);
        // A MOL2 ligand has one substructure (residue UNL1): still a rigid ligand.
        Molecule mol2 = readMolecule(kData + "/formats/1iep_ligand.mol2");
        QCOMPARE(mol2.residues.size(), size_t(1));
        writeMolecules(out("rigid2.pdbqt"), {mol2});
        QVERIFY(slurp(out("rigid2.pdbqt")).find("ROOT\n") != std::string::npos);
        Molecule back2 = readMolecule(out("rigid2.pdbqt"));
        QCOMPARE(back2.atoms.size(), size_t(69));
        int hd = 0;
        for (const Atom& a : back2.atoms)
            hd += a.ad4Type == "HD";
        QCOMPARE(hd, 3); // fallback typing: the three N-H hydrogens of imatinib are donors
    }

    void pdbRoundTrip() {
        Molecule r = readMolecule(kData + "/complexes/1iep/receptorH.pdb");
        writeMolecules(out("rec.pdb"), {r});
        Molecule back = readMolecule(out("rec.pdb"));
        QCOMPARE(back.atoms.size(), r.atoms.size());
        QCOMPARE(back.residues.size(), r.residues.size());
        QCOMPARE(back.bonds.size(), r.bonds.size());
        for (size_t i = 0; i < r.atoms.size(); ++i) {
            QCOMPARE(back.atoms[i].element, r.atoms[i].element);
            QCOMPARE(back.atoms[i].name, r.atoms[i].name);
            QVERIFY((back.atoms[i].position - r.atoms[i].position).norm() < 1e-3);
        }
        // A residue-less molecule gets HETATM and CONECT records and keeps its bonds.
        Molecule lig = readMolecule(kData + "/shapes/ref.mol");
        writeMolecules(out("lig.pdb"), {lig});
        QVERIFY(slurp(out("lig.pdb")).find("CONECT") != std::string::npos);
        Molecule ligBack = readMolecule(out("lig.pdb"));
        QCOMPARE(ligBack.bonds.size(), lig.bonds.size());
    }

    void atomicWrite() {
        const std::string target = out("keep.sdf");
        {
            std::ofstream f(target);
            f << "old content\n";
        }
        Molecule m = readMolecule(kData + "/shapes/ref.mol");
        {
            auto w = MoleculeWriter::create(target);
            w->write(m);
            // No commit: as after an exception or a cancel.
        }
        QCOMPARE(slurp(target), std::string("old content\n"));
        QDir d(dir_.path());
        for (const QString& f : d.entryList(QDir::Files | QDir::Hidden))
            QVERIFY2(!f.contains(".pw-"), qPrintable("temporary file left: " + f)); // TempFiles.h
        auto w = MoleculeWriter::create(target);
        w->write(m);
        w->commit();
        QCOMPARE(readMolecule(target).atoms.size(), m.atoms.size());
    }

    void writerErrors() {
        try {
            MoleculeWriter::create(out("no/such/dir/x.sdf"));
            QFAIL("expected InputError");
        } catch (const InputError& e) {
            QVERIFY(std::string(e.what()).find("no/such/dir") != std::string::npos);
            QVERIFY(std::string(e.what()).find("does not exist") != std::string::npos);
        }
        try {
            MoleculeWriter::create(out("x.xyz"));
            QFAIL("expected InputError");
        } catch (const InputError& e) {
            QVERIFY(std::string(e.what()).find("expected .sdf, .pdbqt or .pdb") !=
                    std::string::npos);
        }
    }
};

QTEST_GUILESS_MAIN(TestWriters)
#include "test_writers.moc"
