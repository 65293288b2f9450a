// Interactions of the 1stp crystal pose (biotin in streptavidin): the hydrogen-bond network the
// literature describes (Weber et al., Science 243, 85 (1989); Freitag et al., Protein Sci. 6,
// 1157 (1997)): N23, S27, Y43 to the ureido oxygen, S45 and D128 to the ureido NHs, T90 to the
// sulfur, N49 and S88 to the carboxylate; and the same through `hits import --receptor`.
#include "chem/MoleculeReader.h"
#include "chem/MoleculeWriter.h"
#include "hits/PoseInteractions.h"

#include <QTemporaryDir>
#include <QtTest>

#include <set>

#include "cli/CliRun.h"

using namespace pw;
using namespace pw::hits;
using namespace pw::test;

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
