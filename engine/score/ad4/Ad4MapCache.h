// Ad4MapCache: AD4 grid maps kept per receptor + box + type set, so that repeated docks into the
// same pocket do not rebuild them: the last few in memory (least recently used dropped first) and,
// optionally, on disk as autogrid's .maps.fld/.map files in a cache folder (Ad4MapDiskCache:
// checksummed, written whole, bounded in size).
#pragma once

#include "score/ad4/Ad4MapBuilder.h"
#include "score/ad4/Ad4MapDiskCache.h"

#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace pw::ad4 {

// A 64-bit fingerprint of everything the maps depend on: every receptor atom (position, charge,
// type, in file order), the box, the ligand types (as a set: order does not matter) and the
// options. Equal inputs give equal keys; a changed coordinate or charge gives another key.
std::uint64_t mapCacheKey(const Molecule& receptor, const GridGeometry& box,
                          const std::vector<std::string>& ligandTypes,
                          const MapBuildOptions& options = {});

class MapCache {
public:
    using Builder = std::function<Ad4Maps(const MapSetup&)>;
    struct Stats {
        long hits = 0, diskHits = 0, builds = 0;
        long damaged = 0; // disk sets found damaged (removed, rebuilt and rewritten)
    };

    // `directory` empty: memory only. Otherwise each set is also written to
    // directory/<16 hex digits of the key>/maps.maps.fld (autogrid's format, three decimals, as
    // autogrid's own files) and read back from there on a memory miss, also by a later process;
    // the folder keeps at most maxDiskBytes (the sets used longest ago go first). With a folder,
    // built maps are returned as read back from their files, so a set gives the same values
    // whether it was just built or read by a later process.
    explicit MapCache(size_t capacity = 4, std::string directory = {},
                      std::uint64_t maxDiskBytes = kDefaultMapCacheBytes);

    // The maps of (receptor, box, ligandTypes): from memory when present, else from the cache
    // folder, else prepared and built with `build` (the CPU builder when empty) and kept. Maps hold
    // the types in the order of the request that built them: read them by name (mapIndex). A
    // cache file that cannot be read is rebuilt and rewritten. Safe to call from several threads.
    std::shared_ptr<const Ad4Maps> get(const Molecule& receptor, const GridGeometry& box,
                                       const std::vector<std::string>& ligandTypes,
                                       const MapBuildOptions& options = {},
                                       const Builder& build = {});

    Stats stats() const;
    size_t size() const;
    // The folder that holds (or would hold) these maps on disk; empty without a folder.
    std::string entryPath(const Molecule& receptor, const GridGeometry& box,
                          const std::vector<std::string>& ligandTypes,
                          const MapBuildOptions& options = {}) const;

private:
    struct Entry {
        std::uint64_t key;
        std::shared_ptr<const Ad4Maps> maps;
    };
    size_t capacity_;
    std::optional<MapDiskCache> disk_;
    mutable std::mutex mutex_;
    std::list<Entry> entries_; // most recently used first
    Stats stats_;
};

} // namespace pw::ad4
