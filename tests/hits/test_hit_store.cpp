// The hit store's file handling: schema and version, stores it must refuse without touching them
// (newer, corrupt, foreign), a killed import (a child process killed mid-transaction) that leaves
// the store as it was, and SDF import of typed tag columns with empty cells for missing tags.
#include "chem/MoleculeReader.h"
#include "chem/MoleculeWriter.h"
#include "hits/HitExport.h"
#include "hits/HitImport.h"
#include "hits/HitStore.h"

#include <Eigen/Geometry>

#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <sys/wait.h>
#include <unistd.h>

#include "HitsTestData.h"

using namespace pw;
using namespace pw::hits;
using namespace pw::test;

namespace {

void expectRefused(const QString& path, const char* fragment) {
    const QByteArray before = readBytes(path);
    bool threw = false;
    try {
        HitStore s(path.toStdString(), HitStore::Mode::ReadWrite);
    } catch (const StoreError& e) {
        threw = true;
        const QString what = e.what();
        QVERIFY2(what.contains(path) && what.contains(fragment), qPrintable(what));
    }
    QVERIFY(threw);
    QCOMPARE(readBytes(path), before); // not modified
}

long long scalar(const HitStore& s, const std::string& sql) {
    Statement q = s.prepare(sql);
    q.step();
    return q.integer(0);
}

} // namespace

