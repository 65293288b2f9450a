// The whole path from files: PDBQT read by pw::readMolecule, then scored like Vina 1.2.3
// --score_only; every pose of tests/data/reference/<id>.json must match Vina's printout.
#include "chem/MoleculeReader.h"
#include "score/LigandScorer.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

using namespace pw;

class TestVinaReference : public QObject {
    Q_OBJECT

private slots:
    void scoreOnlyMatchesVina_data() {
        QTest::addColumn<QString>("id");
        QTest::newRow("1iep") << "1iep";
        QTest::newRow("1stp") << "1stp";
        QTest::newRow("3ce3") << "3ce3";
    }
    void scoreOnlyMatchesVina() {
        QFETCH(QString, id);
        const std::string dir =
            std::string(POSEWRIGHT_TEST_DATA) + "/complexes/" + id.toStdString() + "/";
        const Molecule receptor = readMolecule(dir + "receptor.pdbqt");
        const GridDims dims = gridDimsFor(readBoxConfig(dir + "box.txt"));
        const ReceptorModel model(receptor, dims);
        const ScoringFunction sf;
        QFile f(QString(POSEWRIGHT_TEST_DATA) + "/reference/" + id + ".json");
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject poses = QJsonDocument::fromJson(f.readAll()).object()["poses"].toObject();
        QCOMPARE(poses.size(), 11);
        for (const QString& name : poses.keys()) {
            const QJsonObject p = poses[name].toObject();
            const Molecule lig = readMolecule(dir + p["file"].toString().toStdString());
            QVERIFY(lig.torsionTree.has_value());
            const LigandScorer scorer(lig, sf, model);
            std::vector<Vec3> x;
            for (const Atom& a : lig.atoms)
                x.push_back(a.position);
            const VinaScore s = scorer.finalScore(x);
            const QJsonObject r = p["score_only"].toObject();
            const QString what = id + " " + name + ": ours %1, Vina %2";
            for (const auto& [ours, key] :
                 {std::pair{s.affinity, "affinity"}, std::pair{s.inter, "inter"},
                  std::pair{s.intra, "intra"}})
                QVERIFY2(std::abs(ours - r[key].toDouble()) <= 0.0015,
                         qPrintable(QString(key) + " " +
                                    what.arg(ours, 0, 'f', 4).arg(r[key].toDouble())));
        }
    }
};

QTEST_GUILESS_MAIN(TestVinaReference)
#include "test_vina_reference.moc"
