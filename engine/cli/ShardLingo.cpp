#include "ShardLingo.h"

#include "chem/AtomicFile.h"
#include "core/InputError.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>

namespace pw::cli {
namespace {

constexpr const char* kTableHeader = "query\thit\tsimilarity";

// One line of a shard table: the single run's three columns and the indices.
struct ShardHitLine {
    std::string text; // "query\thit\tsimilarity\n" as the single run writes it
    long query = 0, hit = 0;
    float similarity = 0;
};

class LingoShardReader {
public:
    explicit LingoShardReader(std::string path) : path_(std::move(path)), in_(path_) {
        if (!in_)
            throw InputError(path_, 0, "cannot open the shard output for reading");
        std::string header;
        std::getline(in_, header);
        ++line_;
        const std::string prefix = std::string(kTableHeader) + "\t" + kShardKeyTag + " ";
        std::istringstream key(header.rfind(prefix, 0) == 0 ? header.substr(prefix.size()) : "");
        std::string label, top, extra;
        ShardKey parsed;
        if (!(key >> label >> top >> topK_) || top != "top" || (key >> extra) ||
            !parseShardKey(label + " 0 0 0", parsed) || topK_ < 0)
            throw InputError(path_, 1,
                             "expected the header of `lingo --shard K/N` output ('" +
                                 std::string(kTableHeader) + "\\t" + kShardKeyTag +
                                 " K/N@B top K')");
        shard_ = parsed.shard;
        advance();
    }
    const std::string& path() const { return path_; }
    const Shard& shard() const { return shard_; }
    int topK() const { return topK_; }
    const std::optional<ShardHitLine>& head() const { return head_; }

