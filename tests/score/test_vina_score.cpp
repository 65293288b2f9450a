// Vina 1.2.3 --score_only numbers for the crystal and ten perturbed poses of three complexes,
// exact (receptor atoms) and on grids, against tests/data/reference and tests/data/score.
#include "PdbqtFixture.h"

#include "score/LigandScorer.h"

#include <QJsonObject>
#include <QtTest>

#include <chrono>
#include <cmath>
#include <cstdio>

using namespace pw;

class TestVinaScore : public QObject {
    Q_OBJECT

    void compareComplex(const QString& id, bool useGrid, const std::string& referenceFile,
                        double tol, ScoringKind kind = ScoringKind::Vina);

private slots:
    void exactMatchesVinaScoreOnly_data();
    void exactMatchesVinaScoreOnly();
    void gridMatchesVinaNoRefine_data();
    void gridMatchesVinaNoRefine();
    void vinardoMatchesVina_data();
    void vinardoMatchesVina();
    void rotatableBondCountMatchesVina();
};

static void addComplexes() {
    QTest::addColumn<QString>("id");
    QTest::newRow("1iep") << "1iep";
    QTest::newRow("1stp") << "1stp";
    QTest::newRow("3ce3") << "3ce3";
}

void TestVinaScore::compareComplex(const QString& id, bool useGrid,
                                   const std::string& referenceFile, double tol, ScoringKind kind) {
    const std::string dir = "complexes/" + id.toStdString() + "/";
    const Molecule receptor = pwtest::readPdbqtForTest(pwtest::dataPath(dir + "receptor.pdbqt"));
    const SearchBox box = readBoxConfig(pwtest::dataPath(dir + "box.txt"));
    const GridDims dims = gridDimsFor(box);
    const ReceptorModel model(receptor, dims);
    const ScoringFunction sf(kind);
    const QJsonObject ref = pwtest::readJson(referenceFile);
    const QJsonObject poses = ref["poses"].toObject();
    QVERIFY(!poses.isEmpty());

    std::unique_ptr<ReceptorGrid> grid;
    for (const QString& pose : poses.keys()) {
        const QJsonObject p = poses[pose].toObject();
        const Molecule lig =
            pwtest::readPdbqtForTest(pwtest::dataPath(dir + p["file"].toString().toStdString()));
        if (useGrid && !grid) {
            const LigandScorer probe(lig, sf, model);
            grid = std::make_unique<ReceptorGrid>(model, sf, dims, probe.typesNeeded());
        }
        const LigandScorer scorer(lig, sf, model, grid.get());
        const VinaScore s = scorer.finalScore(pwtest::positions(lig));
        const QJsonObject r = p["score_only"].toObject();
        const double ra = r["affinity"].toDouble(), ri = r["inter"].toDouble(),
                     rn = r["intra"].toDouble(), rt = r["torsional"].toDouble();
        std::printf("%s %-7s %s affinity %9.3f (vina %9.3f) inter %9.3f (%9.3f) intra %7.3f "
                    "(%7.3f) torsional %8.3f (%8.3f) Nrot %.1f\n",
                    qPrintable(id), qPrintable(pose), useGrid ? "grid " : "exact", s.affinity, ra,
                    s.inter, ri, s.intra, rn, s.torsional, rt, s.numTors);
        // finalScore reproduces Vina's own arithmetic: agreement to Vina's printed rounding.
        const double t = tol;
        QVERIFY2(std::abs(s.affinity - ra) <= t, qPrintable(id + " " + pose + " affinity"));
        QVERIFY2(std::abs(s.inter - ri) <= t, qPrintable(id + " " + pose + " inter"));
        QVERIFY2(std::abs(s.intra - rn) <= t, qPrintable(id + " " + pose + " intra"));
        QVERIFY2(std::abs(s.torsional - rt) <= t + 0.001,
                 qPrintable(id + " " + pose + " torsional"));
        // evaluate(), the minimizer's analytic energy, stays within 0.05 of Vina's numbers.
        ScoreBreakdown b;
        const double e = scorer.evaluate(pwtest::positions(lig), nullptr, &b);
        // Vina's table is biased by up to ~0.04% on heavy clashes: allow that above 100.
        const double analyticTol = std::max(0.05, 5e-4 * std::abs(ri));
        QVERIFY2(std::abs(b.inter - ri) <= analyticTol,
                 qPrintable(id + " " + pose + " analytic inter " + QString::number(b.inter)));
        QVERIFY2(std::abs(b.intra - rn) <= 0.05, qPrintable(id + " " + pose + " analytic intra"));
        QVERIFY2(std::abs(scorer.affinityFromEnergy(b.inter) - ra) <= analyticTol,
                 qPrintable(id + " " + pose + " analytic affinity"));
        QCOMPARE(e, b.inter + b.intra);
        // The per-term split (exact sums) adds up to the exact energy where nothing clashes.
        if (pose == "xtal" && !useGrid) {
            double weighted = 0;
            for (int k = 0; k < kScoreTermCount; ++k)
                weighted += b.interWeighted[k];
            QVERIFY2(std::abs(weighted - b.inter) < 1e-3,
                     qPrintable(id + " terms sum to inter: " + QString::number(weighted)));
            QVERIFY(b.interRaw[Gauss1] > 0 && b.interRaw[Repulsion] > 0);
            // Vinardo has no second gaussian.
            QCOMPARE(b.interRaw[Gauss2] > 0, kind == ScoringKind::Vina);
        }
    }
}

