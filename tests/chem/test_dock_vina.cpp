// Docking on the CPU reference with Vina scoring: 1stp (biotin in streptavidin) docks from
// random starts to within 2 Å of the crystal at a reduced budget, reported scores are the exact
// re-scores of the final poses, and the same seed gives the same result whatever the threads.
#include "chem/LigandPreparation.h"
#include "chem/MoleculeReader.h"
#include "chem/ReceptorPreparation.h"
#include "dock/DockEngine.h"
#include "dock/SymmetryRmsd.h"
#include "score/LigandScorer.h"

#include <QtTest>

#include <memory>
#include <set>

using namespace pw;
using namespace pw::dock;

namespace {

std::string complexFile(const char* id, const char* name) {
    return std::string(POSEWRIGHT_TEST_DATA) + "/complexes/" + id + "/" + name;
}

// A reduced search: 8 runs, population 50, 40k evaluations each (AD-GPU's default would be
// ~1.1M per run: too slow for CI on the CPU reference).
DockOptions reducedOptions(int threads) {
    DockOptions o;
    o.runs = 8;
    o.seed = 42;
    o.threads = threads;
    o.lga.populationSize = 50;
    o.lga.maxEvaluations = 40000;
    o.lga.localSearchIterations = 100;
    return o;
}

} // namespace

class TestDockVina : public QObject {
    Q_OBJECT
    Molecule receptor_, crystal_;
    std::shared_ptr<DockingTarget> target_;

private slots:
    void initTestCase() {
        receptor_ = prepareReceptor(readMolecule(complexFile("1stp", "receptor.pdbqt")));
        crystal_ = prepareLigand(readMolecule(complexFile("1stp", "ligand_xtal.pdbqt")));
        target_ = std::make_shared<DockingTarget>(
            receptor_, readBoxConfig(complexFile("1stp", "box.txt")), ScoringKind::Vina, 2);
    }

    void docks1stpNearTheCrystal() {
        const DockTarget t = DockTarget::forVina(target_);
        std::vector<LigandDockResult> results;
        const BatchStatus status =
            dockLigands(t, {crystal_}, reducedOptions(2), results, nullptr, &crystal_);
        QVERIFY(status.complete());
        QCOMPARE(status.total, 8L);
        QCOMPARE(int(results.size()), 1);
        const LigandDockResult& r = results[0];
        QVERIFY2(r.error.empty(), r.error.c_str());
        QCOMPARE(int(r.runs.size()), 8);
        QVERIFY(!r.clusters.empty());
        QVERIFY(r.clusters[0].rmsdToReference.has_value());
        QVERIFY2(*r.clusters[0].rmsdToReference < 2.0,
                 qPrintable(QString("top pose %1 A from the crystal, score %2")
                                .arg(*r.clusters[0].rmsdToReference)
                                .arg(r.clusters[0].bestScore)));
        // Vina scores biotin's crystal pose about -7 kcal/mol; a docked pose near it likewise.
        QVERIFY2(r.clusters[0].bestScore < -6.0,
                 qPrintable(QString::number(r.clusters[0].bestScore)));
        // Clusters are ranked, cover every run once, and their members are best first.
        int members = 0;
        for (size_t c = 0; c < r.clusters.size(); ++c) {
            QCOMPARE(r.clusters[c].rank, int(c) + 1);
            if (c > 0)
                QVERIFY(r.clusters[c].bestScore >= r.clusters[c - 1].bestScore);
            for (size_t k = 1; k < r.clusters[c].members.size(); ++k)
                QVERIFY(r.runs[r.clusters[c].members[k]].score >=
                        r.runs[r.clusters[c].members[k - 1]].score);
            members += r.clusters[c].size();
        }
        QCOMPARE(members, 8);
        // Reported scores are exact re-scores of the final coordinates (as minimize reports).
        LigandScorer exact(crystal_, target_->scoring(), target_->receptor());
        for (const DockRun& run : r.runs) {
            QCOMPARE(int(run.coordinates.size()), int(crystal_.atoms.size()));
            QVERIFY(std::abs(run.score - exact.finalScore(run.coordinates).affinity) < 1e-9);
            QVERIFY(run.evaluations >= 40000);
            QVERIFY(!run.terms.empty());
        }
    }

