// DockTargetSetup: the scoring target of `dock` and `bench dock` from the command line:
// Vina/Vinardo on the receptor's grid (--receptor, --box | --autobox-ligand), or AutoDock 4 on
// maps read from --maps FLD or built from --receptor over the box for the ligands' types.
#pragma once

#include "CommandLine.h"
#include "dock/DockOptions.h"
#include "dock/DockTarget.h"
#include "score/ad4/Ad4MapCache.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace pw::cli {

// --maps and --reference come with the target options (targetOptionSpec) in this spec.
std::map<std::string, OptionKind> dockTargetOptionSpec();

// The search options `dock` and `bench dock` share (runs, seed, the local search, the LGA's
// population, budget and stops): their spec entries, and reading them into o.
std::map<std::string, OptionKind> dockSearchOptionSpec();
void readDockSearchOptions(const CommandLine& cl, dock::DockOptions& o);

class DockTargetSetup {
public:
    // Reads the receptor/box/maps (UsageError for contradicting options; InputError for bad
    // files, maps whose box is not --box). fallbackLigandFile: the box around it when no box
    // is given.
    // mapCache (optional, outlives this): AD4 maps built from a receptor come through it (read
    // from its folder when a earlier process built them, else built and written there).
    DockTargetSetup(const CommandLine& cl, const std::string& fallbackLigandFile, int threads,
                    ad4::MapCache* mapCache = nullptr);

    // The target for docking `ligands`: AD4 maps built from a receptor are (re)built so that
    // they cover every ligand type met so far (the first call builds them or reads them from the
    // map cache, saying which on stderr). InputError for an uncharged receptor.
    const dock::DockTarget& targetFor(const std::vector<Molecule>& ligands);
    const dock::DockTarget& target() const { return target_; }
    // Whether targetFor(ligands) would build no AD4 map (true without a receptor to build them
    // from). With dock::targetReadyFor (the Vina grid), whether target() may stay as it is.
    bool hasMapsFor(const std::vector<Molecule>& ligands) const;
    const char* scoringName() const;

private:
    dock::DockTarget target_;
    std::optional<Molecule> ad4Receptor_; // maps are built from it on demand
    std::vector<std::string> ad4Types_;
    int threads_;
    ad4::MapCache* mapCache_;
};

} // namespace pw::cli
