// HitStore: schema version 2 (pw_meta, pw_columns, poses, pose_blocks, interactions; version 1,
// without pose_blocks, is read and written too), checked before anything is written, and
// prepared statements for the import path.
#include "HitStore.h"

#include "ScreenIndex.h"
#include "SubstructureFunction.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <string>
#include <sys/stat.h>
#include <thread>
#include <unordered_map>

namespace pw::hits {
namespace {

constexpr const char* kApplication = "posewright-hits";

bool fileExists(const std::string& path, long long& size) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
        return false;
    size = st.st_size;
    return true;
}

// The 16-byte header every SQLite 3 database starts with.
bool hasSqliteHeader(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    char head[16] = {};
    in.read(head, sizeof head);
    return in.gcount() == 16 && std::memcmp(head, "SQLite format 3", 16) == 0;
}

// The poses columns after id, in insert order, that are not Tag columns.
const char* const kPoseFixedInsert[] = {"name",
                                        "smiles",
                                        "source_file",
                                        "source_record",
                                        "ligand_efficiency",
                                        "heavy_atoms",
                                        "mw",
                                        "clogp",
                                        "hbd",
                                        "hba",
                                        "tpsa",
                                        "rotatable_bonds",
                                        "qed",
                                        "interaction_count"};

} // namespace

HitStore::HitStore(const std::string& path, Mode mode) : path_(path) {
    long long size = 0;
    const bool exists = fileExists(path, size);
    if (!exists && mode != Mode::Create)
        throw StoreError(path + ": no such hit store");
    const bool fresh = !exists || size == 0;
    if (fresh && mode != Mode::Create)
        throw StoreError(path + ": not a Posewright hit store (the file is empty)");
    if (!fresh && !hasSqliteHeader(path))
        throw StoreError(path + ": not a Posewright hit store (the file is not an SQLite "
                                "database); it was left unchanged");
    readOnly_ = mode == Mode::ReadOnly;
    // A journal beside the store is what a killed import leaves: SQLite rolls it back (the store
    // as it was before that import) on the first read, which needs write access. We write nothing
    // else in read-only mode.
    long long journalSize = 0;
    const bool hotJournal = fileExists(path + "-journal", journalSize) && journalSize > 0;
    int flags = readOnly_ && !hotJournal ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE;
    if (fresh && mode == Mode::Create)
        flags |= SQLITE_OPEN_CREATE;
    if (sqlite3_open_v2(path.c_str(), &db_, flags, nullptr) != SQLITE_OK) {
        std::string why = db_ ? sqlite3_errmsg(db_) : "out of memory";
        sqlite3_close(db_);
        db_ = nullptr;
        throw StoreError(path + ": cannot open the hit store: " + why);
    }
    sqlite3_extended_result_codes(db_, 1);
    sqlite3_busy_timeout(db_, 5000);
    try {
        if (fresh)
            createSchema();
        else
            checkSchema();
        // SQLite's sorter (ORDER BY without an index, CREATE INDEX) sorts its runs and merges
        // them on helper threads (up to 8, SQLite's cap): `hits query --order` on a column
        // without an index, 1M rows, went from 0.76 to 0.55 s on 2 cores.
        exec("PRAGMA threads=" +
             std::to_string(std::clamp(std::thread::hardware_concurrency(), 1u, 8u)) + ";");
        if (!readOnly_)
            // 64 MiB of page cache (SQLite's default is 2 MiB): ranking a large import rewrites
            // every row, and re-reading evicted pages showed in the import's profile.
            exec("PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON; PRAGMA cache_size=-65536;");
        loadColumns();
        substructure_ = registerSubstructureFunction(db_, path_);
    } catch (...) {
        sqlite3_close(db_);
        db_ = nullptr;
        throw;
    }
}

HitStore::~HitStore() {
    insertPose_ = Statement();
    insertInteraction_ = Statement();
    insertBlocks_ = Statement();
    insertScreen_ = Statement();
    sqlite3_close(db_);
}

