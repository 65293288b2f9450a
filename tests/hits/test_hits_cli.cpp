// `posewright-cli hits` as a user runs it: the scores in the store equal what minimize and
// overlay wrote, SDF -> store -> SDF keeps bond orders and tags, CSV export, LINGO similarity and
// clustering, and bad input (clear message, exit code, nothing half-written, store unchanged).
#include "chem/MoleculeReader.h"
#include "chem/SubstructureQuery.h"
#include "hits/HitStore.h"
#include "hits/ScreenIndex.h"

#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <map>

#include "HitsTestData.h"
#include "cli/CliRun.h"

using namespace pw;
using namespace pw::test;

namespace {

QString data(const QString& rel) {
    return testData(rel);
}

std::map<std::string, std::string> tagsOf(const Molecule& m) {
    std::map<std::string, std::string> t;
    for (const auto& [k, v] : m.properties)
        t[k] = v;
    return t;
}

double tagNumber(const Molecule& m, const char* key) {
    const std::string* v = m.property(key);
    return v ? std::stod(*v) : std::nan("");
}

} // namespace

class TestHitsCli : public QObject {
    Q_OBJECT
private slots:
    void benchHitsMeasuresEveryStepOfAGeneratedStore() {
        QTemporaryDir dir;
        const QString work = dir.filePath("bench");
        QVERIFY(QDir().mkpath(work));
        CliRun r = runCli({"bench", "hits", "--molecules", data("shapes/cdk2.sdf"), "--dir", work,
                           "--poses", "300", "--threads", "2", "--sort", "dock_score,qed"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QMap<QString, int> seen;
        QSet<qint64> filterMatches;
        for (const QByteArray& line : r.out.trimmed().split('\n')) {
            const QJsonObject o = QJsonDocument::fromJson(line).object();
            QCOMPARE(o["bench"].toString(), QString("hits"));
            const QString what = o["what"].toString();
            ++seen[what];
            QVERIFY(o["seconds"].toDouble() >= 0 && o["peak_rss_mib"].toDouble() > 0);
            if (what == "filter") {
                filterMatches.insert(o["matched"].toInteger());
                QCOMPARE(o["poses"].toInteger(), 300LL);
            } else {
                QCOMPARE(o["poses"].toInteger(), 300LL); // every step saw every pose
            }
        }
        QCOMPARE(seen["import"], 1);
        QCOMPARE(seen["open"], 1);
        QCOMPARE(seen["sort"], 4); // two columns, without and with an index
        QCOMPARE(seen["filter"], 2);
        QCOMPARE(seen["export_sdf"], 1);
        QCOMPARE(filterMatches.size(), 1); // the same rows with and without indexes
        QVERIFY(*filterMatches.begin() > 0 && *filterMatches.begin() < 300);
        QVERIFY(QDir(work).entryList(QDir::Files).isEmpty()); // without --keep nothing is left
        QCOMPARE(runCli({"bench", "hits", "--molecules", data("shapes/cdk2.sdf"), "--dir",
                         dir.filePath("missing")})
                     .exitCode,
                 2);
    }

    // The substructure benchmark on a small store: every step reported, the screen's survivors
    // between the matches and the molecules, nothing left behind without --keep.
    void benchHitsSubstructure() {
        QTemporaryDir dir;
        CliRun r = runCli({"bench", "hits", "substructure", "--smiles",
                           data("smiles/nci_first_300.smi"), "--dir", dir.path(), "--molecules",
                           "500", "--patterns", "c1ccccc1 [N+](=O)[O-] [r5]", "--sample", "50"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QStringList whats;
        for (const QByteArray& line : r.out.trimmed().split('\n')) {
            const QJsonObject o = QJsonDocument::fromJson(line).object();
            QCOMPARE(o["bench"].toString(), QString("hits_substructure"));
            QCOMPARE(o["molecules"].toInteger(), 500LL);
            whats << o["what"].toString();
            if (o["what"] == "filter") {
                const qint64 matched = o["matched"].toInteger(),
                             survivors = o["screen_survivors"].toInteger();
                QVERIFY2(matched > 0 && matched <= survivors && survivors <= 500, line.constData());
                if (o["pattern"] == "[N+](=O)[O-]")
                    QVERIFY(survivors < 250); // the screen rules most molecules out
                QVERIFY(o["unscreened_us_per_molecule"].toDouble() > 0);
            }
        }
        QCOMPARE(whats, QStringList({"build", "load_screen", "filter", "filter", "filter"}));
        QVERIFY(QDir(dir.path()).entryList(QDir::Files).isEmpty());

        // Several poses per molecule, consecutive or interleaved: each molecule's poses are
        // selected together, the same rows either way.
        std::vector<qint64> matchedRows[2];
        for (int interleaved = 0; interleaved < 2; ++interleaved) {
            QStringList args{"bench", "hits", "substructure", "--smiles",
                             data("smiles/nci_first_300.smi"), "--dir", dir.path(),
                             "--molecules", "200", "--poses-per-molecule", "3", "--patterns",
                             "c1ccccc1 C(=O)[OH]", "--sample", "0"};
            if (interleaved)
                args << "--interleave";
            CliRun p = runCli(args);
            QVERIFY2(p.exitCode == 0, p.err.constData());
            for (const QByteArray& line : p.out.trimmed().split('\n')) {
                const QJsonObject o = QJsonDocument::fromJson(line).object();
                QCOMPARE(o["molecules"].toInteger(), 200LL);
                QCOMPARE(o["poses"].toInteger(), 600LL);
                if (o["what"] == "filter") {
                    const qint64 matched = o["matched"].toInteger();
                    QVERIFY2(matched > 0 && matched % 3 == 0 &&
                                 matched <= 3 * o["screen_survivors"].toInteger(),
                             line.constData());
                    matchedRows[interleaved].push_back(matched);
                }
            }
        }
        QCOMPARE(matchedRows[0].size(), size_t(2));
        QCOMPARE(matchedRows[1], matchedRows[0]);
    }

    void minimizeScoresEqualWhatTheEngineWrote() {
        QTemporaryDir dir;
        const QString sdf = dir.filePath("min.sdf"), db = dir.filePath("h.db");
        CliRun m = runCli({"minimize", "--receptor", data("complexes/1stp/receptor.pdbqt"), "--box",
                           data("complexes/1stp/box.txt"), "--device", "cpu", "--out", sdf,
                           "--ligands", data("complexes/1stp/poses/pose00.pdbqt"),
                           data("complexes/1stp/poses/pose01.pdbqt"),
                           data("complexes/1stp/poses/pose02.pdbqt")});
        QVERIFY2(m.exitCode == 0, m.err.constData());
        CliRun imp = runCli({"hits", "import", db, sdf, "--json"});
        QVERIFY2(imp.exitCode == 0, imp.err.constData());
        QCOMPARE(jsonLines(imp.out).value(0)["imported"].toInt(), 3);
        CliRun q = runCli({"hits", "query", db, "--json", "--columns",
                           "name,min_affinity,min_rmsd,min_inter,min_intra,min_torsional,"
                           "input_index,rank,ligand_efficiency,heavy_atoms"});
        QVERIFY2(q.exitCode == 0, q.err.constData());
        const auto rows = jsonLines(q.out);
        const std::vector<Molecule> written = readMolecules(sdf.toStdString());
        QCOMPARE(rows.size(), qsizetype(written.size()));
        // The ranked SDF is sorted by affinity; the store ranks the same way (rank 1 = first).
        for (size_t i = 0; i < written.size(); ++i) {
            const Molecule& w = written[i];
            const QJsonObject& r = rows[int(i)];
            QCOMPARE(r["rank"].toInt(), int(i) + 1);
            QCOMPARE(r["name"].toString().toStdString(), w.name);
            QCOMPARE(r["min_affinity"].toDouble(), tagNumber(w, "minimizedAffinity"));
            QCOMPARE(r["min_rmsd"].toDouble(), tagNumber(w, "minimizedRMSD"));
            QCOMPARE(r["min_inter"].toDouble(), tagNumber(w, "minimizedInter"));
            QCOMPARE(r["min_intra"].toDouble(), tagNumber(w, "minimizedIntra"));
            QCOMPARE(r["min_torsional"].toDouble(), tagNumber(w, "minimizedTorsional"));
            QCOMPARE(r["input_index"].toInt(), int(tagNumber(w, "inputIndex")));
            QCOMPARE(r["ligand_efficiency"].toDouble(),
                     -tagNumber(w, "minimizedAffinity") / w.heavyAtomCount());
        }
    }

    void dockScoresEqualWhatTheEngineWrote() {
        QTemporaryDir dir;
        const QString sdf = dir.filePath("dock.sdf"), db = dir.filePath("h.db");
        CliRun d = runCli({"dock",
                           "--receptor",
                           data("complexes/1stp/receptor.pdbqt"),
                           "--box",
                           data("complexes/1stp/box.txt"),
                           "--ligands",
                           data("complexes/1stp/ligand_xtal.pdbqt"),
                           "--reference",
                           data("complexes/1stp/ligand_xtal.pdbqt"),
                           "--runs",
                           "4",
                           "--seed",
                           "3",
                           "--population",
                           "50",
                           "--evaluations",
                           "20000",
                           "--ls-iterations",
                           "100",
                           "--device",
                           "cpu",
                           "--threads",
                           "1",
                           "--all-runs",
                           "--out",
                           sdf});
        QVERIFY2(d.exitCode == 0, d.err.constData());
        CliRun imp = runCli({"hits", "import", db, sdf, "--receptor",
                             data("complexes/1stp/receptor.pdb"), "--json"});
        QVERIFY2(imp.exitCode == 0, imp.err.constData());
        const std::vector<Molecule> written = readMolecules(sdf.toStdString());
        QVERIFY(written.size() >= 2);
        // Every numeric tag the docking wrote is a column holding the same number.
        std::map<std::string, std::string> columnOfTag{
            {"dock_score", "dock_score"},  {"run", "dock_run"},
            {"cluster", "dock_cluster"},   {"cluster_size", "dock_cluster_size"},
            {"rmsd_ref", "dock_rmsd_ref"}, {"seed", "dock_seed"}};
        for (const auto& [key, value] : written[0].properties)
            if (key.rfind("dock_", 0) == 0)
                columnOfTag[key] = key; // the per-term breakdown: dock_inter, dock_gauss1, ...
        QStringList columns{"name", "rank", "ligand_efficiency", "interaction_count"};
        for (const auto& [tag, column] : columnOfTag)
            columns << QString::fromStdString(column);
        CliRun q = runCli(
            {"hits", "query", db, "--json", "--order", "id", "--columns", columns.join(',')});
        QVERIFY2(q.exitCode == 0, q.err.constData());
        const auto rows = jsonLines(q.out);
        QCOMPARE(rows.size(), qsizetype(written.size()));
        int bestRank = 0;
        for (size_t i = 0; i < written.size(); ++i) {
            const QJsonObject& r = rows[int(i)];
            for (const auto& [tag, column] : columnOfTag) {
                QVERIFY2(written[i].property(tag), tag.c_str());
                QCOMPARE(r[QString::fromStdString(column)].toDouble(),
                         tagNumber(written[i], tag.c_str()));
            }
            QCOMPARE(r["ligand_efficiency"].toDouble(),
                     -tagNumber(written[i], "dock_score") / written[i].heavyAtomCount());
            QVERIFY(!r["interaction_count"].isNull()); // a receptor was given
            // Ranked by dock_score, lower first (the file is already in that order).
            QCOMPARE(r["rank"].toInt(), int(i) + 1);
            bestRank = std::max(bestRank, r["rank"].toInt());
        }
        QCOMPARE(bestRank, int(written.size()));
    }

    void overlayScoresEqualWhatTheEngineWrote() {
        QTemporaryDir dir;
        const QString sdf = dir.filePath("aligned.sdf"), db = dir.filePath("h.db");
        CliRun o =
            runCli({"overlay", "--reference", data("shapes/ref.mol"), "--fit",
                    data("shapes/cdk2.sdf"), "--device", "cpu", "--starts", "1", "--out", sdf});
        QVERIFY2(o.exitCode == 0, o.err.constData());
        QCOMPARE(runCli({"hits", "import", db, sdf}).exitCode, 0);
        CliRun q = runCli({"hits", "query", db, "--json", "--order", "overlay_rank", "--columns",
                           "shape_tanimoto,tversky_ref,tversky_fit,shape_combo,overlay_rank,rank"});
        QCOMPARE(q.exitCode, 0);
        const auto rows = jsonLines(q.out);
        const std::vector<Molecule> written = readMolecules(sdf.toStdString());
        QCOMPARE(rows.size(), qsizetype(47));
        for (size_t i = 0; i < written.size(); ++i) {
            QCOMPARE(rows[int(i)]["shape_tanimoto"].toDouble(),
                     tagNumber(written[i], "PW_SHAPE_TANIMOTO"));
            QCOMPARE(rows[int(i)]["tversky_ref"].toDouble(),
                     tagNumber(written[i], "PW_TVERSKY_REF"));
            QCOMPARE(rows[int(i)]["overlay_rank"].toInt(), int(tagNumber(written[i], "PW_RANK")));
        }
    }

    void sdfRoundTripKeepsBondOrdersAndTags() {
        QTemporaryDir dir;
        const QString db = dir.filePath("h.db"), out = dir.filePath("out.sdf");
        QCOMPARE(runCli({"hits", "import", db, data("shapes/cdk2.sdf")}).exitCode, 0);
        CliRun e = runCli({"hits", "export", db, "--out", out, "--order", "id"});
        QVERIFY2(e.exitCode == 0, e.err.constData());
        const auto before = readMolecules(data("shapes/cdk2.sdf").toStdString());
        const auto after = readMolecules(out.toStdString());
        QCOMPARE(after.size(), before.size());
        int aromaticOrDouble = 0;
        for (size_t i = 0; i < before.size(); ++i) {
            const Molecule &a = before[i], &b = after[i];
            QCOMPARE(b.name, a.name);
            QCOMPARE(b.atoms.size(), a.atoms.size());
            for (size_t k = 0; k < a.atoms.size(); ++k) {
                QCOMPARE(b.atoms[k].element, a.atoms[k].element);
                QCOMPARE(b.atoms[k].formalCharge, a.atoms[k].formalCharge);
                QVERIFY((b.atoms[k].position - a.atoms[k].position).norm() < 1e-4);
            }
            QCOMPARE(b.bonds.size(), a.bonds.size());
            for (size_t k = 0; k < a.bonds.size(); ++k) {
                QCOMPARE(b.bonds[k].a, a.bonds[k].a);
                QCOMPARE(b.bonds[k].b, a.bonds[k].b);
                QCOMPARE(int(b.bonds[k].order), int(a.bonds[k].order));
                aromaticOrDouble += a.bonds[k].order != BondOrder::Single;
            }
            auto ta = tagsOf(a), tb = tagsOf(b);
            for (const auto& [key, value] : ta)
                QCOMPARE(tb[key], value); // every original tag, verbatim
            QVERIFY(tb.count("pw_hit_mw") && tb.count("pw_hit_qed") && tb.count("pw_hit_smiles"));
        }
        QVERIFY(aromaticOrDouble > 100);
        // Importing the export again gives the same table (pw_hit_ tags are recomputed, not kept).
        const QString db2 = dir.filePath("h2.db"), out2 = dir.filePath("out2.sdf");
        QCOMPARE(runCli({"hits", "import", db2, out}).exitCode, 0);
        QCOMPARE(runCli({"hits", "export", db2, "--out", out2, "--order", "id"}).exitCode, 0);
        // Equal but for the source file each store names.
        const QRegularExpression source("> <pw_hit_source_file>\\n[^\\n]*\\n\\n");
        const QString first = QString::fromUtf8(readBytes(out)).remove(source);
        const QString second = QString::fromUtf8(readBytes(out2)).remove(source);
        QVERIFY(first.size() > 10000);
        QCOMPARE(second, first);
    }

    void csvExportAndQuery() {
        QTemporaryDir dir;
        const QString db = dir.filePath("h.db"), csv = dir.filePath("sel.csv");
        QCOMPARE(runCli({"hits", "import", db, data("shapes/cdk2.sdf")}).exitCode, 0);
        CliRun e = runCli({"hits", "export", db, "--out", csv, "--where", "mw < 300", "--order",
                           "-mw", "--columns", "name,mw,qed"});
        QVERIFY2(e.exitCode == 0, e.err.constData());
        const QList<QByteArray> lines = readBytes(csv).trimmed().split('\n');
        QCOMPARE(lines[0], QByteArray("name,mw,qed"));
        QVERIFY(lines.size() > 2);
        double previous = 1e9;
        for (int i = 1; i < lines.size(); ++i) {
            const double mw = lines[i].split(',')[1].toDouble();
            QVERIFY(mw < 300 && mw <= previous);
            previous = mw;
        }
        CliRun c = runCli({"hits", "columns", db, "--json"});
        QCOMPARE(c.exitCode, 0);
        bool sawEnergy = false;
        for (const QJsonObject& o : jsonLines(c.out))
            if (o["sd_tag"].toString() == "r_mmffld_Potential_Energy-OPLS_2005") {
                sawEnergy = true;
                QCOMPARE(o["type"].toString(), QString("REAL"));
                QCOMPARE(o["non_null"].toInt(), 47);
            }
        QVERIFY(sawEnergy);
    }

    // --where smarts(...) / substructure(...): the rows whose stored SMILES RDKit matches,
    // combined with a numeric condition, checked row by row on the whole store.
    void substructureWhere() {
        QTemporaryDir dir;
        const QString db = dir.filePath("h.db");
        QCOMPARE(runCli({"hits", "import", db, data("shapes/cdk2.sdf")}).exitCode, 0);
        CliRun all = runCli({"hits", "query", db, "--json", "--columns", "id,smiles,mw"});
        QCOMPARE(all.exitCode, 0);
        const auto rows = jsonLines(all.out);
        QCOMPARE(rows.size(), qsizetype(47));
        { // the import wrote one screening fingerprint per distinct SMILES
            hits::HitStore store(db.toStdString(), hits::HitStore::Mode::ReadOnly);
            hits::Statement n = store.prepare(
                "SELECT (SELECT count(*) FROM pw_screen), (SELECT count(DISTINCT smiles) FROM "
                "poses), (SELECT count(*) FROM pw_screen WHERE smiles NOT IN (SELECT smiles "
                "FROM poses))");
            QVERIFY(n.step());
            QVERIFY(n.integer(1) > 30);
            QCOMPARE(n.integer(0), n.integer(1));
            QCOMPARE(n.integer(2), 0LL);
            // and, after its commit, the screen whole (hits/ScreenPack.cpp) with every pose mapped
            hits::ScreenIndex packed;
            packed.load(store.handle(), store.path(), 2, -1, false);
            QVERIFY(packed.loadedFromPack());
            QCOMPARE(static_cast<long long>(packed.size()), n.integer(0));
            QVERIFY(packed.poseMolecules(1, 47));
        }
        const std::pair<const char*, SubstructureQuery::Syntax> cases[] = {
            {"[NX3;H2]c", SubstructureQuery::Syntax::Smarts},
            {"c1ccccc1", SubstructureQuery::Syntax::Smiles},
            {"[#7;R]", SubstructureQuery::Syntax::Smarts},
            {"S(=O)(=O)N", SubstructureQuery::Syntax::Smiles}};
        for (const auto& [pattern, syntax] : cases) {
            const SubstructureQuery query(pattern, syntax);
            QStringList expected;
            for (const QJsonObject& r : rows)
                if (r["mw"].toDouble() < 350 &&
                    query.matchesSmiles(r["smiles"].toString().toStdString()).value_or(false))
                    expected << QString::number(r["id"].toInt());
            const bool smarts = syntax == SubstructureQuery::Syntax::Smarts;
            const QString where = QString(smarts ? "smarts('%1')" : "substructure('%1')")
                                      .arg(pattern) + " and mw < 350";
            CliRun q = runCli({"hits", "query", db, "--json", "--columns", "id", "--order", "id",
                               "--where", where});
            QVERIFY2(q.exitCode == 0, q.err.constData());
            QStringList got;
            for (const QJsonObject& r : jsonLines(q.out))
                got << QString::number(r["id"].toInt());
            QCOMPARE(got, expected);
            QVERIFY2(!got.isEmpty() && got.size() < rows.size(), pattern); // discriminates
        }
        // A store written before the screen: upgrade gives every molecule its fingerprint, the
        // filter answers the same, and a second upgrade has nothing to add.
        const auto where = QString("smarts('[NX3;H2]c') or substructure('c1ccncc1')");
        const QByteArray before = runCli({"hits", "query", db, "--columns", "id", "--where", where}).out;
        {
            hits::HitStore store(db.toStdString(), hits::HitStore::Mode::ReadWrite);
            store.exec("DROP TABLE pw_screen");
        }
        QCOMPARE(runCli({"hits", "query", db, "--columns", "id", "--where", where}).out, before);
        CliRun up = runCli({"hits", "upgrade", db, "--json"});
        QVERIFY2(up.exitCode == 0, up.err.constData());
        const qint64 distinct = [&] {
            hits::HitStore store(db.toStdString(), hits::HitStore::Mode::ReadOnly);
            hits::Statement n = store.prepare("SELECT count(DISTINCT smiles) FROM poses");
            n.step();
            return n.integer(0);
        }();
        QCOMPARE(jsonLines(up.out).front()["screens_added"].toInteger(), distinct);
        QCOMPARE(runCli({"hits", "query", db, "--columns", "id", "--where", where}).out, before);
        up = runCli({"hits", "upgrade", db, "--json"});
        QCOMPARE(up.exitCode, 0);
        QCOMPARE(jsonLines(up.out).front()["screens_added"].toInteger(), 0LL);
        QCOMPARE(jsonLines(up.out).front()["compact_forms_added"].toInteger(), 0LL);
        // A store written before the compact form: upgrade gives every molecule one.
        {
            hits::HitStore store(db.toStdString(), hits::HitStore::Mode::ReadWrite);
            store.exec("UPDATE pw_screen SET cmol = NULL");
        }
        QCOMPARE(runCli({"hits", "query", db, "--columns", "id", "--where", where}).out, before);
        up = runCli({"hits", "upgrade", db, "--json"});
        QVERIFY2(up.exitCode == 0, up.err.constData());
        QCOMPARE(jsonLines(up.out).front()["compact_forms_added"].toInteger(), distinct);
        {
            hits::HitStore store(db.toStdString(), hits::HitStore::Mode::ReadOnly);
            hits::Statement n = store.prepare("SELECT count(*) FROM pw_screen WHERE cmol IS NULL "
                                              "OR length(cmol) = 0");
            n.step();
            QCOMPARE(n.integer(0), 0LL);
        }
        QCOMPARE(runCli({"hits", "query", db, "--columns", "id", "--where", where}).out, before);
        CliRun bad = runCli({"hits", "query", db, "--where", "smarts('c1cc(')"});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains("column 9") && bad.err.contains("SMARTS"), bad.err.constData());
    }

    void lingoSimilarityAndClusters() {
        QTemporaryDir dir;
        const QString db = dir.filePath("h.db"), tsv = dir.filePath("hits.tsv");
        const auto mols = readMolecules(data("shapes/cdk2.sdf").toStdString());
        writeText(tsv, "query\thit\tsimilarity\nq1\t" + mols[0].name + "\t0.25\nq2\t" +
                           mols[0].name + "\t0.75\nq1\t" + mols[1].name + "\t0.5\n");
        CliRun imp = runCli({"hits", "import", db, data("shapes/cdk2.sdf"), "--lingo", tsv,
                             "--rank-by", "-lingo_similarity"});
        QVERIFY2(imp.exitCode == 0, imp.err.constData());
        CliRun q = runCli({"hits", "query", db, "--json", "--where", "lingo_similarity is not null",
                           "--columns", "name,lingo_similarity,rank"});
        QCOMPARE(q.exitCode, 0);
        const auto rows = jsonLines(q.out);
        QCOMPARE(rows.size(), qsizetype(2));
        QCOMPARE(rows[0]["lingo_similarity"].toDouble(), 0.75); // the best of the two queries
        QCOMPARE(rows[0]["rank"].toInt(), 1);
        QCOMPARE(rows[1]["lingo_similarity"].toDouble(), 0.5);

        // The lingo command's own hit list: the stored similarity is the best over its queries.
        CliRun sm = runCli({"hits", "query", db, "--json", "--columns", "name,smiles", "--limit",
                            "8", "--order", "id"});
        QCOMPARE(sm.exitCode, 0);
        std::string dbSmi, querySmi;
        const auto named = jsonLines(sm.out);
        for (int i = 0; i < named.size(); ++i) {
            const std::string line = named[i]["smiles"].toString().toStdString() + "\t" +
                                     named[i]["name"].toString().toStdString() + "\n";
            (i < 2 ? querySmi : dbSmi) += line;
        }
        writeText(dir.filePath("db.smi"), dbSmi);
        writeText(dir.filePath("q.smi"), querySmi);
        const QString real = dir.filePath("real.tsv"), db3 = dir.filePath("h3.db");
        CliRun lg =
            runCli({"lingo", "--query", dir.filePath("q.smi"), "--db", dir.filePath("db.smi"),
                    "--top", "6", "--device", "cpu", "--out", real});
        QVERIFY2(lg.exitCode == 0, lg.err.constData());
        QCOMPARE(runCli({"hits", "import", db3, data("shapes/cdk2.sdf"), "--lingo", real}).exitCode,
                 0);
        std::map<QString, double> best;
        for (const QByteArray& line : readBytes(real).split('\n').mid(1)) {
            const QList<QByteArray> f = line.split('\t');
            if (f.size() == 3)
                best[QString(f[1])] = std::max(
                    best.count(QString(f[1])) ? best[QString(f[1])] : -1.0, f[2].toDouble());
        }
        QCOMPARE(best.size(), size_t(6));
        CliRun got = runCli({"hits", "query", db3, "--json", "--where",
                             "lingo_similarity is not null", "--columns", "name,lingo_similarity"});
        QCOMPARE(got.exitCode, 0);
        const auto gotRows = jsonLines(got.out);
        QCOMPARE(gotRows.size(), qsizetype(6));
        for (const QJsonObject& r : gotRows)
            QCOMPARE(r["lingo_similarity"].toDouble(), best[r["name"].toString()]);
        // JSON lines are refused with the line named.
        writeText(dir.filePath("hits.json"), "{\"query\":0}\n");
        CliRun bad = runCli({"hits", "import", db3, "--lingo", dir.filePath("hits.json")});
        QCOMPARE(bad.exitCode, 1);
        QVERIFY2(bad.err.contains("hits.json:1"), bad.err.constData());

        for (const char* method : {"leader", "butina"}) {
            CliRun c =
                runCli({"hits", "cluster", db, "--method", method, "--threshold", "0.6", "--json"});
            QVERIFY2(c.exitCode == 0, c.err.constData());
            const int clusters = jsonLines(c.out).value(0)["clusters"].toInt();
            QVERIFY(clusters > 1 && clusters < 47);
            CliRun all = runCli(
                {"hits", "query", db, "--json", "--columns", "cluster,cluster_best,rank,smiles"});
            QCOMPARE(all.exitCode, 0);
            std::map<int, int> bests, bestRank, minRank;
            std::map<QString, int> clusterOfSmiles;
            for (const QJsonObject& r : jsonLines(all.out)) {
                const int cl = r["cluster"].toInt(),
                          rank = r["rank"].isNull() ? 1000 : r["rank"].toInt();
                QVERIFY(cl >= 1 && cl <= clusters);
                if (r["cluster_best"].toInt() == 1) {
                    ++bests[cl];
                    bestRank[cl] = rank;
                }
                minRank[cl] = minRank.count(cl) ? std::min(minRank[cl], rank) : rank;
                // Poses of one molecule (same SMILES) always share a cluster.
                const QString smi = r["smiles"].toString();
                if (clusterOfSmiles.count(smi))
                    QCOMPARE(clusterOfSmiles[smi], cl);
                clusterOfSmiles[smi] = cl;
            }
            QCOMPARE(int(bests.size()), clusters);
            for (const auto& [cl, n] : bests) {
                QCOMPARE(n, 1);
                QCOMPARE(bestRank[cl], minRank[cl]); // the best per cluster is its best-ranked
            }
        }
    }

    void badInput() {
        QTemporaryDir dir;
        const QString db = dir.filePath("h.db");
        QCOMPARE(runCli({"hits", "import", db, data("shapes/cdk2.sdf")}).exitCode, 0);
        const QByteArray before = readBytes(db);
        // A missing file in the middle of an import: error, and the store keeps what it had.
        CliRun r =
            runCli({"hits", "import", db, data("shapes/cdk2.sdf"), dir.filePath("nope.sdf")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("nope.sdf"), r.err.constData());
        QCOMPARE(readBytes(db), before);
        // A bad expression: usage error with the position; no export file appears.
        const QString out = dir.filePath("x.sdf");
        r = runCli({"hits", "export", db, "--out", out, "--where", "mw < 500 and qed >"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("column 19"), r.err.constData());
        QVERIFY(!QFile::exists(out));
        r = runCli({"hits", "query", db, "--order", "nosuch"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("unknown column 'nosuch'"), r.err.constData());
        r = runCli({"hits", "export", db, "--out", dir.filePath("x.txt")});
        QCOMPARE(r.exitCode, 2);
        r = runCli({"hits", "query", dir.filePath("missing.db")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("missing.db"), r.err.constData());
        r = runCli({"hits", "frobnicate", db});
        QCOMPARE(r.exitCode, 2);
        // A newer store: refused, untouched.
        const QString newer = dir.filePath("newer.db");
        {
            hits::HitStore s(newer.toStdString(), hits::HitStore::Mode::Create);
            s.exec("UPDATE pw_meta SET value = '7' WHERE key = 'schema_version'");
        }
        const QByteArray newerBytes = readBytes(newer);
        r = runCli({"hits", "import", newer, data("shapes/cdk2.sdf")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("schema version 7"), r.err.constData());
        QCOMPARE(readBytes(newer), newerBytes);
        // A receptor without residues cannot name the residues of interactions.
        r = runCli(
            {"hits", "import", db, data("shapes/cdk2.sdf"), "--receptor", data("shapes/ref.mol")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("ref.mol") && r.err.contains("no residues"), r.err.constData());
        QCOMPARE(readBytes(db), before);
        // A bad record among good ones: a warning naming it, the others imported.
        const QString mixed = dir.filePath("mixed.sdf");
        writeText(mixed, ethanolRecord("good1", tag("dock_score", "-8")) +
                             "broken\n  x\n\n  not a counts line\nM  END\n$$$$\n" +
                             ethanolRecord("good2", ""));
        r = runCli({"hits", "import", dir.filePath("m.db"), mixed, "--json"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.contains("mixed.sdf"), r.err.constData());
        QCOMPARE(jsonLines(r.out).value(0)["imported"].toInt(), 2);
        QCOMPARE(jsonLines(r.out).value(0)["skipped"].toInt(), 1);
    }
};

QTEST_GUILESS_MAIN(TestHitsCli)
#include "test_hits_cli.moc"
