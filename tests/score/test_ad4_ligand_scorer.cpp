// AutoDock 4 scoring of ligand poses against autodock4 4.2.6 itself: the crystal ligands of 1stp
// and 3ce3 and ten poses of each (several partly outside the grid), on the maps in
// ../shared/data/complexes/*/ad4maps, part by part (tests/data/reference/ad4/epdb_complexes.tsv,
// made by epdb_ref.sh there). Then the analytic form: its gradient against finite differences,
// and its value against the table form.
#include "Ad4ReferenceFixture.h"
#include "PdbqtFixture.h"

#include "core/InputError.h"
#include "score/ad4/Ad4LigandScorer.h"
#include "score/ad4/Ad4MapFiles.h"
#include "score/ad4/Ad4Topology.h"

#include <QFile>
#include <QtTest>

#include <map>

using namespace pw;
using namespace pw::ad4;

namespace {

std::string mapsOf(const std::string& complex) {
    return std::string(POSEWRIGHT_SHARED_DATA) + "/complexes/" + complex + "/ad4maps/" + complex +
           "_protein.maps.fld";
}

} // namespace

class TestAd4LigandScorer : public QObject {
    Q_OBJECT

    std::map<std::string, Ad4Maps> maps_;

    const Ad4Maps& maps(const std::string& complex) {
        auto it = maps_.find(complex);
        if (it == maps_.end())
            it = maps_.emplace(complex, readMapsFld(mapsOf(complex))).first;
        return it->second;
    }

private slots:
    void equalsAutodock4Epdb() {
        const auto refs = pwtest::readAd4References(pwtest::dataPath("reference/ad4/epdb_complexes.tsv"));
        QCOMPARE(static_cast<int>(refs.size()), 22);
        for (const pwtest::Ad4Reference& r : refs) {
            const std::string complex = r.label.substr(0, r.label.find('/'));
            const Molecule lig = pwtest::readPdbqtForTest(pwtest::dataPath("complexes/" + r.label));
            const Ad4LigandScorer scorer(lig, maps(complex));
            const Ad4Energy e = scorer.score(pwtest::positions(lig));
            const QString diff = pwtest::compareAd4(e, static_cast<int>(scorer.internalPairs().size()), r);
            QVERIFY2(diff.isEmpty(), qPrintable(diff));
        }
    }

    void dockedPosesEqualAutodock4Docking() {
        // Four poses docked by autodock4 4.2.6 itself (reference/ad4/dock_1stp.dpf, `unbound_model
        // bound`), as its DLG gives them (coordinates to 3 decimals), and the DOCKED: USER lines it
        // printed for them (2 decimals): 0.01 covers both roundings.
        QFile f(QString::fromStdString(pwtest::dataPath("reference/ad4/docked_1stp.tsv")));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = f.readAll().trimmed().split('\n');
        QCOMPARE(lines.size(), 5);
        for (int l = 1; l < lines.size(); ++l) {
            const QList<QByteArray> c = lines[l].split('\t');
            QCOMPARE(c.size(), 8);
            const Molecule lig = pwtest::readPdbqtForTest(pwtest::dataPath("complexes/1stp/ad4_docked/" + c[0].toStdString()));
            const Ad4LigandScorer scorer(lig, maps("1stp"));
            const Ad4Energy e = scorer.score(pwtest::positions(lig), UnboundModel::SameAsBound);
            const double ours[7] = {e.freeEnergy(), e.inter(), e.interVdwHbDesolv, e.interElec, e.intra, e.torsional, e.unbound};
            for (int k = 0; k < 7; ++k)
                QVERIFY2(std::fabs(ours[k] - c[k + 1].toDouble()) <= 0.01,
                         qPrintable(QString("%1 column %2: ours %3, autodock4 %4").arg(c[0].constData()).arg(k + 1).arg(ours[k]).arg(c[k + 1].constData())));
            // Same as bound: the free energy is inter + torsional.
            QVERIFY(std::fabs(e.freeEnergy() - (e.inter() + e.torsional)) < 1e-12);
        }
    }

    void crystalBreakdown() {
        // 1stp: autodock4 prints FEB -7.70 = -8.97 - 0.21 + 1.49 - 0.00.
        const Molecule lig = pwtest::readPdbqtForTest(pwtest::dataPath("complexes/1stp/ligand_xtal.pdbqt"));
        const Ad4LigandScorer scorer(lig, maps("1stp"));
        QCOMPARE(scorer.torsdof(), 5);
        const Ad4Energy e = scorer.score(pwtest::positions(lig));
        QCOMPARE(static_cast<int>(e.perAtom.size()), 18);
        QVERIFY(std::fabs(e.freeEnergy() - -7.70) < 0.005);
        // Per atom (autodock4's "Intermolecular Energy Analysis"): atom 16 OA -1.2588 -0.0951 0.2762.
        QVERIFY(std::fabs(e.perAtom[15].vdwHb - -1.2588) < 5e-5);
        QVERIFY(std::fabs(e.perAtom[15].elec - -0.0951) < 5e-5);
        QVERIFY(std::fabs(e.perAtom[15].desolv - 0.2762) < 5e-5);
    }