void HitStore::exec(const std::string& sql) const {
    char* err = nullptr;
    if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
        std::string why = err ? err : sqlite3_errmsg(db_);
        sqlite3_free(err);
        throw StoreError(path_ + ": " + why);
    }
}

void HitStore::createSchema() {
    // 16 KiB pages: a pose's ~4 KB molblock fits a page with others instead of spilling to an
    // overflow page of its own (4 KiB pages); fewer, fuller pages to write and read.
    std::string sql = "PRAGMA page_size=16384;BEGIN;"
                      "CREATE TABLE pw_meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);"
                      "CREATE TABLE pw_columns(name TEXT PRIMARY KEY, type TEXT NOT NULL, "
                      "origin TEXT NOT NULL, sd_tag TEXT, position INTEGER NOT NULL);"
                      "CREATE TABLE poses(id INTEGER PRIMARY KEY";
    for (const ColumnInfo& c : fixedColumns())
        if (c.name != "id")
            sql += ", " + quoteIdentifier(c.name) + " " + typeName(c.type);
    sql += ");"
           "CREATE TABLE pose_blocks(id INTEGER PRIMARY KEY REFERENCES poses(id) ON DELETE "
           "CASCADE, molblock TEXT, sd_tags TEXT);"
           "CREATE TABLE interactions(pose_id INTEGER NOT NULL REFERENCES poses(id) ON DELETE "
           "CASCADE, kind TEXT NOT NULL, chain TEXT, residue_name TEXT, residue_number INTEGER, "
           "residue TEXT NOT NULL, ligand_atom INTEGER, receptor_atom TEXT, distance REAL);"
           "CREATE INDEX interactions_by_residue ON interactions(residue, kind, pose_id);"
           "CREATE INDEX interactions_by_pose ON interactions(pose_id);";
    sql += createScreenTableSql() + ";";
    sql += "INSERT INTO pw_meta VALUES('application', '" + std::string(kApplication) + "');";
    sql += "INSERT INTO pw_meta VALUES('schema_version', '" + std::to_string(kSchemaVersion) +
           "');COMMIT;";
    exec(sql);
}

void HitStore::checkSchema() {
    sqlite3_stmt* raw = nullptr;
    const char* sql = "SELECT value FROM pw_meta WHERE key = 'schema_version'";
    int rc = sqlite3_prepare_v2(db_, sql, -1, &raw, nullptr);
    std::string version;
    if (rc == SQLITE_OK) {
        rc = sqlite3_step(raw);
        if (rc == SQLITE_ROW)
            version = reinterpret_cast<const char*>(sqlite3_column_text(raw, 0));
        sqlite3_finalize(raw);
    }
    const int primary = sqlite3_errcode(db_) & 0xff;
    if (primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB)
        throw StoreError(path_ + ": the hit store is corrupt (" + sqlite3_errmsg(db_) +
                         "); it was left unchanged");
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
        const std::string why = sqlite3_errmsg(db_);
        if (why.find("no such table") != std::string::npos)
            throw StoreError(path_ + ": not a Posewright hit store (" + why +
                             "); it was left unchanged");
        throw StoreError(path_ + ": cannot read the hit store: " + why);
    }
    if (version.empty())
        throw StoreError(path_ + ": not a Posewright hit store (no schema version); it was "
                                 "left unchanged");
    const int v = std::atoi(version.c_str());
    if (v > kSchemaVersion)
        throw StoreError(path_ + ": the hit store has schema version " + version +
                         ", newer than this Posewright reads (" + std::to_string(kSchemaVersion) +
                         "); it was left unchanged");
    if (v < 1)
        throw StoreError(path_ + ": not a Posewright hit store (schema version '" + version +
                         "'); it was left unchanged");
    schemaVersion_ = v;
}

