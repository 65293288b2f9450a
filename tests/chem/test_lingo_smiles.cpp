// The RDKit step of LINGO: canonical isomeric SMILES, so that different spellings of a molecule
// get the same LINGOs; bad lines are reported by file and line and skipped.
#include "chem/LingoSmiles.h"
#include "core/InputError.h"
#include "lingo/LingoProfile.h"

#include <QtTest>

#include <fstream>

using namespace pw;

class TestLingoSmiles : public QObject {
    Q_OBJECT
private slots:
    void canonicalFormsAgree() {
        QCOMPARE(QString::fromStdString(canonicalSmiles("C1=CC=CC=C1")), QString("c1ccccc1"));
        QCOMPARE(canonicalSmiles("c1ccccc1C"), canonicalSmiles("Cc1ccccc1"));
        QCOMPARE(canonicalSmiles("OCC"), canonicalSmiles("CCO"));
        // Isomeric: stereo is kept, so enantiomers differ.
        QVERIFY(canonicalSmiles("C[C@H](N)O") != canonicalSmiles("C[C@@H](N)O"));
    }

    void handWorkedPairsFromKekuleInput() {
        auto t = [](const char* a, const char* b) {
            return lingo::tanimoto(lingo::makeProfile(canonicalSmiles(a)),
                                   lingo::makeProfile(canonicalSmiles(b)));
        };
        QCOMPARE(t("C1=CC=CC=C1", "CC1=CC=CC=C1"), 5.0f / 6.0f);  // 0.833333
        QCOMPARE(t("OC1=CC=CC=C1", "NC1=CC=CC=C1"), 5.0f / 7.0f); // 0.714286
    }

    void badLinesAreSkippedWithTheirLine() {
        const QString path = QDir::temp().filePath("pw_lingo_bad.smi");
        {
            std::ofstream f(path.toStdString());
            f << "c1ccccc1 benzene\n\n# comment\nC1CC( broken\nCc1ccccc1\tmethyl benzene\n"
                 "c1cccc1 bad aromatic\n";
        }
        const LingoMolecules m = readLingoSmiles(path.toStdString(), 2);
        QCOMPARE(int(m.canonical.size()), 2);
        QCOMPARE(QString::fromStdString(m.names[1]), QString("methyl benzene"));
        QCOMPARE(m.lines[1], 5L);
        QCOMPARE(int(m.skipped.size()), 2);
        QVERIFY2(QString::fromStdString(m.skipped[0]).contains("pw_lingo_bad.smi:4:"),
                 m.skipped[0].c_str());
        QVERIFY(QString::fromStdString(m.skipped[0]).contains("C1CC("));
        QVERIFY(QString::fromStdString(m.skipped[1]).contains("pw_lingo_bad.smi:6:"));
        QFile::remove(path);
    }

    void missingFileIsOneClearError() {
        try {
            readLingoSmiles("/nonexistent/x.smi");
            QFAIL("expected InputError");
        } catch (const InputError& e) {
            QVERIFY(QString(e.what()).contains("/nonexistent/x.smi"));
            QVERIFY(QString(e.what()).contains("cannot open"));
        }
    }
};

QTEST_GUILESS_MAIN(TestLingoSmiles)
#include "test_lingo_smiles.moc"