    void analyticGradientMatchesFiniteDifferences() {
        const Molecule lig = pwtest::readPdbqtForTest(pwtest::dataPath("complexes/3ce3/ligand_xtal.pdbqt"));
        const Ad4LigandScorer scorer(lig, maps("3ce3"));
        std::vector<Vec3> x = pwtest::positions(lig);
        // Off the grid points, so that no coordinate sits on a cell face.
        for (auto& p : x)
            p += Vec3(0.0123, -0.0171, 0.0089);
        std::vector<Vec3> g;
        scorer.energyAndGradient(x, &g);
        const double h = 1e-5;
        for (size_t i = 0; i < x.size(); ++i)
            for (int a = 0; a < 3; ++a) {
                std::vector<Vec3> xp = x, xm = x;
                xp[i][a] += h;
                xm[i][a] -= h;
                const double fd = (scorer.energyAndGradient(xp) - scorer.energyAndGradient(xm)) / (2 * h);
                QVERIFY2(std::fabs(fd - g[i][a]) < 1e-4 * std::max(1.0, std::fabs(fd)),
                         qPrintable(QString("atom %1 axis %2: analytic %3, numeric %4").arg(i).arg(a).arg(g[i][a]).arg(fd)));
            }
    }

    void analyticFormIsCloseToTheTables() {
        for (const char* c : {"1stp", "3ce3"}) {
            const Molecule lig = pwtest::readPdbqtForTest(pwtest::dataPath(std::string("complexes/") + c + "/ligand_xtal.pdbqt"));
            const Ad4LigandScorer scorer(lig, maps(c));
            const auto x = pwtest::positions(lig);
            const Ad4Energy e = scorer.score(x);
            const double a = scorer.energyAndGradient(x);
            // Same maps and interpolant; the internal energy differs only by the tables' sampling.
            QVERIFY2(std::fabs(a - (e.inter() + e.intra)) < 0.01, qPrintable(QString("%1 %2 %3").arg(c).arg(a).arg(e.inter() + e.intra)));
            QVERIFY(std::fabs(scorer.interAnalytic(x, nullptr) - e.inter()) < 1e-5);
        }
    }

    void splinesEqualTheClosedForms() {
        // energyAndGradient reads the internal energy from splines of the closed forms.
        const Molecule lig = pwtest::readPdbqtForTest(pwtest::dataPath("complexes/3ce3/ligand_xtal.pdbqt"));
        const Ad4LigandScorer scorer(lig, maps("3ce3"));
        for (const char* pose : {"ligand_xtal.pdbqt", "poses/pose03.pdbqt", "poses/pose09.pdbqt"}) {
            const auto x = pwtest::positions(pwtest::readPdbqtForTest(pwtest::dataPath(std::string("complexes/3ce3/") + pose)));
            std::vector<Vec3> ga(x.size(), Vec3::Zero()), gs(x.size(), Vec3::Zero());
            const double a = scorer.intraAnalytic(x, &ga);
            const double b = scorer.intraSpline(x, &gs);
            QVERIFY2(std::fabs(a - b) < 1e-6, qPrintable(QString("%1: %2 vs %3").arg(pose).arg(a).arg(b)));
            for (size_t i = 0; i < x.size(); ++i)
                QVERIFY2((ga[i] - gs[i]).norm() < 1e-5 * std::max(1.0, ga[i].norm()), pose);
        }
    }

    void outsideTheGridPaysThePenalty() {
        const Molecule lig = pwtest::readPdbqtForTest(pwtest::dataPath("complexes/1stp/ligand_xtal.pdbqt"));
        const Ad4LigandScorer scorer(lig, maps("1stp"));
        std::vector<Vec3> x = pwtest::positions(lig);
        const Vec3 shift(30, 0, 0);
        for (auto& p : x)
            p += shift;
        const Ad4Energy e = scorer.score(x);
        double expected = 0;
        for (const Vec3& p : x)
            expected += 500.0 * (p - maps("1stp").geometry().center).squaredNorm();
        QVERIFY(std::fabs(e.interElec - expected) < 1e-6 * expected);
        QVERIFY(std::fabs(e.interVdwHbDesolv - expected) < 1e-6 * expected);
        std::vector<Vec3> g;
        const double a = scorer.energyAndGradient(x, &g);
        QVERIFY(std::fabs(a - e.inter() - e.intra) < 1e-6 * expected);
        QVERIFY(g[0].x() > 0); // pushed back towards the centre
    }

    void typeWithoutAMapIsAClearError() {
        Molecule lig = pwtest::readPdbqtForTest(pwtest::dataPath("complexes/1stp/ligand_xtal.pdbqt"));
        lig.atoms[3].ad4Type = "Cl"; // 1stp's maps have no Cl map
        try {
            Ad4LigandScorer scorer(lig, maps("1stp"));
            QFAIL("no error for a type without a map");
        } catch (const InputError& e) {
            const QString msg = e.what();
            QVERIFY2(msg.contains("ligand_xtal.pdbqt") && msg.contains("atom 4") && msg.contains("no Cl map"), qPrintable(msg));
        }
        lig.atoms[3].ad4Type = "Xx";
        QVERIFY_THROWS_EXCEPTION(InputError, Ad4LigandScorer(lig, maps("1stp")));
    }

    void wrongCoordinateCountIsRefused() {
        const Molecule lig = pwtest::readPdbqtForTest(pwtest::dataPath("complexes/1stp/ligand_xtal.pdbqt"));
        const Ad4LigandScorer scorer(lig, maps("1stp"));
        std::vector<Vec3> x = pwtest::positions(lig);
        x.pop_back();
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, scorer.score(x));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, scorer.energyAndGradient(x));
    }

    void rigidLigandHasNoInternalEnergy() {
        Molecule lig = pwtest::readPdbqtForTest(pwtest::dataPath("complexes/1stp/ligand_xtal.pdbqt"));
        lig.torsionTree.reset();
        QVERIFY(ad4NonbondedPairs(lig).empty());
        QCOMPARE(static_cast<int>(ad4Bonds(lig).size()), 19); // biotin: 16 heavy atoms, 2 rings, 2 polar H
    }
};

QTEST_APPLESS_MAIN(TestAd4LigandScorer)
#include "test_ad4_ligand_scorer.moc"
