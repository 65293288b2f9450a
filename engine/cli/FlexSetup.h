// FlexSetup: `--flex FILE.pdbqt` (flexible receptor side chains as Vina takes them) for the
// commands that score and minimize: reading and checking it against the receptor, and the
// per-part numbers Vina prints (ligand-receptor, ligand-flex, ligand, flex-receptor, flex-flex).
#pragma once

#include "CommandLine.h"
#include "Json.h"
#include "score/DockingTarget.h"
#include "dock/DockOptions.h"
#include "score/flex/FlexScorer.h"

#include <memory>
#include <optional>
#include <ostream>
#include <string>

namespace pw::cli {

// The flexible residues of --flex FILE and/or --flex-residues A:THR315,... (null when neither is
// given). --flex-residues takes them out of `receptor`, which becomes its rigid part (build the
// DockingTarget after this call). --flex residues are checked against the rigid receptor
// (InputError naming file and line when they do not fit).
std::unique_ptr<FlexModel> loadFlex(const CommandLine& cl, Molecule& receptor);
// Throws InputError naming the residue and atom when a moving flexible atom lies outside the
// target's box (Vina refuses such a start too).
void requireFlexInsideBox(const FlexModel& flex, const DockingTarget& target);
// True when the command line asks for flexible residues.
bool wantsFlex(const CommandLine& cl);
// --flex's device: true when a GPU is asked for (--device cuda, cuda:N or auto), false for the
// CPU (the default, the reference). Throws UsageError for several GPUs (cuda:all, cuda:0,1).
bool flexOnGpu(const CommandLine& cl);

// Vina's maps of the moving flexible atoms (the unbound energy reads the flex-receptor part
// from them), built on the target's grid.
const ReceptorGrid& unboundGridFor(DockingTarget& target, const FlexModel& flex);

// affinity, inter, intra, torsional, unbound and the five parts.
void addFlexScoreFields(JsonObject& o, const FlexScore& s);
// One line per pose, then the parts on a second line (printFlexParts).
void printFlexScore(const std::string& name, const FlexScore& s);
void printFlexParts(const FlexScore& s);

// `score --flex`: every ligand record scored with the side chains as given (the CPU's exact
// sums, as vina --score_only --flex).
int scoreWithFlex(const CommandLine& cl, const std::string& ligandFile, DockingTarget& target,
                  const FlexModel& flex, bool json);

// Where the moved side chains go: --flex-out (must end .pdbqt; UsageError otherwise), else beside
// the SDF output (OUT_flex.pdbqt), else nowhere.
std::optional<std::string> flexOutputPath(const CommandLine& cl,
                                          const std::optional<std::string>& sdfPath);
// One MODEL of that file: every residue's block with the atoms at flexCoords (flat order).
void writeFlexModel(std::ostream& out, const FlexModel& flex, const std::vector<Vec3>& flexCoords,
                    size_t model, const std::string& remark);
// "%.3f", for SD tags.
std::string fixed3(double v);

// `minimize --flex` (FlexMinimize.cpp): the ligands minimized with the side chains' torsions.
int minimizeWithFlex(const CommandLine& cl);
// `dock --flex` (FlexDockCommand.cpp): the CPU LGA with the side chains' torsions as genes.
int dockWithFlexCommand(const CommandLine& cl, const dock::DockOptions& options);

} // namespace pw::cli
