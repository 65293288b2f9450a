// HitColumns: the columns of the hit table: the fixed ones of the schema (identity, RDKit
// properties, rank, cluster, ligand efficiency) and the score columns made from SD tags.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pw::hits {

enum class ColumnType { Integer, Real, Text };
// Core: identity of the pose; Property: computed at import (RDKit, interactions count);
// Derived: assigned over the whole store (rank, cluster, LINGO similarity); Tag: from an SD tag.
enum class ColumnOrigin { Core, Property, Derived, Tag };

struct ColumnInfo {
    std::string name; // SQL column name: lower case, [a-z0-9_]
    ColumnType type = ColumnType::Real;
    ColumnOrigin origin = ColumnOrigin::Tag;
    std::string sdTag; // the SD tag it was read from (Tag columns only)
};

const char* typeName(ColumnType t);     // "INTEGER", "REAL", "TEXT"
const char* originName(ColumnOrigin o); // "core", "property", "derived", "tag"

// The fixed columns of the poses table, in table order (the molblock and the SD tag text are
// stored too, in pose_blocks since schema version 2, but are not columns a user filters on).
const std::vector<ColumnInfo>& fixedColumns();
bool isFixedColumn(std::string_view name);

// The column an SD tag goes into when its value is a number: the engines' own tags under fixed
// names (minimize: minimizedAffinity -> min_affinity; overlay: PW_SHAPE_TANIMOTO ->
// shape_tanimoto; dock: dock_score, dock_<term>, run -> dock_run, ...), any other numeric tag
// under its sanitized name (prefixed sd_ where that is a fixed column). nullopt when the value is
// not a number: such tags are kept as text with the pose, not as a column.
std::optional<ColumnInfo> columnForTag(const std::string& tag, std::string_view value);

// Whole value (surrounding blanks allowed) as a finite number.
bool parseNumber(std::string_view text, double& out);

// Tags that export writes for columns not read from tags (pw_hit_mw, ...). Import skips those of
// the fixed columns, since it computes them again; the others (hits rescore's rescore_affinity,
// ...: nothing at import can compute them) stay, as Tag columns under the tag's own name.
inline constexpr std::string_view kExportTagPrefix = "pw_hit_";
bool recomputedOnImport(std::string_view tag); // pw_hit_ + a fixed column's name

} // namespace pw::hits
