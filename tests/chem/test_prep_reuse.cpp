// Tests for PreparedLigandCache: for every record of real multi-pose files (Vina poses of 1iep,
// 1stp and 3ce3 as PDBQT and as SDF, the 1iep ligand at many perturbed poses with and without
// its non-polar hydrogens) the reused preparation equals a fresh prepareLigand exactly: atom
// order, elements, coordinates, charges, types, bonds, torsion tree, names and tags.
#include "chem/LigandPreparation.h"
#include "chem/MoleculeReader.h"
#include "chem/MoleculeWriter.h"
#include "chem/PreparedLigandCache.h"
#include "core/InputError.h"
#include "core/ParallelFor.h"
#include "minimize/PosePerturbation.h"

#include <QDir>
#include <QTemporaryDir>
#include <QtTest>

#include <random>
#include <set>

using namespace pw;

namespace {

const std::string kData = POSEWRIGHT_TEST_DATA;

// Empty when equal, else the first difference (bit-exact on every number).
std::string difference(const Molecule& a, const Molecule& b) {
    if (a.name != b.name || a.properties != b.properties || a.sourceFile != b.sourceFile ||
        a.sourceRecord != b.sourceRecord)
        return "name, tags or source";
    if (a.atoms.size() != b.atoms.size())
        return "atom count " + std::to_string(a.atoms.size()) + " vs " +
               std::to_string(b.atoms.size());
    for (size_t i = 0; i < a.atoms.size(); ++i) {
        const Atom& x = a.atoms[i];
        const Atom& y = b.atoms[i];
        if (x.element != y.element || x.name != y.name || x.residue != y.residue ||
            x.serial != y.serial)
            return "atom " + std::to_string(i) + " identity";
        if (x.position != y.position)
            return "atom " + std::to_string(i) + " position";
        if (x.charge != y.charge || x.formalCharge != y.formalCharge)
            return "atom " + std::to_string(i) + " charge";
        if (x.aromatic != y.aromatic || x.ad4Type != y.ad4Type || x.xs != y.xs)
            return "atom " + std::to_string(i) + " type";
    }
    if (a.bonds.size() != b.bonds.size())
        return "bond count";
    for (size_t i = 0; i < a.bonds.size(); ++i)
        if (a.bonds[i].a != b.bonds[i].a || a.bonds[i].b != b.bonds[i].b ||
            a.bonds[i].order != b.bonds[i].order || a.bonds[i].rotatable != b.bonds[i].rotatable)
            return "bond " + std::to_string(i);
    if (a.residues.size() != b.residues.size())
        return "residues";
    if (a.torsionTree.has_value() != b.torsionTree.has_value())
        return "torsion tree presence";
    if (a.torsionTree) {
        const auto& p = a.torsionTree->nodes;
        const auto& q = b.torsionTree->nodes;
        if (p.size() != q.size())
            return "torsion count";
        for (size_t k = 0; k < p.size(); ++k)
            if (p[k].parent != q[k].parent || p[k].axisParentAtom != q[k].axisParentAtom ||
                p[k].axisChildAtom != q[k].axisChildAtom || p[k].atoms != q[k].atoms ||
                p[k].children != q[k].children)
                return "torsion node " + std::to_string(k);
    }
    return {};
}

// Every record through one cache (in order, then again on 2 threads) against prepareLigand.
// Returns how many records the cache reused.
long checkAll(const std::vector<Molecule>& records, const std::string& what) {
    std::vector<Molecule> fresh(records.size());
    std::vector<std::string> freshError(records.size());
    for (size_t i = 0; i < records.size(); ++i) {
        try {
            fresh[i] = prepareLigand(records[i]);
        } catch (const InputError& e) {
            freshError[i] = e.what();
        }
    }
    long reused = 0;
    for (int threads : {1, 2}) {
        PreparedLigandCache cache;
        std::vector<std::string> problems(records.size());
        parallelFor(static_cast<long>(records.size()), threads, [&](long i) {
            std::string error;
            Molecule m;
            try {
                m = cache.prepare(records[i]);
            } catch (const InputError& e) {
                error = e.what();
            }
            if (error != freshError[i])
                problems[i] = "refusal differs: '" + error + "' vs '" + freshError[i] + "'";
            else if (error.empty())
                problems[i] = difference(m, fresh[i]);
        });
        for (size_t i = 0; i < records.size(); ++i)
            if (!problems[i].empty())
                qFatal("%s, record %zu (%d threads): %s", what.c_str(), i, threads,
                       problems[i].c_str());
        if (threads == 1)
            reused = cache.reused();
        if (cache.reused() + cache.preparedFresh() != static_cast<long>(records.size()))
            qFatal("%s: counts do not add up", what.c_str());
    }
    return reused;
}

// The records through an SDF file: what `minimize` reads from docking output converted to SDF.
std::vector<Molecule> viaSdf(const std::vector<Molecule>& records, const QTemporaryDir& dir,
                             const std::string& name) {
    const std::string path = dir.filePath(QString::fromStdString(name)).toStdString();
    writeMolecules(path, records);
    return readMolecules(path);
}

// How many different topologies (element, charges, bonds in list order) the records have: a
// PDBQT reader perceives bonds from distances, so poses of one ligand may list them in another
// order, and prepareLigand's output follows that order (not reusable across such records).
long topologies(const std::vector<Molecule>& records) {
    std::set<std::string> keys;
    for (const Molecule& m : records) {
        std::string k;
        for (const Atom& a : m.atoms)
            k += std::to_string(a.element) + ":" + std::to_string(a.formalCharge) + ",";
        k += "|";
        for (const Bond& b : m.bonds)
            k += std::to_string(b.a) + "-" + std::to_string(b.b) + "=" +
                 std::to_string(static_cast<int>(b.order)) + ",";
        keys.insert(k);
    }
    return static_cast<long>(keys.size());
}

} // namespace

