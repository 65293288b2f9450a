#include "score/ad4/Ad4MapCache.h"

#include "core/Fingerprint.h"
#include "core/InputError.h"
#include "score/ad4/Ad4MapFiles.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>

namespace pw::ad4 {

namespace {

// Bump when the maps a key stands for change. 2: the whole receptor is hashed, and sets carry
// checksums (Ad4MapDiskCache).
constexpr int kFormatVersion = 2;

} // namespace

std::uint64_t mapCacheKey(const Molecule& receptor, const GridGeometry& box,
                          const std::vector<std::string>& ligandTypes,
                          const MapBuildOptions& options) {
    Fingerprint f;
    f.integer(kFormatVersion);
    f.molecule(receptor);
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

MapCache::MapCache(size_t capacity, std::string directory, std::uint64_t maxDiskBytes)
    : capacity_(std::max<size_t>(1, capacity)) {
    if (!directory.empty())
        disk_.emplace(std::move(directory), maxDiskBytes);
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
    MapDiskCache::Lookup lookup = MapDiskCache::Lookup::Absent;
    std::shared_ptr<const Ad4Maps> maps = disk_ ? disk_->load(key, box, &lookup) : nullptr;
    const bool fromFile = maps != nullptr;
    if (!maps) {
        const MapSetup setup = prepareMaps(receptor, box, ligandTypes, options);
        Ad4Maps built = build ? build(setup) : buildMapsCpu(setup);
        if (!receptor.sourceFile.empty())
            built.receptorFile = std::filesystem::path(receptor.sourceFile).filename().string();
        if (disk_ && disk_->store(key, built))
            maps = disk_->load(key, box); // the values a later process will read (3 decimals)
        if (!maps)
            maps = std::make_shared<const Ad4Maps>(std::move(built));
    }
    std::lock_guard lock(mutex_);
    ++(fromFile ? stats_.diskHits : stats_.builds);
    stats_.damaged += lookup == MapDiskCache::Lookup::Damaged;
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

std::string MapCache::entryPath(const Molecule& receptor, const GridGeometry& box,
                                const std::vector<std::string>& ligandTypes,
                                const MapBuildOptions& options) const {
    return disk_ ? disk_->entryPath(mapCacheKey(receptor, box, ligandTypes, options))
                 : std::string();
}

size_t MapCache::size() const {
    std::lock_guard lock(mutex_);
    return entries_.size();
}

} // namespace pw::ad4