    // The next line; checks that queries come in order and hits belong to this shard.
    void advance() {
        head_.reset();
        std::string line;
        if (!std::getline(in_, line))
            return;
        ++line_;
        const size_t tab = line.rfind('\t');
        ShardHitLine h;
        std::istringstream ids(tab == std::string::npos ? "" : line.substr(tab + 1));
        std::string extra;
        const size_t t1 = line.find('\t'), t2 = t1 == line.npos ? t1 : line.find('\t', t1 + 1);
        char* end = nullptr;
        const std::string sim = t2 == line.npos || t2 >= tab ? "" : line.substr(t2 + 1, tab - t2 - 1);
        h.similarity = std::strtof(sim.c_str(), &end);
        if (!(ids >> h.query >> h.hit) || (ids >> extra) || sim.empty() ||
            end != sim.c_str() + sim.size() || h.query < 0 || h.hit < 0)
            throw InputError(path_, line_,
                             "expected 'query<TAB>hit<TAB>similarity<TAB>QUERY HIT' (a lingo "
                             "shard table line)");
        if (!shard_.owns(h.hit))
            throw InputError(path_, line_,
                             "hit " + std::to_string(h.hit) + " does not belong to shard " +
                                 shard_.label());
        if (lastQuery_ > h.query)
            throw InputError(path_, line_, "queries out of order: expected a lingo shard table");
        lastQuery_ = h.query;
        h.text = line.substr(0, tab) + "\n";
        head_ = std::move(h);
    }

private:
    std::string path_;
    std::ifstream in_;
    long line_ = 0, lastQuery_ = -1;
    int topK_ = 0;
    Shard shard_;
    std::optional<ShardHitLine> head_;
};

} // namespace

std::string lingoShardHeader(const Shard& shard, int topK) {
    return std::string(kTableHeader) + "\t" + kShardKeyTag + " " + shard.label() + " top " +
           std::to_string(topK);
}

bool isLingoShardTable(const std::string& path) {
    std::ifstream in(path);
    std::string header;
    std::getline(in, header);
    return header.rfind(std::string(kTableHeader) + "\t" + kShardKeyTag, 0) == 0;
}

lingo::HitLists searchDatabaseShard(Backend& backend, const lingo::LingoSet& queries,
                                    const std::vector<std::string>& databaseCanonical,
                                    bool allVsAll, lingo::SearchOptions options,
                                    const Shard& shard) {
    std::vector<std::string> slice;
    std::vector<uint32_t> global; // slice index -> database index
    for (size_t j = 0; j < databaseCanonical.size(); ++j)
        if (shard.owns(long(j))) {
            slice.push_back(databaseCanonical[j]);
            global.push_back(uint32_t(j));
        }
    lingo::HitLists hits(queries.size());
    if (slice.empty())
        return hits;
    const lingo::LingoSet db = lingo::LingoSet::fromCanonicalSmiles(slice);
    // The slice is not the query set, so "self" is found by global index: one more hit is asked
    // for, which leaves the top K after a query's own hit is dropped (the hit order is total).
    const int topK = options.topK;
    if (allVsAll && topK > 0)
        options.topK = topK + 1;
    options.excludeSelf = false;
    const std::unique_ptr<LingoComparison> comparison = backend.prepareLingo(queries, db, false);
    comparison->search(options, hits);
    for (size_t q = 0; q < hits.size(); ++q) {
        std::vector<lingo::LingoHit>& list = hits[q];
        for (lingo::LingoHit& h : list)
            h.index = global[h.index];
        if (allVsAll)
            std::erase_if(list, [&](const lingo::LingoHit& h) { return h.index == q; });
        if (topK > 0 && list.size() > size_t(topK))
            list.resize(size_t(topK));
    }
    return hits;
}

long mergeLingoShards(const std::string& outPath, const std::vector<std::string>& inputs) {
    std::vector<std::unique_ptr<LingoShardReader>> readers;
    std::map<int, std::string> seen;
    for (const std::string& path : inputs) {
        readers.push_back(std::make_unique<LingoShardReader>(path));
        const LingoShardReader& r = *readers.back();
        const LingoShardReader& first = *readers.front();
        if (r.shard().n != first.shard().n || r.shard().block != first.shard().block ||
            r.topK() != first.topK())
            throw InputError(path, 1,
                             "shard " + r.shard().label() + " top " + std::to_string(r.topK()) +
                                 " does not match " + first.path() + " (" +
                                 first.shard().label() + " top " + std::to_string(first.topK()) +
                                 "): expected shards of one run");
        if (auto [it, fresh] = seen.emplace(r.shard().k, path); !fresh)
            throw InputError(path, 1,
                             "shard " + r.shard().label() + " given twice (also " + it->second +
                                 "): overlapping shards");
    }
    const int n = readers.front()->shard().n, topK = readers.front()->topK();
    std::string missing;
    for (int k = 1; k <= n; ++k)
        if (!seen.count(k))
            missing += (missing.empty() ? "" : ", ") + std::to_string(k);
    if (!missing.empty())
        throw InputError(inputs.front(), 0,
                         "missing shard(s) " + missing + " of " + std::to_string(n) +
                             ": merge needs every shard's output");

    AtomicFile out(outPath);
    out.stream() << kTableHeader << "\n";
    long written = 0;
    std::vector<ShardHitLine> hits;
    while (true) {
        // The next query any shard has hits for; all its hits, in the one hit order.
        long query = -1;
        for (const auto& r : readers)
            if (r->head() && (query < 0 || r->head()->query < query))
                query = r->head()->query;
        if (query < 0)
            break;
        hits.clear();
        for (const auto& r : readers)
            for (; r->head() && r->head()->query == query; r->advance())
                hits.push_back(*r->head());
        std::sort(hits.begin(), hits.end(), [](const ShardHitLine& a, const ShardHitLine& b) {
            return a.similarity > b.similarity ||
                   (a.similarity == b.similarity && a.hit < b.hit);
        });
        if (topK > 0 && hits.size() > size_t(topK))
            hits.resize(size_t(topK));
        for (const ShardHitLine& h : hits)
            out.stream() << h.text;
        written += long(hits.size());
    }
    out.commit();
    return written;
}

} // namespace pw::cli
