// Ad4MapCache: AD4 grid maps kept per receptor + box + type set, so that repeated docks into the
// same pocket do not rebuild them: the last few in memory (least recently used dropped first) and,
// optionally, every set on disk as autogrid's .maps.fld/.map files in a cache folder.
#pragma once

#include "score/ad4/Ad4MapBuilder.h"

#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
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
    };

    // `directory` empty: memory only. Otherwise each set is also written to
    // directory/<16 hex digits of the key>/maps.maps.fld (autogrid's format, three decimals, as
    // autogrid's own files) and read back from there on a memory miss, also by a later process.
    explicit MapCache(size_t capacity = 4, std::string directory = {});

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

private:
    struct Entry {
        std::uint64_t key;
        std::shared_ptr<const Ad4Maps> maps;
    };
    std::shared_ptr<const Ad4Maps> fromDisk(std::uint64_t key, const GridGeometry& box);
    void toDisk(std::uint64_t key, const Ad4Maps& maps) const;
    std::string fldPath(std::uint64_t key) const;

    size_t capacity_;
    std::string directory_;
    mutable std::mutex mutex_;
    std::list<Entry> entries_; // most recently used first
    Stats stats_;
};

} // namespace pw::ad4
