// The exact pair kernel (engine/cuda/PairScorer) against the CPU exact scorer (LigandScorer) on the
// same poses of 1iep, 1stp and 3ce3: near-native and random-torsion poses, poses pushed into the
// receptor (clashes, curl-softened), poses partly or wholly outside the box (Vina's 1e6/Å
// penalty), and a batch mixing two ligands. Tolerance: |gpu - cpu| <= 1e-4 x max(|cpu|, 1)
// for inter and intra, tabulated (Vina's reported numbers) and analytic (the minimizer's), and per
// gradient component; the analytic gradient is also checked against central differences of the
// GPU's own energy.
#include "GpuTestMain.h"
#include "GpuTestComplexes.h"

#include "chem/LigandPreparation.h"
#include "chem/MoleculeReader.h"
#include "chem/ReceptorPreparation.h"
#include "cuda/PairScorer.h"
#include "minimize/PosePerturbation.h"
#include "score/BoxConfig.h"
#include "score/DockingTarget.h"

#include <algorithm>
#include <cmath>
#include <random>

using namespace pw;

using pw::test::Complex;
using pw::test::loadComplex;

namespace {

std::vector<Vec3> coordsOf(const Molecule& m) {
    std::vector<Vec3> x;
    for (const Atom& a : m.atoms)
        x.push_back(a.position);
    return x;
}

// Pose sets of one ligand, each tagged with what it exercises.
struct PoseSet {
    std::vector<std::vector<Vec3>> poses;
    int clashing = 0, outside = 0;
};

PoseSet makePoses(const Complex& c, int perKind) {
    PoseSet s;
    const std::vector<Vec3> xtal = coordsOf(c.ligand);
    s.poses.push_back(xtal);
    PerturbationOptions near;
    near.maxRotationDegrees = 10;
    near.maxTranslation = 0.5;
    near.randomTorsions = false;
    near.maxTorsionDegrees = 20;
    PosePerturbation nearP(c.ligand, near), randomP(c.ligand);
    for (int i = 0; i < perKind; ++i) {
        s.poses.push_back(nearP.coordinates(7, i));
        s.poses.push_back(randomP.coordinates(8, i));
    }
    // Clashes: the ligand moved so that one of its atoms sits 0.3-1.0 Å from a receptor atom.
    const auto& sites = c.target->receptor().sites();
    const GridDims& box = c.target->receptor().region();
    std::mt19937 rng(11);
    std::vector<int> inBox;
    for (size_t k = 0; k < sites.size(); ++k)
        if (box.contains(Vec3(sites[k].x, sites[k].y, sites[k].z)))
            inBox.push_back(int(k));
    for (int i = 0; i < perKind; ++i) {
        std::vector<Vec3> x = randomP.coordinates(9, i);
        const auto& site = sites[inBox[rng() % inBox.size()]];
        const Vec3 target(site.x, site.y, site.z);
        const Vec3 offset = Vec3(0.3 + 0.7 * (rng() % 1000) / 1000.0, 0, 0);
        const Vec3 shift = target + offset - x[rng() % x.size()];
        for (Vec3& p : x)
            p += shift;
        s.poses.push_back(x);
        ++s.clashing;
    }
    // Out of the box: pushed out by 1-6 Å along a random axis (some atoms or all of them).
    for (int i = 0; i < perKind; ++i) {
        std::vector<Vec3> x = nearP.coordinates(10, i);
        Vec3 shift = Vec3::Zero();
        const int axis = int(rng() % 3);
        const double side = (rng() & 1) ? 1.0 : -1.0;
        shift[axis] = side * (0.5 * box.spacing * box.voxels[axis] + 1.0 + (rng() % 50) / 10.0);
        for (Vec3& p : x)
            p += shift;
        s.poses.push_back(x);
        ++s.outside;
    }
    return s;
}

double relErr(double gpu, double cpu) {
    return std::abs(gpu - cpu) / std::max(std::abs(cpu), 1.0);
}

constexpr double kTol = 1e-4;

} // namespace

class TestPairScore : public QObject {
    Q_OBJECT

