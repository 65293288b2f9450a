// Ligand preparation's bounds on slow inputs: a flat (2D, z = 0) 300-carbon chain is refused for
// its torsions in seconds, before any 3D embedding (it used to spend minutes in RDKit first); the
// embedding itself stops at its deadline with a clear message; ordinary 2D inputs still embed.
#include "chem/LigandPreparation.h"
#include "chem/SmilesReader.h"
#include "core/InputError.h"

#include <QElapsedTimer>
#include <QtTest>

#include <cmath>
#include <functional>

using namespace pw;

namespace {

std::string errorOf(const std::function<void()>& f) {
    try {
        f();
    } catch (const InputError& e) {
        return e.what();
    }
    return "(no error)";
}

// The SMILES's graph laid out as a 2D drawing: heavy atoms on a zigzag, or on a circle for
// rings, all z = 0 (what a 2D SDF from a drawing program holds).
Molecule flatDrawing(const std::string& smiles, const std::string& name, bool circle = false) {
    Molecule m = moleculeFromSmiles(smiles, name, false, "drawing.sdf");
    m.sourceFile = "drawing.sdf";
    m.sourceRecord = 1;
    const int n = int(m.atoms.size());
    for (int i = 0; i < n; ++i) {
        const double a = 2 * M_PI * i / n, r = 1.5 * n / (2 * M_PI);
        m.atoms[i].position =
            circle ? Vec3(r * std::cos(a), r * std::sin(a), 0) : Vec3(1.3 * i, (i % 2) * 0.75, 0);
    }
    return m;
}

} // namespace

class TestPrepLimits : public QObject {
    Q_OBJECT
private slots:
    void flatLargeChainIsRefusedInSeconds() {
        const Molecule chain = flatDrawing(std::string(300, 'C'), "C300");
        QCOMPARE(chain.heavyAtomCount(), 300);
        QElapsedTimer clock;
        clock.start();
        const std::string msg = errorOf([&] { prepareLigand(chain); });
        const qint64 ms = clock.elapsed();
        // 298 C-C bonds move heavy atoms on both sides; the two end bonds turn only hydrogens.
        QVERIFY2(msg == "drawing.sdf:1: molecule 'C300' has 297 torsions; at most 64 are accepted",
                 msg.c_str());
        QVERIFY2(ms < 10000, qPrintable(QString("refused after %1 ms").arg(ms)));
    }

    // (The SMILES reader embeds through the same bounded recipe, RdkitConvert's tryEmbed3D.)
    void embeddingStopsAtItsDeadline() {
        const Molecule acid = flatDrawing("OC(=O)c1ccccc1", "benzoic acid");
        LigandPreparationOptions none;
        none.maxEmbedSeconds = 0; // the deadline has passed before the first attempt
        const std::string msg = errorOf([&] { prepareLigand(acid, none); });
        QVERIFY2(msg == "drawing.sdf:1: molecule 'benzoic acid' has no 3D coordinates, and "
                        "generating them took longer than 0 s (15 atoms with hydrogens): give it "
                        "with 3D coordinates",
                 msg.c_str());
        // With the default bounds the same drawing gets 3D coordinates.
        const Molecule lig = prepareLigand(acid);
        auto [lo, hi] = lig.boundingBox();
        QVERIFY((hi - lo).minCoeff() > 0.5);
        QCOMPARE(lig.torsionTree->torsionCount(), 1);
    }

    void flatMacrocycleIsBoundedInTime() {
        // No torsion to refuse it: a 2D 60-membered ring goes to the embedding, which must end
        // (coordinates or a refusal) within its deadline plus one attempt and the force field.
        const Molecule ring = flatDrawing("C1" + std::string(58, 'C') + "C1", "C60 ring", true);
        LigandPreparationOptions quick;
        quick.maxEmbedSeconds = 0.5;
        QElapsedTimer clock;
        clock.start();
        const std::string msg = errorOf([&] {
            const Molecule lig = prepareLigand(ring, quick);
            QCOMPARE(lig.torsionTree->torsionCount(), 0);
        });
        const qint64 ms = clock.elapsed();
        QVERIFY2(msg == "(no error)" ||
                     msg.find("has no 3D coordinates, and ") != std::string::npos,
                 msg.c_str());
        QVERIFY2(ms < 60000, qPrintable(QString("took %1 ms (%2)").arg(ms).arg(msg.c_str())));
        qInfo("C60 ring: %lld ms, %s", ms, msg.c_str());
    }
};

QTEST_GUILESS_MAIN(TestPrepLimits)
#include "test_prep_limits.moc"
