#include "ScoringTarget.h"

#include "chem/LigandPreparation.h"
#include "chem/ReceptorPreparation.h"
#include "core/Fingerprint.h"
#include "core/InputError.h"
#include "score/LigandScorer.h"

#include <list>
#include <mutex>

namespace pw {

namespace {

// The prepared receptors and grids built last, newest first (a grid of all ligand types is tens
// of MB: a few are kept, enough for the document's current inputs and the one before).
constexpr std::size_t kKeptGrids = 2;

struct BuiltGrid {
    std::uint64_t receptorKey = 0;
    double pH = 7.4; // of the receptor's preparation
    SearchBox box;
    ScoringKind kind = ScoringKind::Vina;
    std::shared_ptr<const Molecule> prepared;
    std::shared_ptr<DockingTarget> target;
    std::string preparationNote; // what the preparation added (ScoringTarget::preparationNote)
};

struct GridStore {
    std::mutex buildMutex; // one build at a time: a second caller waits, then shares
    std::mutex mutex;      // the fields below
    std::list<BuiltGrid> grids;
    long builds = 0;
};

GridStore& gridStore() {
    static GridStore store;
    return store;
}

// Everything of the loaded receptor that its preparation reads.
std::uint64_t receptorKey(const Molecule& m) {
    Fingerprint f;
    f.molecule(m);
    return f.h;
}

std::optional<BuiltGrid> findGrid(GridStore& store, std::uint64_t key, double pH,
                                  const SearchBox& box, ScoringKind kind) {
    std::lock_guard lock(store.mutex);
    for (auto it = store.grids.begin(); it != store.grids.end(); ++it)
        if (it->receptorKey == key && it->pH == pH && it->kind == kind && it->box.center == box.center &&
            it->box.size == box.size) {
            store.grids.splice(store.grids.begin(), store.grids, it);
            return store.grids.front();
        }
    return std::nullopt;
}

} // namespace

std::shared_ptr<const ScoringTarget> buildScoringTarget(const Molecule& receptor, int generation,
                                                        const SearchBox& box, ScoringKind kind,
                                                        int threads, double receptorPH) {
    GridStore& store = gridStore();
    const std::uint64_t key = receptorKey(receptor);
    std::optional<BuiltGrid> grid = findGrid(store, key, receptorPH, box, kind);
    if (!grid) {
        std::lock_guard building(store.buildMutex);
        grid = findGrid(store, key, receptorPH, box, kind); // built while this one waited
        if (!grid) {
            BuiltGrid g{key, receptorPH, box, kind, nullptr, nullptr, {}};
            ReceptorPreparationOptions preparation;
            preparation.pH = receptorPH;
            preparation.note = [&g](const std::string& note) { g.preparationNote = note; };
            g.prepared = std::make_shared<const Molecule>(prepareReceptor(receptor, preparation));
            g.target = std::make_shared<DockingTarget>(*g.prepared, box, kind, threads);
            // All ligand types up front: later ligands never trigger a rebuild, so the target
            // stays read-only (and safe to share between threads and workflows) after this.
            g.target->gridFor(DockingTarget::commonLigandTypes());
            std::lock_guard lock(store.mutex);
            store.grids.push_front(g);
            if (store.grids.size() > kKeptGrids)
                store.grids.pop_back();
            ++store.builds;
            grid = std::move(g);
        }
    }
    auto t = std::make_shared<ScoringTarget>();
    t->receptorGeneration = generation;
    t->box = box;
    t->kind = kind;
    t->receptor = *grid->prepared;
    t->target = grid->target;
    t->preparationNote = grid->preparationNote;
    return t;
}

long scoringGridBuilds() {
    GridStore& store = gridStore();
    std::lock_guard lock(store.mutex);
    return store.builds;
}

std::optional<Molecule> preparedInPlace(const Molecule& ligand) {
    try {
        Molecule prepared = prepareLigand(ligand);
        if (prepared.atoms.size() != ligand.atoms.size())
            return std::nullopt;
        return prepared;
    } catch (const InputError&) {
        return std::nullopt;
    }
}

VinaScore scorePose(const ScoringTarget& target, const Molecule& ligand) {
    const DockingTarget& t = *target.target;
    LigandScorer exact(ligand, t.scoring(), t.receptor());
    std::vector<Vec3> coords;
    coords.reserve(ligand.atoms.size());
    for (const Atom& a : ligand.atoms)
        coords.push_back(a.position);
    return exact.finalScore(coords);
}

RefinementOptions appRefinementOptions() {
    RefinementOptions o;
    o.minimize.lineSearch = LineSearchKind::StrongWolfe;
    o.minimize.recordTrajectory = false; // the watched job keeps its own frames, with their terms
    return o;
}

} // namespace pw
