// The exact AD4 pair scorer on the GPU (cuda::Ad4PairScorer) against the CPU reference,
// Ad4ExactScorer::inter (and its smooth twin with gradients, energyAndGradient): 1stp, 3ce3 and
// the dock30 complex 1r55; crystal, docked, perturbed,
// clashing and out-of-box poses under both outside-box rules; two ligands mixed in one batch;
// chunked launches; bad input refused. Tolerances as the host test of the same arithmetic
// (tests/cudahost/test_ad4_pair_math.cpp): each pose sum within 1e-4 relative (1 kcal/mol floor),
// each atom term within 2e-5 kcal/mol + 2e-5 relative.
#include "GpuTestMain.h"
#include "gpu/Ad4PairPoses.h"

#include "cuda/Ad4PairScorer.h"

#include <QtTest>

#include <cmath>
#include <memory>
#include <stdexcept>

using namespace pw;
using namespace pw::ad4;
using namespace pwtest;
using pw::test::sized;

namespace {

std::vector<std::string> typesOf(const std::vector<const Molecule*>& ligands) {
    std::vector<std::string> t;
    for (const Molecule* m : ligands)
        for (const Atom& a : m->atoms)
            if (std::find(t.begin(), t.end(), a.ad4Type) == t.end())
                t.push_back(a.ad4Type);
    return t;
}

struct Batch {
    std::vector<int> poseLigand;
    std::vector<Vec3> coords;
    std::vector<const Ad4ExactScorer*> scorer; // per pose
    std::vector<std::vector<Vec3>> poses;
    std::vector<std::string> names;

    void add(int ligand, const Ad4ExactScorer& s, const Ad4PoseCase& c) {
        poseLigand.push_back(ligand);
        coords.insert(coords.end(), c.coords.begin(), c.coords.end());
        scorer.push_back(&s);
        poses.push_back(c.coords);
        names.push_back(c.name);
    }
};

// Every pose and atom of the batch against the CPU; returns the worst pose relative difference.
double compare(cuda::Ad4PairScorer& gpu, const Batch& b, bool* sawClash = nullptr,
               bool* sawOutside = nullptr) {
    std::vector<cuda::Ad4PairPoseEnergy> out;
    std::vector<cuda::Ad4PairAtomTerms> atoms;
    gpu.score(b.poseLigand, b.coords, out, &atoms);
    if (out.size() != b.poses.size() || atoms.size() != b.coords.size()) {
        QTest::qFail("the GPU scorer returned the wrong number of results", __FILE__, __LINE__);
        return 1e9;
    }
    double worst = 0;
    size_t atom = 0;
    for (size_t p = 0; p < b.poses.size(); ++p) {
        const Ad4Energy ref = b.scorer[p]->inter(b.poses[p]);
        const QString name = QString("pose %1 (%2)").arg(p).arg(QString::fromStdString(b.names[p]));
        for (size_t i = 0; i < b.poses[p].size(); ++i, ++atom) {
            const cuda::Ad4PairAtomTerms& t = atoms[atom];
            const Ad4Energy::AtomTerms& r = ref.perAtom[i];
            if (!atomClose(t.vdwHb, r.vdwHb) || !atomClose(t.elec, r.elec) ||
                !atomClose(t.desolv, r.desolv)) {
                QTest::qFail(qPrintable(name + QString(" atom %1: gpu %2 %3 %4, cpu %5 %6 %7")
                                                   .arg(i + 1)
                                                   .arg(t.vdwHb, 0, 'g', 10).arg(t.elec, 0, 'g', 10)
                                                   .arg(t.desolv, 0, 'g', 10).arg(r.vdwHb, 0, 'g', 10)
                                                   .arg(r.elec, 0, 'g', 10).arg(r.desolv, 0, 'g', 10)),
                             __FILE__, __LINE__);
                return 1e9;
            }
            if (sawClash && r.vdwHb > 1000.0 && r.desolv != 0.0)
                *sawClash = true;
            if (sawOutside && r.desolv == 0.0 && r.vdwHb == r.elec && r.vdwHb > 0)
                *sawOutside = true; // the penalty's signature
        }
        if (!poseClose(out[p].interVdwHbDesolv, ref.interVdwHbDesolv) ||
            !poseClose(out[p].interElec, ref.interElec)) {
            QTest::qFail(qPrintable(name + QString(": gpu %1 + %2, cpu %3 + %4")
                                               .arg(out[p].interVdwHbDesolv, 0, 'g', 12)
                                               .arg(out[p].interElec, 0, 'g', 12)
                                               .arg(ref.interVdwHbDesolv, 0, 'g', 12)
                                               .arg(ref.interElec, 0, 'g', 12)),
                         __FILE__, __LINE__);
            return 1e9;
        }
        worst = std::max({worst,
                          std::fabs(out[p].interVdwHbDesolv - ref.interVdwHbDesolv) /
                              std::max(1.0, std::fabs(ref.interVdwHbDesolv)),
                          std::fabs(out[p].interElec - ref.interElec) /
                              std::max(1.0, std::fabs(ref.interElec))});
    }
    return worst;
}

} // namespace