class TestHitStore : public QObject {
    Q_OBJECT
private slots:
    void createsVersionedSchema() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("h.db").toStdString();
        {
            HitStore s(path, HitStore::Mode::Create);
            QCOMPARE(s.poseCount(), 0LL);
            Statement q = s.prepare("SELECT value FROM pw_meta WHERE key = 'schema_version'");
            QVERIFY(q.step());
            QCOMPARE(q.text(0), std::to_string(kSchemaVersion));
            QVERIFY(s.column("mw") && s.column("qed") && s.column("rank"));
            QVERIFY(!s.column("dock_score")); // score columns appear with the first such tag
        }
        HitStore again(path, HitStore::Mode::ReadOnly);
        QCOMPARE(again.poseCount(), 0LL);
        QVERIFY_THROWS_EXCEPTION(StoreError, HitStore(dir.filePath("missing.db").toStdString(),
                                                      HitStore::Mode::ReadWrite));
    }

    void refusesNewerCorruptAndForeignFiles() {
        QTemporaryDir dir;
        // A store from a newer Posewright.
        const QString newer = dir.filePath("newer.db");
        {
            HitStore s(newer.toStdString(), HitStore::Mode::Create);
            s.exec("UPDATE pw_meta SET value = '" + std::to_string(kSchemaVersion + 1) +
                   "' WHERE key = 'schema_version'");
        }
        expectRefused(newer, "newer");
        // Not a database at all.
        const QString text = dir.filePath("text.db");
        writeText(text, "this is a text file, not a hit store\n");
        expectRefused(text, "not an SQLite database");
        // An empty file is no store either (only import may create one).
        const QString empty = dir.filePath("empty.db");
        writeText(empty, "");
        expectRefused(empty, "empty");
        // An SQLite database of something else.
        const QString foreign = dir.filePath("foreign.db");
        {
            sqlite3* db = nullptr;
            sqlite3_open(foreign.toUtf8().constData(), &db);
            sqlite3_exec(db, "CREATE TABLE t(x); INSERT INTO t VALUES(1);", nullptr, nullptr,
                         nullptr);
            sqlite3_close(db);
        }
        expectRefused(foreign, "not a Posewright hit store");
        // A store whose schema page was overwritten: the header survives, the rest is garbage.
        const QString corrupt = dir.filePath("corrupt.db");
        { HitStore s(corrupt.toStdString(), HitStore::Mode::Create); }
        QByteArray bytes = readBytes(corrupt);
        for (int i = 100; i < bytes.size(); ++i)
            bytes[i] = static_cast<char>((i * 37) & 0xff);
        writeText(corrupt, bytes.toStdString());
        expectRefused(corrupt, "hit store");
    }

    void importsTagsAsTypedColumnsAndMissingTagsAsNull() {
        QTemporaryDir dir;
        const QString sdf = dir.filePath("dock.sdf");
        writeText(sdf, ethanolRecord("a", tag("dock_score", "-9.25") + tag("dock_inter", "-10.5") +
                                              tag("run", "3") + tag("cluster", "1") +
                                              tag("series", "amines")) +
                           ethanolRecord("b", tag("dock_score", "-7.5")) + // no terms, no run
                           ethanolRecord("c", tag("minimizedAffinity", "-6.125")));
        HitStore s(dir.filePath("h.db").toStdString(), HitStore::Mode::Create);
        ImportStats st;
        {
            HitStore::Transaction tx(s);
            st = importSdf(s, sdf.toStdString(), {});
            tx.commit();
        }
        QCOMPARE(st.poses, 3L);
        QCOMPARE(st.noProperties, 0L);
        QVERIFY(s.column("dock_score") && s.column("dock_inter") && s.column("dock_run") &&
                s.column("dock_cluster") && s.column("min_affinity"));
        QCOMPARE(s.column("dock_run")->type, ColumnType::Integer);
        QVERIFY(!s.column("series")); // text tags stay tags, not columns
        Statement q = s.prepare("SELECT name, dock_score, dock_inter, dock_run, min_affinity, "
                                "typeof(dock_score), ligand_efficiency, heavy_atoms, smiles, mw "
                                "FROM poses ORDER BY id");
        QVERIFY(q.step());
        QCOMPARE(q.text(0), std::string("a"));
        QCOMPARE(q.real(1), -9.25);
        QCOMPARE(q.real(2), -10.5);
        QCOMPARE(q.integer(3), 3LL);
        QVERIFY(q.isNull(4));
        QCOMPARE(q.text(5), std::string("real"));
        QCOMPARE(q.real(6), 9.25 / 3.0); // -dock_score per heavy atom
        QCOMPARE(q.integer(7), 3LL);
        QCOMPARE(q.text(8), std::string("CCO"));
        QVERIFY(std::abs(q.real(9) - 46.069) < 0.01);
        QVERIFY(q.step());
        QVERIFY(q.isNull(2) && q.isNull(3)); // missing tags: empty cells
        QVERIFY(q.step());
        QVERIFY(q.isNull(1));
        QCOMPARE(q.real(4), -6.125);
        QCOMPARE(q.real(6), 6.125 / 3.0);
    }

    void posesOfOneMoleculeShareGraphDescriptorsNotStereo() {
        // Three poses of biotin: the crystal pose twice and its mirror image (L-biotin). Graph
        // descriptors are computed once and reused; the SMILES follows each pose's coordinates.
        QTemporaryDir dir;
        Molecule btn = readMolecule(
            QString(POSEWRIGHT_TEST_DATA "/complexes/1stp/ligand_xtal.pdb").toStdString());
        btn.name = "biotin";
        Molecule mirror = btn;
        for (Atom& a : mirror.atoms)
            a.position.x() = -a.position.x();
        const QString sdf = dir.filePath("poses.sdf");
        writeMolecules(sdf.toStdString(), {btn, mirror, btn});
        HitStore s(dir.filePath("h.db").toStdString(), HitStore::Mode::Create);
        {
            HitStore::Transaction tx(s);
            ImportOptions options;
            options.batch = 1; // one record per round: the cache, not the batch, is shared
            importSdf(s, sdf.toStdString(), options);
            tx.commit();
        }
        const MoleculeDescriptors d = computeDescriptors(btn), m = computeDescriptors(mirror);
        QVERIFY(d.smiles != m.smiles);
        Statement q = s.prepare("SELECT smiles, mw, clogp, tpsa, qed, hbd, hba, rotatable_bonds "
                                "FROM poses ORDER BY id");
        for (const MoleculeDescriptors* expected : {&d, &m, &d}) {
            QVERIFY(q.step());
            QCOMPARE(q.text(0), expected->smiles);
            QCOMPARE(q.real(1), expected->mw);
            QCOMPARE(q.real(2), expected->clogp);
            QCOMPARE(q.real(3), expected->tpsa);
            QCOMPARE(q.real(4), expected->qed);
            QCOMPARE(q.integer(5), (long long)expected->hbd);
            QCOMPARE(q.integer(6), (long long)expected->hba);
            QCOMPARE(q.integer(7), (long long)expected->rotatableBonds);
        }
    }

    void cachedPosesGetTheSmilesOfTheirOwnStereo() {
        // Every CDK2 ligand three times: as read, rotated rigidly (the same stereo: the cache
        // answers) and mirrored (the other hand at every centre: a new key). Each stored SMILES
        // must equal RDKit's for that pose alone, with no cache.
        QTemporaryDir dir;
        const std::vector<Molecule> ligands =
            readMolecules(QString(POSEWRIGHT_TEST_DATA "/shapes/cdk2.sdf").toStdString());
        QVERIFY(ligands.size() > 40);
        const Eigen::Matrix3d turn =
            Eigen::AngleAxisd(1.1, Eigen::Vector3d(0.3, -0.5, 0.8).normalized()).toRotationMatrix();
        std::vector<Molecule> poses;
        for (const Molecule& m : ligands) {
            Molecule rotated = m, mirrored = m;
            for (Atom& a : rotated.atoms)
                a.position = turn * a.position + Vec3(4, -2, 1);
            for (Atom& a : mirrored.atoms)
                a.position.x() = -a.position.x();
            poses.insert(poses.end(), {m, rotated, mirrored});
        }
        const QString sdf = dir.filePath("poses.sdf");
        writeMolecules(sdf.toStdString(), poses);
        HitStore s(dir.filePath("h.db").toStdString(), HitStore::Mode::Create);
        {
            HitStore::Transaction tx(s);
            ImportOptions options;
            options.batch = 1; // in file order: the rotated pose finds the original's entry
            importSdf(s, sdf.toStdString(), options);
            tx.commit();
        }
        Statement q = s.prepare("SELECT smiles FROM poses ORDER BY id");
        int chiralMirrors = 0;
        for (size_t i = 0; i < poses.size(); ++i) {
            QVERIFY(q.step());
            const std::string expected = computeDescriptors(poses[i]).smiles;
            QCOMPARE(q.text(0), expected);
            if (i % 3 == 2 && expected != computeDescriptors(poses[i - 2]).smiles)
                ++chiralMirrors;
        }
        QVERIFY(chiralMirrors > 0); // the set has stereocentres, so the test can fail
    }

    void stereoSignatureIgnoresPlanarAtomsButNotHandedness() {
        // Flexible docking bends planar atoms a little either way: that must not split a
        // molecule's cache entry, while its mirror image (other hand at every centre) must.
        const std::vector<Molecule> ligands =
            readMolecules(QString(POSEWRIGHT_TEST_DATA "/shapes/cdk2.sdf").toStdString());
        int bentPlanarAtoms = 0, chiral = 0;
        for (const Molecule& m : ligands) {
            std::vector<char> planar(m.atoms.size(), 0);
            for (const Bond& b : m.bonds)
                if (b.order != BondOrder::Single)
                    planar[b.a] = planar[b.b] = 1;
            const auto nb = m.neighbours();
            Molecule bent = m;
            for (size_t i = 0; i < m.atoms.size(); ++i) {
                if (!planar[i] || m.atoms[i].element != 6 || nb[i].size() != 3)
                    continue;
                // Not beside a three-connected N: an aniline or amide N is nearly flat itself,
                // and its sign stays in the key (RDKit can make ring N stereocentres).
                bool besideN = false;
                for (int n : nb[i])
                    besideN |= m.atoms[n].element == 7 && nb[n].size() == 3;
                if (besideN)
                    continue;
                // Through the plane of its three neighbours: the signed volume changes sign.
                const Vec3 c = m.atoms[i].position;
                const Vec3 normal =
                    (m.atoms[nb[i][1]].position - m.atoms[nb[i][0]].position)
                        .cross(m.atoms[nb[i][2]].position - m.atoms[nb[i][0]].position)
                        .normalized();
                const double height = (c - m.atoms[nb[i][0]].position).dot(normal);
                bent.atoms[i].position = c - normal * (2 * height + (height >= 0 ? 0.05 : -0.05));
                ++bentPlanarAtoms;
            }
            QCOMPARE(DescriptorCache::key(bent), DescriptorCache::key(m));
            Molecule mirror = m;
            for (Atom& a : mirror.atoms)
                a.position.x() = -a.position.x();
            if (computeDescriptors(mirror).smiles != computeDescriptors(m).smiles) {
                ++chiral;
                QVERIFY(DescriptorCache::key(mirror) != DescriptorCache::key(m));
            }
        }
        QVERIFY(bentPlanarAtoms > 100 && chiral > 0);
    }

    void storesThePlainRecordTextAsRead() {
        QTemporaryDir dir;
        const std::string tags = tag("dock_score", "-9.25") + tag("series", "amines");
        const std::string record = ethanolRecord("a", tags);
        std::string crlf; // the same record with CRLF line ends: re-written, with no CR
        for (char c : record)
            crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
        const QString sdf = dir.filePath("in.sdf");
        writeText(sdf, record + ethanolRecord("b", tags + tag("pw_hit_rank", "4")) + crlf);
        HitStore s(dir.filePath("h.db").toStdString(), HitStore::Mode::Create);
        {
            HitStore::Transaction tx(s);
            QCOMPARE(importSdf(s, sdf.toStdString(), {}).poses, 3L);
            tx.commit();
        }
        Statement q = s.prepare("SELECT molblock, sd_tags FROM pose_blocks ORDER BY id");
        QVERIFY(q.step());
        QCOMPARE(q.text(0), record.substr(0, record.find("M  END\n") + 7));
        QCOMPARE(q.text(1), tags);
        QVERIFY(q.step()); // an exported record: its pw_hit_ tag is dropped, the rest kept
        QCOMPARE(q.text(1), tags);
        QVERIFY(q.step());
        const std::string molblock = q.text(0);
        QVERIFY(molblock.find('\r') == std::string::npos);
        QVERIFY(molblock.size() > 7 && molblock.substr(molblock.size() - 7) == "M  END\n");
        QVERIFY(molblock.find("  3  2  0") != std::string::npos); // atoms and bonds as read
        QCOMPARE(q.text(1), tags);
    }

    void version1StoresAreReadAndWritten() {
        // Version 1 kept the molblock and tag text in poses itself: such a store (made here from
        // a new one) takes an import and exports its records as before.
        QTemporaryDir dir;
        const std::string path = dir.filePath("v1.db").toStdString();
        {
            HitStore s(path, HitStore::Mode::Create);
            QCOMPARE(s.schemaVersion(), kSchemaVersion);
            s.exec("DROP TABLE pose_blocks; ALTER TABLE poses ADD COLUMN molblock TEXT;"
                   "ALTER TABLE poses ADD COLUMN sd_tags TEXT;"
                   "UPDATE pw_meta SET value = '1' WHERE key = 'schema_version'");
        }
        const QString sdf = dir.filePath("in.sdf"), out = dir.filePath("out.sdf");
        const std::string record = ethanolRecord("a", tag("dock_score", "-9.25"));
        writeText(sdf, record);
        HitStore s(path, HitStore::Mode::ReadWrite);
        QCOMPARE(s.schemaVersion(), 1);
        {
            HitStore::Transaction tx(s);
            QCOMPARE(importSdf(s, sdf.toStdString(), {}).poses, 1L);
            tx.commit();
        }
        QCOMPARE(scalar(s, "SELECT count(*) FROM poses WHERE molblock LIKE 'a%M  END%'"), 1LL);
        QCOMPARE(exportSdf(s, {}, out.toStdString()), 1L);
        const QByteArray text = readBytes(out);
        QVERIFY(text.startsWith(QByteArray::fromStdString(record.substr(0, record.find("$$$$")))));
        QVERIFY(text.contains("> <pw_hit_mw>"));
    }

    // A large export is read and formatted on several threads (their own read-only connections)
    // and written in order: the same bytes as one thread, for every selection; inside the
    // caller's write transaction it stays on that connection.
    void parallelExportWritesTheSameBytes() {
        QTemporaryDir dir;
        const std::string src = POSEWRIGHT_TEST_DATA "/shapes/cdk2.sdf";
        HitStore s(dir.filePath("h.db").toStdString(), HitStore::Mode::Create);
        {
            HitStore::Transaction tx(s);
            for (int copy = 0; copy < 3; ++copy)
                importSdf(s, src, ImportOptions{});
            tx.commit();
        }
        QVERIFY(s.poseCount() > 100);
        const ExportTuning defaults = exportTuning();
        struct Restore {
            ExportTuning was;
            ~Restore() { setExportTuning(was); }
        } restore{defaults};
        const Selection selections[] = {
            {}, {"mw < 400", "-mw", -1}, {"", "name", 17}, {"mw < 0", "", -1}};
        int k = 0;
        for (const Selection& sel : selections) {
            ExportTuning serial = defaults;
            serial.parallelAfter = size_t(1) << 40;
            setExportTuning(serial);
            const QString a = dir.filePath(QString("serial%1.sdf").arg(k));
            const long na = exportSdf(s, sel, a.toStdString());
            ExportTuning parallel;
            parallel.parallelAfter = 0;
            parallel.chunk = 5; // many chunks, finished out of order by 3 threads
            parallel.threads = 3;
            setExportTuning(parallel);
            const QString b = dir.filePath(QString("parallel%1.sdf").arg(k));
            QCOMPARE(exportSdf(s, sel, b.toStdString()), na);
            QCOMPARE(readBytes(b), readBytes(a));
            ++k;
        }
        QVERIFY(readBytes(dir.filePath("serial0.sdf")).count("$$$$") > 100);
        // Inside a write transaction: the caller's connection alone, the same bytes.
        HitStore::Transaction tx(s);
        const QString c = dir.filePath("in_transaction.sdf");
        QCOMPARE(exportSdf(s, {}, c.toStdString()), s.poseCount());
        QCOMPARE(readBytes(c), readBytes(dir.filePath("serial0.sdf")));
    }

    void pipelinedImportKeepsFileOrderAndCounts() {
        // Small batches on two threads: batch k is inserted while k+1 is described; the rows
        // still come in file order, every batch is reported once, and a bad record is skipped.
        QTemporaryDir dir;
        const QString src = QString(POSEWRIGHT_TEST_DATA "/shapes/cdk2.sdf");
        const std::vector<Molecule> ligands = readMolecules(src.toStdString());
        std::string text = QString::fromUtf8(readBytes(src)).toStdString();
        text += "broken\n  x\n\n  1  0  0  0  0  0  0  0  0  0999 V2000\nnot an atom line\nM  "
                "END\n$$$$\n";
        const QString sdf = dir.filePath("in.sdf");
        writeText(sdf, text);
        HitStore s(dir.filePath("h.db").toStdString(), HitStore::Mode::Create);
        std::vector<long> reported;
        ImportStats st;
        {
            HitStore::Transaction tx(s);
            ImportOptions options;
            options.threads = 2;
            options.batch = 5;
            options.afterBatch = [&](long n) { reported.push_back(n); };
            st = importSdf(s, sdf.toStdString(), options);
            tx.commit();
        }
        QCOMPARE(st.poses, long(ligands.size()));
        QCOMPARE(st.skipped, 1L);
        QCOMPARE(long(reported.size()), (long(ligands.size()) + 1 + 4) / 5);
        for (size_t k = 1; k < reported.size(); ++k)
            QVERIFY(reported[k] > reported[k - 1] || (k + 1 == reported.size()));
        QCOMPARE(reported.back(), long(ligands.size()));
        Statement q = s.prepare("SELECT name, source_record FROM poses ORDER BY id");
        for (size_t i = 0; i < ligands.size(); ++i) {
            QVERIFY(q.step());
            QCOMPARE(q.text(0), ligands[i].name);
            QCOMPARE(q.integer(1), (long long)(i + 1));
        }
        QVERIFY(!q.step());
    }

    void killedImportLeavesTheStoreAsItWas() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("h.db").toStdString();
        const QString first = dir.filePath("first.sdf"), big = dir.filePath("big.sdf");
        writeText(first, ethanolRecord("kept", tag("dock_score", "-5")));
        // Large enough that SQLite spills pages into the database file before the kill.
        std::string text;
        const std::string pad(2000, 'x');
        for (int i = 0; i < 4000; ++i)
            text += ethanolRecord("new" + std::to_string(i), tag("dock_score", std::to_string(-i)) +
                                                                 tag("fresh_score", "1.5") +
                                                                 tag("note", pad));
        writeText(big, text);
        {
            HitStore s(path, HitStore::Mode::Create);
            HitStore::Transaction tx(s);
            importSdf(s, first.toStdString(), {});
            tx.commit();
        }
        const qint64 sizeBefore = QFileInfo(QString::fromStdString(path)).size();
        const pid_t child = fork();
        QVERIFY(child >= 0);
        if (child == 0) {
            // The child imports and is killed after the third batch, mid-transaction.
            HitStore s(path, HitStore::Mode::ReadWrite);
            // A small page cache, so that SQLite really writes changed pages into the store
            // file before the kill (the store's own 64 MiB would hold this whole import).
            s.exec("PRAGMA cache_size=-256");
            HitStore::Transaction tx(s);
            ImportOptions options;
            options.threads = 1;
            options.batch = 1000;
            options.afterBatch = [](long n) {
                if (n >= 3000)
                    ::raise(SIGKILL);
            };
            importSdf(s, big.toStdString(), options);
            ::_exit(3); // not reached
        }
        int status = 0;
        QCOMPARE(::waitpid(child, &status, 0), child);
        QVERIFY(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
        // The kill left a store file grown by the spilled pages of the unfinished import.
        QVERIFY2(QFileInfo(QString::fromStdString(path)).size() > sizeBefore,
                 qPrintable(QString::number(QFileInfo(QString::fromStdString(path)).size())));
        // The journal the kill left behind is rolled back by the next reader, even a read-only one.
        QVERIFY(QFile::exists(QString::fromStdString(path + "-journal")));
        {
            HitStore reader(path, HitStore::Mode::ReadOnly);
            QCOMPARE(reader.poseCount(), 1LL);
        }
        HitStore s(path, HitStore::Mode::ReadWrite);
        QCOMPARE(s.poseCount(), 1LL);
        QVERIFY(!s.column("fresh_score"));
        Statement check = s.prepare("PRAGMA integrity_check");
        QVERIFY(check.step());
        QCOMPARE(check.text(0), std::string("ok"));
        QCOMPARE(scalar(s, "SELECT count(*) FROM pw_columns"), 1LL); // dock_score only
    }
};

QTEST_GUILESS_MAIN(TestHitStore)
#include "test_hit_store.moc"
