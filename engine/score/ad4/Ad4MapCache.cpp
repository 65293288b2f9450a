#include "score/ad4/Ad4MapCache.h"

#include <algorithm>

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

std::uint64_t mapCacheKey(const Molecule& receptor, const MapBox& box,
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
    f.number(box.centre.x());
    f.number(box.centre.y());
    f.number(box.centre.z());
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

MapCache::MapCache(size_t capacity) : capacity_(std::max<size_t>(1, capacity)) {}

std::shared_ptr<const GridMaps> MapCache::get(const Molecule& receptor, const MapBox& box,
                                              const std::vector<std::string>& ligandTypes,
                                              const MapBuildOptions& options,
                                              const Builder& build) {
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
    // Built outside the lock: other receptors stay served meanwhile (two threads asking for the
    // same new maps at once may both build them; the second result replaces nothing).
    const MapSetup setup = prepareMaps(receptor, box, ligandTypes, options);
    auto maps = std::make_shared<const GridMaps>(build ? build(setup) : buildMapsCpu(setup));
    std::lock_guard lock(mutex_);
    ++stats_.builds;
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

int mapIndexOf(const GridMaps& maps, const std::string& type) {
    if (type == "e")
        return static_cast<int>(maps.types.size());
    if (type == "d")
        return static_cast<int>(maps.types.size()) + 1;
    const auto it = std::find(maps.types.begin(), maps.types.end(), type);
    return it == maps.types.end() ? -1 : static_cast<int>(it - maps.types.begin());
}

} // namespace pw::ad4
