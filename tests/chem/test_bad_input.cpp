// Bad input for the molecule readers: every case must end in one clear InputError message of the
// form "FILE:LINE: what was expected" (or a warning and a skip in multi-record files), never a
// crash or a half-read molecule.
#include "chem/MoleculeReader.h"
#include "core/InputError.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <functional>
#include <sstream>

using namespace pw;

namespace {

const std::string kData = POSEWRIGHT_TEST_DATA;

// The message of the InputError that f throws; fails the test when it throws nothing.
std::string errorOf(const std::function<void()>& f) {
    try {
        f();
    } catch (const InputError& e) {
        return e.what();
    }
    return "<no InputError thrown>";
}

std::string sdfAtom(const char* symbol, const char* x = "0.0000") {
    char buf[128];
    std::snprintf(buf, sizeof buf, "%10s    0.0000    0.0000 %-3s 0  0  0  0  0  0\n", x, symbol);
    return buf;
}

std::string sdfRecord(const std::string& title, const char* symbol2 = "O") {
    return title + "\n  test\n\n  2  1  0  0  0  0  0  0  0  0999 V2000\n" + sdfAtom("C") +
           sdfAtom(symbol2, "1.2000") + "  1  2  1  0\nM  END\n$$$$\n";
}

} // namespace

class TestBadInput : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;
    std::string write(const std::string& name, const std::string& content) {
        std::string path = dir_.path().toStdString() + "/" + name;
        std::ofstream out(path, std::ios::binary);
        out << content;
        return path;
    }