    // The reported cluster bests are polished (DockFinish.h): with the same seed the search is the
    // same, each cluster's best run ends no higher than unpolished (lower where the search had not
    // reached the nearest minimum, which a 40k-evaluation search never does on every cluster),
    // other runs are untouched, clusters stay ranked, scores stay exact re-scores, and the
    // polish depends on no thread count.
    void polishLowersTheClusterBestsOnly() {
        const DockTarget t = DockTarget::forVina(target_);
        DockOptions o = reducedOptions(2);
        o.polish = false;
        std::vector<LigandDockResult> searched, polished, polished1;
        dockLigands(t, {crystal_}, o, searched, nullptr, &crystal_);
        o.polish = true;
        dockLigands(t, {crystal_}, o, polished, nullptr, &crystal_);
        o.threads = 1;
        dockLigands(t, {crystal_}, o, polished1, nullptr, &crystal_);
        const LigandDockResult& s = searched[0];
        const LigandDockResult& p = polished[0];
        QCOMPARE(p.runs.size(), s.runs.size());
        std::set<int> bests;
        for (const DockCluster& c : s.clusters)
            bests.insert(c.members[0]);
        LigandScorer exact(crystal_, target_->scoring(), target_->receptor());
        int lowered = 0;
        for (size_t k = 0; k < p.runs.size(); ++k) {
            const DockRun& a = s.runs[k];
            const DockRun& b = p.runs[k];
            QCOMPARE(b.searchEnergy, a.searchEnergy); // the same search
            QVERIFY(std::abs(b.score - exact.finalScore(b.coordinates).affinity) < 1e-9);
            QCOMPARE(polished1[0].runs[k].score, b.score);
            QVERIFY(polished1[0].runs[k].coordinates == b.coordinates);
            if (!bests.count(static_cast<int>(k))) {
                QVERIFY(!b.polished);
                QVERIFY(b.coordinates == a.coordinates);
                continue;
            }
            QVERIFY2(b.score <= a.score, qPrintable(QString("run %1: %2 after, %3 before")
                                                         .arg(k).arg(b.score).arg(a.score)));
            QCOMPARE(b.polished, b.score < a.score);
            lowered += b.score < a.score - 1e-3;
            if (b.polished)
                QVERIFY(b.rmsdToReference.has_value());
        }
        QVERIFY2(lowered >= 1, "no cluster best was lowered by the polish");
        QCOMPARE(p.clusters.size(), s.clusters.size());
        for (size_t c = 0; c < p.clusters.size(); ++c) {
            QCOMPARE(p.clusters[c].rank, int(c) + 1);
            QCOMPARE(p.clusters[c].bestScore, p.runs[p.clusters[c].members[0]].score);
            QCOMPARE(p.clusters[c].rmsdToReference, p.runs[p.clusters[c].members[0]].rmsdToReference);
            if (c > 0)
                QVERIFY(p.clusters[c].bestScore >= p.clusters[c - 1].bestScore);
        }
        qInfo("best %.3f searched, %.3f polished; %d of %zu cluster bests lowered",
              s.clusters[0].bestScore, p.clusters[0].bestScore, lowered, s.clusters.size());
    }

    void sameSeedSameResultWhateverTheThreads() {
        const DockTarget t = DockTarget::forVina(target_);
        DockOptions o = reducedOptions(1);
        o.runs = 3;
        o.lga.maxEvaluations = 8000;
        std::vector<LigandDockResult> a, b, c;
        dockLigands(t, {crystal_}, o, a);
        o.threads = 3;
        dockLigands(t, {crystal_}, o, b);
        for (int run = 0; run < 3; ++run) {
            QCOMPARE(a[0].runs[run].score, b[0].runs[run].score);
            QVERIFY(a[0].runs[run].coordinates == b[0].runs[run].coordinates);
        }
        o.seed = 43;
        dockLigands(t, {crystal_}, o, c);
        QVERIFY(a[0].runs[0].coordinates != c[0].runs[0].coordinates);
    }

    void refusesALigandLongerThanTheBoxAndGoesOn() {
        SearchBox tiny = target_->box();
        tiny.size = Vec3(3, 3, 3);
        auto small = std::make_shared<DockingTarget>(receptor_, tiny, ScoringKind::Vina, 2);
        DockOptions o = reducedOptions(2);
        o.runs = 1;
        o.lga.maxEvaluations = 500;
        std::vector<LigandDockResult> results;
        const BatchStatus s = dockLigands(DockTarget::forVina(small), {crystal_}, o, results);
        QCOMPARE(s.total, 0L);
        QVERIFY(results[0].runs.empty());
        QVERIFY2(QString::fromStdString(results[0].error).contains("diagonal"),
                 results[0].error.c_str());
        QVERIFY(QString::fromStdString(results[0].error).contains("ligand_xtal.pdbqt"));
    }

    void aCancelStopsTheBatch() {
        const DockTarget t = DockTarget::forVina(target_);
        DockOptions o = reducedOptions(1);
        o.runs = 4;
        Progress progress;
        progress.cancel = true;
        std::vector<LigandDockResult> results;
        const BatchStatus s = dockLigands(t, {crystal_}, o, results, &progress);
        QVERIFY(s.cancelled);
        QCOMPARE(s.done, 0L);
        QVERIFY(results[0].cancelled);
    }
};

QTEST_GUILESS_MAIN(TestDockVina)
#include "test_dock_vina.moc"
