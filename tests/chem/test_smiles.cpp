// SMILES files through RDKit: skipping rules, bad lines reported by line, explicit hydrogens,
// reproducible 3D coordinates (ETKDG with a fixed seed + MMFF), streaming a real 300-line file.
#include "chem/SmilesReader.h"
#include "core/InputError.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace pw;

namespace {

std::string writeFile(const QTemporaryDir& dir, const char* name, const std::string& text) {
    std::string path = dir.filePath(name).toStdString();
    std::ofstream(path) << text;
    return path;
}

double distance(const Molecule& m, int a, int b) {
    return (m.atoms[a].position - m.atoms[b].position).norm();
}

int countElement(const Molecule& m, int element) {
    int n = 0;
    for (const Atom& a : m.atoms)
        n += a.element == element;
    return n;
}

} // namespace

class TestSmiles : public QObject {
    Q_OBJECT
private slots:
    void skipsCommentsAndReportsBadLines() {
        QTemporaryDir dir;
        std::string path = writeFile(dir, "hits.smi",
                                     "# header comment\n"
                                     "\n"
                                     "CCO ethanol\n"
                                     "C1CC not_closed\n"
                                     "c1ccccc1\tbenzene ring\n"
                                     "   \n"
                                     "C(C)(C)(C)(C)C pentavalent\n"
                                     "O=C=O\n");
        std::vector<std::string> warnings;
        ReadOptions options;
        options.warn = [&](const std::string& w) { warnings.push_back(w); };
        options.embedSmiles = false;
        auto reader = openSmilesReader(path, options);
        std::vector<Molecule> got;
        Molecule m;
        while (reader->next(m))
            got.push_back(m);
        QCOMPARE(static_cast<int>(got.size()), 3);
        QCOMPARE(reader->recordsRead(), 3);
        QCOMPARE(reader->recordsSkipped(), 2);
        QCOMPARE(got[0].name, std::string("ethanol"));
        QCOMPARE(got[1].name, std::string("benzene ring")); // the rest of the line is the name
        QCOMPARE(got[2].name, std::string("hits_8"));       // unnamed: file stem and line
        QCOMPARE(got[0].sourceRecord, 3L);
        QCOMPARE(*got[0].property("SMILES"), std::string("CCO"));
        QCOMPARE(static_cast<int>(warnings.size()), 2);
        QVERIFY2(warnings[0].rfind(path + ":4: cannot parse SMILES 'C1CC'", 0) == 0,
                 warnings[0].c_str());
        QVERIFY2(
            warnings[1].rfind(path + ":7: SMILES 'C(C)(C)(C)(C)C' is not a valid molecule", 0) == 0,
            warnings[1].c_str());
    }

    void explicitHydrogensAromaticityAndCharges() {
        Molecule ethanol = moleculeFromSmiles("CCO", "ethanol", false);
        QCOMPARE(static_cast<int>(ethanol.atoms.size()), 9);
        QCOMPARE(countElement(ethanol, 1), 6);
        QCOMPARE(ethanol.heavyAtomCount(), 3);
        Molecule benzene = moleculeFromSmiles("c1ccccc1", "benzene", false);
        int aromatic = 0, doubles = 0;
        for (const Atom& a : benzene.atoms)
            aromatic += a.aromatic;
        for (const Bond& b : benzene.bonds)
            doubles += b.order == BondOrder::Double;
        QCOMPARE(aromatic, 6);
        QCOMPARE(doubles, 3); // Kekulé form, aromatic flags on atoms
        Molecule ammonium = moleculeFromSmiles("C[NH3+]", "methylammonium", false);
        int n = -1;
        for (size_t i = 0; i < ammonium.atoms.size(); ++i)
            if (ammonium.atoms[i].element == 7)
                n = static_cast<int>(i);
        QCOMPARE(ammonium.atoms[n].formalCharge, 1);
        QCOMPARE(ammonium.neighbours()[n].size(), size_t(4));
    }

    void embedsReproducibleThreeDimensionalCoordinates() {
        Molecule a = moleculeFromSmiles("CC(=O)Nc1ccc(O)cc1", "paracetamol", true);
        Molecule b = moleculeFromSmiles("CC(=O)Nc1ccc(O)cc1", "paracetamol", true);
        QCOMPARE(a.atoms.size(), b.atoms.size());
        double maxDiff = 0;
        for (size_t i = 0; i < a.atoms.size(); ++i)
            maxDiff = std::max(maxDiff, (a.atoms[i].position - b.atoms[i].position).norm());
        QVERIFY(maxDiff < 1e-6); // fixed seed
        // MMFF geometry: every bond has a chemically sensible length, and it is really 3D.
        for (const Bond& bond : a.bonds) {
            double d = distance(a, bond.a, bond.b);
            bool withH = a.atoms[bond.a].element == 1 || a.atoms[bond.b].element == 1;
            QVERIFY2(withH ? (d > 0.95 && d < 1.15) : (d > 1.18 && d < 1.56),
                     qPrintable(QString("bond %1-%2 is %3 A").arg(bond.a).arg(bond.b).arg(d)));
        }
        auto [lo, hi] = a.boundingBox();
        QVERIFY((hi - lo).minCoeff() > 0.5);
    }

    void badSmilesNamesWhereItCameFrom() {
        try {
            moleculeFromSmiles("c1cccc1", "bad", false, "query box");
            QFAIL("a non-kekulizable ring was accepted");
        } catch (const InputError& e) {
            QVERIFY2(std::string(e.what()).rfind("query box: SMILES 'c1cccc1' is not a valid", 0) ==
                         0,
                     e.what());
        }
        QVERIFY_THROWS_EXCEPTION(InputError, openSmilesReader("/nonexistent/x.smi", {}));
    }

