// `posewright-cli merge OUT IN...`: joins the ranked SDF outputs of `--shard K/N` runs (minimize,
// dock, overlay) into the file a single run writes, byte for byte: a streaming k-way merge (one
// record per input in memory) by the PW_SHARD_KEY tag each shard record carries (Shard.h), which
// is stripped; PW_RANK (overlay) is renumbered. Shards that overlap, are missing, or come from
// runs with another N or block size are named, and nothing is written. Tables of `lingo --shard`
// go to mergeLingoShards (ShardLingo.h).
#include "CommandLine.h"
#include "Commands.h"
#include "Shard.h"
#include "ShardLingo.h"
#include "chem/AtomicFile.h"
#include "core/InputError.h"

#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <queue>
#include <set>

namespace pw::cli {
namespace {

// One shard file read one record at a time; the record's key parsed and the key tag cut off.
class ShardReader {
public:
    explicit ShardReader(std::string path) : path_(std::move(path)), in_(path_, std::ios::binary) {
        if (!in_)
            throw InputError(path_, 0, "cannot open the shard output for reading");
    }
    const std::string& path() const { return path_; }
    const std::optional<Shard>& shard() const { return shard_; }
    long records() const { return records_; }

    // The next record (text without the key tag) and its key; false at the end of the file.
    bool next(std::string& record, ShardKey& key) {
        record.clear();
        std::string line;
        const long first = line_ + 1;
        bool any = false;
        while (std::getline(in_, line)) {
            ++line_;
            any = true;
            record += line;
            record += '\n';
            if (line == "$$$$")
                break;
        }
        if (!any)
            return false;
        if (record.size() < 5 || record.compare(record.size() - 5, 5, "$$$$\n") != 0)
            throw InputError(path_, line_, "truncated record (no '$$$$' line at the end)");
        // The key is the last tag: "> <PW_SHARD_KEY>\nVALUE\n\n$$$$\n".
        const std::string head = std::string("> <") + kShardKeyTag + ">\n";
        const size_t at = record.rfind(head);
        const size_t valueEnd = record.size() - 7; // before "\n\n$$$$\n"
        if (at == std::string::npos || (at > 0 && record[at - 1] != '\n') ||
            record.compare(valueEnd, 7, "\n\n$$$$\n") != 0 || at + head.size() > valueEnd)
            throw InputError(path_, first,
                             std::string("record without a ") + kShardKeyTag +
                                 " tag as its last tag: expected the output of a command run "
                                 "with --shard K/N");
        const std::string value = record.substr(at + head.size(), valueEnd - at - head.size());
        if (!parseShardKey(value, key))
            throw InputError(path_, first,
                             std::string("malformed ") + kShardKeyTag + " '" + value +
                                 "': expected 'K/N@B score index seq'");
        record.erase(at, valueEnd + 2 - at); // keeps "$$$$\n"
        if (!shard_)
            shard_ = key.shard;
        else if (key.shard.label() != shard_->label())
            throw InputError(path_, first,
                             "record of shard " + key.shard.label() + " in the output of shard " +
                                 shard_->label() + ": expected one shard per file");
        if (!key.shard.owns(key.index))
            throw InputError(path_, first,
                             "record " + std::to_string(key.index) + " does not belong to shard " +
                                 key.shard.label());
        if (previous_ && !(*previous_ < key))
            throw InputError(path_, first,
                             "records out of rank order: expected a ranked shard output");
        previous_ = key;
        ++records_;
        return true;
    }

private:
    std::string path_;
    std::ifstream in_;
    long line_ = 0, records_ = 0;
    std::optional<Shard> shard_;
    std::optional<ShardKey> previous_;
};

// PW_RANK's value (overlay numbers its ranked output) set to the record's place in the merge.
void renumberRank(std::string& record, long rank) {
    const std::string head = "> <PW_RANK>\n";
    size_t at = record.rfind(head);
    if (at == std::string::npos || (at > 0 && record[at - 1] != '\n'))
        return;
    at += head.size();
    const size_t end = record.find('\n', at);
    if (end != std::string::npos)
        record.replace(at, end - at, std::to_string(rank));
}

// Every shard present once, all of one N and block size; empty files (a shard that owned no
// record) stand for the shards not seen.
void checkShards(const std::vector<std::unique_ptr<ShardReader>>& inputs) {
    std::optional<Shard> first;
    std::string firstPath;
    std::map<int, std::string> seen;
    long empty = 0;
    for (const auto& in : inputs) {
        if (!in->shard()) {
            ++empty;
            continue;
        }
        const Shard& s = *in->shard();
        if (!first) {
            first = s, firstPath = in->path();
        } else if (s.n != first->n || s.block != first->block) {
            throw InputError(in->path(), 0,
                             "shard " + s.label() + " does not match shard " + first->label() +
                                 " of " + firstPath +
                                 ": expected shards of one run (same N and --shard-block)");
        }
        if (auto [it, fresh] = seen.emplace(s.k, in->path()); !fresh)
            throw InputError(in->path(), 0,
                             "shard " + s.label() + " given twice (also " + it->second +
                                 "): overlapping shards");
    }
    if (!first)
        return; // only empty shards: an empty result
    std::string missing;
    long nMissing = 0;
    for (int k = 1; k <= first->n; ++k)
        if (!seen.count(k))
            missing += (nMissing++ ? ", " : "") + std::to_string(k);
    if (nMissing > empty)
        throw InputError(inputs.front()->path(), 0,
                         "missing shard" + std::string(nMissing > 1 ? "s " : " ") + missing +
                             " of " + std::to_string(first->n) +
                             (empty ? " (" + std::to_string(empty) +
                                          " empty input(s) stand for as many of them)"
                                    : "") +
                             ": merge needs every shard's output");
    if (nMissing < empty)
        throw InputError(inputs.front()->path(), 0,
                         std::to_string(empty) + " empty inputs but only " +
                             std::to_string(nMissing) + " shard(s) unaccounted for: overlapping "
                             "shards");
}

} // namespace

int runMerge(const std::vector<std::string>& args) {
    CommandLine cl(args, {});
    const auto& files = cl.positional();
    if (files.size() < 2)
        throw UsageError("expected OUT and at least one shard output IN");
    const std::string outPath = files.front();
    std::set<std::string> names;
    for (size_t i = 1; i < files.size(); ++i) {
        if (files[i] == outPath)
            throw UsageError("the output '" + outPath + "' is also an input");
        if (!names.insert(files[i]).second)
            throw UsageError("input '" + files[i] + "' given twice");
    }

    // Tables of `lingo --shard` merge per query; everything else is ranked SDF.
    if (isLingoShardTable(files[1])) {
        const long written = mergeLingoShards(
            outPath, std::vector<std::string>(files.begin() + 1, files.end()));
        std::cerr << "merge: " << written << " LINGO hits from " << files.size() - 1
                  << " shard tables into " << outPath << "\n";
        return 0;
    }
    std::vector<std::unique_ptr<ShardReader>> inputs;
    struct Head {
        ShardKey key;
        size_t input;
        bool operator>(const Head& o) const { return o.key < key; }
    };
    std::priority_queue<Head, std::vector<Head>, std::greater<>> heads;
    std::vector<std::string> pending;
    for (size_t i = 1; i < files.size(); ++i) {
        inputs.push_back(std::make_unique<ShardReader>(files[i]));
        pending.emplace_back();
        ShardKey key;
        if (inputs.back()->next(pending.back(), key))
            heads.push({key, inputs.size() - 1});
    }
    checkShards(inputs);

    AtomicFile out(outPath);
    long written = 0;
    while (!heads.empty()) {
        const Head h = heads.top();
        heads.pop();
        std::string& record = pending[h.input];
        renumberRank(record, written + 1);
        out.stream() << record;
        ++written;
        ShardKey key;
        if (inputs[h.input]->next(record, key)) {
            if (key.shard.label() != h.key.shard.label())
                throw InputError(inputs[h.input]->path(), 0, "mixed shards");
            heads.push({key, h.input});
        }
    }
    out.commit();
    std::cerr << "merge: " << written << " records from " << inputs.size() << " shard outputs into "
              << outPath << "\n";
    return 0;
}

} // namespace pw::cli
