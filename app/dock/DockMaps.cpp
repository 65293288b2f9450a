#include "DockMaps.h"

#include "chem/ReceptorPreparation.h"
#include "dock/Ad4DockMaps.h"
#include "dock/LigandDockScoring.h"
#include "score/DockingTarget.h"

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

} // namespace

std::shared_ptr<const dock::DockTarget>
DockMaps::targetFor(const Molecule& receptor, int receptorGeneration, const SearchBox& box,
                    dock::DockScoring scoring, const Molecule& ligand, int threads) {
    std::lock_guard lock(mutex_);
    const Key key{receptorGeneration, box, scoring};
    if (key_ && *key_ == key && target_ && coversTypes(*target_, ligand))
        return target_;
    if (!preparedReceptor_ || !key_ || key_->receptorGeneration != receptorGeneration)
        preparedReceptor_ = prepareReceptor(receptor);
    auto target = std::make_shared<dock::DockTarget>();
    if (scoring == dock::DockScoring::Ad4) {
        std::vector<std::string> types = dock::ad4TypesOf({ligand});
        // Keep the types the last maps had, so that docking ligands in turn does not rebuild.
        if (key_ && *key_ == key && target_)
            for (const auto& m : target_->ad4->ligandTypes())
                if (std::find(types.begin(), types.end(), m) == types.end())
                    types.push_back(m);
        // The cache checks the receptor (charges, AD4 types; InputError naming its file) and
        // keeps the maps of earlier boxes and type sets of this receptor.
        auto maps = ad4Cache_.get(*preparedReceptor_, dock::ad4MapBoxFor(box), types);
        *target = dock::makeAd4Target(std::move(maps), receptor.sourceFile);
    } else {
        const ScoringKind kind =
            scoring == dock::DockScoring::Vinardo ? ScoringKind::Vinardo : ScoringKind::Vina;
        auto grid = std::make_shared<DockingTarget>(*preparedReceptor_, box, kind, threads);
        grid->gridFor(DockingTarget::commonLigandTypes());
        *target = dock::DockTarget::forVina(std::move(grid));
    }
    // Any other types this ligand brings (Vina: rare elements) are added before the batch runs.
    dock::prepareTargetFor(*target, {ligand});
    key_ = key;
    target_ = std::move(target);
    return target_;
}

bool DockMaps::readyFor(int receptorGeneration, const SearchBox& box,
                        dock::DockScoring scoring) const {
    std::lock_guard lock(mutex_);
    return key_ && target_ && *key_ == Key{receptorGeneration, box, scoring};
}

} // namespace pw
