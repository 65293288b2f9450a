// Shard: `--shard K/N` (and `--shard-block B`) on the batch commands (minimize, dock, overlay,
// lingo): one deterministic slice of the input records, so that a scheduler's job array (Slurm,
// ...) runs the N slices anywhere and `posewright-cli merge` joins their ranked outputs into the
// file one run would have written, byte for byte.
//
// The slice is made of blocks of B consecutive records (default 256), dealt round-robin: record i
// (its index among the readable records of all input files, as the single run numbers them)
// belongs to shard (i / B) % N + 1. Blocks rather than single records keep a batch's ligands
// consecutive (the docking random streams are keyed by consecutive indices; the GPU gets whole
// batches) and keep the poses of one ligand together (preparation reuse); round-robin keeps the
// shards balanced. Every shard reads (and parses) the whole input to number the records exactly
// as one run does; only its own records are prepared and computed.
//
// Each record a shard writes carries one extra SD tag, last: PW_SHARD_KEY = "K/N@B score index
// seq" (score as a C99 hex float, exactly; lower ranks first; seq orders one ligand's poses).
// `merge` checks the shards (all of one N and B, none twice, none missing, every record in its
// own shard's blocks), merges by (score, index, seq), which is how the single run breaks ties
// (arrival order), and strips the tag.
#pragma once

#include "CommandLine.h"

#include <optional>
#include <string>

namespace pw::cli {

inline constexpr const char* kShardKeyTag = "PW_SHARD_KEY";
inline constexpr long kDefaultShardBlock = 256;

struct Shard {
    int k = 1, n = 1;              // this slice, 1-based, of n
    long block = kDefaultShardBlock; // records per block
    bool owns(long index) const { return (index / block) % n == k - 1; }
    std::string label() const; // "K/N@B"
};

// Parses "K/N" (1 <= K <= N <= 1000000) and a block size; throws UsageError naming the option.
Shard parseShard(const std::string& text, long block = kDefaultShardBlock);
// --shard K/N and --shard-block B (nullopt without --shard; --shard-block alone is checked and
// otherwise ignored, so that one command line serves a single run, shards and mpirun's ranks).
std::optional<Shard> shardOption(const CommandLine& cl);

// The PW_SHARD_KEY value of a record: its shard, rank score (lower first), index and seq.
std::string shardKeyValue(const Shard& shard, double rankScore, long index, long seq);

struct ShardKey {
    Shard shard;
    double score = 0;
    long index = 0, seq = 0;
    bool operator<(const ShardKey& o) const {
        if (score != o.score)
            return score < o.score;
        if (index != o.index)
            return index < o.index;
        return seq < o.seq;
    }
};
// Parses a PW_SHARD_KEY value; false when it is malformed.
bool parseShardKey(const std::string& value, ShardKey& key);

} // namespace pw::cli
