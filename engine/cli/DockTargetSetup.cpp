#include "DockTargetSetup.h"

#include "TargetSetup.h"
#include "chem/MoleculeReader.h"
#include "chem/ReceptorPreparation.h"
#include "dock/Ad4DockMaps.h"
#include "score/ad4/Ad4MapFiles.h"
#include "score/ad4/Ad4Parameters.h"

#include <algorithm>
#include <iostream>
#include <memory>

namespace pw::cli {

std::map<std::string, OptionKind> dockTargetOptionSpec() {
    auto spec = targetOptionSpec();
    spec.insert({{"maps", OptionKind::Value}, {"reference", OptionKind::Value}});
    return spec;
}

std::map<std::string, OptionKind> dockSearchOptionSpec() {
    return {{"runs", OptionKind::Value},          {"seed", OptionKind::Value},
            {"local-search", OptionKind::Value},  {"population", OptionKind::Value},
            {"evaluations", OptionKind::Value},   {"generations", OptionKind::Value},
            {"ls-iterations", OptionKind::Value}, {"ls-rate", OptionKind::Value},
            {"no-autostop", OptionKind::Flag},    {"adadelta-stop", OptionKind::Value},
            {"adadelta-tolerance", OptionKind::Value}, {"budget-scale", OptionKind::Value},
            {"autostop-tolerance", OptionKind::Value}, {"no-polish", OptionKind::Flag},
            {"autostop-quorum", OptionKind::Value},   {"autostop-window", OptionKind::Value},
            {"autostop-every", OptionKind::Value},    {"autostop-stagnation", OptionKind::Value},
            {"autostop-quorum-cap", OptionKind::Value}};
}

void readDockSearchOptions(const CommandLine& cl, dock::DockOptions& o) {
    o.runs = cl.intValue("runs", o.runs, 1, 100000);
    o.seed = static_cast<std::uint64_t>(cl.doubleValue("seed", 0, 0, 9007199254740991.0));
    if (auto ls = cl.value("local-search")) {
        auto m = dock::parseLocalSearch(*ls);
        if (!m)
            throw UsageError("--local-search expects sw, adadelta or bfgs, got '" + *ls + "'");
        o.lga.localSearch = *m;
    }
    o.lga.populationSize = cl.intValue("population", o.lga.populationSize, 2, 100000);
    o.lga.maxEvaluations =
        static_cast<long>(cl.doubleValue("evaluations", 0, 0, 1e12)); // 0: the heuristic
    o.lga.maxGenerations = cl.intValue("generations", int(o.lga.maxGenerations), 1, 100000000);
    o.lga.localSearchIterations =
        cl.intValue("ls-iterations", o.lga.localSearchIterations, 1, 100000);
    o.lga.localSearchRate = cl.doubleValue("ls-rate", o.lga.localSearchRate * 100, 0, 100) / 100;
    o.lga.autoStop = !cl.flag("no-autostop");
    o.polish = !cl.flag("no-polish"); // Vina/Vinardo: the reported poses polished (DockFinish.h)
    // ADADELTA's early stop (dock::AdadeltaOptions): AutoDock-GPU's --rholb, 0 = off.
    o.lga.adadelta.stopRhoLowerBound =
        cl.doubleValue("adadelta-stop", o.lga.adadelta.stopRhoLowerBound, 0, 1);
    o.lga.adadelta.stopTolerance =
        cl.doubleValue("adadelta-tolerance", o.lga.adadelta.stopTolerance, 0, 100);
    o.lga.budgetScale = cl.doubleValue("budget-scale", o.lga.budgetScale, 0.001, 1000);
    o.lga.autoStopTolerance =
        cl.doubleValue("autostop-tolerance", o.lga.autoStopTolerance, 0, 1000);
    // AutoStop's quorum (percent of a ligand's runs) and window (generations without progress).
    o.lga.autoStopQuorum =
        cl.doubleValue("autostop-quorum", o.lga.autoStopQuorum * 100, 0, 100) / 100;
    o.lga.autoStopQuorumCap =
        cl.intValue("autostop-quorum-cap", o.lga.autoStopQuorumCap, 0, 100000); // runs; 0: none
    o.lga.autoStopWindow = cl.intValue("autostop-window", o.lga.autoStopWindow, 1, 100000);
    o.lga.autoStopFrequency = cl.intValue("autostop-every", o.lga.autoStopFrequency, 1, 100000);
    o.lga.autoStopStagnation =
        cl.intValue("autostop-stagnation", o.lga.autoStopStagnation, 0, 100000);
}

DockTargetSetup::DockTargetSetup(const CommandLine& cl, const std::string& fallbackLigandFile,
                                 int threads, ad4::MapCache* mapCache)
    : threads_(threads), mapCache_(mapCache) {
    const std::string scoring = cl.value("scoring", cl.value("maps") ? "ad4" : "vina");
    if (scoring != "ad4") {
        if (cl.value("maps"))
            throw UsageError("--maps is for --scoring ad4");
        TargetInputs inputs = loadTarget(cl, fallbackLigandFile); // checks vina|vinardo
        target_ = dock::DockTarget::forVina(
            std::make_shared<DockingTarget>(inputs.receptor, inputs.box, inputs.scoring, threads));
        return;
    }
    if (cl.value("box") && cl.value("autobox-ligand"))
        throw UsageError("give either --box or --autobox-ligand, not both");
    if (auto fld = cl.value("maps")) {
        if (cl.value("receptor"))
            throw UsageError("give either --maps or --receptor for --scoring ad4, not both");
        std::optional<SearchBox> box;
        if (auto b = cl.value("box"))
            box = readBoxConfig(*b);
        target_ = dock::makeAd4Target(std::make_shared<const ad4::Ad4Maps>(ad4::readMapsFld(*fld)),
                                      *fld, box ? &*box : nullptr, cl.value("box", ""));
        return;
    }
    target_.scoring = dock::DockScoring::Ad4;
    if (auto b = cl.value("box")) {
        target_.box = readBoxConfig(*b);
    } else {
        const std::string file = cl.value("autobox-ligand", fallbackLigandFile);
        if (file.empty())
            throw UsageError("missing --box CONFIG, --autobox-ligand FILE or --maps FLD");
        target_.box = autoboxSmina(readMolecule(file));
    }
    ad4Receptor_ =
        prepareReceptor(readMolecule(cl.required("receptor")), receptorPreparationOptions(cl));
}

bool DockTargetSetup::hasMapsFor(const std::vector<Molecule>& ligands) const {
    if (!ad4Receptor_)
        return true;
    if (!target_.ad4)
        return false;
    for (const std::string& t : dock::ad4TypesOf(ligands))
        if (ad4::findParameters(t) &&
            std::find(ad4Types_.begin(), ad4Types_.end(), t) == ad4Types_.end())
            return false;
    return true;
}

const dock::DockTarget& DockTargetSetup::targetFor(const std::vector<Molecule>& ligands) {
    if (!ad4Receptor_)
        return target_;
    bool missing = !target_.ad4;
    // A type AD4.1_bound does not define (Si, say) gets no map: its ligands are refused one by
    // one with their own message (makeLigandDockScoring), and the rest of a screen docks.
    for (const std::string& t : dock::ad4TypesOf(ligands))
        if (ad4::findParameters(t) &&
            std::find(ad4Types_.begin(), ad4Types_.end(), t) == ad4Types_.end()) {
            ad4Types_.push_back(t);
            missing = true;
        }
    if (missing && !mapCache_) {
        target_ = dock::makeAd4Target(*ad4Receptor_, target_.box, ad4Types_, threads_);
    } else if (missing) {
        const ad4::MapCache::Stats before = mapCache_->stats();
        const ad4::GridGeometry grid = dock::ad4MapBoxFor(target_.box);
        auto maps = mapCache_->get(*ad4Receptor_, grid, ad4Types_, {}, [&](const ad4::MapSetup& s) {
            return buildMapsCpu(s, threads_);
        });
        const ad4::MapCache::Stats after = mapCache_->stats();
        const std::string where = mapCache_->entryPath(*ad4Receptor_, grid, ad4Types_);
        if (after.diskHits > before.diskHits)
            std::cerr << "AD4 maps: read from the map cache " << where << "\n";
        else if (after.builds > before.builds)
            std::cerr << "AD4 maps: built"
                      << (after.damaged > before.damaged ? " (the cached set was damaged)" : "")
                      << ", cached in " << where << "\n";
        target_ = dock::makeAd4Target(std::move(maps), ad4Receptor_->sourceFile);
    }
    return target_;
}

const char* DockTargetSetup::scoringName() const {
    return dock::dockScoringName(target_.scoring);
}

} // namespace pw::cli
