// Analytic dE/dx of LigandScorer::evaluate against central finite differences, on grids and
// exactly, for random perturbations of real poses (inside the box and partly outside it).
#include "PdbqtFixture.h"

#include "score/LigandScorer.h"

#include <QtTest>

#include <memory>
#include <random>

using namespace pw;

class TestScoreGradient : public QObject {
    Q_OBJECT

    struct Setup {
        Molecule receptor, ligand;
        GridDims dims;
        std::unique_ptr<ScoringFunction> sf;
        std::unique_ptr<ReceptorModel> model;
        std::unique_ptr<ReceptorGrid> grid;
    };
    static std::unique_ptr<Setup> load(const std::string& id, const std::string& pose,
                                       ScoringKind kind) {
        auto s = std::make_unique<Setup>();
        const std::string dir = "complexes/" + id + "/";
        s->receptor = pwtest::readPdbqtForTest(pwtest::dataPath(dir + "receptor.pdbqt"));
        s->ligand = pwtest::readPdbqtForTest(pwtest::dataPath(dir + pose));
        s->dims = gridDimsFor(readBoxConfig(pwtest::dataPath(dir + "box.txt")));
        s->sf = std::make_unique<ScoringFunction>(kind);
        s->model = std::make_unique<ReceptorModel>(s->receptor, s->dims);
        const LigandScorer probe(s->ligand, *s->sf, *s->model);
        s->grid = std::make_unique<ReceptorGrid>(*s->model, *s->sf, s->dims, probe.typesNeeded());
        return s;
    }

    // Checks every Cartesian component; returns the number of components compared.
    // Vina's out-of-box penalty (1e6 per Å, heavy atoms) and its gradient, computed here so that
    // the finite differences can be taken on the rest: at 1e6 the round-off would swamp them.
    static double boxPenalty(const LigandScorer& scorer, const GridDims& box,
                             const std::vector<Vec3>& x, std::vector<Vec3>* grad = nullptr) {
        double p = 0;
        for (size_t i = 0; i < x.size(); ++i) {
            if (grad)
                (*grad)[i].setZero();
            if (scorer.topology().types[i] == XsType::None)
                continue;
            for (int d = 0; d < 3; ++d) {
                if (x[i][d] < box.begin[d]) {
                    p += 1e6 * (box.begin[d] - x[i][d]);
                    if (grad)
                        (*grad)[i][d] = -1e6;
                } else if (x[i][d] > box.end()[d]) {
                    p += 1e6 * (x[i][d] - box.end()[d]);
                    if (grad)
                        (*grad)[i][d] = 1e6;
                }
            }
        }
        return p;
    }

    // Checks every Cartesian component; returns the number of components compared. With a box,
    // its penalty is taken out of energies and gradients first.
    static int checkGradient(const LigandScorer& scorer, const std::vector<Vec3>& x0,
                             const GridDims* box = nullptr) {
        auto energy = [&](const std::vector<Vec3>& x) {
            return scorer.evaluate(x) - (box ? boxPenalty(scorer, *box, x) : 0.0);
        };
        std::vector<Vec3> grad, penGrad(x0.size(), Vec3::Zero());
        scorer.evaluate(x0, &grad);
        if (box)
            boxPenalty(scorer, *box, x0, &penGrad);
        // Round-off in energies near 1e6 needs a larger step; the penalty itself is linear.
        const double h = box ? 1e-4 : 1e-6;
        int compared = 0;
        for (size_t i = 0; i < x0.size(); ++i)
            for (int d = 0; d < 3; ++d) {
                std::vector<Vec3> xp = x0, xm = x0;
                xp[i][d] += h;
                xm[i][d] -= h;
                const double fd = (energy(xp) - energy(xm)) / (2 * h);
                const double an = grad[i][d] - penGrad[i][d];
                const double tol = 1e-4 * std::max(std::abs(fd), 1.0);
                if (std::abs(an - fd) > tol) {
                    QTest::qFail(qPrintable(QString("atom %1 axis %2: analytic %3, finite "
                                                    "difference %4")
                                                .arg(i)
                                                .arg(d)
                                                .arg(an, 0, 'g', 10)
                                                .arg(fd, 0, 'g', 10)),
                                 __FILE__, __LINE__);
                    return -1;
                }
                ++compared;
            }
        return compared;
    }

