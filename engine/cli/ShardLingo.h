// ShardLingo: `lingo --shard K/N`: the database is the sliced input (Shard.h: blocks of B
// molecules dealt round-robin), every query is searched against this shard's slice, and the hits
// keep their index in the whole database. The output is the text table with one more column
// (the query's and the hit's indices) and the shard's key in the header; `merge` (MergeLingo)
// joins the shards' hits per query in the one hit order (lingo::betterHit) and keeps the top K,
// which gives the single run's table byte for byte.
#pragma once

#include "Shard.h"
#include "backend/Backend.h"
#include "lingo/LingoSearch.h"
#include "lingo/LingoSet.h"

#include <istream>
#include <string>
#include <vector>

namespace pw::cli {

// The header's key column: "PW_SHARD_KEY K/N@B top K".
std::string lingoShardHeader(const Shard& shard, int topK);

// Hits of `queries` against the shard's slice of `database` (the whole database's canonical
// SMILES), with indices into the whole database; allVsAll: the queries are the database and a
// molecule's hit on itself is left out.
lingo::HitLists searchDatabaseShard(Backend& backend, const lingo::LingoSet& queries,
                                    const std::vector<std::string>& databaseCanonical,
                                    bool allVsAll, lingo::SearchOptions options,
                                    const Shard& shard);

// merge for lingo shard tables (the inputs start with the lingo shard header): writes the
// single run's table to outPath atomically; throws InputError naming the bad input.
long mergeLingoShards(const std::string& outPath, const std::vector<std::string>& inputs);

// True when the file starts like a lingo shard table.
bool isLingoShardTable(const std::string& path);

} // namespace pw::cli
