// The host side of the CUDA minimizer and of its exact report, on the CPU (no device needed;
// built in CUDA builds only): the code that packs a batch for the kernel, unpacks its results and
// re-scores the start and minimized poses is the code the GPU path runs, with the kernels
// replaced by stand-ins whose answers are known (an identity "minimization"; the CPU scorer's
// tabulated sums as the pair kernel's).
#include "chem/LigandPreparation.h"
#include "chem/MoleculeReader.h"
#include "chem/ReceptorPreparation.h"
#include "cuda/MinimizeHostPack.h"
#include "cuda/PairRescore.h"
#include "score/BoxConfig.h"
#include "score/DockingTarget.h"

#include <QtTest>

#include <cmath>
#include <memory>

using namespace pw;

namespace {

std::string data(const std::string& rel) { return std::string(POSEWRIGHT_TEST_DATA) + "/" + rel; }

// The pair kernel's answers from the CPU scorer (interTabulated / intraTabulated: finalScore's
// sums), pose by pose in the layout the kernel reads.
class CpuPairs final : public cuda::ExactPairEnergies {
public:
    void clearLigands() override { scorers_.clear(); }
    int addLigand(const LigandScorer& scorer) override {
        scorers_.push_back(&scorer);
        return int(scorers_.size()) - 1;
    }
    void scoreTabulated(const std::vector<int>& poseLigand, const std::vector<Vec3>& coords,
                        std::vector<cuda::PairPoseEnergy>& out) override {
        ++calls;
        out.resize(poseLigand.size());
        size_t at = 0;
        for (size_t p = 0; p < poseLigand.size(); ++p) {
            const LigandScorer& s = *scorers_.at(size_t(poseLigand[p]));
            const size_t atoms = s.topology().types.size();
            QVERIFY(at + atoms <= coords.size());
            const std::vector<Vec3> pose(coords.begin() + long(at), coords.begin() + long(at + atoms));
            double penalty = 0;
            out[p].inter = s.interTabulated(pose, &penalty);
            out[p].intra = s.intraTabulated(pose);
            out[p].penalty = penalty;
            at += atoms;
        }
        QCOMPARE(at, coords.size());
    }
    int calls = 0;

private:
    std::vector<const LigandScorer*> scorers_;
};

} // namespace

class TestMinimizeHost : public QObject {
    Q_OBJECT
    std::unique_ptr<DockingTarget> target_;
    std::vector<Molecule> ligands_; // the ten 1iep poses, twice, and the crystal ligand

private slots:
    void initTestCase() {
        target_ = std::make_unique<DockingTarget>(
            prepareReceptor(readMolecule(data("complexes/1iep/receptor.pdbqt"))),
            readBoxConfig(data("complexes/1iep/box.txt")), ScoringKind::Vina, 1);
        for (int round = 0; round < 2; ++round)
            for (int i = 0; i < 10; ++i)
                ligands_.push_back(prepareLigand(readMolecule(
                    data("complexes/1iep/poses/pose0" + std::to_string(i) + ".pdbqt"))));
        ligands_.push_back(prepareLigand(readMolecule(data("complexes/1iep/ligand_xtal.pdbqt"))));
        target_->gridFor(DockingTarget::commonLigandTypes());
    }