    // Both modes on every pose of one complex; returns the worst relative errors seen.
    void compareComplex(const std::string& id, ScoringKind kind = ScoringKind::Vina) {
        Complex c = loadComplex(id, kind);
        const ScoringFunction& sf = c.target->scoring();
        const ReceptorModel& rec = c.target->receptor();
        LigandScorer cpu(c.ligand, sf, rec);
        cuda::PairScorer gpu(sf, rec, 0);
        const int lig = gpu.addLigand(cpu);
        PoseSet set = makePoses(c, 40);
        std::vector<int> poseLigand(set.poses.size(), lig);
        std::vector<Vec3> flat;
        for (const auto& p : set.poses)
            flat.insert(flat.end(), p.begin(), p.end());

        std::vector<cuda::PairPoseEnergy> tab, ana;
        std::vector<Vec3> grad;
        gpu.scoreTabulated(poseLigand, flat, tab);
        gpu.evaluate(poseLigand, flat, ana, &grad);
        QCOMPARE(tab.size(), set.poses.size());

        double worstTab = 0, worstAna = 0, worstGrad = 0;
        int penalized = 0, clashes = 0;
        size_t atom0 = 0;
        for (size_t p = 0; p < set.poses.size(); ++p) {
            const auto& x = set.poses[p];
            double pen = 0;
            const double inter = cpu.interTabulated(x, &pen);
            const double intra = cpu.intraTabulated(x);
            worstTab = std::max({worstTab, relErr(tab[p].inter, inter), relErr(tab[p].intra, intra),
                                 relErr(tab[p].penalty, pen)});
            penalized += pen > 0;
            clashes += inter > 10;
            std::vector<Vec3> g;
            ScoreBreakdown terms;
            const double e = cpu.evaluate(x, &g, &terms);
            worstAna = std::max({worstAna, relErr(ana[p].inter + ana[p].intra, e),
                                 relErr(ana[p].inter, terms.inter),
                                 relErr(ana[p].intra, terms.intra)});
            for (size_t a = 0; a < x.size(); ++a)
                for (int d = 0; d < 3; ++d)
                    worstGrad = std::max(worstGrad, relErr(grad[atom0 + a][d], g[a][d]));
            atom0 += x.size();
        }
        qInfo("%s (%s): %zu poses (%d penalized out of box, %d clashing): worst relative error "
              "tabulated %.2e, analytic %.2e, gradient %.2e",
              id.c_str(), std::string(scoringKindName(kind)).c_str(), set.poses.size(), penalized, clashes, worstTab, worstAna, worstGrad);
        QVERIFY2(penalized >= set.outside, "the out-of-box poses must carry the penalty");
        QVERIFY2(clashes >= set.clashing / 2, "most pushed-in poses must clash");
        QVERIFY(worstTab <= kTol);
        QVERIFY(worstAna <= kTol);
        QVERIFY(worstGrad <= kTol);
    }

private slots:
    void matchesCpu1iep() { compareComplex("1iep"); }
    void matchesCpu1stp() { compareComplex("1stp"); }
    void matchesCpu3ce3() { compareComplex("3ce3"); }
    // Vinardo: other tables, radii and ramps through the same kernel.
    void matchesCpu1iepVinardo() { compareComplex("1iep", ScoringKind::Vinardo); }

