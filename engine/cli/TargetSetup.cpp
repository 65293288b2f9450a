#include "TargetSetup.h"

#include "chem/MoleculeReader.h"
#include "chem/ReceptorPreparation.h"
#include "core/InputError.h"

#include <cmath>
#include <cstdio>
#include <optional>

namespace pw::cli {

std::map<std::string, OptionKind> targetOptionSpec() {
    return {{"receptor", OptionKind::Value},
            {"box", OptionKind::Value},
            {"autobox-ligand", OptionKind::Value},
            {"scoring", OptionKind::Value},
            {"ph", OptionKind::Value}};
}

ReceptorPreparationOptions receptorPreparationOptions(const CommandLine& cl) {
    ReceptorPreparationOptions o;
    o.pH = cl.doubleValue("ph", o.pH, 0.0, 14.0);
    o.note = [](const std::string& note) { std::fprintf(stderr, "note: %s\n", note.c_str()); };
    return o;
}

TargetInputs loadTarget(const CommandLine& cl, const std::string& fallbackLigandFile) {
    TargetInputs t;
    std::optional<ScoringKind> scoring;
    if (auto name = cl.value("scoring")) {
        if (*name == "vina")
            scoring = ScoringKind::Vina;
        else if (*name == "vinardo")
            scoring = ScoringKind::Vinardo;
        else
            throw UsageError("--scoring expects vina, vinardo or ad4 (ad4 for score, dock and "
                             "hits rescore, on AutoDock 4 maps), got '" + *name + "'");
    }

    if (cl.value("box") && cl.value("autobox-ligand"))
        throw UsageError("give either --box or --autobox-ligand, not both");
    if (auto box = cl.value("box")) {
        // The config's scoring and weights count as they do for Vina; --scoring, like Vina's
        // own command line, takes precedence over the file's `scoring`.
        const VinaConfig config = readVinaConfig(*box);
        std::vector<std::string> notes = config.warnings;
        t.scoring =
            config.scoringFunction(scoring.value_or(config.scoringOr(ScoringKind::Vina)), &notes);
        for (const std::string& note : notes)
            std::fprintf(stderr, "%s\n", note.c_str());
        t.box = config.box;
        t.boxSource = *box;
    } else {
        t.scoring = ScoringFunction(scoring.value_or(ScoringKind::Vina));
        std::string file = cl.value("autobox-ligand", fallbackLigandFile);
        if (file.empty())
            throw UsageError("missing --box CONFIG or --autobox-ligand FILE");
        t.box = autoboxSmina(readMolecule(file));
        t.boxSource = "the box around " + file;
    }
    t.receptor =
        prepareReceptor(readMolecule(cl.required("receptor")), receptorPreparationOptions(cl));
    return t;
}

void requireInsideBox(const Molecule& ligand, const SearchBox& box, const std::string& boxSource) {
    // Atoms sticking out of the box are fine (Vina penalizes them and minimization pulls them
    // in: random-torsion starts often stick out); a ligand whose centre lies outside is misplaced.
    Vec3 centre = Vec3::Zero();
    int heavy = 0;
    for (const Atom& a : ligand.atoms)
        if (a.element != 1) {
            centre += a.position;
            ++heavy;
        }
    if (heavy == 0)
        return;
    centre /= heavy;
    const Vec3 lo = box.center - box.size / 2, hi = box.center + box.size / 2;
    const double outside = ((lo - centre).cwiseMax(0.0) + (centre - hi).cwiseMax(0.0)).norm();
    if (outside > 0) {
        char buf[96];
        std::snprintf(buf, sizeof buf, "%.2f", outside);
        const std::string name = ligand.name.empty() ? "ligand" : "ligand '" + ligand.name + "'";
        throw InputError(ligand.sourceFile, 0,
                         "record " + std::to_string(ligand.sourceRecord) + ": " + name +
                             " lies outside " + boxSource + " (its centre is " + buf +
                             " Å from the box): move the box or the ligand");
    }
}

void addScoreFields(JsonObject& o, const VinaScore& s) {
    o.add("affinity", s.affinity, 6).add("inter", s.inter, 6).add("intra", s.intra, 6);
    o.add("torsional", s.torsional, 6).add("unbound", s.unbound, 6);
    JsonObject weighted, raw;
    for (int t = 0; t < kScoreTermCount; ++t) {
        weighted.add(scoreTermName(t), s.terms.interWeighted[t], 6);
        raw.add(scoreTermName(t), s.terms.interRaw[t], 6);
    }
    o.addRaw("terms", weighted.str()).addRaw("terms_raw", raw.str());
}

} // namespace pw::cli
