#include "score/ad4/Ad4MapDiskCache.h"

#include "core/Fingerprint.h"
#include "core/InputError.h"
#include "score/ad4/Ad4MapFiles.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <vector>

#include <unistd.h>

namespace pw::ad4 {
namespace fs = std::filesystem;

namespace {

constexpr const char* kFld = "maps.maps.fld";
constexpr const char* kSums = "posewright.sum";
constexpr const char* kSumsHeader = "posewright-ad4maps 1";

struct FileSum {
    std::string name;
    std::uintmax_t size = 0;
    std::uint64_t hash = 0;
};

// Size and FNV-1a of a file's bytes; false when it cannot be read.
bool sumOf(const fs::path& path, FileSum& out) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return false;
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad())
        return false;
    Fingerprint f;
    f.bytes(bytes.data(), bytes.size());
    out.name = path.filename().string();
    out.size = bytes.size();
    out.hash = f.h;
    return true;
}

// The checksum list of an entry folder; false when it is missing or not ours.
bool readSums(const fs::path& dir, std::vector<FileSum>& sums) {
    std::ifstream in(dir / kSums);
    std::string line;
    if (!in || !std::getline(in, line) || line != kSumsHeader)
        return false;
    while (std::getline(in, line)) {
        std::istringstream fields(line);
        FileSum s;
        std::string hex;
        if (!(fields >> s.size >> hex >> s.name) || hex.size() != 16)
            return false;
        char* end = nullptr;
        s.hash = std::strtoull(hex.c_str(), &end, 16);
        if (*end != '\0')
            return false;
        sums.push_back(s);
    }
    return !sums.empty();
}

// Every file the list names has its size and checksum, and the .fld is among them.
bool sumsMatch(const fs::path& dir, const std::vector<FileSum>& sums) {
    bool fld = false;
    for (const FileSum& want : sums) {
        FileSum got;
        if (want.name.find('/') != std::string::npos || !sumOf(dir / want.name, got) ||
            got.size != want.size || got.hash != want.hash)
            return false;
        fld = fld || want.name == kFld;
    }
    return fld;
}

bool isEntryName(const std::string& name) {
    return name.size() == 16 && std::all_of(name.begin(), name.end(), [](char c) {
               return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
           });
}

std::string hex16(std::uint64_t key) {
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(key));
    return hex;
}

} // namespace

std::string defaultMapCacheDirectory() {
    const char* xdg = std::getenv("XDG_CACHE_HOME");
    if (xdg && *xdg && fs::path(xdg).is_absolute()) // the spec: a relative value is ignored
        return (fs::path(xdg) / "posewright" / "ad4maps").string();
    const char* home = std::getenv("HOME");
    if (home && *home)
        return (fs::path(home) / ".cache" / "posewright" / "ad4maps").string();
    return {};
}

MapDiskCache::MapDiskCache(std::string directory, std::uint64_t maxBytes)
    : directory_(std::move(directory)), maxBytes_(maxBytes) {}

std::string MapDiskCache::entryPath(std::uint64_t key) const {
    return (fs::path(directory_) / hex16(key)).string();
}

std::shared_ptr<const Ad4Maps> MapDiskCache::load(std::uint64_t key, const GridGeometry& box,
                                                  Lookup* lookup) const {
    Lookup dummy;
    Lookup& result = lookup ? *lookup : dummy;
    result = Lookup::Absent;
    const fs::path dir = entryPath(key);
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        return nullptr;
    std::vector<FileSum> sums;
    std::shared_ptr<const Ad4Maps> maps;
    if (readSums(dir, sums) && sumsMatch(dir, sums)) {
        try {
            maps = std::make_shared<const Ad4Maps>(readMapsFld((dir / kFld).string()));
        } catch (const InputError&) {
            maps = nullptr;
        }
    }
    if (!maps) { // damaged (or half-removed by another process): out of the way for the rewrite
        result = Lookup::Damaged;
        fs::remove_all(dir, ec);
        return nullptr;
    }
    if (!maps->geometry().sameAs(box)) {
        result = Lookup::OtherBox;
        return nullptr;
    }
    fs::last_write_time(dir / kSums, fs::file_time_type::clock::now(), ec); // recently used
    result = Lookup::Hit;
    return maps;
}

bool MapDiskCache::store(std::uint64_t key, const Ad4Maps& maps) const {
    static std::atomic<long> serial{0};
    const fs::path final = entryPath(key);
    const fs::path temp =
        fs::path(directory_) /
        (".tmp-" + hex16(key) + "-" + std::to_string(::getpid()) + "-" + std::to_string(serial++));
    std::error_code ec;
    try {
        fs::create_directories(temp);
        writeMapsFld(maps, (temp / kFld).string());
        std::ostringstream list;
        list << kSumsHeader << "\n";
        for (const auto& e : fs::directory_iterator(temp)) {
            FileSum s;
            if (!sumOf(e.path(), s))
                throw std::runtime_error("unreadable " + e.path().string());
            list << s.size << " " << hex16(s.hash) << " " << s.name << "\n";
        }
        std::ofstream out(temp / kSums);
        out << list.str();
        out.close();
        if (!out)
            throw std::runtime_error("cannot write the checksums");
        // Whole folders only: a stale or damaged set goes first, then the new one moves in.
        fs::remove_all(final, ec);
        fs::rename(temp, final);
    } catch (const std::exception&) {
        fs::remove_all(temp, ec);
        return false;
    }
    evictBeyondLimit(final.filename().string());
    return true;
}

void MapDiskCache::evictBeyondLimit(const std::string& keep) const {
    struct Entry {
        fs::path path;
        fs::file_time_type used;
        std::uintmax_t bytes = 0;
    };
    std::vector<Entry> entries;
    std::uintmax_t total = 0;
    std::error_code ec;
    for (const auto& d : fs::directory_iterator(directory_, ec)) {
        const std::string name = d.path().filename().string();
        if (name.rfind(".tmp-", 0) == 0 && d.is_directory(ec) &&
            fs::last_write_time(d.path(), ec) <
                fs::file_time_type::clock::now() - std::chrono::hours(24)) {
            fs::remove_all(d.path(), ec); // left by a process that died while writing
            continue;
        }
        if (!d.is_directory(ec) || !isEntryName(name))
            continue;
        Entry e{d.path(), fs::last_write_time(d.path() / kSums, ec), 0};
        if (ec)
            e.used = fs::file_time_type::min(); // no checksum list: incomplete, first to go
        for (const auto& f : fs::directory_iterator(d.path(), ec))
            e.bytes += f.is_regular_file(ec) ? f.file_size(ec) : 0;
        total += e.bytes;
        if (d.path().filename().string() != keep)
            entries.push_back(e);
    }
    std::sort(entries.begin(), entries.end(),
              [](const Entry& a, const Entry& b) { return a.used < b.used; });
    for (const Entry& e : entries) {
        if (total <= maxBytes_)
            break;
        fs::remove_all(e.path, ec);
        total -= std::min(total, e.bytes);
    }
}

} // namespace pw::ad4
