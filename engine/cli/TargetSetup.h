// TargetSetup: the receptor, search box and scoring options shared by `score`, `minimize` and
// the benchmarks (--receptor, --box CONFIG | --autobox-ligand FILE, --scoring vina|vinardo).
#pragma once

#include "CommandLine.h"
#include "Json.h"
#include "chem/ReceptorPreparation.h"
#include "score/BoxConfig.h"
#include "score/ScoreBreakdown.h"

#include <map>
#include <string>

namespace pw::cli {

// The option names the functions below read; merge into a command's spec.
std::map<std::string, OptionKind> targetOptionSpec();

// --ph X (0 to 14, default 7.4): the pH at which a PDB receptor without polar hydrogens is
// protonated (ReceptorProtonation); what was added is said on stderr. Commands that read a
// receptor without targetOptionSpec add {"ph", OptionKind::Value} to their spec.
ReceptorPreparationOptions receptorPreparationOptions(const CommandLine& cl);

struct TargetInputs {
    Molecule receptor; // prepared
    SearchBox box;
    std::string boxSource;   // for messages: "box.txt", "autobox around lig.sdf"
    ScoringFunction scoring; // --scoring, else the box file's, with the box file's weights
};

// Reads and prepares the receptor; the box from --box, --autobox-ligand, or else around
// `fallbackLigandFile`'s first molecule (Vina-style 4 Å padding) when given. A --box file's
// scoring and weight_* keys are honoured as Vina does; its warnings go to stderr.
TargetInputs loadTarget(const CommandLine& cl, const std::string& fallbackLigandFile = {});

// Throws InputError naming the ligand when the centre of its heavy atoms lies outside the box.
void requireInsideBox(const Molecule& ligand, const SearchBox& box, const std::string& boxSource);

// affinity, inter, intra, torsional, unbound, terms (weighted intermolecular terms), terms_raw.
void addScoreFields(JsonObject& o, const VinaScore& s);

} // namespace pw::cli
