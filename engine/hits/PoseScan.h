// PoseScan: every pose's columns read in storage (id) order by several threads, each on a
// read-only connection of its own over ranges of ids, all from one snapshot. What the Hits
// panel reads when it opens a store: a whole table, where the order is made afterwards.
#pragma once

#include "HitStore.h"

#include <functional>
#include <string>
#include <vector>

namespace pw::hits {

struct PoseScan {
    std::vector<std::string> columns; // names from HitStore::columns(), in the statement's order
    int threads = 0;                  // 0: the cores, at most 8
    long parallelAfter = 65536;       // poses; fewer are read on the store's own connection
};

// Reads `scan.columns` of every pose. The ids are split into parts (contiguous id ranges, in
// id order); begin(parts) is called once, then row(part, statement) for each pose of each part,
// in id order within the part, every part on one thread (parts run at the same time). A store
// in WAL mode, in memory or under parallelAfter poses is read serially as one part on the
// store's connection. Throws StoreError (a worker's error stops the others) or FilterError for
// an unknown column. Returns the number of rows.
long scanPoses(const HitStore& store, const PoseScan& scan,
               const std::function<void(int parts)>& begin,
               const std::function<void(int part, const Statement& row)>& row);

} // namespace pw::hits
