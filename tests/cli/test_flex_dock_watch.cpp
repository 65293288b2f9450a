// Qt Test for the watching and stopping of docking with flexible side chains (engine/dock/
// FlexDock: onGeneration, onRunDone, cancel; what the app's docking panel uses): a watched
// docking gives the unwatched one bit for bit, every run reports its generations in order with a
// best no worse than the mean and a pose of ligand plus side-chain torsions, every run's end is
// counted, and a docking cancelled before it starts searches nothing. Inputs: tests/data/flex
// (1fpu with THR A 315 moving, imatinib, the box), a small budget.
#include "chem/FlexResidueSplit.h"
#include "chem/LigandPreparation.h"
#include "chem/MoleculeReader.h"
#include "chem/ReceptorPreparation.h"
#include "dock/FlexDock.h"
#include "score/BoxConfig.h"
#include "score/DockingTarget.h"
#include "score/LigandScorer.h"
#include "score/flex/FlexModel.h"
#include "score/flex/FlexScorer.h"

#include <QtTest>

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>

using namespace pw;

namespace {

const std::string kFlex = POSEWRIGHT_TEST_DATA "/flex/";

// Everything a FlexDockSetup points at, kept alive together.
struct FlexCase {
    Molecule ligand;
    std::unique_ptr<FlexModel> flex;
    std::unique_ptr<DockingTarget> target;
    const ReceptorGrid* grid = nullptr;
    std::unique_ptr<LigandScorer> exact, onGrid;
    std::unique_ptr<FlexScorer> scorer;
    SearchBox box;
    int ligandTorsions = 0;

    FlexCase() {
        const VinaConfig config = readVinaConfig(kFlex + "1fpu_receptor.box.txt");
        box = config.box;
        Molecule receptor = prepareReceptor(readMolecule(kFlex + "1fpu_receptor_whole.pdbqt"));
        FlexSplit split =
            splitFlexResidues(receptor, parseFlexResidueSpecs("A:THR315"), "receptor");
        receptor = std::move(split.rigid);
        flex = std::make_unique<FlexModel>(std::move(split.residues), receptor);
        target =
            std::make_unique<DockingTarget>(receptor, box, ScoringFunction(ScoringKind::Vina), 1);
        ligand = prepareLigand(readMolecule(kFlex + "1iep_ligand.pdbqt"));
        ligandTorsions = ligand.torsionTree ? ligand.torsionTree->torsionCount() : 0;
        std::vector<XsType> types = flex->movableTypes();
        for (const Atom& a : ligand.atoms)
            if (a.xs != XsType::None && std::find(types.begin(), types.end(), a.xs) == types.end())
                types.push_back(a.xs);
        grid = &target->gridFor(types);
        exact = std::make_unique<LigandScorer>(ligand, target->scoring(), target->receptor());
        onGrid =
            std::make_unique<LigandScorer>(ligand, target->scoring(), target->receptor(), grid);
        scorer = std::make_unique<FlexScorer>(*exact, *flex, grid);
    }

    dock::FlexDockSetup setup(int threads) const {
        dock::FlexDockSetup s;
        s.exact = scorer.get();
        s.gridLigand = onGrid.get();
        s.grid = grid;
        s.box = box;
        s.lga.populationSize = 20;
        s.lga.localSearchIterations = 20;
        s.runs = 3;
        s.evaluationsPerRun = 4000;
        s.seed = 5;
        s.threads = threads;
        return s;
    }
};

} // namespace

class TestFlexDockWatch : public QObject {
    Q_OBJECT

private slots:
    void watchedEqualsUnwatched();
    void cancelledBeforeItStartsSearchesNothing();
};

void TestFlexDockWatch::watchedEqualsUnwatched() {
    const FlexCase c;
    QVERIFY(c.flex->torsionCount() > 0);
    const std::vector<dock::FlexDockRun> plain = dock::dockLigandWithFlex(c.ligand, c.setup(1));

    dock::FlexDockSetup watched = c.setup(2); // two threads: the observers are called concurrently
    std::mutex mutex;
    std::map<int, std::vector<long>> generations; // by run
    bool bestBelowMean = true, poseSized = true;
    watched.onGeneration = [&](const dock::GenerationReport& r) {
        std::lock_guard lock(mutex);
        generations[r.run].push_back(r.generation);
        bestBelowMean = bestBelowMean && r.bestEnergy <= r.meanEnergy + 1e-12;
        poseSized = poseSized && r.best && r.kinematics &&
                    static_cast<int>(r.best->torsions.size()) ==
                        c.ligandTorsions + c.flex->torsionCount() &&
                    r.kinematics->coordinates(*r.best).size() == c.ligand.atoms.size();
    };
    std::vector<long> ended;
    watched.onRunDone = [&](long done) {
        std::lock_guard lock(mutex);
        ended.push_back(done);
    };
    const std::atomic<bool> notCancelled{false};
    watched.cancel = &notCancelled;
    const std::vector<dock::FlexDockRun> seen = dock::dockLigandWithFlex(c.ligand, watched);

    QCOMPARE(seen.size(), plain.size());
    for (size_t k = 0; k < seen.size(); ++k) {
        QCOMPARE(seen[k].run, plain[k].run);
        QCOMPARE(seen[k].score.affinity, plain[k].score.affinity);
        QCOMPARE(seen[k].searchEnergy, plain[k].searchEnergy);
        QCOMPARE(seen[k].evaluations, plain[k].evaluations);
        QCOMPARE(seen[k].ligandCoordinates, plain[k].ligandCoordinates);
        QCOMPARE(seen[k].flexCoordinates, plain[k].flexCoordinates);
    }
    QCOMPARE(static_cast<int>(generations.size()), watched.runs);
    for (const dock::FlexDockRun& r : seen) {
        const std::vector<long>& g = generations[r.run];
        QCOMPARE(static_cast<long>(g.size()), r.generations);
        for (size_t i = 0; i < g.size(); ++i)
            QCOMPARE(g[i], static_cast<long>(i) + 1);
    }
    QVERIFY(bestBelowMean);
    QVERIFY(poseSized);
    std::sort(ended.begin(), ended.end());
    QCOMPARE(ended, (std::vector<long>{1, 2, 3}));
}

void TestFlexDockWatch::cancelledBeforeItStartsSearchesNothing() {
    const FlexCase c;
    dock::FlexDockSetup s = c.setup(1);
    const std::atomic<bool> cancelled{true};
    s.cancel = &cancelled;
    int reports = 0;
    s.onGeneration = [&](const dock::GenerationReport&) { ++reports; };
    long ended = 0;
    s.onRunDone = [&](long done) { ended = done; };
    const std::vector<dock::FlexDockRun> runs = dock::dockLigandWithFlex(c.ligand, s);
    QCOMPARE(static_cast<int>(runs.size()), s.runs);
    for (const dock::FlexDockRun& r : runs) {
        QCOMPARE(r.generations, 0L);
        QVERIFY(r.ligandCoordinates.empty()); // no final minimization either
    }
    QCOMPARE(reports, 0);
    QCOMPARE(ended, 3L); // every run still ends
}

QTEST_MAIN(TestFlexDockWatch)
#include "test_flex_dock_watch.moc"
