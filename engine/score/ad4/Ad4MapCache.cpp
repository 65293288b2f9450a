#include "score/ad4/Ad4MapCache.h"

#include "core/InputError.h"
#include "score/ad4/Ad4MapFiles.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>

namespace pw::ad4 {

namespace {

// FNV-1a over raw bytes: fast, stable across runs and builds of the same platform.
struct Fingerprint {
    std::uint64_t h = 1469598103934665603ull;
    void bytes(const void* p, size_t n) {
        const auto* b = static_cast<const unsigned char*>(p);
        for (size_t i = 0; i < n; ++i) {
            h ^= b[i];
            h *= 1099511628211ull;
        }
    }
    void number(double v) { bytes(&v, sizeof v); }
    void integer(long long v) { bytes(&v, sizeof v); }
    void text(const std::string& s) {
        integer(static_cast<long long>(s.size()));
        bytes(s.data(), s.size());
    }
};

constexpr int kFormatVersion = 1; // bump when the maps a key stands for change

} // namespace

std::uint64_t mapCacheKey(const Molecule& receptor, const GridGeometry& box,
                          const std::vector<std::string>& ligandTypes,
                          const MapBuildOptions& options) {
    Fingerprint f;
    f.integer(kFormatVersion);
    f.integer(static_cast<long long>(receptor.atoms.size()));
    for (const Atom& a : receptor.atoms) {
        f.number(a.position.x());
        f.number(a.position.y());
        f.number(a.position.z());
        f.number(a.charge);
        f.text(a.ad4Type);
    }
    f.number(box.center.x());
    f.number(box.center.y());
    f.number(box.center.z());
    f.number(box.spacing);
    for (int n : box.npts)
        f.integer(n);
    std::vector<std::string> types = ligandTypes;
    std::sort(types.begin(), types.end());
    for (const auto& t : types)
        f.text(t);
    f.number(options.smooth);
    f.integer(options.distanceDependentDielectric);
    f.number(options.constantDielectric);
    return f.h;
}

MapCache::MapCache(size_t capacity, std::string directory)
    : capacity_(std::max<size_t>(1, capacity)), directory_(std::move(directory)) {}

std::string MapCache::fldPath(std::uint64_t key) const {
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(key));
    return (std::filesystem::path(directory_) / hex / "maps.maps.fld").string();
}

std::shared_ptr<const Ad4Maps> MapCache::fromDisk(std::uint64_t key, const GridGeometry& box) {
    if (directory_.empty())
        return nullptr;
    const std::string path = fldPath(key);
    if (!std::filesystem::exists(path))
        return nullptr;
    try {
        auto maps = std::make_shared<const Ad4Maps>(readMapsFld(path));
        return maps->geometry().sameAs(box) ? maps : nullptr;
    } catch (const InputError&) {
        return nullptr; // damaged or foreign: rebuilt and rewritten
    }
}

void MapCache::toDisk(std::uint64_t key, const Ad4Maps& maps) const {
    if (directory_.empty())
        return;
    const std::string path = fldPath(key);
    std::filesystem::create_directories(std::filesystem::path(path).parent_path());
    writeMapsFld(maps, path); // temporary files renamed at the end: never a half-written set
}

std::shared_ptr<const Ad4Maps> MapCache::get(const Molecule& receptor, const GridGeometry& box,
                                             const std::vector<std::string>& ligandTypes,
                                             const MapBuildOptions& options, const Builder& build) {
    const std::uint64_t key = mapCacheKey(receptor, box, ligandTypes, options);
    {
        std::lock_guard lock(mutex_);
        auto it = std::find_if(entries_.begin(), entries_.end(),
                               [&](const Entry& e) { return e.key == key; });
        if (it != entries_.end()) {
            entries_.splice(entries_.begin(), entries_, it);
            ++stats_.hits;
            return it->maps;
        }
    }
    // Read or built outside the lock: other receptors stay served meanwhile (two threads asking
    // for the same new maps at once may both build them; the first one kept wins).
    std::shared_ptr<const Ad4Maps> maps = fromDisk(key, box);
    const bool fromFile = maps != nullptr;
    if (!maps) {
        const MapSetup setup = prepareMaps(receptor, box, ligandTypes, options);
        Ad4Maps built = build ? build(setup) : buildMapsCpu(setup);
        if (!receptor.sourceFile.empty())
            built.receptorFile = std::filesystem::path(receptor.sourceFile).filename().string();
        toDisk(key, built);
        maps = std::make_shared<const Ad4Maps>(std::move(built));
    }
    std::lock_guard lock(mutex_);
    ++(fromFile ? stats_.diskHits : stats_.builds);
    auto it = std::find_if(entries_.begin(), entries_.end(),
                           [&](const Entry& e) { return e.key == key; });
    if (it != entries_.end())
        return it->maps;
    entries_.push_front({key, maps});
    if (entries_.size() > capacity_)
        entries_.pop_back();
    return maps;
}

MapCache::Stats MapCache::stats() const {
    std::lock_guard lock(mutex_);
    return stats_;
}

size_t MapCache::size() const {
    std::lock_guard lock(mutex_);
    return entries_.size();
}

} // namespace pw::ad4
