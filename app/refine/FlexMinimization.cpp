#include "FlexMinimization.h"

#include "chem/LigandPreparation.h"
#include "core/InputError.h"
#include "minimize/FlexRefinement.h"

#include <QThread>

#include <exception>
#include <future>
#include <vector>

namespace pw {
namespace {

// The descents refineWithFlex reports steps of, in the order it runs them (Vina's own path on
// the maps reports none: its polishes start from its end).
int descentOfPath(const QString& path) {
    static const QStringList order = {QStringLiteral("main"),
                                      QStringLiteral("main-armijo"),
                                      QStringLiteral("main-uncapped"),
                                      QStringLiteral("vina+polish"),
                                      QStringLiteral("vina+polish-armijo"),
                                      QStringLiteral("vina+polish-uncapped")};
    return static_cast<int>(order.indexOf(path));
}

// The setup with its side chains at `sideChains` (FlexModel's flat order) instead of the
// receptor's positions: their torsions then count from there, as from a --flex file holding the
// docked residues. The rigid part and its maps do not depend on where the side chains are.
std::shared_ptr<const FlexSetup> withSideChainsAt(const FlexSetup& setup,
                                                  const std::vector<Vec3>& sideChains,
                                                  const std::string& ligandFile) {
    const FlexModel& model = *setup.flex;
    if (static_cast<int>(sideChains.size()) != model.atomCount())
        throw InputError(ligandFile, 0,
                         "the docked side chains have " + std::to_string(sideChains.size()) +
                             " atoms; the flexible residues chosen have " +
                             std::to_string(model.atomCount()));
    std::vector<FlexResidue> residues;
    for (int r = 0; r < model.residueCount(); ++r) {
        FlexResidue residue = model.residue(r);
        for (size_t a = 0; a < residue.mol.atoms.size(); ++a)
            residue.mol.atoms[a].position = sideChains[static_cast<size_t>(model.atomOffset(r)) + a];
        residues.push_back(std::move(residue));
    }
    auto moved = std::make_shared<FlexSetup>(setup);
    moved->flex = std::make_shared<const FlexModel>(std::move(residues), *setup.rigid);
    return moved;
}

// One start: the prepared ligand at its pose, the side chains where `setup` has them. Fills
// everything of `out` but ligand's preparation and the error.
void minimizeFrom(std::shared_ptr<const FlexSetup> setup, MinimizeJobResult& out,
                  const std::atomic<bool>* cancel,
                  const std::function<bool(TrajectoryPoint&&)>& onFrame) {
    const DockingTarget& rigid = *setup->target;
    LigandScorer exact(out.ligand, rigid.scoring(), rigid.receptor());
    FlexScorer scorer(exact, *setup->flex, setup->grid);
    LigandScorer onGrid(out.ligand, rigid.scoring(), rigid.receptor(), setup->grid);
    const FlexVinaPath vina{&onGrid, setup->grid};

    // Every descent's steps, split where a descent starts again at iteration 0.
    std::vector<std::vector<TrajectoryPoint>> descents;
    int step = 0;
    const size_t ligandAtoms = out.ligand.atoms.size();
    MinimizeOptions options = flexMinimizeOptions();
    options.cancel = cancel;
    options.progress = [&](const MinimizeProgress& p) {
        if (!p.coordinates || p.coordinates->size() < ligandAtoms)
            return !(cancel && cancel->load());
        if (p.iteration == 0 || descents.empty())
            descents.emplace_back();
        TrajectoryPoint point;
        point.iteration = step++;
        point.energy = p.energy;
        point.coordinates.assign(p.coordinates->begin(),
                                 p.coordinates->begin() + static_cast<long>(ligandAtoms));
        point.flexCoordinates.assign(p.coordinates->begin() + static_cast<long>(ligandAtoms),
                                     p.coordinates->end());
        // Vina's parts of this step: ligand-receptor terms on the rigid part, ligand-flex,
        // and the intramolecular parts of ligand and side chains together.
        const FlexScore parts = scorer.finalScore(point.coordinates, point.flexCoordinates);
        ScoreBreakdown terms;
        exact.evaluate(point.coordinates, nullptr, &terms);
        point.interTerms = terms.interWeighted;
        point.ligandFlex = parts.ligandFlex;
        point.intra = parts.intra();
        descents.back().push_back(point);
        return onFrame ? onFrame(std::move(point)) : !(cancel && cancel->load());
    };
    const FlexRefinementResult r = refineWithFlex(out.ligand, scorer, options, &vina);

    FlexOutcome flex;
    flex.setup = setup;
    flex.ligandCoordinates = r.ligandCoordinates;
    flex.flexCoordinates = r.flexCoordinates;
    flex.start = r.start;
    flex.score = r.score;
    flex.path = QString::fromLatin1(r.path);
    out.cancelled = r.reason == StopReason::Cancelled || (cancel && cancel->load());

    // The trajectory kept: the start, then the steps of the descent that gave the result.
    std::vector<TrajectoryPoint> kept;
    if (!descents.empty() && !descents.front().empty())
        kept.push_back(descents.front().front());
    const int chosen = descentOfPath(flex.path);
    if (out.cancelled) {
        kept.clear();
        for (const auto& d : descents)
            kept.insert(kept.end(), d.begin(), d.end());
    } else if (chosen >= 0 && chosen < static_cast<int>(descents.size())) {
        const auto& d = descents[static_cast<size_t>(chosen)];
        kept.insert(kept.end(), d.begin() + (chosen == 0 ? 1 : 0), d.end());
    }
    if (!out.cancelled && (kept.empty() || kept.back().coordinates != r.ligandCoordinates ||
                           kept.back().flexCoordinates != r.flexCoordinates)) {
        // The result itself (Vina's path on its maps, or the start) as the last frame.
        TrajectoryPoint last;
        last.energy = r.score.inter() + r.score.intra();
        last.coordinates = r.ligandCoordinates;
        last.flexCoordinates = r.flexCoordinates;
        ScoreBreakdown terms;
        exact.evaluate(last.coordinates, nullptr, &terms);
        last.interTerms = terms.interWeighted;
        last.ligandFlex = r.score.ligandFlex;
        last.intra = r.score.intra();
        kept.push_back(std::move(last));
    }
    for (size_t i = 0; i < kept.size(); ++i)
        kept[i].iteration = static_cast<int>(i);
    out.trajectory = std::move(kept);

    // The ligand's part as the rigid workflow reports it, with the flexible numbers.
    out.refinement.coordinates = r.ligandCoordinates;
    out.refinement.pose = r.pose;
    std::vector<Vec3> startCoordinates;
    for (const Atom& a : out.ligand.atoms)
        startCoordinates.push_back(a.position);
    out.refinement.start = flexAsVinaScore(r.start, exact.finalScore(startCoordinates));
    out.refinement.score = flexAsVinaScore(r.score, exact.finalScore(r.ligandCoordinates));
    out.refinement.energy = r.energy;
    out.refinement.rmsdFromStart = r.ligandRmsd;
    out.refinement.iterations = r.iterations;
    out.refinement.evaluations = r.evaluations;
    out.refinement.reason = r.reason;
    for (size_t i = 0; i < out.ligand.atoms.size() && i < r.ligandCoordinates.size(); ++i)
        out.ligand.atoms[i].position = r.ligandCoordinates[i];
    out.flex = std::move(flex);
}

} // namespace

MinimizeJobResult
runFlexMinimization(const ScoringTarget& target, const Molecule& ligand,
                    const std::vector<FlexResidueSpec>& specs, const std::atomic<bool>* cancel,
                    const std::function<bool(TrajectoryPoint&&)>& onFrame,
                    const std::function<void(const Molecule&)>& onPrepared,
                    const std::function<void(std::shared_ptr<const FlexSetup>)>& onFlexPrepared,
                    const std::vector<FlexStart>& starts) {
    MinimizeJobResult out;
    try {
        const Molecule prepared = prepareLigand(ligand);
        out.ligand = prepared;
        if (onPrepared)
            onPrepared(prepared);
        const int threads = std::max(1, QThread::idealThreadCount());
        // The maps and the rigid part are built once; each start differs only in its side chains.
        const std::shared_ptr<const FlexSetup> asRead =
            buildFlexSetup(target, specs, prepared, threads);
        const std::vector<FlexStart> tried =
            starts.empty() ? std::vector<FlexStart>{FlexStart{}} : starts;
        const auto setupOf = [&](const FlexStart& start) {
            return start.sideChains.empty()
                       ? asRead
                       : withSideChainsAt(*asRead, start.sideChains, ligand.sourceFile);
        };
        // The first start runs here with its frames on show; the others run at the same time on
        // threads of their own, unseen (so the view never jumps back to the pose's start, and
        // two starts take about the time of one where a second core is free). Their futures
        // join before anything they refer to goes (std::async's futures wait when destroyed).
        std::vector<std::future<MinimizeJobResult>> others;
        for (size_t i = 1; i < tried.size(); ++i) {
            std::shared_ptr<const FlexSetup> setup = setupOf(tried[i]);
            others.push_back(std::async(std::launch::async, [&prepared, setup, cancel] {
                MinimizeJobResult one;
                one.ligand = prepared;
                minimizeFrom(setup, one, cancel, {});
                return one;
            }));
        }
        std::vector<MinimizeJobResult> ends(1);
        {
            std::shared_ptr<const FlexSetup> setup = setupOf(tried.front());
            if (onFlexPrepared)
                onFlexPrepared(setup);
            ends.front().ligand = prepared;
            minimizeFrom(std::move(setup), ends.front(), cancel, onFrame);
        }
        for (auto& f : others)
            ends.push_back(f.get());
        for (const MinimizeJobResult& one : ends)
            if (one.cancelled) { // the partial run on show, as with one start
                out.trajectory = std::move(ends.front().trajectory);
                out.cancelled = true;
                return out;
            }
        // The end with the lowest inter + intra, the first on a tie.
        const auto objective = [](const FlexScore& s) { return s.inter() + s.intra(); };
        size_t best = 0;
        for (size_t i = 1; i < ends.size(); ++i)
            if (objective(ends[i].flex->score) < objective(ends[best].flex->score))
                best = i;
        std::vector<MinimizeJobResult::FlexStartEnd> startEnds;
        if (tried.size() > 1)
            for (size_t i = 0; i < ends.size(); ++i)
                startEnds.push_back({tried[i].name, ends[i].flex->start, ends[i].flex->score});
        out = std::move(ends[best]);
        out.flexStarts = std::move(startEnds);
        if (tried.size() > 1)
            out.flexStartKept = static_cast<int>(best);
    } catch (const InputError& e) {
        out.error = flexMessage(e.what());
    } catch (const std::exception& e) {
        out.error = QString::fromStdString(InputError::format(ligand.sourceFile, 0, e.what()));
    }
    return out;
}

} // namespace pw