void TestVinaScore::exactMatchesVinaScoreOnly_data() {
    addComplexes();
}
void TestVinaScore::exactMatchesVinaScoreOnly() {
    QFETCH(QString, id);
    compareComplex(id, false, pwtest::dataPath("reference/" + id.toStdString() + ".json"), 0.0015);
}

void TestVinaScore::gridMatchesVinaNoRefine_data() {
    addComplexes();
}
void TestVinaScore::gridMatchesVinaNoRefine() {
    QFETCH(QString, id);
    const std::string ref = pwtest::dataPath("score/" + id.toStdString() + "_no_refine.json");
    compareComplex(id, true, ref, 0.0015);
}

void TestVinaScore::vinardoMatchesVina_data() {
    addComplexes();
}
void TestVinaScore::vinardoMatchesVina() {
    QFETCH(QString, id);
    compareComplex(id, false, pwtest::dataPath("score/" + id.toStdString() + "_vinardo.json"),
                   0.0015, ScoringKind::Vinardo);
}

void TestVinaScore::rotatableBondCountMatchesVina() {
    // 1iep (imatinib): TORSDOF 7 and 7 BRANCH records. Vina's Nrot follows from its own printout,
    // affinity = inter / (1 + 0.05846 Nrot): -17.634 / -12.513 gives 7.00.
    const QJsonObject xtal = pwtest::readJson(pwtest::dataPath("reference/1iep.json"))["poses"]
                                 .toObject()["xtal"]
                                 .toObject()["score_only"]
                                 .toObject();
    const double vinaNrot =
        (xtal["inter"].toDouble() / xtal["affinity"].toDouble() - 1.0) / 0.05846;
    QVERIFY2(std::abs(vinaNrot - 7.0) < 0.02, qPrintable(QString::number(vinaNrot)));
    const Molecule lig =
        pwtest::readPdbqtForTest(pwtest::dataPath("complexes/1iep/ligand_xtal.pdbqt"));
    const auto topo = buildVinaLigandTopology(lig);
    QCOMPARE(topo.numTors, 7.0);
    QCOMPARE(topo.rotatableBonds.size(), size_t(7)); // one per BRANCH record
    QVERIFY(!topo.intraPairs.empty());
}

QTEST_GUILESS_MAIN(TestVinaScore)
#include "test_vina_score.moc"
