// `posewright-cli score --scoring ad4 --maps FLD --ligand L`: AutoDock 4.2's numbers for ligand
// poses as given, on autogrid maps, printed as autodock4 4.2.6 prints them for an `epdb` run.
// With --exact --receptor R.pdbqt the intermolecular part is summed from the receptor's atoms at
// each ligand atom's exact position (Ad4ExactScorer, no interpolation); the maps still give the
// box (and its outside penalty) and the internal part is the same as on maps. --device cuda|auto
// sums the intermolecular parts of many records at once on a GPU (ScoreAd4Gpu.cpp: the same
// numbers within 1e-4 relative); the CPU stays the default.
#include "Ad4Device.h"
#include "CommandLine.h"
#include "Commands.h"
#include "DeviceOption.h"
#include "Json.h"
#include "ScoreAd4Gpu.h"
#include "ScoreEach.h"
#include "chem/LigandPreparation.h"
#include "chem/MoleculeReader.h"
#include "core/InputError.h"
#include "score/ad4/Ad4ExactScorer.h"
#include "score/ad4/Ad4LigandScorer.h"
#include "score/ad4/Ad4MapFiles.h"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>

namespace pw::cli {

namespace {

void printBreakdown(const std::string& name, const ad4::Ad4Energy& e) {
    // autodock4's "epdb: USER" block (printEnergies), same labels and precision.
    std::printf("%s\n", name.c_str());
    std::printf("    Estimated Free Energy of Binding    = %+7.2f kcal/mol  [=(1)+(2)+(3)-(4)]\n",
                e.freeEnergy());
    std::printf("    (1) Final Intermolecular Energy     = %+7.2f kcal/mol\n", e.inter());
    std::printf("        vdW + Hbond + desolv Energy     = %+7.2f kcal/mol\n", e.interVdwHbDesolv);
    std::printf("        Electrostatic Energy            = %+7.2f kcal/mol\n", e.interElec);
    std::printf("    (2) Final Total Internal Energy     = %+7.2f kcal/mol\n", e.intra);
    std::printf("    (3) Torsional Free Energy           = %+7.2f kcal/mol\n", e.torsional);
    std::printf("    (4) Unbound System's Energy         = %+7.2f kcal/mol\n", e.unbound);
}

} // namespace

int runScoreAd4(const std::vector<std::string>& args) {
    // A Vina user's habit: say what AD4 scoring reads instead of "unknown option".
    const bool exactAsked = std::find(args.begin(), args.end(), "--exact") != args.end();
    for (const std::string& a : args)
        if ((a == "--receptor" && !exactAsked) || a == "--box")
            throw UsageError("--scoring ad4 scores on AutoDock grid maps, not " + a +
                             ": give --maps FLD (make them with `posewright-cli maps --gpf GPF "
                             "--receptor R --out FLD`)");
    CommandLine cl(args, {{"ligand", OptionKind::Value},
                          {"maps", OptionKind::Value},
                          {"scoring", OptionKind::Value},
                          {"unbound", OptionKind::Value},
                          {"exact", OptionKind::Flag},
                          {"receptor", OptionKind::Value},
                          {"outside", OptionKind::Value},
                          {"device", OptionKind::Value},
                          {"chunk", OptionKind::Value},
                          {"json", OptionKind::Flag}});
    if (!cl.positional().empty())
        throw UsageError("unexpected argument '" + cl.positional()[0] + "'");
    if (cl.value("scoring", "ad4") != "ad4")
        throw UsageError("--maps is for --scoring ad4");
    const std::string ligandFile = cl.required("ligand");
    if (!cl.value("maps"))
        throw UsageError("--scoring ad4 needs --maps FLD (an autogrid .maps.fld)");
    const bool json = cl.flag("json");
    // autodock4: 0 for a single-point epdb (default), the pose's own internal energy for docked
    // poses (`unbound_model bound`, its 4.2 default for docking).
    const std::string unboundName = cl.value("unbound", "zero");
    if (unboundName != "zero" && unboundName != "bound")
        throw UsageError("--unbound expects zero or bound, got '" + unboundName + "'");
    const ad4::UnboundModel unbound =
        unboundName == "bound" ? ad4::UnboundModel::SameAsBound : ad4::UnboundModel::Zero;
    const bool exact = cl.flag("exact");
    if (exact && !cl.value("receptor"))
        throw UsageError("--scoring ad4 --exact needs --receptor R.pdbqt (the receptor the maps "
                         "were made from, with AD4 types and charges)");
    if (!exact && cl.value("outside"))
        throw UsageError("--outside is for --exact");
    const std::string outsideName = cl.value("outside", "penalty");
    if (outsideName != "penalty" && outsideName != "exact")
        throw UsageError("--outside expects penalty or exact, got '" + outsideName + "'");
    const ad4::OutsideBox outside =
        outsideName == "exact" ? ad4::OutsideBox::ExactSum : ad4::OutsideBox::Penalty;
    // The GPU sums the exact intermolecular part only: on maps, autodock4's arithmetic is the
    // CPU's (and cheap).
    if (!exact && (cl.value("device") || cl.value("chunk")))
        throw UsageError(std::string("--") + (cl.value("device") ? "device" : "chunk") +
                         " is for --exact (the GPU sums the exact intermolecular part; scoring "
                         "on maps runs on the CPU)");
    const int chunk = cl.intValue("chunk", 16384, 1, 10000000);
    int device = -1;
    if (cl.value("device")) {
        std::string note;
        device = chooseAd4Device(deviceRequestOption(cl), "CPU (1 thread)", note);
        std::cerr << "score: " << note << "\n";
    }
    const ad4::Ad4Maps maps = ad4::readMapsFld(*cl.value("maps"));
    // The receptor is prepared once, for every type the maps have (a ligand type without a map
    // is refused by the map scorer first).
    std::shared_ptr<const ad4::MapSetup> exactSetup;
    if (exact)
        exactSetup = std::make_shared<const ad4::MapSetup>(ad4::prepareMaps(
            readMolecule(*cl.value("receptor")), maps.geometry(), maps.ligandTypes()));

    // One record's output, whichever device computed it.
    auto report = [&](const Molecule& lig, long index, const ad4::Ad4Energy& e, int torsdof) {
        const std::string name = lig.name.empty() ? "(no name)" : lig.name;
        if (json) {
            JsonObject o;
            o.add("name", lig.name).add("index", index);
            o.add("free_energy", e.freeEnergy(), 10)
                .add("inter", e.inter(), 10)
                .add("inter_vdw_hb_desolv", e.interVdwHbDesolv, 10)
                .add("inter_elec", e.interElec, 10)
                .add("intra", e.intra, 10)
                .add("torsional", e.torsional, 10)
                .add("unbound", e.unbound, 10)
                .add("torsdof", torsdof)
                .add("scoring", "ad4")
                .add("mode", exact ? "exact" : "maps");
            if (device >= 0)
                o.add("device", "cuda");
            std::cout << o.str() << "\n";
        } else {
            printBreakdown(name, e);
        }
    };
    if (device >= 0) {
        Ad4GpuScoreOptions o;
        o.device = device;
        o.chunk = chunk;
        o.outside = outside;
        o.unbound = unbound;
        return scoreAd4OnGpu(ligandFile, maps, exactSetup, o, report);
    }

    return scoreEachLigand(ligandFile, [&](const Molecule& lig, long index) {
        const ad4::Ad4LigandScorer scorer(lig, maps);
        std::vector<Eigen::Vector3d> coords;
        for (const Atom& a : lig.atoms)
            coords.push_back(a.position);
        // With --exact only the intermolecular part changes; the internal one reads no map.
        const ad4::Ad4Energy e =
            exact ? ad4::exactPoseEnergy(scorer, ad4::Ad4ExactScorer(exactSetup, lig, outside),
                                         coords, unbound)
                  : scorer.score(coords, unbound);
        report(lig, index, e, scorer.torsdof());
    });
}

} // namespace pw::cli
