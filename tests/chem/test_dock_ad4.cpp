// Docking with AutoDock 4 scoring on the CPU reference: maps built from 1stp's receptor over its
// box, biotin docked near the crystal at a reduced budget, reported numbers equal to autodock4's
// arithmetic (Ad4LigandScorer::score, bound unbound-model), and the AD4 bad inputs: an uncharged
// receptor, an atom type without a map, maps that are not the box.
#include "chem/LigandPreparation.h"
#include "chem/MoleculeReader.h"
#include "chem/ReceptorPreparation.h"
#include "core/InputError.h"
#include "dock/Ad4DockMaps.h"
#include "dock/DockEngine.h"
#include "score/ad4/Ad4LigandScorer.h"

#include <QtTest>

using namespace pw;
using namespace pw::dock;

namespace {

std::string complexFile(const char* id, const char* name) {
    return std::string(POSEWRIGHT_TEST_DATA) + "/complexes/" + id + "/" + name;
}

} // namespace

class TestDockAd4 : public QObject {
    Q_OBJECT
    Molecule receptor_, crystal_;
    SearchBox box_;
    DockTarget target_;

private slots:
    void initTestCase() {
        receptor_ = prepareReceptor(readMolecule(complexFile("1stp", "receptor.pdbqt")));
        crystal_ = prepareLigand(readMolecule(complexFile("1stp", "ligand_xtal.pdbqt")));
        box_ = readBoxConfig(complexFile("1stp", "box.txt"));
        target_ = makeAd4Target(receptor_, box_, ad4TypesOf({crystal_}), 2);
    }

    void mapsCoverTheBox() {
        QVERIFY(target_.ad4);
        QCOMPARE(target_.scoring, DockScoring::Ad4);
        const auto& g = target_.ad4->geometry();
        QCOMPARE(g.npts[0], 60); // 22 A / 0.375 = 58.7 -> 59 -> even 60
        QVERIFY((target_.box.center - box_.center).norm() < 1e-12);
        QVERIFY((target_.box.size.array() >= box_.size.array()).all());
        for (const char* t : {"C", "OA", "N", "SA", "HD"})
            QVERIFY2(target_.ad4->mapIndex(t) >= 0, t);
    }

    void docks1stpNearTheCrystal() {
        DockOptions o;
        o.runs = 8;
        o.seed = 5;
        o.threads = 2;
        o.lga.populationSize = 50;
        o.lga.maxEvaluations = 100000;
        o.lga.localSearchIterations = 100;
        o.lga.localSearch = LocalSearchMethod::Bfgs;
        std::vector<LigandDockResult> results;
        QVERIFY(dockLigands(target_, {crystal_}, o, results, nullptr, &crystal_).complete());
        const LigandDockResult& r = results[0];
        QVERIFY2(r.error.empty(), r.error.c_str());
        QVERIFY2(*r.clusters[0].rmsdToReference < 2.0,
                 qPrintable(QString("top pose %1 A from the crystal, score %2")
                                .arg(*r.clusters[0].rmsdToReference)
                                .arg(r.clusters[0].bestScore)));
        const ad4::Ad4LigandScorer scorer(crystal_, *target_.ad4);
        for (const DockRun& run : r.runs) {
            ad4::Ad4Energy e = scorer.score(run.coordinates);
            e.unbound = e.intra; // AutoDock 4.2's default: the unbound state is the bound one
            QVERIFY(std::abs(run.score - e.freeEnergy()) < 1e-9);
            // The search's analytic twin and autodock4's tables agree on inter + intra.
            QVERIFY2(
                std::abs(run.searchEnergy - (e.inter() + e.intra)) < 0.05,
                qPrintable(QString("%1 vs %2").arg(run.searchEnergy).arg(e.inter() + e.intra)));
        }
        // AutoDock-GPU docks biotin's best pose at about -8.3 kcal/mol inter + intra
        // (../shared/reference/peers); even this short search gets below -7.
        QVERIFY(r.runs[r.clusters[0].members[0]].searchEnergy < -7.0);
    }

    void refusesAnUnchargedReceptor() {
        Molecule flat = receptor_;
        for (Atom& a : flat.atoms)
            a.charge = 0;
        try {
            makeAd4Target(flat, box_, {"C"}, 2);
            QFAIL("an uncharged receptor was accepted");
        } catch (const InputError& e) {
            QVERIFY2(QString(e.what()).contains("receptor.pdbqt"), e.what());
            QVERIFY2(QString(e.what()).contains("charge"), e.what());
        }
    }

    void aLigandTypeWithoutAMapIsRefused() {
        const DockTarget carbonOnly = makeAd4Target(receptor_, box_, {"C", "OA"}, 2);
        DockOptions o;
        o.runs = 1;
        o.lga.maxEvaluations = 100;
        std::vector<LigandDockResult> results;
        const BatchStatus s = dockLigands(carbonOnly, {crystal_}, o, results);
        QCOMPARE(s.total, 0L);
        QVERIFY2(QString::fromStdString(results[0].error).contains("map"),
                 results[0].error.c_str());
    }

    void mapsMustBeTheBox() {
        SearchBox shifted = target_.box;
        shifted.center.x() += 3.0;
        try {
            makeAd4Target(target_.ad4, "1stp.maps.fld", &shifted, "box.txt");
            QFAIL("maps off the box were accepted");
        } catch (const InputError& e) {
            QVERIFY2(QString(e.what()).startsWith("box.txt") &&
                         QString(e.what()).contains("1stp.maps.fld"),
                     e.what());
        }
        SearchBox same = target_.box;
        const DockTarget t = makeAd4Target(target_.ad4, "1stp.maps.fld", &same, "box.txt");
        QCOMPARE(t.ad4.get(), target_.ad4.get());
    }
};

QTEST_GUILESS_MAIN(TestDockAd4)
#include "test_dock_ad4.moc"
