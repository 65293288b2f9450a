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

// Writes the selection to SDF. A large selection (ExportTuning) of a store file is read in
// storage order on several threads, each with a read-only connection of its own, and every record
// is placed at its offset in the output (through a shared mapping where the file system keeps
// reserved blocks, else by pwrite; POSEWRIGHT_COMMIT_PWRITE=1 forces pwrite): the same bytes as
// the serial path.
long exportSdf(const HitStore& store, const Selection& selection, const std::string& path);

// When exportSdf goes parallel (tests set small values to run that path on small stores).
struct ExportTuning {
    size_t parallelAfter = 16384; // poses
    size_t chunk = 1024;          // poses a thread reads at a time
    int threads = 0;              // 0: the cores, at most 8
    // Every selection, queries too: a limit up to this goes into the SQL (SQLite keeps the best
    // rows in a B-tree); a larger one is applied while stepping through SQLite's sorted rows.
    long sqlLimitUpTo = 50000;
};
void setExportTuning(const ExportTuning& tuning);
ExportTuning exportTuning();

// How the last exportSdf (of any thread) wrote its file: tests check that the path they aim at
// is the one that ran.
enum class SdfExportPath { Serial, PlacedMapped, PlacedPwrite };
SdfExportPath lastSdfExportPath();

long exportCsv(const HitStore& store, const Selection& selection, const std::string& path,
               const std::vector<std::string>& columns = {});

} // namespace pw::hits