void HitStore::loadColumns() {
    columns_ = fixedColumns();
    Statement s = prepare("SELECT name, type, origin, sd_tag FROM pw_columns ORDER BY position");
    while (s.step()) {
        ColumnInfo c;
        c.name = s.text(0);
        const std::string type = s.text(1);
        c.type = type == "INTEGER" ? ColumnType::Integer
                 : type == "TEXT"  ? ColumnType::Text
                                   : ColumnType::Real;
        // Tag columns come from import; derived ones from a command over the store (rescore).
        c.origin = s.text(2) == "derived" ? ColumnOrigin::Derived : ColumnOrigin::Tag;
        c.sdTag = s.text(3);
        columns_.push_back(std::move(c));
    }
    insertPose_ = Statement();
}

std::string HitStore::blocksFrom() const {
    return schemaVersion_ >= 2 ? "poses LEFT JOIN pose_blocks ON pose_blocks.id = poses.id"
                               : "poses";
}

std::string HitStore::blockColumns() const {
    return schemaVersion_ >= 2 ? "pose_blocks.molblock, pose_blocks.sd_tags"
                               : "poses.molblock, poses.sd_tags";
}

const ColumnInfo* HitStore::column(std::string_view name) const {
    for (const ColumnInfo& c : columns_)
        if (c.name == name)
            return &c;
    return nullptr;
}

long long HitStore::poseCount() const {
    Statement s = prepare("SELECT count(*) FROM poses");
    s.step();
    return s.integer(0);
}

HitStore::Transaction::Transaction(HitStore& store) : store_(store) {
    store_.exec("BEGIN IMMEDIATE");
}

HitStore::Transaction::~Transaction() {
    if (!done_) {
        sqlite3_exec(store_.db_, "ROLLBACK", nullptr, nullptr, nullptr);
        substructureStoreChanged(store_.substructure_);
        store_.insertScreen_ = Statement(); // its table may have gone with the rollback
        try {
            store_.loadColumns(); // columns added in the transaction are gone again
        } catch (const StoreError&) {
            store_.columns_ = fixedColumns(); // the store is unreadable: show no Tag columns
        }
    }
}

void HitStore::Transaction::commit() {
    store_.exec("COMMIT");
    done_ = true;
    substructureStoreChanged(store_.substructure_);
}

const ColumnInfo& HitStore::ensureColumn(const ColumnInfo& wanted) {
    // The same tag maps to the same column; a different tag that sanitizes to a taken name gets a
    // numbered name.
    std::string name = wanted.name;
    for (int n = 2;; ++n) {
        const ColumnInfo* c = column(name);
        if (!c)
            break;
        if (c->origin == ColumnOrigin::Tag && c->sdTag == wanted.sdTag)
            return *c;
        name = wanted.name + "_" + std::to_string(n);
    }
    ColumnInfo added = wanted;
    added.name = name;
    exec("ALTER TABLE poses ADD COLUMN " + quoteIdentifier(name) + " " + typeName(added.type));
    Statement s = prepare("INSERT INTO pw_columns VALUES(?, ?, 'tag', ?, ?)");
    s.bind(1, std::string_view(name));
    s.bind(2, std::string_view(typeName(added.type)));
    s.bind(3, std::string_view(added.sdTag));
    s.bind(4, static_cast<long long>(columns_.size()));
    s.run();
    columns_.push_back(std::move(added));
    insertPose_ = Statement(); // its column list changed
    return columns_.back();
}

const ColumnInfo& HitStore::ensureDerivedColumn(const std::string& name, ColumnType type) {
    if (readOnly_)
        throw StoreError(path_ + ": opened read-only");
    if (const ColumnInfo* c = column(name)) {
        if (c->origin == ColumnOrigin::Derived && !isFixedColumn(name) && c->type == type)
            return *c;
        throw StoreError(path_ + ": the store already has a column '" + name + "' (" +
                         originName(c->origin) + ", " + typeName(c->type) +
                         ") that is not a computed " + typeName(type) + " column");
    }
    exec("ALTER TABLE poses ADD COLUMN " + quoteIdentifier(name) + " " + typeName(type));
    Statement s = prepare("INSERT INTO pw_columns VALUES(?, ?, 'derived', '', ?)");
    s.bind(1, std::string_view(name));
    s.bind(2, std::string_view(typeName(type)));
    s.bind(3, static_cast<long long>(columns_.size()));
    s.run();
    columns_.push_back({name, type, ColumnOrigin::Derived, ""});
    insertPose_ = Statement(); // its column list changed
    return columns_.back();
}

