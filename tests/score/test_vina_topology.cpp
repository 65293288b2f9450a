// Vina's view of a ligand: its rotatable-bond count (Nrot), the intramolecular pairs it scores
// (1-4 rule, rigid fragments), and the autobox, against numbers printed by Vina 1.2.3.
#include "PdbqtFixture.h"

#include "score/LigandScorer.h"

#include <QtTest>

#include <algorithm>

using namespace pw;

class TestVinaTopology : public QObject {
    Q_OBJECT

    static int indexOf(const Molecule& m, const std::string& name) {
        for (size_t i = 0; i < m.atoms.size(); ++i)
            if (m.atoms[i].name == name)
                return static_cast<int>(i);
        return -1;
    }

private slots:
    void butanolNrotAndPairs() {
        // Four BRANCH records (TORSDOF 4), but the methyl branch holds one atom (no torsion for
        // Vina) and the hydroxyl counts half: its O has a single heavy neighbour.
        const Molecule lig = pwtest::readPdbqtForTest(pwtest::dataPath("score/butanol.pdbqt"));
        const auto topo = buildVinaLigandTopology(lig);
        QCOMPARE(topo.numTors, 2.5);
        QCOMPARE(static_cast<int>(topo.rotatableBonds.size()), 3);
        // Only C1-O is more than three bonds apart.
        QCOMPARE(static_cast<int>(topo.intraPairs.size()), 1);
        const auto [a, b] = topo.intraPairs[0];
        const int c1 = indexOf(lig, "C1"), o1 = indexOf(lig, "O1");
        QVERIFY((a == c1 && b == o1) || (a == o1 && b == c1));
        QCOMPARE(topo.types[indexOf(lig, "C4")], XsType::C_P);
        QCOMPARE(topo.types[indexOf(lig, "C1")], XsType::C_H);
        QCOMPARE(topo.types[o1], XsType::O_DA);
        QCOMPARE(topo.types[indexOf(lig, "H1")], XsType::None);
        // Vina's parser stores the root, then each branch's axis atom right after its parent.
        QCOMPARE(topo.vinaOrder.front(), indexOf(lig, "C2"));
        QCOMPARE(topo.vinaOrder[1], c1);
    }

    void butanolScoreMatchesVina() {
        const Molecule lig = pwtest::readPdbqtForTest(pwtest::dataPath("score/butanol.pdbqt"));
        const Molecule rec =
            pwtest::readPdbqtForTest(pwtest::dataPath("complexes/1iep/receptor.pdbqt"));
        const GridDims dims =
            gridDimsFor(readBoxConfig(pwtest::dataPath("complexes/1iep/box.txt")));
        const ReceptorModel model(rec, dims);
        const ScoringFunction sf;
        const LigandScorer scorer(lig, sf, model);
        const VinaScore s = scorer.finalScore(pwtest::positions(lig));
        const QJsonObject ref =
            pwtest::readJson(pwtest::dataPath("score/extra_reference.json"))["cases"]
                .toObject()["butanol"]
                .toObject();
        QVERIFY(std::abs(s.affinity - ref["affinity"].toDouble()) < 0.0015);
        QVERIFY(std::abs(s.inter - ref["inter"].toDouble()) < 0.0015);
        QVERIFY(std::abs(s.intra - ref["intra"].toDouble()) < 0.0015);
        QVERIFY(std::abs(s.torsional - ref["torsional"].toDouble()) < 0.0025);
        QVERIFY(s.intra < 0); // the one C1-O pair is scored
    }

    void crystalLigandsNrot_data() {
        QTest::addColumn<QString>("id");
        QTest::addColumn<double>("nrot");
        // Vina's Nrot, from its printout: affinity = inter / (1 + 0.05846 Nrot).
        QTest::newRow("1iep") << "1iep" << 7.0;
        QTest::newRow("1stp") << "1stp" << 5.0;
        QTest::newRow("3ce3") << "3ce3" << 5.0;
    }
    void crystalLigandsNrot() {
        QFETCH(QString, id);
        QFETCH(double, nrot);
        const QJsonObject xtal =
            pwtest::readJson(pwtest::dataPath("reference/" + id.toStdString() + ".json"))["poses"]
                .toObject()["xtal"]
                .toObject()["score_only"]
                .toObject();
        const double fromVina =
            (xtal["inter"].toDouble() / xtal["affinity"].toDouble() - 1.0) / 0.05846;
        QVERIFY(std::abs(fromVina - nrot) < 0.02);
        const Molecule lig = pwtest::readPdbqtForTest(
            pwtest::dataPath("complexes/" + id.toStdString() + "/ligand_xtal.pdbqt"));
        QCOMPARE(buildVinaLigandTopology(lig).numTors, nrot);
    }

    void rigidLigandHasNoInternalPairs() {
        Molecule lig = pwtest::readPdbqtForTest(pwtest::dataPath("score/butanol.pdbqt"));
        lig.torsionTree.reset();
        const auto topo = buildVinaLigandTopology(lig);
        QCOMPARE(topo.numTors, 0.0);
        QVERIFY(topo.intraPairs.empty());
        QVERIFY(topo.rotatableBonds.empty());
    }

    void autoboxMatchesVina() {
        const std::string dir = "complexes/1iep/";
        const Molecule lig = pwtest::readPdbqtForTest(pwtest::dataPath(dir + "poses/pose03.pdbqt"));
        const Molecule rec = pwtest::readPdbqtForTest(pwtest::dataPath(dir + "receptor.pdbqt"));
        const SearchBox box = autoboxVina(lig);
        for (int d = 0; d < 3; ++d)
            QCOMPARE(box.size[d], std::ceil(box.size[d])); // whole Å, like Vina
        const GridDims dims = gridDimsFor(box);
        const ReceptorModel model(rec, dims);
        const ScoringFunction sf;
        const LigandScorer probe(lig, sf, model);
        const ReceptorGrid grid(model, sf, dims, probe.typesNeeded());
        const LigandScorer scorer(lig, sf, model, &grid);
        const VinaScore s = scorer.finalScore(pwtest::positions(lig));
        const QJsonObject ref =
            pwtest::readJson(pwtest::dataPath("score/extra_reference.json"))["cases"]
                .toObject()["1iep_pose03_autobox"]
                .toObject();
        // The grid values depend on where the grid lies: this pins Vina's autobox placement.
        QVERIFY2(std::abs(s.inter - ref["inter"].toDouble()) < 0.0015,
                 qPrintable(QString::number(s.inter, 'f', 4)));
        QVERIFY(std::abs(s.affinity - ref["affinity"].toDouble()) < 0.0015);
    }

    void sminaAutoboxPadsTheBoundingBox() {
        const Molecule lig =
            pwtest::readPdbqtForTest(pwtest::dataPath("complexes/1iep/ligand_xtal.pdbqt"));
        const auto [lo, hi] = lig.boundingBox();
        const SearchBox box = autoboxSmina(lig, 4.0);
        for (int d = 0; d < 3; ++d) {
            QVERIFY(std::abs(box.size[d] - (hi[d] - lo[d] + 8.0)) < 1e-12);
            QVERIFY(std::abs(box.center[d] - 0.5 * (lo[d] + hi[d])) < 1e-12);
        }
    }
};

QTEST_GUILESS_MAIN(TestVinaTopology)
#include "test_vina_topology.moc"