class TestAd4PairScore : public QObject {
    Q_OBJECT

private slots:
    void equalsExactScorer_data() { addAd4ComplexRows(); }
    void equalsExactScorer() {
        QFETCH(QString, complex);
        QFETCH(int, outside);
        const OutsideBox rule = static_cast<OutsideBox>(outside);
        const Ad4Complex c = loadAd4Complex(complex.toStdString());
        const auto setup = std::make_shared<const MapSetup>(
            prepareMaps(c.receptor, c.box, typesOf({&c.ligand})));
        const Ad4ExactScorer cpu(setup, c.ligand, rule);
        cuda::Ad4PairScorer gpu(setup, rule, 0);
        const int id = gpu.addLigand(cpu);
        QCOMPARE(gpu.atomCount(id), cpu.atomCount());
        Batch b;
        for (const Ad4PoseCase& pose : ad4PoseCases(c, sized(200, 20)))
            b.add(id, cpu, pose);
        gpu.setChunkSize(37); // several launches, the last one partial
        bool clash = false, out = false;
        const double worst = compare(gpu, b, &clash, &out);
        qInfo("%zu poses, worst pose relative difference %.3g, kernel %.3f ms", b.poses.size(),
              worst, gpu.lastKernelSeconds() * 1e3);
        QVERIFY(clash);                                  // a clash was among the poses
        QCOMPARE(out, rule == OutsideBox::Penalty);      // penalised atoms only under the rule
    }

    // The smooth twin with its gradient (Ad4PairScorer::energyAndGradient) against
    // Ad4ExactScorer::energyAndGradient: each pose's energy within 1e-4 relative (1 kcal/mol
    // floor), each atom's dE/dx within 1e-3 relative (1 kcal/mol/A floor), in chunks. The
    // gradient's bound is looser: the tables are read linearly between 0.01 A samples, so the
    // slope jumps at every sample, and the device's float tables and trigonometry may put a
    // direction-dependent factor on the other side of a sample or a branch.
    void smoothTwinEqualsEnergyAndGradient_data() { addAd4ComplexRows(); }
    void smoothTwinEqualsEnergyAndGradient() {
        QFETCH(QString, complex);
        QFETCH(int, outside);
        const OutsideBox rule = static_cast<OutsideBox>(outside);
        const Ad4Complex c = loadAd4Complex(complex.toStdString());
        const auto setup = std::make_shared<const MapSetup>(
            prepareMaps(c.receptor, c.box, typesOf({&c.ligand})));
        const Ad4ExactScorer cpu(setup, c.ligand, rule);
        cuda::Ad4PairScorer gpu(setup, rule, 0);
        const int id = gpu.addLigand(cpu);
        Batch b;
        for (const Ad4PoseCase& pose : ad4PoseCases(c, sized(200, 20)))
            b.add(id, cpu, pose);
        gpu.setChunkSize(37);
        std::vector<double> energy;
        std::vector<Vec3> grad;
        gpu.energyAndGradient(b.poseLigand, b.coords, energy, &grad);
        QCOMPARE(energy.size(), b.poses.size());
        QCOMPARE(grad.size(), b.coords.size());
        double worstEnergy = 0, worstGrad = 0;
        size_t atom = 0;
        for (size_t p = 0; p < b.poses.size(); ++p) {
            std::vector<Vec3> ref;
            const double e = cpu.energyAndGradient(b.poses[p], &ref);
            const double rel = std::fabs(energy[p] - e) / std::max(1.0, std::fabs(e));
            worstEnergy = std::max(worstEnergy, rel);
            QVERIFY2(rel <= 1e-4, qPrintable(QString("pose %1 (%2): gpu %3, cpu %4")
                                                 .arg(p)
                                                 .arg(QString::fromStdString(b.names[p]))
                                                 .arg(energy[p], 0, 'g', 12)
                                                 .arg(e, 0, 'g', 12)));
            for (size_t i = 0; i < ref.size(); ++i, ++atom) {
                const double g = (grad[atom] - ref[i]).norm() / std::max(1.0, ref[i].norm());
                worstGrad = std::max(worstGrad, g);
                QVERIFY2(g <= 1e-3, qPrintable(QString("pose %1 atom %2: gradient off by %3 "
                                                       "relative")
                                                   .arg(p)
                                                   .arg(i + 1)
                                                   .arg(g)));
            }
        }
        qInfo("%zu poses: worst relative difference energy %.3g, atom gradient %.3g, kernel "
              "%.3f ms",
              b.poses.size(), worstEnergy, worstGrad, gpu.lastKernelSeconds() * 1e3);
    }

