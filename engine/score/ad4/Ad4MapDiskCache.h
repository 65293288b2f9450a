// Ad4MapDiskCache: AD4 map sets kept on disk between processes, one folder per cache key
// (mapCacheKey: receptor content, box, ligand types, options) holding autogrid's files
// (maps.maps.fld, maps.<type>.map, maps.e.map, maps.d.map, maps.maps.xyz) and a checksum list
// (posewright.sum). A set is written in a temporary folder and renamed into place whole, so a
// reader sees a complete set or none; a set whose files do not match their checksums is damaged:
// it is removed and reported as missing (then rebuilt and rewritten by the caller). The folder
// stays under a size limit: the sets used longest ago are removed first.
#pragma once

#include "score/ad4/Ad4Maps.h"

#include <cstdint>
#include <memory>
#include <string>

namespace pw::ad4 {

// $XDG_CACHE_HOME/posewright/ad4maps, else $HOME/.cache/posewright/ad4maps (the XDG base
// directory rule); empty when neither variable is set.
std::string defaultMapCacheDirectory();

// What the cache folder may hold by default (a 22 Å box of 8 ligand types is about 20 MB).
inline constexpr std::uint64_t kDefaultMapCacheBytes = std::uint64_t(2) << 30;

class MapDiskCache {
public:
    enum class Lookup { Hit, Absent, Damaged, OtherBox };

    MapDiskCache(std::string directory, std::uint64_t maxBytes = kDefaultMapCacheBytes);

    // The set stored under key, its checksums verified, read (and marked as just used); null when
    // there is none (*lookup: Absent), it is damaged (Damaged: the folder is removed) or it covers
    // another box (OtherBox: a key collision). Never throws for a bad cache folder.
    std::shared_ptr<const Ad4Maps> load(std::uint64_t key, const GridGeometry& box,
                                        Lookup* lookup = nullptr) const;
    // Writes maps under key (replacing what is there), then removes the oldest other sets while
    // the folder holds more than maxBytes. False when the set could not be written (a read-only
    // or full disk: the cache is only a shortcut, the caller goes on with its maps).
    bool store(std::uint64_t key, const Ad4Maps& maps) const;

    // The folder of a key's set (directory/<16 hex digits>).
    std::string entryPath(std::uint64_t key) const;
    const std::string& directory() const { return directory_; }

private:
    void evictBeyondLimit(const std::string& keep) const;

    std::string directory_;
    std::uint64_t maxBytes_;
};

} // namespace pw::ad4
