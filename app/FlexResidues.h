// FlexResidues: flexible receptor side chains in the app (issue 18): the residues the user chose,
// by name as `--flex-residues A:THR315,A:LYS271` takes them or picked in the view, checked the
// way the CLI checks them, and the setup a flexible minimization runs on (the receptor's rigid
// part with its maps, the side chains' model). No Qt widgets here: the worker uses it too. In the
// frame: the watched minimization (refine) and docking (dock) both search with the side chains.
#pragma once

#include "ScoringTarget.h"
#include "chem/FlexResidueSplit.h"
#include "score/flex/FlexScorer.h"

#include <QString>
#include <QStringList>

#include <memory>
#include <string>
#include <vector>

namespace pw {

// The most torsions ligand and side chains may have together: the docking search's limit
// (dock::kMaxDockTorsions, AutoDock-GPU's too), so that a choice that refines also docks.
int maxFlexTorsions();

// "A:THR315, a:lys271" -> specs (name upper-cased; "A:THR315" as each one's text). Empty text:
// none. Throws InputError as --flex-residues does, or when a residue is named twice.
std::vector<FlexResidueSpec> parseFlexChoice(const QString& text);
// The specs as one canonical text: "A:THR315,A:LYS271".
QString flexChoiceText(const std::vector<FlexResidueSpec>& specs);
// The spec of a receptor atom's residue ("A:THR315"); empty when the atom has no residue.
QString residueSpecOfAtom(const Molecule& receptor, int atom);
// specs with `spec` added, or removed when it is there already (same chain, number, insertion).
std::vector<FlexResidueSpec> toggledFlexChoice(const std::vector<FlexResidueSpec>& specs,
                                               const QString& spec);

// A message for the app: the engine's names the CLI option; the app says what the user chose.
QString flexMessage(const std::string& engineMessage);

// What a flexible minimization runs on: built on a worker (the rigid part's maps take 0.1-1 s).
struct FlexSetup {
    std::vector<FlexResidueSpec> specs;
    std::shared_ptr<const Molecule> rigid; // the prepared receptor without the side chains
    std::shared_ptr<DockingTarget> target; // the rigid part, the same box and scoring
    std::shared_ptr<const FlexModel> flex; // the side chains (their atoms as read)
    const ReceptorGrid* grid = nullptr;    // maps of the ligand's and side chains' types
    QStringList labels;                    // "THR A 315 (2 torsions)"
};

// Splits the scoring target's prepared receptor and checks the choice: every residue is in the
// receptor and has a rotatable side-chain bond (the CLI's messages), every moving atom lies in
// the box, and the ligand's torsions plus the side chains' are at most maxFlexTorsions().
// ligand: prepared (XS types, torsion tree). Throws InputError with the reason.
std::shared_ptr<const FlexSetup> buildFlexSetup(const ScoringTarget& target,
                                                const std::vector<FlexResidueSpec>& specs,
                                                const Molecule& ligand, int threads);

// The side chains of a choice without maps (drawing and export of a result from a session):
// setup's target and grid stay empty. Throws InputError as buildFlexSetup.
std::shared_ptr<const FlexSetup> flexModelSetup(const ScoringTarget& target,
                                                const std::vector<FlexResidueSpec>& specs);

// The quick check when the user applies a choice (no maps): residues present, rotatable, moving
// atoms in the box, side-chain torsions within the limit. Returns the residues' labels.
QStringList checkFlexChoice(const ScoringTarget& target, const std::vector<FlexResidueSpec>& specs);

} // namespace pw

namespace pw {

// A flexible minimization's result: where ligand and side chains ended and Vina's numbers
// (`minimize --flex`'s), with the setup the side chains' coordinates belong to.
struct FlexOutcome {
    std::shared_ptr<const FlexSetup> setup;
    std::vector<Vec3> ligandCoordinates; // the result, every ligand atom
    std::vector<Vec3> flexCoordinates;   // the result, FlexModel's flat order
    FlexScore start, score;
    QString path; // which descent was kept (FlexRefinementResult::path)
};

// Vina's split as the document keeps scores: affinity, inter (ligand-receptor + ligand-flex),
// intra (ligand + flex-receptor + flex-flex), torsional, unbound; the per-term breakdown is the
// ligand against the rigid part. rigidScore: the ligand's exact score on the rigid part.
VinaScore flexAsVinaScore(const FlexScore& flex, const VinaScore& rigidScore);

} // namespace pw