    void maxAtomsRefusesLargeRecords() {
        QTemporaryDir dir;
        std::string path = writeFile(dir, "big.smi", "CCCCCCCCCCCCCCCCCCCC eicosane\nCC ethane\n");
        ReadOptions options;
        options.embedSmiles = false;
        options.maxAtoms = 20;
        std::string warning;
        options.warn = [&](const std::string& w) { warning = w; };
        auto reader = openSmilesReader(path, options);
        Molecule m;
        QVERIFY(reader->next(m));
        QCOMPARE(m.name, std::string("ethane"));
        QVERIFY2(warning.find(":1: molecule 'eicosane' has 62 atoms") != std::string::npos,
                 warning.c_str());
    }

    void largeMoleculesAreRefusedBeforeEmbedding() {
        // A 40-residue poly-uridine phosphate chain (the shape of Open Babel's 102Uridine.smi,
        // which kept `info` busy for minutes inside one embedding attempt): refused from its
        // graph at once, the next line still read. Its SMILES is cut in the message.
        std::string chain = "OCC1OC(n2ccc(=O)[nH]c2=O)C(O)C1O";
        for (int k = 0; k < 40; ++k)
            chain = "OP(=O)(O)OCC1OC(n2ccc(=O)[nH]c2=O)C(O)C1O" + chain.substr(1);
        QTemporaryDir dir;
        std::string path = writeFile(dir, "rna.smi", chain + " polyU\nCCO ethanol\n");
        std::vector<std::string> warnings;
        ReadOptions options;
        options.warn = [&](const std::string& w) { warnings.push_back(w); };
        auto reader = openSmilesReader(path, options);
        Molecule m;
        QVERIFY(reader->next(m));
        QCOMPARE(m.name, std::string("ethanol"));
        QCOMPARE(warnings.size(), size_t(1));
        QVERIFY2(warnings[0].find(":1: SMILES 'OP(=O)(O)OCC1OC(") != std::string::npos &&
                     warnings[0].find("characters) has ") != std::string::npos &&
                     warnings[0].find("torsions; 3D coordinates are generated for at most 64") !=
                         std::string::npos,
                 warnings[0].c_str());
        // The heavy-atom bound applies too, and both are options.
        warnings.clear();
        options.maxEmbedTorsions = 1000;
        options.maxEmbedHeavyAtoms = 100;
        reader = openSmilesReader(path, options);
        QVERIFY(reader->next(m));
        QCOMPARE(warnings.size(), size_t(1));
        QVERIFY2(warnings[0].find("heavy atoms; 3D coordinates are generated for at most 100") !=
                     std::string::npos,
                 warnings[0].c_str());
    }

    void openBabelStyleSmilesAreRepaired() {
        // Open Babel reads lower-case chains as conjugated ("cccc" is butadiene) and a neutral
        // four-bonded N as N+; RDKit refuses both. Each is read with one warning; a SMILES
        // that cannot be mended ("C1CC": an unclosed ring) is still refused.
        QTemporaryDir dir;
        std::string path = writeFile(dir, "ob.smi",
                                     "cccc butadiene\nC[N](C)(C)C quat\nC1CC bad\nCCO ethanol\n");
        std::vector<std::string> warnings;
        ReadOptions options;
        options.embedSmiles = false;
        options.warn = [&](const std::string& w) { warnings.push_back(w); };
        std::vector<Molecule> mols = readMolecules(path, options);
        QCOMPARE(mols.size(), size_t(3));
        QCOMPARE(warnings.size(), size_t(3));
        int doubles = 0;
        for (const Bond& b : mols[0].bonds)
            doubles += b.order == BondOrder::Double;
        QCOMPARE(doubles, 2);
        QCOMPARE(mols[0].atoms.size(), size_t(10)); // C4H6
        QVERIFY2(warnings[0].find(":1: molecule 'butadiene' was repaired") != std::string::npos,
                 warnings[0].c_str());
        QCOMPARE(mols[1].atoms[1].formalCharge, 1);
        QCOMPARE(mols[1].atoms.size(), size_t(17)); // C4H12N+
        QVERIFY2(warnings[2].find(":3: SMILES 'C1CC' is not a valid molecule") !=
                     std::string::npos ||
                     warnings[2].find(":3: cannot parse SMILES 'C1CC'") != std::string::npos,
                 warnings[2].c_str());
        QCOMPARE(mols[2].name, std::string("ethanol"));
    }

    void streamsTheNciFile() {
        ReadOptions options;
        options.embedSmiles = true;
        int warnings = 0;
        options.warn = [&](const std::string&) { ++warnings; };
        auto reader = openSmilesReader(POSEWRIGHT_TEST_DATA "/smiles/nci_first_300.smi", options);
        Molecule m;
        int n = 0;
        while (n < 40 && reader->next(m)) {
            ++n;
            QVERIFY(!m.atoms.empty());
            QCOMPARE(m.name, std::to_string(m.sourceRecord)); // names are the NCI numbers here
            auto [lo, hi] = m.boundingBox();
            QVERIFY((hi - lo).norm() > 1.0);
        }
        QCOMPARE(n, 40);
        QCOMPARE(warnings, 0);
    }
};

QTEST_GUILESS_MAIN(TestSmiles)
#include "test_smiles.moc"
