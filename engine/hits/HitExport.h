// HitExport: a selection of the hit store (filter, order, limit) read back as rows, or written
// to SDF (the stored molblock with bond orders, the original tags, every other column as a
// pw_hit_ tag) or CSV; files are written atomically.
#pragma once

#include "HitStore.h"

#include <functional>
#include <string>
#include <vector>

namespace pw::hits {

struct Selection {
    std::string where; // HitFilter expression; empty = every pose
    std::string order; // HitFilter order; empty = rank, then id
    long limit = -1;   // -1 = no limit
};

// Runs the selection and calls row(statement) per pose; the statement's columns are `columns`
// (names from HitStore::columns(); empty = every column) in that order. Throws FilterError for a
// bad expression or an unknown column. Returns the number of rows.
long forEachSelected(const HitStore& store, const Selection& selection,
                     const std::vector<std::string>& columns,
                     const std::function<void(const Statement&)>& row);

// Text of a cell as the CLI, CSV and SD tags show it: shortest round-trip numbers, "" for NULL.
std::string cellText(const Statement& s, int column);

long exportSdf(const HitStore& store, const Selection& selection, const std::string& path);
long exportCsv(const HitStore& store, const Selection& selection, const std::string& path,
               const std::vector<std::string>& columns = {});

} // namespace pw::hits
