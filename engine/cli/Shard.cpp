#include "Shard.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace pw::cli {
namespace {

bool parseLong(std::string_view s, long& v) {
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    return ec == std::errc() && p == s.data() + s.size() && !s.empty();
}

// "K/N" or "K/N@B".
bool parseLabel(std::string_view text, Shard& s) {
    const size_t slash = text.find('/');
    if (slash == std::string_view::npos)
        return false;
    const size_t at = text.find('@', slash);
    long k = 0, n = 0, b = s.block;
    if (!parseLong(text.substr(0, slash), k) ||
        !parseLong(text.substr(slash + 1, at == std::string_view::npos ? text.npos : at - slash - 1),
                   n))
        return false;
    if (at != std::string_view::npos && !parseLong(text.substr(at + 1), b))
        return false;
    if (n < 1 || n > 1000000 || k < 1 || k > n || b < 1)
        return false;
    s.k = int(k), s.n = int(n), s.block = b;
    return true;
}

} // namespace

std::string Shard::label() const {
    return std::to_string(k) + "/" + std::to_string(n) + "@" + std::to_string(block);
}

Shard parseShard(const std::string& text, long block) {
    Shard s;
    s.block = block;
    if (text.find('@') != std::string::npos || !parseLabel(text, s))
        throw UsageError("--shard expects K/N with 1 <= K <= N (this run's slice of N), got '" +
                         text + "'");
    return s;
}

std::optional<Shard> shardOption(const CommandLine& cl) {
    const auto text = cl.value("shard");
    // Checked even without --shard: one command line serves a single run, the shards and the
    // ranks of mpirun (which add --shard themselves).
    const long block = cl.intValue("shard-block", int(kDefaultShardBlock), 1, 1 << 30);
    if (!text)
        return std::nullopt;
    return parseShard(*text, block);
}

std::string shardKeyValue(const Shard& shard, double rankScore, long index, long seq) {
    char score[64];
    std::snprintf(score, sizeof score, "%a", rankScore); // exact: the merge compares it
    return shard.label() + " " + score + " " + std::to_string(index) + " " + std::to_string(seq);
}

bool parseShardKey(const std::string& value, ShardKey& key) {
    std::istringstream in(value);
    std::string label, score, index, seq, extra;
    if (!(in >> label >> score >> index >> seq) || (in >> extra))
        return false;
    if (!parseLabel(label, key.shard) || label.find('@') == std::string::npos)
        return false;
    char* end = nullptr;
    key.score = std::strtod(score.c_str(), &end);
    if (end != score.c_str() + score.size() || std::isnan(key.score))
        return false;
    return parseLong(index, key.index) && parseLong(seq, key.seq) && key.index >= 0 &&
           key.seq >= 0;
}

} // namespace pw::cli