    // Two ligands interleaved in one batch, with small chunks: each pose reads its own template
    // and its own coordinates, whatever chunk it falls in.
    void mixedLigandsInSmallChunks() {
        Complex a = loadComplex("1iep");
        Complex b = loadComplex("1stp");
        const ScoringFunction& sf = a.target->scoring();
        const ReceptorModel& rec = a.target->receptor();
        // 1stp's ligand (biotin) moved onto 1iep's ligand centre, scored in 1iep's pocket.
        Vec3 ca = Vec3::Zero(), cb = Vec3::Zero();
        for (const Atom& x : a.ligand.atoms)
            ca += x.position / double(a.ligand.atoms.size());
        for (const Atom& x : b.ligand.atoms)
            cb += x.position / double(b.ligand.atoms.size());
        for (Atom& x : b.ligand.atoms)
            x.position += ca - cb;
        LigandScorer cpuA(a.ligand, sf, rec), cpuB(b.ligand, sf, rec);
        cuda::PairScorer gpu(sf, rec, 0);
        const int la = gpu.addLigand(cpuA), lb = gpu.addLigand(cpuB);
        PosePerturbation pa(a.ligand), pb(b.ligand);
        std::vector<int> poseLigand;
        std::vector<std::vector<Vec3>> poses;
        std::vector<Vec3> flat;
        for (int i = 0; i < 101; ++i) {
            const bool first = i % 3 != 1;
            poseLigand.push_back(first ? la : lb);
            poses.push_back(first ? pa.coordinates(3, i) : pb.coordinates(4, i));
            flat.insert(flat.end(), poses.back().begin(), poses.back().end());
        }
        gpu.setChunkSize(7);
        std::vector<cuda::PairPoseEnergy> out;
        gpu.scoreTabulated(poseLigand, flat, out);
        for (size_t p = 0; p < poses.size(); ++p) {
            const LigandScorer& cpu = poseLigand[p] == la ? cpuA : cpuB;
            QVERIFY(relErr(out[p].inter, cpu.interTabulated(poses[p])) <= kTol);
            QVERIFY(relErr(out[p].intra, cpu.intraTabulated(poses[p])) <= kTol);
        }
        // A pose naming no registered ligand, or coordinates that do not add up, are refused.
        std::vector<int> bad = poseLigand;
        bad[5] = 9;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, gpu.scoreTabulated(bad, flat, out));
        flat.pop_back();
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, gpu.scoreTabulated(poseLigand, flat, out));
    }

    // The analytic gradient against central differences of the GPU's own energy (in-box poses,
    // every heavy atom, each axis).
    void gradientMatchesFiniteDifferences() {
        Complex c = loadComplex("1iep");
        const ScoringFunction& sf = c.target->scoring();
        const ReceptorModel& rec = c.target->receptor();
        LigandScorer cpu(c.ligand, sf, rec);
        cuda::PairScorer gpu(sf, rec, 0);
        const int lig = gpu.addLigand(cpu);
        PerturbationOptions o;
        o.maxTranslation = 0.5;
        PosePerturbation pert(c.ligand, o);
        const double h = 1e-5;
        int checked = 0, bad = 0;
        double worst = 0;
        for (int i = 0; i < 6; ++i) {
            const std::vector<Vec3> x = pert.coordinates(21, i);
            // One batch: the pose, then +h and -h along every coordinate of every heavy atom.
            std::vector<int> poseLigand{lig};
            std::vector<Vec3> flat = x;
            std::vector<std::pair<int, int>> moved;
            for (size_t a = 0; a < x.size(); ++a) {
                if (cpu.topology().types[a] == XsType::None)
                    continue;
                for (int d = 0; d < 3; ++d) {
                    for (double sgn : {1.0, -1.0}) {
                        std::vector<Vec3> y = x;
                        y[a][d] += sgn * h;
                        flat.insert(flat.end(), y.begin(), y.end());
                        poseLigand.push_back(lig);
                    }
                    moved.push_back({int(a), d});
                }
            }
            std::vector<cuda::PairPoseEnergy> out;
            std::vector<Vec3> grad;
            gpu.evaluate(poseLigand, flat, out, &grad);
            if (out[0].penalty != 0) // a torsion swung an atom out of the box: not smooth there
                continue;
            for (size_t k = 0; k < moved.size(); ++k) {
                const auto& plus = out[1 + 2 * k];
                const auto& minus = out[2 + 2 * k];
                const double fd = ((plus.inter + plus.intra) - (minus.inter + minus.intra)) / (2 * h);
                const double an = grad[size_t(moved[k].first)][moved[k].second];
                const double err = std::abs(fd - an) / std::max(std::abs(an), 1.0);
                worst = std::max(worst, err);
                bad += err > 1e-3;
                ++checked;
            }
        }
        qInfo("gradient vs central differences: %d components, worst relative %.2e, %d over 1e-3",
              checked, worst, bad);
        // Piecewise-linear ramps (hydrophobic, H-bond) have kinks: a difference straddling one
        // may miss; allow at most 1% of the components there.
        QVERIFY(checked > 100);
        QVERIFY2(bad * 100 <= checked, "central differences disagree with the gradient");
    }
};

POSEWRIGHT_GPU_TEST_MAIN(TestPairScore)
#include "test_pair_score.moc"