private slots:
    void missingFile() {
        const std::string path = dir_.path().toStdString() + "/missing.sdf";
        QCOMPARE(errorOf([&] { readMolecule(path); }),
                 path + ": file not found; expected an existing molecule file");
    }

    void directoryAndUnknownExtension() {
        QCOMPARE(errorOf([&] { readMolecule(dir_.path().toStdString()); }),
                 dir_.path().toStdString() + ": is a directory; expected a molecule file");
        const std::string xyz = write("water.xyz", "3\n\nO 0 0 0\n");
        QCOMPARE(errorOf([&] { readMolecule(xyz); }),
                 xyz + ": unknown file extension '.xyz'; expected .pdb, .pdbqt, .sdf, .mol, "
                       ".mol2 or .smi");
    }

    void emptyFile() {
        const std::string sdf = write("empty.sdf", "");
        QCOMPARE(errorOf([&] { readMolecule(sdf); }),
                 sdf + ": file is empty; expected an SDF file");
        const std::string pdb = write("blank.pdb", "\n\n   \n");
        QCOMPARE(errorOf([&] { readMolecule(pdb); }),
                 pdb + ": file contains only blank lines; expected a plain-text PDB file");
    }

    void truncatedSdfRecord() {
        // The counts line says 20 atoms; only 5 atom lines follow before "$$$$" (line 10).
        std::string text = "trunc\n  test\n\n 20 19  0  0  0  0  0  0  0  0999 V2000\n";
        for (int i = 0; i < 5; ++i)
            text += sdfAtom("C");
        text += "$$$$\n";
        const std::string path = write("trunc.sdf", text);
        const std::string expected =
            path + ":10: expected 20 atom lines (counts line 4), found only 5 before '$$$$'";
        const std::string e = errorOf([&] { readMolecules(path); });
        QVERIFY2(e.find(expected) != std::string::npos, e.c_str());
        QVERIFY2(e.rfind(path + ": no molecule could be read (1 bad records skipped", 0) == 0,
                 e.c_str());

        // Truncated at the end of the file, after a good record.
        std::string cut = sdfRecord("good") +
                          "cut\n  test\n\n  3  2  0  0  0  0  0  0  0  0999 "
                          "V2000\n" +
                          sdfAtom("C");
        const std::string path2 = write("cut.sdf", cut);
        std::vector<std::string> warnings;
        ReadOptions o;
        o.warn = [&](const std::string& w) { warnings.push_back(w); };
        std::vector<Molecule> mols = readMolecules(path2, o);
        QCOMPARE(mols.size(), size_t(1));
        QCOMPARE(warnings.size(), size_t(1));
        QVERIFY2(warnings[0].rfind(path2 + ":14: expected 3 atom lines (counts line 13), found "
                                           "only 1 before the end of the file",
                                   0) == 0,
                 warnings[0].c_str());
    }

    void badRecordSkippedAndReadingContinues() {
        // Record 2 has an unknown element (line 15, its second atom); records 1 and 3 are read.
        const std::string path =
            write("mixed.sdf", sdfRecord("one") + sdfRecord("two", "Xx") + sdfRecord("three"));
        std::vector<std::string> warnings;
        ReadOptions o;
        o.warn = [&](const std::string& w) { warnings.push_back(w); };
        auto reader = MoleculeReader::open(path, o);
        Molecule m;
        QVERIFY(reader->next(m));
        QCOMPARE(m.name, std::string("one"));
        QVERIFY(reader->next(m));
        QCOMPARE(m.name, std::string("three"));
        QCOMPARE(m.sourceRecord, 3L);
        QVERIFY(!reader->next(m));
        QCOMPARE(reader->recordsRead(), 2);
        QCOMPARE(reader->recordsSkipped(), 1);
        QCOMPARE(warnings.size(), size_t(1));
        QCOMPARE(warnings[0], path + ":15: atom 2: unknown element symbol 'Xx'; expected a "
                                     "chemical element (C, N, O, Cl, ...) (record skipped)");
    }

    void binaryFiles() {
        std::string nul = "some text\n";
        nul += std::string("\0\0\x01\x02", 4);
        const std::string a = write("nul.sdf", nul);
        QCOMPARE(errorOf([&] { readMolecule(a); }),
                 a + ":2: binary file (NUL byte at offset 10); expected a plain-text SDF file");
        std::string noise;
        for (int i = 0; i < 4000; ++i)
            noise += static_cast<char>(1 + (i * 7) % 30); // control bytes, no NUL
        const std::string b = write("noise.pdbqt", noise);
        const std::string eb = errorOf([&] { readMolecule(b); });
        QVERIFY2(eb.rfind(b + ": binary file (", 0) == 0 &&
                     eb.find("expected a plain-text PDBQT file") != std::string::npos,
                 eb.c_str());
        const std::string gz = write("x.sdf", std::string("\x1f\x8b\x08\x00", 4) + "abc");
        QCOMPARE(errorOf([&] { readMolecule(gz); }),
                 gz + ": file is gzip-compressed; decompress it first; expected a plain-text SDF "
                      "file");
    }

    void contentDoesNotMatchExtension() {
        // A real PDB named .sdf: line 4 is an ATOM record, not a counts line.
        std::ifstream pdb(kData + "/complexes/1stp/ligand_xtal.pdb");
        std::stringstream s;
        s << pdb.rdbuf();
        const std::string asSdf = write("ligand.sdf", s.str());
        const std::string e = errorOf([&] { readMolecule(asSdf); });
        QVERIFY2(e.rfind(asSdf + ":4: expected an SDF counts line (atom and bond counts, then "
                                 "V2000 or V3000), found 'HETATM  906  C10 BTN",
                         0) == 0,
                 e.c_str());
        // A real SDF named .pdb and .mol2.
        std::ifstream sdf(kData + "/shapes/ref.mol");
        std::stringstream t;
        t << sdf.rdbuf();
        const std::string asPdb = write("ref.pdb", t.str());
        QCOMPARE(errorOf([&] { readMolecule(asPdb); }),
                 asPdb + ":1: expected a PDB record (ATOM, HETATM, REMARK, HEADER, ...), found "
                         "'ZINC01649340_pca'; is this really a PDB file?");
        const std::string asMol2 = write("ref.mol2", t.str());
        QCOMPARE(errorOf([&] { readMolecule(asMol2); }),
                 asMol2 + ":1: expected a MOL2 section line (@<TRIPOS>MOLECULE), found "
                          "'ZINC01649340_pca'; is this really a MOL2 file?");
        // A SMILES file named .sdf has no counts line.
        const std::string smiAsSdf = write("hits.sdf", "CCO ethanol\nc1ccccc1 benzene\n");
        QCOMPARE(errorOf([&] { readMolecule(smiAsSdf); }),
                 smiAsSdf + ":2: expected an SDF counts line at line 4, but the file has only 2 "
                            "lines");
    }

    void unknownElements() {
        const std::string pdb =
            write("xx.pdb", "ATOM      1  C1  LIG A   1       0.000   0.000   0.000  1.00  0.00"
                            "          Qq\n");
        QCOMPARE(errorOf([&] { readMolecule(pdb); }),
                 pdb + ":1: unknown element symbol 'Qq' (columns 77-78, or the atom name in "
                       "columns 13-16); expected a chemical element");
        const std::string pdbqt =
            write("xx.pdbqt", "ATOM      1  C1  LIG A   1       0.000   0.000   0.000  1.00  0.00"
                              "     0.000 Qq\n");
        QCOMPARE(errorOf([&] { readMolecule(pdbqt); }),
                 pdbqt + ":1: unknown AutoDock atom type 'Qq' in columns 78-79; expected C, A, "
                         "N, NA, OA, S, SA, HD, ... or an element symbol");
        const std::string mol2 =
            write("xx.mol2", "@<TRIPOS>MOLECULE\nm\n1 0\nSMALL\nNO_CHARGES\n\n@<TRIPOS>ATOM\n"
                             "1 X1 0 0 0 Hal\n");
        const std::string e = errorOf([&] { readMolecules(mol2); });
        QVERIFY2(e.find(mol2 + ":8: atom 1: unknown SYBYL atom type 'Hal'") != std::string::npos,
                 e.c_str());
    }

    void nonFiniteCoordinates() {
        const std::string sdf =
            write("nan.sdf", sdfRecord("n").replace(sdfRecord("n").find("    0.0000    0.0000"), 10,
                                                    "       nan"));
        std::string e = errorOf([&] { readMolecules(sdf); });
        QVERIFY2(e.find(sdf + ":5: atom 1: coordinates must be finite numbers") !=
                     std::string::npos,
                 e.c_str());
        const std::string pdb =
            write("inf.pdb", "ATOM      1  N   ALA A   1       0.000     inf   0.000  1.00  0.00"
                             "           N\n");
        QCOMPARE(errorOf([&] { readMolecule(pdb); }),
                 pdb + ":1: coordinates must be finite numbers, found '   0.000     inf   "
                       "0.000'");
        const std::string mol2 =
            write("nan.mol2", "@<TRIPOS>MOLECULE\nm\n1 0\nSMALL\nNO_CHARGES\n\n@<TRIPOS>ATOM\n"
                              "1 C1 NaN 0 0 C.3\n");
        e = errorOf([&] { readMolecules(mol2); });
        QVERIFY2(e.find(mol2 + ":8: atom 1: coordinates must be finite numbers") !=
                     std::string::npos,
                 e.c_str());
    }

    void bondedTwice() {
        // A second bond between the same two atoms (found by fuzz_ligand_prep in a MOL2 record;
        // RDKit's "bond already exists" then escaped preparation) is refused at its line.
        const std::string mol2 =
            write("twice.mol2", "@<TRIPOS>MOLECULE\nm\n2 2\nSMALL\nNO_CHARGES\n\n@<TRIPOS>ATOM\n"
                                "1 C1 0 0 0 C.3\n2 O1 1.4 0 0 O.3\n@<TRIPOS>BOND\n1 1 2 1\n"
                                "2 2 1 ar\n");
        std::string e = errorOf([&] { readMolecules(mol2); });
        QVERIFY2(e.find(mol2 + ":12: bond 2: atoms 1 and 2 are already bonded") !=
                     std::string::npos,
                 e.c_str());
        const std::string v2000 =
            write("twice.sdf", "t\n  test\n\n  2  2  0  0  0  0  0  0  0  0999 V2000\n" +
                                   sdfAtom("C") + sdfAtom("O", "1.2000") +
                                   "  1  2  1  0\n  2  1  2  0\nM  END\n$$$$\n");
        e = errorOf([&] { readMolecules(v2000); });
        QVERIFY2(e.find(v2000 + ":8: bond 2: atoms 1 and 2 are already bonded") !=
                     std::string::npos,
                 e.c_str());
        const std::string v3000 = write(
            "twice3.sdf", "t\n  test\n\n  0  0  0     0  0            999 V3000\n"
                          "M  V30 BEGIN CTAB\nM  V30 COUNTS 2 2 0 0 0\nM  V30 BEGIN ATOM\n"
                          "M  V30 1 C 0 0 0 0\nM  V30 2 O 1.2 0 0 0\nM  V30 END ATOM\n"
                          "M  V30 BEGIN BOND\nM  V30 1 1 1 2\nM  V30 2 1 2 1\nM  V30 END BOND\n"
                          "M  V30 END CTAB\nM  END\n$$$$\n");
        e = errorOf([&] { readMolecules(v3000); });
        QVERIFY2(e.find(v3000 + ":13: bond 2: atoms 1 and 2 are already bonded") !=
                     std::string::npos,
                 e.c_str());
        // The same pair in two records is no repeat: each record is a molecule of its own.
        const std::string two = write("two.sdf", sdfRecord("a") + sdfRecord("b"));
        QCOMPARE(readMolecules(two).size(), size_t(2));
    }

    void negativeV3000Counts() {
        // A negative V3000 count (found by fuzz_ligand_prep: it sized the atom vector, and
        // std::length_error escaped the reader) is refused at its line.
        const std::string negative = write(
            "negative.sdf", "t\n  test\n\n  0  0  0     0  0            999 V3000\n"
                            "M  V30 BEGIN CTAB\nM  V30 COUNTS -6 28 0 0 1\nM  V30 END CTAB\n"
                            "M  END\n$$$$\n");
        const std::string e = errorOf([&] { readMolecules(negative); });
        QVERIFY2(e.find(negative + ":6: expected 'COUNTS' followed by atom and bond counts (0 or "
                                   "more), found 'COUNTS -6 28 0 0 1'") != std::string::npos,
                 e.c_str());
    }

    void tooManyAtoms() {
        // A 100,000-atom PDB with maxAtoms = 5000 stops at atom 5001 (line 5001).
        std::string pdb;
        pdb.reserve(100000 * 81);
        char buf[96];
        for (int i = 0; i < 100000; ++i) {
            std::snprintf(buf, sizeof buf,
                          "ATOM  %5d  C   UNK A%4d    %8.3f%8.3f%8.3f  1.00  0.00           C\n",
                          i % 100000, (i / 10) % 10000, (i % 50) * 2.0, ((i / 50) % 50) * 2.0,
                          (i / 2500) * 2.0);
            pdb += buf;
        }
        const std::string path = write("huge.pdb", pdb);
        ReadOptions o;
        o.maxAtoms = 5000;
        QCOMPARE(errorOf([&] { readMolecule(path, o); }),
                 path + ":5001: record has 5001 atoms, more than the limit of 5000 "
                        "(ReadOptions::maxAtoms); expected a smaller molecule");
        // In an SDF the oversized record (V3000, 100,000 atoms declared) is skipped at its
        // COUNTS line and the next record is read.
        std::string sdf = "big\n  test\n\n  0  0  0     0  0            999 V3000\n"
                          "M  V30 BEGIN CTAB\nM  V30 COUNTS 100000 0 0 0 0\nM  V30 BEGIN ATOM\n";
        for (int i = 1; i <= 100000; ++i)
            sdf += "M  V30 " + std::to_string(i) + " C 0 0 " + std::to_string(i * 0.01) + " 0\n";
        sdf += "M  V30 END ATOM\nM  V30 END CTAB\nM  END\n$$$$\n" + sdfRecord("small");
        const std::string sdfPath = write("huge.sdf", sdf);
        std::vector<std::string> warnings;
        o.warn = [&](const std::string& w) { warnings.push_back(w); };
        std::vector<Molecule> mols = readMolecules(sdfPath, o);
        QCOMPARE(mols.size(), size_t(1));
        QCOMPARE(mols[0].name, std::string("small"));
        QCOMPARE(warnings.size(), size_t(1));
        QVERIFY2(warnings[0].rfind(sdfPath + ":6: record has 100000 atoms, more than the limit "
                                             "of 5000",
                                   0) == 0,
                 warnings[0].c_str());
    }

    void nonUtf8Names() {
        const std::string path =
            write("latin1.sdf", sdfRecord("caf\xe9") + sdfRecord("caf\xc3\xa9")); // Latin-1, UTF-8
        std::vector<std::string> warnings;
        ReadOptions o;
        o.warn = [&](const std::string& w) { warnings.push_back(w); };
        std::vector<Molecule> mols = readMolecules(path, o);
        QCOMPARE(mols.size(), size_t(1));
        QCOMPARE(mols[0].name, std::string("caf\xc3\xa9"));
        QCOMPARE(warnings.size(), size_t(1));
        QVERIFY2(warnings[0].rfind(path + ":1: molecule name is not valid UTF-8 text (found bytes "
                                          "'caf",
                                   0) == 0,
                 warnings[0].c_str());
        const std::string mol2 =
            write("latin1.mol2", "@<TRIPOS>MOLECULE\nna\xefve\n1 0\nSMALL\nNO_CHARGES\n\n"
                                 "@<TRIPOS>ATOM\n1 C1 0 0 0 C.3\n");
        const std::string e = errorOf([&] { readMolecules(mol2); });
        QVERIFY2(e.find(mol2 + ":2: molecule name is not valid UTF-8 text") != std::string::npos,
                 e.c_str());
    }

    void singleRecordFormatsThrow() {
        // A receptor PDBQT with a broken coordinate field (line 2) is refused as a whole.
        const std::string path = write(
            "rec.pdbqt",
            "ATOM      1  N   ALA A   1       0.000   0.000   0.000  1.00  0.00    -0.300 N \n"
            "ATOM      2  CA  ALA A   1       1.4x0   0.000   0.000  1.00  0.00     0.100 C \n");
        QCOMPARE(errorOf([&] { readMolecule(path); }),
                 path + ":2: expected x, y, z coordinates in columns 31-38, 39-46 and 47-54, "
                        "found '   1.4x0   0.000   0.000'");
        const std::string noAtoms = write("none.pdb", "HEADER    NOTHING HERE\nEND\n");
        QCOMPARE(errorOf([&] { readMolecule(noAtoms); }),
                 noAtoms + ": no ATOM or HETATM records; expected the atoms of a receptor");
    }

    void brokenTorsionTrees() {
        const std::string atom1 =
            "ATOM      1  C1  LIG     1       0.000   0.000   0.000  1.00  0.00     0.000 C \n";
        const std::string atom2 =
            "ATOM      2  C2  LIG     1       1.500   0.000   0.000  1.00  0.00     0.000 C \n";
        const std::string mismatch =
            write("mismatch.pdbqt",
                  "ROOT\n" + atom1 + "ENDROOT\nBRANCH   1   2\n" + atom2 + "ENDBRANCH   1   3\n");
        QCOMPARE(errorOf([&] { readMolecule(mismatch); }),
                 mismatch + ":6: ENDBRANCH 1 3 does not close the open BRANCH 1 2 (line 4)");
        const std::string unclosed =
            write("unclosed.pdbqt", "ROOT\n" + atom1 + "ENDROOT\nBRANCH   1   2\n" + atom2);
        QCOMPARE(errorOf([&] { readMolecule(unclosed); }),
                 unclosed + ":4: BRANCH is never closed; expected ENDBRANCH");
        const std::string wrongAxis =
            write("axis.pdbqt",
                  "ROOT\n" + atom1 + "ENDROOT\nBRANCH   7   2\n" + atom2 + "ENDBRANCH   7   2\n");
        QCOMPARE(errorOf([&] { readMolecule(wrongAxis); }),
                 wrongAxis + ":4: BRANCH 7 2: atom 7 must be an atom of the enclosing ROOT or "
                             "BRANCH");
        const std::string outside = write("outside.pdbqt", "ROOT\n" + atom1 + "ENDROOT\n" + atom2);
        QCOMPARE(errorOf([&] { readMolecule(outside); }),
                 outside + ":4: atom outside ROOT/ENDROOT or BRANCH/ENDBRANCH; expected every atom "
                           "of a ligand inside its torsion tree");
    }

    void badModelInMultiModelPdbqtIsSkipped() {
        // Model 2 of a copy of Vina's output loses its ENDBRANCH lines' partner: it is skipped
        // and models 1 and 3 are read.
        std::ifstream in(kData + "/formats/1stp_vina_out.pdbqt");
        std::stringstream s;
        s << in.rdbuf();
        std::string text = s.str();
        size_t model2 = text.find("MODEL 2");
        size_t branch = text.find("ENDBRANCH   7   8", model2);
        text.replace(branch, 17, "ENDBRANCH   7   9");
        const std::string path = write("vina_bad.pdbqt", text);
        std::vector<std::string> warnings;
        ReadOptions o;
        o.warn = [&](const std::string& w) { warnings.push_back(w); };
        std::vector<Molecule> poses = readMolecules(path, o);
        QCOMPARE(poses.size(), size_t(2));
        QCOMPARE(poses[1].sourceRecord, 3L);
        QCOMPARE(warnings.size(), size_t(1));
        QVERIFY2(warnings[0].find("ENDBRANCH 7 9 does not close the open BRANCH 7 8") !=
                     std::string::npos,
                 warnings[0].c_str());
    }
};

QTEST_GUILESS_MAIN(TestBadInput)
#include "test_bad_input.moc"
