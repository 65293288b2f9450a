#include "HitColumns.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <map>

namespace pw::hits {

const char* typeName(ColumnType t) {
    switch (t) {
    case ColumnType::Integer:
        return "INTEGER";
    case ColumnType::Real:
        return "REAL";
    default:
        return "TEXT";
    }
}

const char* originName(ColumnOrigin o) {
    switch (o) {
    case ColumnOrigin::Core:
        return "core";
    case ColumnOrigin::Property:
        return "property";
    case ColumnOrigin::Derived:
        return "derived";
    default:
        return "tag";
    }
}

const std::vector<ColumnInfo>& fixedColumns() {
    using T = ColumnType;
    using O = ColumnOrigin;
    static const std::vector<ColumnInfo> list{
        {"id", T::Integer, O::Core, ""},
        {"name", T::Text, O::Core, ""},
        {"smiles", T::Text, O::Property, ""},
        {"source_file", T::Text, O::Core, ""},
        {"source_record", T::Integer, O::Core, ""},
        {"rank", T::Integer, O::Derived, ""},
        {"cluster", T::Integer, O::Derived, ""},
        {"cluster_best", T::Integer, O::Derived, ""},
        {"lingo_similarity", T::Real, O::Derived, ""},
        {"ligand_efficiency", T::Real, O::Property, ""},
        {"heavy_atoms", T::Integer, O::Property, ""},
        {"mw", T::Real, O::Property, ""},
        {"clogp", T::Real, O::Property, ""},
        {"hbd", T::Integer, O::Property, ""},
        {"hba", T::Integer, O::Property, ""},
        {"tpsa", T::Real, O::Property, ""},
        {"rotatable_bonds", T::Integer, O::Property, ""},
        {"qed", T::Real, O::Property, ""},
        {"interaction_count", T::Integer, O::Property, ""},
    };
    return list;
}

bool isFixedColumn(std::string_view name) {
    const auto& f = fixedColumns();
    return std::any_of(f.begin(), f.end(), [&](const ColumnInfo& c) { return c.name == name; });
}

bool parseNumber(std::string_view text, double& out) {
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
        text.remove_prefix(1);
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
        text.remove_suffix(1);
    if (text.empty())
        return false;
    if (text.front() == '+')
        text.remove_prefix(1);
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    return ec == std::errc() && end == text.data() + text.size() && std::isfinite(out);
}

namespace {

std::string sanitize(std::string_view tag) {
    std::string s;
    for (char c : tag) {
        const unsigned char u = static_cast<unsigned char>(c);
        s += std::isalnum(u) ? static_cast<char>(std::tolower(u)) : '_';
    }
    if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0])))
        s = "t_" + s;
    return s;
}

// The engines' tags (engine/cli/MinimizeCommand.cpp, OverlayCommand.cpp; the docking helper's
// dock_* / run / cluster / cluster_size / rmsd_ref / seed) under names that say which engine.
const std::map<std::string, std::pair<std::string, ColumnType>, std::less<>>& knownTags() {
    using T = ColumnType;
    static const std::map<std::string, std::pair<std::string, ColumnType>, std::less<>> m{
        {"minimizedAffinity", {"min_affinity", T::Real}},
        {"minimizedRMSD", {"min_rmsd", T::Real}},
        {"minimizedInter", {"min_inter", T::Real}},
        {"minimizedIntra", {"min_intra", T::Real}},
        {"minimizedTorsional", {"min_torsional", T::Real}},
        {"inputIndex", {"input_index", T::Integer}},
        {"PW_SHAPE_TANIMOTO", {"shape_tanimoto", T::Real}},
        {"PW_TVERSKY_REF", {"tversky_ref", T::Real}},
        {"PW_TVERSKY_FIT", {"tversky_fit", T::Real}},
        {"PW_COLOR_TANIMOTO", {"color_tanimoto", T::Real}},
        {"PW_COMBO", {"shape_combo", T::Real}},
        {"PW_OVERLAP", {"shape_overlap", T::Real}},
        {"PW_RANK", {"overlay_rank", T::Integer}},
        {"run", {"dock_run", T::Integer}},
        {"cluster", {"dock_cluster", T::Integer}},
        {"cluster_size", {"dock_cluster_size", T::Integer}},
        {"rmsd_ref", {"dock_rmsd_ref", T::Real}},
        {"seed", {"dock_seed", T::Integer}},
    };
    return m;
}

} // namespace

std::optional<ColumnInfo> columnForTag(const std::string& tag, std::string_view value) {
    double v;
    if (!parseNumber(value, v))
        return std::nullopt;
    ColumnInfo c;
    c.origin = ColumnOrigin::Tag;
    c.sdTag = tag;
    if (auto it = knownTags().find(tag); it != knownTags().end()) {
        c.name = it->second.first;
        c.type = it->second.second;
        return c;
    }
    c.type = ColumnType::Real;
    c.name = sanitize(tag);
    if (isFixedColumn(c.name))
        c.name = "sd_" + c.name;
    return c;
}

bool recomputedOnImport(std::string_view tag) {
    if (!tag.starts_with(kExportTagPrefix))
        return false;
    const std::string_view name = tag.substr(kExportTagPrefix.size());
    for (const ColumnInfo& c : fixedColumns())
        if (c.name == name)
            return true;
    return false;
}

} // namespace pw::hits