void HitStore::prepareInsert() {
    slotByTag_.clear();
    std::string names, params;
    if (schemaVersion_ < 2) { // version 1 keeps them in poses
        names = "molblock, sd_tags";
        params = "?, ?";
    }
    for (const char* c : kPoseFixedInsert) {
        params += params.empty() ? "?" : ", ?";
        names += names.empty() ? "" : ", ";
        names += quoteIdentifier(c);
    }
    int slot = 0;
    for (const ColumnInfo& c : columns_) {
        if (c.origin != ColumnOrigin::Tag)
            continue;
        slotByTag_.emplace(c.sdTag, slot++);
        names += ", " + quoteIdentifier(c.name);
        params += ", ?";
    }
    insertPose_ = prepare("INSERT INTO poses(" + names + ") VALUES(" + params + ")");
    if (!insertInteraction_.valid())
        insertInteraction_ = prepare("INSERT INTO interactions VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?)");
    if (!insertBlocks_.valid() && schemaVersion_ >= 2)
        insertBlocks_ = prepare("INSERT INTO pose_blocks VALUES(?, ?, ?)");
    if (!insertScreen_.valid()) {
        // Stores written before the screen get its table with their next import (inside that
        // import's transaction); their older molecules are matched from SMILES until then.
        ensureScreenTable(*this);
        insertScreen_ = prepare(std::string("INSERT OR IGNORE INTO ") + kScreenTable +
                                "(smiles, fp, mol, cmol) VALUES(?, ?, ?, ?)");
    }
}

long long HitStore::insertPose(const PoseRecord& pose) {
    if (readOnly_)
        throw StoreError(path_ + ": opened read-only");
    // Each score goes to its Tag column's slot in the statement, found by SD tag name; a tag
    // without a slot gets its column (added if new) and the statement is prepared again.
    if (!insertPose_.valid())
        slotByTag_.clear();
    bool unslotted = false;
    for (const auto& [wanted, value] : pose.scores)
        if (!slotByTag_.contains(wanted.sdTag)) {
            ensureColumn(wanted);
            unslotted = true;
        }
    if (unslotted || !insertPose_.valid())
        prepareInsert();
    Statement& s = insertPose_;
    int i = 1;
    auto opt = [&](const auto& v) {
        if (v)
            s.bind(i, *v);
        else
            s.bindNull(i);
        ++i;
    };
    auto optInt = [&](const std::optional<int>& v) {
        if (v)
            s.bind(i, static_cast<long long>(*v));
        else
            s.bindNull(i);
        ++i;
    };
    if (schemaVersion_ < 2) {
        s.bindStatic(i++, pose.molblock);
        s.bindStatic(i++, pose.sdTags);
    }
    // The pose outlives run(): no copies of its texts.
    s.bindStatic(i++, pose.name);
    if (pose.smiles)
        s.bindStatic(i, *pose.smiles);
    else
        s.bindNull(i);
    ++i;
    s.bindStatic(i++, pose.sourceFile);
    s.bind(i++, static_cast<long long>(pose.sourceRecord));
    opt(pose.ligandEfficiency);
    optInt(pose.heavyAtoms);
    opt(pose.mw);
    opt(pose.clogp);
    optInt(pose.hbd);
    optInt(pose.hba);
    opt(pose.tpsa);
    optInt(pose.rotatableBonds);
    opt(pose.qed);
    if (pose.interactions)
        s.bind(i, static_cast<long long>(pose.interactions->size()));
    else
        s.bindNull(i);
    ++i;
    // Tag columns: NULL unless this pose has the tag.
    const int firstTag = i;
    for (const auto& [wanted, value] : pose.scores)
        s.bind(firstTag + slotByTag_.find(wanted.sdTag)->second, value);
    s.run();
    const long long id = sqlite3_last_insert_rowid(db_);
    if (pose.screen && pose.smiles) {
        const auto blob = encodeScreen(*pose.screen);
        insertScreen_.bindStatic(1, *pose.smiles);
        insertScreen_.bindBlobStatic(2, blob.data(), kScreenBytes);
        if (!pose.screenMolecule.empty())
            insertScreen_.bindBlobStatic(3, pose.screenMolecule.data(),
                                         static_cast<int>(pose.screenMolecule.size()));
        if (!pose.screenCompact.empty())
            insertScreen_.bindBlobStatic(4, pose.screenCompact.data(),
                                         static_cast<int>(pose.screenCompact.size()));
        insertScreen_.run();
    }
    if (schemaVersion_ >= 2) {
        insertBlocks_.bind(1, id);
        insertBlocks_.bindStatic(2, pose.molblock);
        insertBlocks_.bindStatic(3, pose.sdTags);
        insertBlocks_.run();
    }
    if (pose.interactions) {
        Statement& t = insertInteraction_;
        for (const Interaction& x : *pose.interactions) {
            t.bind(1, id);
            t.bind(2, std::string_view(x.kind));
            t.bind(3, std::string_view(&x.chain, 1));
            t.bind(4, std::string_view(x.residueName));
            t.bind(5, static_cast<long long>(x.residueNumber));
            t.bind(6, std::string_view(x.residueLabel()));
            if (x.ligandAtom >= 0)
                t.bind(7, static_cast<long long>(x.ligandAtom));
            else
                t.bindNull(7);
            t.bind(8, std::string_view(x.receptorAtom));
            t.bind(9, x.distance);
            t.run();
        }
    }
    return id;
}

