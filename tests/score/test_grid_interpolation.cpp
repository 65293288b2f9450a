// The tricubic map reads (ReceptorGrid.h): Catmull-Rom reproduces the samples, the B-spline stays
// inside their range, both gradients match finite differences and are continuous across cell faces
// (the trilinear one is not: the reason the option exists), out-of-box handling as trilinear, and
// the cubic is closer to the grid-free energy than Vina's trilinear read at the crystal pose.
#include "PdbqtFixture.h"

#include "score/LigandScorer.h"

#include <QtTest>

#include <algorithm>
#include <memory>
#include <random>

using namespace pw;

class TestGridInterpolation : public QObject {
    Q_OBJECT

    Molecule receptor_, ligand_;
    GridDims dims_;
    std::unique_ptr<ScoringFunction> sf_;
    std::unique_ptr<ReceptorModel> model_;
    std::unique_ptr<ReceptorGrid> grid_;
    int type_ = 0; // a map the grid holds (C_H)

    double value(const Vec3& p, GridInterpolation m, Vec3* grad = nullptr) const {
        Vec3 g, og;
        double outside;
        const double v = grid_->interpolate(type_, p, g, outside, og, m);
        if (grad)
            *grad = g;
        return v;
    }
    // A point of the pocket near the ligand, where the maps vary (not a flat 0 region).
    Vec3 pocketPoint(std::mt19937& rng) const {
        std::uniform_int_distribution<size_t> atom(0, ligand_.atoms.size() - 1);
        std::uniform_real_distribution<double> off(-0.8, 0.8);
        return ligand_.atoms[atom(rng)].position + Vec3(off(rng), off(rng), off(rng));
    }

private slots:
    void initTestCase() {
        const std::string dir = "complexes/1iep/";
        receptor_ = pwtest::readPdbqtForTest(pwtest::dataPath(dir + "receptor.pdbqt"));
        ligand_ = pwtest::readPdbqtForTest(pwtest::dataPath(dir + "ligand_xtal.pdbqt"));
        dims_ = gridDimsFor(readBoxConfig(pwtest::dataPath(dir + "box.txt")));
        sf_ = std::make_unique<ScoringFunction>(ScoringKind::Vina);
        model_ = std::make_unique<ReceptorModel>(receptor_, dims_);
        type_ = static_cast<int>(XsType::C_H);
        grid_ = std::make_unique<ReceptorGrid>(*model_, *sf_, dims_,
                                               std::vector<XsType>{XsType::C_H, XsType::N_A});
    }

    void names() {
        GridInterpolation m;
        QVERIFY(parseGridInterpolation("cubic", m) && m == GridInterpolation::CatmullRom);
        QVERIFY(parseGridInterpolation("bspline", m) && m == GridInterpolation::BSpline);
        QVERIFY(!parseGridInterpolation("tricubic", m));
        QCOMPARE(QString(gridInterpolationName(GridInterpolation::CatmullRom)),
                 QString("catmull-rom"));
    }

    void catmullRomReproducesSamples() {
        // At a grid point every cubic weight but one vanishes.
        int checked = 0;
        for (int x = 5; x < dims_.voxels[0] - 5; x += 7)
            for (int y = 5; y < dims_.voxels[1] - 5; y += 7)
                for (int z = 5; z < dims_.voxels[2] - 5; z += 7) {
                    const Vec3 p = dims_.begin + dims_.spacing * Vec3(x, y, z);
                    const double s = grid_->sample(type_, x, y, z);
                    QVERIFY(std::abs(value(p, GridInterpolation::CatmullRom) - s) <=
                            1e-9 * std::max(1.0, std::abs(s)));
                    QVERIFY(std::abs(value(p, GridInterpolation::Trilinear) - s) <=
                            1e-9 * std::max(1.0, std::abs(s)));
                    ++checked;
                }
        QVERIFY(checked > 20);
    }

    void bsplineStaysInSampleRange() {
        std::mt19937 rng(3);
        const double inv = 1.0 / dims_.spacing;
        for (int k = 0; k < 300; ++k) {
            const Vec3 p = pocketPoint(rng);
            double lo = 1e300, hi = -1e300;
            int a[3];
            for (int d = 0; d < 3; ++d)
                a[d] = static_cast<int>((p[d] - dims_.begin[d]) * inv);
            for (int i = -1; i <= 2; ++i)
                for (int j = -1; j <= 2; ++j)
                    for (int l = -1; l <= 2; ++l) {
                        const double s = grid_->sample(type_, a[0] + i, a[1] + j, a[2] + l);
                        lo = std::min(lo, s);
                        hi = std::max(hi, s);
                    }
            const double v = value(p, GridInterpolation::BSpline);
            QVERIFY2(v >= lo - 1e-9 && v <= hi + 1e-9, "a convex combination of the 64 samples");
        }
    }

