// Ad4MapCache: AD4 grid maps kept per receptor + box + type set, so that repeated docks into the
// same pocket do not rebuild them: the last few in memory (least recently used dropped first).
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
std::uint64_t mapCacheKey(const Molecule& receptor, const MapBox& box,
                          const std::vector<std::string>& ligandTypes,
                          const MapBuildOptions& options = {});

class MapCache {
public:
    using Builder = std::function<GridMaps(const MapSetup&)>;
    struct Stats {
        long hits = 0, builds = 0;
    };

    explicit MapCache(size_t capacity = 4);

    // The maps of (receptor, box, ligandTypes): from memory when present, else prepared and built
    // with `build` (the CPU builder when empty) and kept. Maps hold the types in the order of the
    // request that built them: read them by name. Safe to call from several threads.
    std::shared_ptr<const GridMaps> get(const Molecule& receptor, const MapBox& box,
                                        const std::vector<std::string>& ligandTypes,
                                        const MapBuildOptions& options = {},
                                        const Builder& build = {});

    Stats stats() const;
    size_t size() const;

private:
    struct Entry {
        std::uint64_t key;
        std::shared_ptr<const GridMaps> maps;
    };
    size_t capacity_;
    mutable std::mutex mutex_;
    std::list<Entry> entries_; // most recently used first
    Stats stats_;
};

// Index of a ligand type's map in `maps`, or -1.
int mapIndexOf(const GridMaps& maps, const std::string& type);

} // namespace pw::ad4
