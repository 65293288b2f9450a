#include "DockMaps.h"

#include "ScoringTarget.h"
#include "chem/ReceptorPreparation.h"
#include "dock/Ad4DockMaps.h"
#include "dock/LigandDockScoring.h"
#include "score/DockingTarget.h"
#include "score/LigandScorer.h"

#include <QStandardPaths>

#include <algorithm>

namespace pw {
namespace {

bool coversTypes(const dock::DockTarget& t, const Molecule& ligand) {
    if (t.scoring != dock::DockScoring::Ad4)
        return true; // the Vina grid is built for every common ligand type up front
    for (const std::string& type : dock::ad4TypesOf({ligand}))
        if (t.ad4->mapIndex(type) < 0)
            return false;
    return true;
}

// The grid has a map for every XS type of the ligand.
bool gridCovers(const DockingTarget& grid, const Molecule& ligand) {
    const LigandScorer probe(ligand, grid.scoring(), grid.receptor());
    for (XsType t : probe.typesNeeded())
        if (!grid.grid() || !grid.grid()->hasMap(static_cast<int>(t)))
            return false;
    return true;
}

} // namespace

DockMaps::DockMaps(std::string ad4CacheDirectory) : ad4Cache_(2, std::move(ad4CacheDirectory)) {}

std::string DockMaps::appAd4CacheDirectory() {
    // GenericCacheLocation is $XDG_CACHE_HOME or ~/.cache on Linux (a test folder in Qt's test
    // mode, so that tests never fill the user's cache).
    const QString base = QStandardPaths::writableLocation(QStandardPaths::GenericCacheLocation);
    if (base.isEmpty())
        return {};
    return (base + QStringLiteral("/posewright/ad4maps")).toStdString();
}

std::shared_ptr<const dock::DockTarget>
DockMaps::targetFor(const Molecule& receptor, int receptorGeneration, const SearchBox& box,
                    dock::DockScoring scoring, const Molecule& ligand, int threads,
                    double receptorPH) {
    std::lock_guard building(buildMutex_);
    const Key key{receptorGeneration, box, scoring};
    std::shared_ptr<const dock::DockTarget> last;
    std::optional<Molecule> prepared;
    bool sameKey = false;
    {
        std::lock_guard lock(mutex_);
        sameKey = key_ && *key_ == key && target_;
        if (sameKey && coversTypes(*target_, ligand))
            return target_;
        last = target_;
        if (key_ && key_->receptorGeneration == receptorGeneration)
            prepared = preparedReceptor_;
    }
    auto target = std::make_shared<dock::DockTarget>();
    if (scoring == dock::DockScoring::Ad4) {
        if (!prepared) {
            ReceptorPreparationOptions preparation;
            preparation.pH = receptorPH;
            prepared = prepareReceptor(receptor, preparation);
        }
        std::vector<std::string> types = dock::ad4TypesOf({ligand});
        // Keep the types the last maps had, so that docking ligands in turn does not rebuild.
        if (sameKey)
            for (const std::string& t : last->ad4->ligandTypes())
                if (std::find(types.begin(), types.end(), t) == types.end())
                    types.push_back(t);
        // The cache checks the receptor (charges, AD4 types; InputError naming its file) and
        // keeps the maps of earlier boxes and type sets of this receptor.
        auto maps = ad4Cache_.get(*prepared, dock::ad4MapBoxFor(box), types);
        *target = dock::makeAd4Target(std::move(maps), receptor.sourceFile);
    } else {
        // The grid minimization uses (the app's one place for them): shared, never rebuilt here.
        const ScoringKind kind =
            scoring == dock::DockScoring::Vinardo ? ScoringKind::Vinardo : ScoringKind::Vina;
        const auto shared = buildScoringTarget(receptor, receptorGeneration, box, kind, threads,
                                               receptorPH);
        prepared = shared->receptor;
        std::shared_ptr<DockingTarget> grid = shared->target;
        if (!gridCovers(*grid, ligand)) {
            // A type outside the common ones (a metal): a grid of this run's own, so that the
            // shared one stays read-only while others score on it.
            grid = std::make_shared<DockingTarget>(shared->receptor, box, kind, threads);
            grid->gridFor(DockingTarget::commonLigandTypes());
        }
        *target = dock::DockTarget::forVina(std::move(grid));
    }
    // Any other types this ligand brings (Vina: rare elements) are added before the batch runs.
    dock::prepareTargetFor(*target, {ligand});
    std::lock_guard lock(mutex_);
    key_ = key;
    preparedReceptor_ = std::move(prepared);
    target_ = std::move(target);
    ++builds_;
    return target_;
}

bool DockMaps::readyFor(int receptorGeneration, const SearchBox& box,
                        dock::DockScoring scoring) const {
    std::lock_guard lock(mutex_);
    return key_ && target_ && *key_ == Key{receptorGeneration, box, scoring};
}

} // namespace pw

namespace pw {

std::shared_ptr<const dock::DockTarget> DockMaps::current() const {
    std::lock_guard lock(mutex_);
    return target_;
}

int DockMaps::builds() const {
    std::lock_guard lock(mutex_);
    return builds_;
}

} // namespace pw
