// Minimization against AutoDock Vina 1.2.3 --local_only (tests/data/reference/<id>.json): from
// the crystal pose and ten perturbed poses of 1iep, 1stp and 3ce3 our minimized affinity is at
// most Vina's + 0.05 kcal/mol, and poses Vina brings back near the crystal we bring back too.
#include "chem/LigandPreparation.h"
#include "chem/MoleculeReader.h"
#include "chem/ReceptorPreparation.h"
#include "minimize/PosePerturbation.h"
#include "minimize/PoseRefinement.h"
#include "score/DockingTarget.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

using namespace pw;

namespace {

QString dataPath(const QString& rel) { return QString(POSEWRIGHT_TEST_DATA) + "/" + rel; }

QJsonObject reference(const QString& id) {
    QFile f(dataPath("reference/" + id + ".json"));
    if (!f.open(QIODevice::ReadOnly))
        qFatal("missing reference %s", qPrintable(id));
    return QJsonDocument::fromJson(f.readAll()).object();
}

struct Complex {
    Molecule receptor;
    Molecule crystal;
    std::unique_ptr<DockingTarget> target;
};

Complex load(const QString& id) {
    Complex c;
    const std::string dir = dataPath("complexes/" + id + "/").toStdString();
    c.receptor = prepareReceptor(readMolecule(dir + "receptor.pdbqt"));
    c.crystal = prepareLigand(readMolecule(dir + "ligand_xtal.pdbqt"));
    c.target = std::make_unique<DockingTarget>(c.receptor, readBoxConfig(dir + "box.txt"),
                                               ScoringKind::Vina, 2);
    return c;
}

RefinementResult minimizeFile(Complex& c, const std::string& file, bool vinaSteps, Molecule* out) {
    Molecule lig = prepareLigand(readMolecule(file));
    LigandScorer scorer(lig, c.target->scoring(), c.target->receptor(),
                        &c.target->gridFor(c.target->commonLigandTypes()));
    LigandScorer exact(lig, c.target->scoring(), c.target->receptor());
    RefinementOptions options;
    options.vinaSteps = vinaSteps;
    if (out)
        *out = lig;
    return refinePose(lig, scorer, exact, options);
}

} // namespace

class TestMinimizeVina : public QObject {
    Q_OBJECT
private slots:
    void againstVinaLocalOnly_data() {
        QTest::addColumn<QString>("id");
        QTest::newRow("1iep") << "1iep";
        QTest::newRow("1stp") << "1stp";
        QTest::newRow("3ce3") << "3ce3";
    }
    void againstVinaLocalOnly() {
        QFETCH(QString, id);
        Complex c = load(id);
        const QJsonObject poses = reference(id)["poses"].toObject();
        const std::string dir = dataPath("complexes/" + id + "/").toStdString();
        std::vector<Vec3> crystal;
        for (const Atom& a : c.crystal.atoms)
            crystal.push_back(a.position);
        int nearVina = 0, nearOurs = 0;
        for (const QString& key : poses.keys()) {
            const QJsonObject p = poses[key].toObject();
            const double vina = p["local_only"].toObject()["affinity"].toDouble();
            Molecule lig;
            RefinementResult r =
                minimizeFile(c, dir + p["file"].toString().toStdString(), false, &lig);
            // Vina's own minimized pose, to see whether it came back near the crystal.
            std::string outFile = dir + p["file"].toString().toStdString();
            outFile.replace(outFile.size() - 6, 6, "_out.pdbqt");
            Molecule vinaOut = readMolecule(outFile);
            std::vector<Vec3> vinaCoords;
            for (const Atom& a : vinaOut.atoms)
                vinaCoords.push_back(a.position);
            const double vinaRmsd = heavyAtomRmsd(c.crystal, vinaCoords, crystal);
            const double ourRmsd = heavyAtomRmsd(c.crystal, r.coordinates, crystal);
            qInfo("%s %s: vina %.3f ours %.3f (start %.3f) iterations %d rmsd to crystal vina "
                  "%.2f ours %.2f",
                  qPrintable(id), qPrintable(key), vina, r.score.affinity, r.start.affinity,
                  r.iterations, vinaRmsd, ourRmsd);
            QVERIFY2(r.score.affinity <= vina + 0.05,
                     qPrintable(QString("%1 %2: ours %3 > Vina %4 + 0.05")
                                    .arg(id, key)
                                    .arg(r.score.affinity)
                                    .arg(vina)));
            if (vinaRmsd < 2.0) {
                ++nearVina;
                if (ourRmsd < 2.0)
                    ++nearOurs;
            }
        }
        QCOMPARE(nearOurs, nearVina);
    }