    void gradientsMatchFiniteDifferences() {
        std::mt19937 rng(7);
        const double h = 1e-6;
        for (GridInterpolation m : {GridInterpolation::CatmullRom, GridInterpolation::BSpline}) {
            for (int k = 0; k < 200; ++k) {
                const Vec3 p = pocketPoint(rng);
                Vec3 g;
                value(p, m, &g);
                for (int d = 0; d < 3; ++d) {
                    Vec3 a = p, b = p;
                    a[d] -= h;
                    b[d] += h;
                    const double fd = (value(b, m) - value(a, m)) / (2 * h);
                    QVERIFY2(std::abs(fd - g[d]) <= 1e-4 * std::max(1.0, std::abs(g[d])),
                             qPrintable(QString("%1 axis %2: analytic %3, differences %4")
                                            .arg(gridInterpolationName(m))
                                            .arg(d)
                                            .arg(g[d])
                                            .arg(fd)));
                }
            }
        }
    }

    void gradientContinuousAcrossCellFaces() {
        // Just below and just above an x face: the tricubic gradients agree, the trilinear one
        // jumps (by the change of slope of the samples) at most of these faces.
        std::mt19937 rng(11);
        int trilinearJumps = 0, faces = 0;
        for (int k = 0; k < 200; ++k) {
            Vec3 p = pocketPoint(rng);
            const double g = std::round((p.x() - dims_.begin.x()) / dims_.spacing);
            p.x() = dims_.begin.x() + g * dims_.spacing;
            const double eps = 1e-9;
            Vec3 below = p, above = p;
            below.x() -= eps;
            above.x() += eps;
            Vec3 gb, ga;
            for (GridInterpolation m :
                 {GridInterpolation::CatmullRom, GridInterpolation::BSpline}) {
                value(below, m, &gb);
                value(above, m, &ga);
                QVERIFY((gb - ga).norm() <= 1e-5 * std::max(1.0, gb.norm()));
            }
            value(below, GridInterpolation::Trilinear, &gb);
            value(above, GridInterpolation::Trilinear, &ga);
            trilinearJumps += (gb - ga).norm() > 1e-3 * std::max(1.0, gb.norm());
            ++faces;
        }
        qInfo("trilinear gradient jumps at %d of %d cell faces", trilinearJumps, faces);
        QVERIFY(trilinearJumps > faces / 2);
    }

    void outsideTheBoxAsTrilinear() {
        // Beyond a face: the value of the face, zero gradient along that axis, the same penalty.
        const Vec3 inside = dims_.begin + 0.5 * (dims_.end() - dims_.begin);
        Vec3 p = inside;
        p.x() = dims_.end().x() + 1.25;
        Vec3 face = p;
        face.x() = dims_.end().x();
        for (GridInterpolation m : {GridInterpolation::CatmullRom, GridInterpolation::BSpline}) {
            Vec3 g, og, gf, ogf;
            double out, outFace;
            const double v = grid_->interpolate(type_, p, g, out, og, m);
            const double vf = grid_->interpolate(type_, face, gf, outFace, ogf, m);
            QVERIFY(std::abs(v - vf) <= 1e-9 * std::max(1.0, std::abs(vf)));
            QCOMPARE(g.x(), 0.0);
            QVERIFY(std::abs(out - 1.25) < 1e-9);
            QCOMPARE(og.x(), 1.0);
        }
    }

    void scorerUsesTheChosenRead() {
        // LigandScorer reads the grid the way it is told; Vina's trilinear stays the default.
        ReceptorGrid grid(*model_, *sf_, dims_, LigandScorer(ligand_, *sf_, *model_).typesNeeded());
        LigandScorer scorer(ligand_, *sf_, *model_, &grid);
        std::vector<Vec3> x;
        for (const Atom& a : ligand_.atoms)
            x.push_back(a.position);
        QVERIFY(scorer.gridInterpolation() == GridInterpolation::Trilinear);
        const double tri = scorer.evaluate(x);
        scorer.setGridInterpolation(GridInterpolation::CatmullRom);
        const double cr = scorer.evaluate(x);
        const double exact = LigandScorer(ligand_, *sf_, *model_).evaluate(x);
        qInfo("1iep crystal pose: inter+intra trilinear %.4f, Catmull-Rom %.4f, grid-free %.4f",
              tri, cr, exact);
        // Trilinear reads of a well lie above its bottom (1.35 kcal/mol here); the cubic follows
        // the curvature between samples and lands within a tenth of the grid-free sum.
        QVERIFY(std::abs(cr - exact) < 0.15);
        QVERIFY(std::abs(cr - exact) < std::abs(tri - exact));
    }
};

QTEST_GUILESS_MAIN(TestGridInterpolation)
#include "test_grid_interpolation.moc"
