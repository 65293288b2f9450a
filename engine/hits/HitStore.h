// HitStore: one SQLite file per project holding one row per pose (identity, molblock, every score
// column, properties, rank, cluster) and the per-residue interactions in a child table.
#pragma once

#include "HitColumns.h"
#include "Sqlite.h"
#include "chem/SubstructureQuery.h"

#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace pw::hits {

// 2: the molblock and tag text live in pose_blocks, so that scans of poses (sort, filter, the
// table's load) read ~250 bytes a row instead of ~4.7 KB. Version 1 stores (both in poses) are
// still read and written.
inline constexpr int kSchemaVersion = 2;

// One interaction of a pose with one receptor residue (PLIP's interaction kinds).
struct Interaction {
    std::string kind; // hbond, saltbridge, pistack, halogen, hydrophobic
    char chain = ' ';
    std::string residueName; // "ASP"
    int residueNumber = 0;
    int ligandAtom = -1;      // 0-based atom index in the pose's molblock (-1 for a ring/group)
    std::string receptorAtom; // PDB atom name ("OD2"), or the group ("ring", "COO-")
    double distance = 0;      // Å
    // "ASP86": the label that filters such as hbond('ASP86') name.
    std::string residueLabel() const { return residueName + std::to_string(residueNumber); }
};

// Everything the store keeps of one pose; scores are keyed by column name.
struct PoseRecord {
    std::string name;
    std::string sourceFile;
    long sourceRecord = 0;
    std::string molblock; // the connection table with bond orders, up to and including M  END
    std::string sdTags;   // the pose's SD tag block as read (every tag, text ones included)
    std::vector<std::pair<ColumnInfo, SqlValue>> scores; // Tag columns and their values
    // Properties (absent when RDKit could not read the molecule).
    std::optional<std::string> smiles;
    std::optional<double> mw, clogp, tpsa, qed, ligandEfficiency;
    std::optional<int> hbd, hba, rotatableBonds, heavyAtoms;
    std::optional<std::vector<Interaction>> interactions; // absent: no receptor was given
    // The molecule's substructure-screening fingerprint (of `smiles` as RDKit re-reads it), given
    // for the first pose of each molecule; the store keeps one per distinct SMILES (pw_screen).
    std::optional<ScreenFingerprint> screen;
    std::string screenMolecule; // with screen: RDKit's binary form of the molecule (may be empty)
    std::string screenCompact;  // with screen: its compact form (CompactSubstructure.h; may be empty)
};

class HitStore {
public:
    enum class Mode {
        Create,    // create the file when missing (or open it when it is a store)
        ReadWrite, // the file must exist and be a store
        ReadOnly,
    };
    // Opens or creates the store. A file that is not a Posewright store, is corrupt, or has a
    // newer schema version throws StoreError naming it; such a file is never written to.
    HitStore(const std::string& path, Mode mode);
    ~HitStore();
    HitStore(const HitStore&) = delete;
    HitStore& operator=(const HitStore&) = delete;

    const std::string& path() const { return path_; }
    int schemaVersion() const { return schemaVersion_; }
    // SQL for reading a pose's molblock and tag text beside its poses columns: the FROM clause
    // ("poses" joined with the table that holds them) and the two column expressions.
    std::string blocksFrom() const;
    std::string blockColumns() const;
    sqlite3* handle() const { return db_; }
    Statement prepare(std::string_view sql) const { return Statement(db_, sql, path_); }
    void exec(const std::string& sql) const;

    // Every filterable column: fixed first, then Tag columns in the order they appeared.
    const std::vector<ColumnInfo>& columns() const { return columns_; }
    const ColumnInfo* column(std::string_view name) const;
    long long poseCount() const;

    // One write transaction: nothing is visible to other connections, or on disk after a crash or
    // a kill, until commit(); destroying it uncommitted rolls back.
    class Transaction {
    public:
        explicit Transaction(HitStore& store);
        ~Transaction();
        Transaction(const Transaction&) = delete;
        Transaction& operator=(const Transaction&) = delete;
        void commit();

    private:
        HitStore& store_;
        bool done_ = false;
    };

    // Inside a transaction: adds the pose (and its interactions); returns its id. Tag columns the
    // store does not have yet are added (typed, NULL for the rows already there).
    long long insertPose(const PoseRecord& pose);
    // Inside a transaction: the column `name` that a command computes over the store (origin
    // Derived, such as `hits rescore`'s energies; import leaves it NULL), added when missing.
    // Throws StoreError when the name is taken by a fixed, tag or differently typed column.
    const ColumnInfo& ensureDerivedColumn(const std::string& name, ColumnType type);
    // Ranks every pose by one column (1 = best; NULL where the column is NULL).
    void assignRanks(const std::string& column, bool ascending);
    // The column that ranks by default: dock_score, min_affinity (lower is better), then
    // shape_combo, shape_tanimoto, lingo_similarity (higher is better); nullopt when none exists.
    std::optional<std::pair<std::string, bool>> defaultRankColumn() const;

private:
    void createSchema();
    void checkSchema();
    void loadColumns();
    const ColumnInfo& ensureColumn(const ColumnInfo& wanted);
    void prepareInsert();

    std::string path_;
    sqlite3* db_ = nullptr;
    bool readOnly_ = false;
    std::vector<ColumnInfo> columns_;
    int schemaVersion_ = kSchemaVersion;
    Statement insertPose_, insertInteraction_, insertBlocks_, insertScreen_;
    struct SubstructureState* substructure_ = nullptr; // owned by the connection
    // Tag columns' slots in insertPose_ (0 = the first Tag column), by SD tag.
    std::unordered_map<std::string, int> slotByTag_;
};

} // namespace pw::hits