    void twoLigandsInOneBatch() {
        // 1stp's receptor with its own ligand and 1r55's ligand (moved into the box) on one
        // setup, poses interleaved, one launch and then one pose per launch: the same numbers.
        const Ad4Complex c = loadAd4Complex("1stp");
        const Ad4Complex other = loadAd4Complex("1r55");
        const auto setup = std::make_shared<const MapSetup>(
            prepareMaps(c.receptor, c.box, typesOf({&c.ligand, &other.ligand})));
        const Ad4ExactScorer a(setup, c.ligand), b(setup, other.ligand);
        cuda::Ad4PairScorer gpu(setup, OutsideBox::Penalty, 0);
        const int ia = gpu.addLigand(a), ib = gpu.addLigand(b);
        QCOMPARE(ib, ia + 1);
        const std::vector<Ad4PoseCase> posesA = ad4PoseCases(c, 10);
        std::vector<Ad4PoseCase> posesB = ad4PoseCases(other, 10);
        const Vec3 toBox = c.box.center - centroid(positions(other.ligand));
        for (Ad4PoseCase& p : posesB)
            for (Vec3& x : p.coords)
                x += toBox;
        Batch batch;
        for (size_t i = 0; i < std::max(posesA.size(), posesB.size()); ++i) {
            if (i < posesA.size())
                batch.add(ia, a, posesA[i]);
            if (i < posesB.size())
                batch.add(ib, b, posesB[i]);
        }
        QVERIFY(compare(gpu, batch) <= kPoseRel);
        gpu.setChunkSize(1);
        QVERIFY(compare(gpu, batch) <= kPoseRel);
    }

    void badInputIsRefused() {
        const Ad4Complex c = loadAd4Complex("1stp");
        const auto setup = std::make_shared<const MapSetup>(
            prepareMaps(c.receptor, c.box, typesOf({&c.ligand})));
        cuda::Ad4PairScorer gpu(setup, OutsideBox::Penalty, 0);
        // A scorer of another setup (even an equal one) or another box rule.
        const Ad4ExactScorer own(c.receptor, c.box, c.ligand);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, gpu.addLigand(own));
        const Ad4ExactScorer exactSum(setup, c.ligand, OutsideBox::ExactSum);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, gpu.addLigand(exactSum));
        const Ad4ExactScorer ok(setup, c.ligand);
        const int id = gpu.addLigand(ok);
        std::vector<cuda::Ad4PairPoseEnergy> out;
        const std::vector<Vec3> x = positions(c.ligand);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, gpu.score({id + 1}, x, out));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, gpu.score({id, id}, x, out));
        gpu.score({}, {}, out); // nothing to score
        QVERIFY(out.empty());
        // No such device.
        QVERIFY_THROWS_EXCEPTION(std::runtime_error,
                                 cuda::Ad4PairScorer(setup, OutsideBox::Penalty, 4096));
    }
};

POSEWRIGHT_GPU_TEST_MAIN(TestAd4PairScore)
#include "test_ad4_pair_score.moc"
