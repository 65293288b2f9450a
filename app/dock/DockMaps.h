// DockMaps: the docking target (Vina/Vinardo grid, or AutoDock 4 maps) of the document's receptor
// and box, made when a run needs it and reused by the next runs while the receptor, the box and
// the scoring stay the same. The Vina/Vinardo grid is the one minimization uses
// (buildScoringTarget: one place, shared); AD4 maps come through the engine's map cache, per
// ligand type set.
#pragma once

#include "core/Molecule.h"
#include "dock/DockTarget.h"
#include "score/ad4/Ad4MapCache.h"

#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace pw {

class DockMaps {
public:
    // ad4CacheDirectory: where AD4 map sets are kept between sessions (empty: memory only).
    explicit DockMaps(std::string ad4CacheDirectory = {});
    // The app's folder for them: the platform's cache folder (XDG: ~/.cache) + posewright/ad4maps.
    static std::string appAd4CacheDirectory();

    // The target for docking `ligand` (prepared) into receptor (as loaded) over box: the last one
    // when it matches, else built now (seconds: call it on a worker). Throws InputError for a
    // receptor the scoring cannot use (AD4: no charges). A receptor without polar hydrogens gets
    // them at receptorPH (the caller gives each pH its own receptorGeneration). Safe to call
    // from any thread.
    std::shared_ptr<const dock::DockTarget> targetFor(const Molecule& receptor,
                                                      int receptorGeneration, const SearchBox& box,
                                                      dock::DockScoring scoring,
                                                      const Molecule& ligand, int threads,
                                                      double receptorPH = 7.4);
    // A run with these inputs would reuse the maps (the status bar's "maps ready"). Never waits
    // for a build in progress.
    bool readyFor(int receptorGeneration, const SearchBox& box, dock::DockScoring scoring) const;
    // The last target made (null before the first run).
    std::shared_ptr<const dock::DockTarget> current() const;
    // Targets made so far (a reused one is not counted; a Vina target made on the shared grid is).
    int builds() const;

private:
    struct Key {
        int receptorGeneration = -1;
        SearchBox box;
        dock::DockScoring scoring = dock::DockScoring::Vina;
        bool operator==(const Key& k) const {
            return receptorGeneration == k.receptorGeneration && scoring == k.scoring &&
                   box.center == k.box.center && box.size == k.box.size;
        }
    };
    std::mutex buildMutex_;     // one build at a time; held while building
    mutable std::mutex mutex_; // the fields below; never held while building
    int builds_ = 0;
    std::optional<Key> key_;
    std::optional<Molecule> preparedReceptor_; // of key_'s receptor
    std::shared_ptr<const dock::DockTarget> target_;
    ad4::MapCache ad4Cache_;
};

} // namespace pw