void HitStore::assignRanks(const std::string& columnName, bool ascending) {
    const ColumnInfo* c = column(columnName);
    if (!c)
        throw StoreError(path_ + ": no column '" + columnName + "' to rank by");
    const std::string q = quoteIdentifier(c->name);
    // The rank index is dropped while every rank is rewritten and built again after (one sort
    // instead of a B-tree update per row). It serves the default order (rank, id) and makes
    // count(*), which a table asks first, read this small index instead of the wide rows.
    // The ranks go through a temporary table keyed by id, so that the rows are rewritten in id
    // order (page after page) rather than in rank order, which on a store larger than the page
    // cache re-read a page for nearly every row.
    exec("DROP INDEX IF EXISTS poses_by_rank;"
         "UPDATE poses SET rank = NULL WHERE rank IS NOT NULL;" // a fresh import: no row rewritten
         "DROP TABLE IF EXISTS temp.pw_rank;"
         "CREATE TEMP TABLE pw_rank(id INTEGER PRIMARY KEY, k INTEGER NOT NULL);"
         "INSERT INTO temp.pw_rank SELECT id, row_number() OVER (ORDER BY " +
         q + (ascending ? " ASC" : " DESC") + ", id) FROM poses WHERE " + q +
         " IS NOT NULL ORDER BY id;"
         "UPDATE poses SET rank = r.k FROM temp.pw_rank AS r WHERE poses.id = r.id;"
         "DROP TABLE temp.pw_rank;"
         "CREATE INDEX poses_by_rank ON poses(rank, id);");
    Statement s = prepare("INSERT OR REPLACE INTO pw_meta VALUES('rank_by', ?)");
    s.bind(1, std::string_view((ascending ? "+" : "-") + c->name));
    s.run();
}

std::optional<std::pair<std::string, bool>> HitStore::defaultRankColumn() const {
    const std::pair<const char*, bool> order[] = {{"dock_score", true},
                                                  {"min_affinity", true},
                                                  {"shape_combo", false},
                                                  {"shape_tanimoto", false},
                                                  {"lingo_similarity", false}};
    for (const auto& [name, ascending] : order) {
        if (!column(name))
            continue;
        // lingo_similarity always exists as a column; it ranks only when some pose has a value.
        Statement s =
            prepare("SELECT 1 FROM poses WHERE " + quoteIdentifier(name) + " IS NOT NULL LIMIT 1");
        if (s.step())
            return std::make_pair(std::string(name), ascending);
    }
    return std::nullopt;
}

} // namespace pw::hits