    static std::vector<Vec3> perturbed(const Molecule& m, unsigned seed, double sigma,
                                       const Vec3& shift = Vec3::Zero()) {
        std::mt19937 rng(seed);
        std::normal_distribution<double> n(0.0, sigma);
        std::vector<Vec3> x;
        for (const Atom& a : m.atoms)
            x.push_back(a.position + shift + Vec3(n(rng), n(rng), n(rng)));
        return x;
    }

private slots:
    void gradientMatchesFiniteDifferences_data() {
        QTest::addColumn<QString>("id");
        QTest::addColumn<QString>("pose");
        QTest::addColumn<bool>("grid");
        QTest::addColumn<bool>("vinardo");
        for (bool grid : {false, true})
            for (bool vinardo : {false, true}) {
                const char* mode = grid ? "grid" : "exact";
                const char* sf = vinardo ? "vinardo" : "vina";
                QTest::addRow("1iep xtal %s %s", mode, sf)
                    << "1iep"
                    << "ligand_xtal.pdbqt" << grid << vinardo;
                QTest::addRow("1stp pose03 %s %s", mode, sf)
                    << "1stp"
                    << "poses/pose03.pdbqt" << grid << vinardo;
                QTest::addRow("3ce3 pose07 %s %s", mode, sf)
                    << "3ce3"
                    << "poses/pose07.pdbqt" << grid << vinardo;
            }
    }
    void gradientMatchesFiniteDifferences() {
        QFETCH(QString, id);
        QFETCH(QString, pose);
        QFETCH(bool, grid);
        QFETCH(bool, vinardo);
        auto s = load(id.toStdString(), pose.toStdString(),
                      vinardo ? ScoringKind::Vinardo : ScoringKind::Vina);
        const LigandScorer scorer(s->ligand, *s->sf, *s->model, grid ? s->grid.get() : nullptr);
        for (unsigned seed = 1; seed <= 3; ++seed) {
            const auto x = perturbed(s->ligand, seed, 0.3);
            std::vector<Vec3> g;
            const double e = scorer.evaluate(x, &g);
            QVERIFY(std::isfinite(e));
            double norm = 0;
            for (const Vec3& v : g)
                norm += v.squaredNorm();
            QVERIFY2(norm > 1e-6, "a real pose has a non-zero gradient");
            QCOMPARE(checkGradient(scorer, x), static_cast<int>(3 * x.size()));
        }
    }

    void penaltyOutsideTheBox() {
        auto s = load("1iep", "ligand_xtal.pdbqt", ScoringKind::Vina);
        // Shift the ligand so that part of it leaves the box along +x.
        const Vec3 shift(s->dims.end().x() - s->ligand.centroid().x(), 0, 0);
        const auto x = perturbed(s->ligand, 7, 0.2, shift);
        for (bool grid : {false, true}) {
            const LigandScorer scorer(s->ligand, *s->sf, *s->model, grid ? s->grid.get() : nullptr);
            ScoreBreakdown terms;
            std::vector<Vec3> g;
            scorer.evaluate(x, &g, &terms);
            double outside = 0;
            for (size_t i = 0; i < x.size(); ++i)
                if (scorer.topology().types[i] != XsType::None)
                    outside += std::max(0.0, x[i].x() - s->dims.end().x());
            QVERIFY(outside > 1.0);
            // Vina: 1e6 per Å outside, heavy atoms only.
            QVERIFY(std::abs(terms.outOfBoxPenalty - 1e6 * outside) < 1e-3);
            QVERIFY(std::abs(boxPenalty(scorer, s->dims, x) - terms.outOfBoxPenalty) < 1e-3);
            QCOMPARE(checkGradient(scorer, x, &s->dims), static_cast<int>(3 * x.size()));
            // Vina's reported inter includes the same penalty in both modes.
            const VinaScore fs = scorer.finalScore(x);
            QVERIFY(std::abs(fs.terms.outOfBoxPenalty - 1e6 * outside) < 1e-3);
        }
    }

    void hydrogensCarryNoGradient() {
        auto s = load("1iep", "ligand_xtal.pdbqt", ScoringKind::Vina);
        const LigandScorer scorer(s->ligand, *s->sf, *s->model);
        std::vector<Vec3> g;
        const auto x = perturbed(s->ligand, 3, 0.1);
        scorer.evaluate(x, &g);
        int hydrogens = 0;
        for (size_t i = 0; i < x.size(); ++i)
            if (s->ligand.atoms[i].element == 1) {
                ++hydrogens;
                QCOMPARE(g[i].norm(), 0.0);
            }
        QVERIFY(hydrogens > 0);
    }
};

QTEST_GUILESS_MAIN(TestScoreGradient)
#include "test_score_gradient.moc"