    // Packed starts, "minimized" by a kernel that leaves every pose where it is, unpacked: each
    // ligand's coordinates come back (to float precision) in its own atom order, whatever the
    // chunk it was in.
    void packUnpackRoundTrip() {
        MinimizeBatchOptions options;
        const cuda::BatchTemplates bt = cuda::buildBatchTemplates(ligands_, *target_, options, 2);
        QCOMPARE(bt.templateOf.size(), ligands_.size());
        QVERIFY(bt.templates.size() >= 1 && bt.templates.size() < ligands_.size()); // shared
        const Vec3 centre = target_->box().center;
        std::vector<RefinementResult> results(ligands_.size());
        const long total = long(ligands_.size()), chunk = 6;
        for (long first = 0; first < total; first += chunk) {
            const long count = std::min(chunk, total - first);
            const cuda::ChunkLayout layout = cuda::chunkLayout(bt, first, count);
            std::vector<cuda::PoseInputGpu> in(count);
            std::vector<float3> start(layout.coords);
            cuda::packChunk(ligands_, bt, layout, first, count, centre, in.data(), start.data(), 2);
            std::vector<cuda::PoseResultGpu> out(count, cuda::PoseResultGpu{});
            for (long k = 0; k < count; ++k) {
                out[k].orientation[0] = 1;
                out[k].iterations = int(first + k);
            }
            std::vector<float> torsions(std::max<size_t>(1, layout.torsions), 0.5f);
            cuda::unpackChunk(ligands_, bt, first, count, centre, in.data(), out.data(),
                              start.data(), torsions.data(), results, 2);
        }
        for (size_t i = 0; i < ligands_.size(); ++i) {
            const RefinementResult& r = results[i];
            QCOMPARE(r.coordinates.size(), ligands_[i].atoms.size());
            double worst = 0;
            for (size_t a = 0; a < r.coordinates.size(); ++a)
                worst = std::max(worst, (r.coordinates[a] - ligands_[i].atoms[a].position).norm());
            QVERIFY2(worst < 1e-4, qPrintable(QString("ligand %1 moved %2 A").arg(i).arg(worst)));
            QVERIFY(r.rmsdFromStart < 1e-4);
            QCOMPARE(r.iterations, int(i));
            QCOMPARE(int(r.pose.torsions.size()),
                     ligands_[i].torsionTree ? ligands_[i].torsionTree->torsionCount() : 0);
        }
    }

    // The report: every minimized ligand's start and minimized pose get finalScore's numbers
    // (the kernel's sums here are the CPU's), in slices of 4 ligands, i.e. several kernel calls;
    // a ligand without coordinates (never minimized) keeps its empty result.
    void exactReportEqualsFinalScore() {
        std::vector<RefinementResult> results(ligands_.size());
        for (size_t i = 0; i < ligands_.size(); ++i) {
            if (i == 3)
                continue; // never minimized
            for (const Atom& a : ligands_[i].atoms)
                results[i].coordinates.push_back(a.position + Vec3(0.1 * double(i % 4), -0.2, 0.05));
        }
        CpuPairs pairs;
        cuda::reportStartAndMinimizedExactly(pairs, target_->scoring(), target_->receptor(),
                                             ligands_, results, 2, 4);
        QCOMPARE(pairs.calls, int((ligands_.size() - 1 + 3) / 4));
        for (size_t i = 0; i < ligands_.size(); ++i) {
            if (i == 3) {
                QCOMPARE(results[i].score.affinity, VinaScore{}.affinity);
                QCOMPARE(results[i].start.affinity, VinaScore{}.affinity);
                continue;
            }
            const LigandScorer cpu(ligands_[i], target_->scoring(), target_->receptor());
            std::vector<Vec3> start;
            for (const Atom& a : ligands_[i].atoms)
                start.push_back(a.position);
            const VinaScore s0 = cpu.finalScore(start), s1 = cpu.finalScore(results[i].coordinates);
            QVERIFY2(std::abs(results[i].start.affinity - s0.affinity) < 1e-9,
                     qPrintable(QString("ligand %1 start %2 vs %3")
                                    .arg(i).arg(results[i].start.affinity).arg(s0.affinity)));
            QVERIFY2(std::abs(results[i].score.affinity - s1.affinity) < 1e-9,
                     qPrintable(QString("ligand %1 minimized %2 vs %3")
                                    .arg(i).arg(results[i].score.affinity).arg(s1.affinity)));
            QVERIFY(std::abs(results[i].score.inter - s1.inter) < 1e-9);
            QVERIFY(std::abs(results[i].score.intra - s1.intra) < 1e-9);
            QCOMPARE(results[i].score.numTors, s1.numTors);
            QVERIFY(results[i].start.affinity != results[i].score.affinity); // moved: not a copy
        }
    }
};

QTEST_GUILESS_MAIN(TestMinimizeHost)
#include "test_minimize_host.moc"