class TestPrepReuse : public QObject {
    Q_OBJECT
private slots:
    void vinaPosesOfThreeComplexes() {
        QTemporaryDir dir;
        for (const char* id : {"1iep", "1stp", "3ce3"}) {
            const QString poses = QString::fromStdString(kData) + "/complexes/" + id + "/poses";
            std::vector<Molecule> all;
            for (const QString& f : QDir(poses).entryList({"*.pdbqt"}, QDir::Files)) {
                std::vector<Molecule> models = readMolecules((poses + "/" + f).toStdString());
                all.insert(all.end(), models.begin(), models.end());
            }
            QVERIFY2(all.size() >= 20, id);
            // As PDBQT (torsion tree given: always prepared afresh, still equal).
            QCOMPARE(checkAll(all, std::string(id) + " PDBQT poses"), 0L);
            // As SDF: polar hydrogens only, so every reused record has hydrogens added at its
            // own coordinates.
            std::vector<Molecule> sdf = viaSdf(all, dir, std::string(id) + "_poses.sdf");
            QCOMPARE(sdf.size(), all.size());
            const long reused = checkAll(sdf, std::string(id) + " SDF poses");
            const long distinct = topologies(sdf);
            qInfo("%s: %ld of %zu SDF poses reused, %ld topologies", id, reused, sdf.size(),
                  distinct);
            QVERIFY2(reused == static_cast<long>(sdf.size()) - distinct && reused > 0,
                     qPrintable(QString("%1: reused %2 of %3, %4 topologies")
                                    .arg(id)
                                    .arg(reused)
                                    .arg(sdf.size())
                                    .arg(distinct)));
            // And the hydrogens really moved with the poses (reuse did not copy them).
            Molecule first = prepareLigand(sdf[0]);
            Molecule second = prepareLigand(sdf.back());
            QVERIFY(first.atoms.size() > sdf[0].atoms.size());
            QVERIFY(first.atoms.back().position != second.atoms.back().position);
        }
    }
    void oneLigandAtManyPerturbedPoses() {
        QTemporaryDir dir;
        // The bench's input: the prepared 1iep ligand (polar hydrogens), random rotations,
        // translations and torsions, written as SDF (what `bench minimize --write-poses` makes).
        Molecule ligand = prepareLigand(readMolecule(kData + "/complexes/1iep/ligand_xtal.pdbqt"));
        PosePerturbation perturbation(ligand);
        std::vector<Molecule> poses;
        for (int i = 0; i < 150; ++i)
            poses.push_back(perturbation.perturbed(7, i));
        std::vector<Molecule> sdf = viaSdf(poses, dir, "perturbed.sdf");
        QCOMPARE(checkAll(sdf, "1iep perturbed poses"), 149L);

        // All hydrogens given (nothing added), jittered atom by atom, each with its own tag.
        Molecule full = readMolecule(kData + "/complexes/1iep/ligand_xtal.sdf");
        std::mt19937 rng(11);
        std::uniform_real_distribution<double> jitter(-0.2, 0.2);
        std::vector<Molecule> jittered;
        for (int i = 0; i < 60; ++i) {
            Molecule m = full;
            m.name = "jitter" + std::to_string(i);
            m.setProperty("pose", std::to_string(i));
            for (Atom& a : m.atoms)
                a.position += Vec3(jitter(rng), jitter(rng), jitter(rng));
            jittered.push_back(m);
        }
        std::vector<Molecule> sdfFull = viaSdf(jittered, dir, "jittered.sdf");
        QCOMPARE(checkAll(sdfFull, "1iep all-hydrogen jittered poses"), 59L);
    }
    void coordinateDependentRecordsArePreparedAfresh() {
        // A flat copy (z = 0) of a small molecule already seen with 3D coordinates: prepareLigand
        // embeds it in 3D, so it cannot be reused; nor a copy with all atoms at the origin.
        Molecule ref = readMolecule(kData + "/shapes/ref.mol");
        Molecule flat = ref;
        for (Atom& a : flat.atoms)
            a.position.z() = 0;
        Molecule origin = ref;
        for (Atom& a : origin.atoms)
            a.position = Vec3::Zero();
        PreparedLigandCache cache;
        Molecule a = cache.prepare(ref);
        Molecule b = cache.prepare(flat);
        Molecule c = cache.prepare(origin);
        QCOMPARE(cache.reused(), 0L);
        QCOMPARE(cache.preparedFresh(), 3L);
        QCOMPARE(difference(b, prepareLigand(flat)), std::string());
        QCOMPARE(difference(c, prepareLigand(origin)), std::string());
        Molecule d = cache.prepare(ref);
        QCOMPARE(cache.reused(), 1L);
        QCOMPARE(difference(d, a), std::string());
        // Same atoms, one bond order changed: another topology, not reused.
        Molecule changed = ref;
        for (Bond& bond : changed.bonds)
            if (bond.order == BondOrder::Double) {
                bond.order = BondOrder::Single;
                break;
            }
        try {
            cache.prepare(changed);
        } catch (const InputError&) {
        }
        QCOMPARE(cache.reused(), 1L);
    }
};

QTEST_GUILESS_MAIN(TestPrepReuse)
#include "test_prep_reuse.moc"