    // The pose-space gradient of the real Vina energy (inter + intra, exact mode: the smooth
    // analytic potential), rolled up the torsion tree, equals central finite differences along
    // every pose coordinate (position, rotation vector, each torsion) on random poses.
    void internalGradientMatchesFiniteDifferences_data() { againstVinaLocalOnly_data(); }
    void internalGradientMatchesFiniteDifferences() {
        QFETCH(QString, id);
        Complex c = load(id);
        LigandScorer exact(c.crystal, c.target->scoring(), c.target->receptor());
        LigandKinematics kin(c.crystal);
        PosePerturbation perturb(c.crystal);
        KinematicFrames frames = kin.makeFrames();
        std::vector<Vec3> coords, atomGrad;
        auto energy = [&](const Pose& p) {
            kin.coordinates(p, frames, coords);
            return exact.evaluate(coords, &atomGrad);
        };
        int checked = 0;
        for (std::uint64_t k = 0; k < 5; ++k) {
            const Pose pose = perturb.pose(7, k);
            energy(pose);
            std::vector<double> analytic(kin.dimension());
            kin.gradient(frames, coords, atomGrad, analytic.data());
            for (int d = 0; d < kin.dimension(); ++d) {
                const double h = 1e-5;
                std::vector<double> step(kin.dimension(), 0.0);
                step[d] = 1.0;
                Pose plus = pose, minus = pose;
                plus.applyStep(step.data(), h);
                minus.applyStep(step.data(), -h);
                const double numeric = (energy(plus) - energy(minus)) / (2 * h);
                const double scale = std::max({std::abs(numeric), std::abs(analytic[d]), 1.0});
                QVERIFY2(std::abs(numeric - analytic[d]) <= 1e-4 * scale,
                         qPrintable(QString("%1 pose %2 coordinate %3: analytic %4, numeric %5")
                                        .arg(id)
                                        .arg(k)
                                        .arg(d)
                                        .arg(analytic[d], 0, 'g', 10)
                                        .arg(numeric, 0, 'g', 10)));
                ++checked;
            }
        }
        QVERIFY(checked >= 5 * 11);
    }

    // Vina's own budget ((25 + movable atoms)/3 Armijo steps) from the crystal pose, where the
    // start lies inside the grid and Vina runs its loop once: our numbers follow Vina's closely.
    void vinaStepsFromCrystal_data() { againstVinaLocalOnly_data(); }
    void vinaStepsFromCrystal() {
        QFETCH(QString, id);
        Complex c = load(id);
        const QJsonObject p = reference(id)["poses"].toObject()["xtal"].toObject();
        const double vina = p["local_only"].toObject()["affinity"].toDouble();
        const std::string dir = dataPath("complexes/" + id + "/").toStdString();
        RefinementResult r = minimizeFile(c, dir + "ligand_xtal.pdbqt", true, nullptr);
        qInfo("%s xtal, Vina steps: vina %.3f ours %.3f after %d steps", qPrintable(id), vina,
              r.score.affinity, r.iterations);
        QVERIFY(std::abs(r.score.affinity - vina) < 0.1);
    }
};

QTEST_GUILESS_MAIN(TestMinimizeVina)
#include "test_minimize_vina.moc"
