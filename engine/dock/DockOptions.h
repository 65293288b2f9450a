// DockOptions: the settings of a docking batch: the Lamarckian GA's parameters (AutoDock-GPU's
// defaults) and the batch's runs, seed, clustering and output limits.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>

namespace pw {
struct Pose;
class LigandKinematics;
class PhaseTimings;
} // namespace pw

namespace pw::dock {

// What the engine (CPU and GPU alike) accepts: the GPU keeps a genotype and a ligand's atoms in
// fixed-size on-chip arrays, so the CPU reference refuses the same inputs.
inline constexpr int kMaxDockTorsions = 32;
inline constexpr int kMaxDockAtoms = 256;

enum class LocalSearchMethod {
    SolisWets, // AutoDock 4's random local search, with AD-GPU's adaptive step (rho)
    Adadelta,  // AutoDock-GPU's default gradient descent (Zeiler 2012)
    Bfgs,      // the project's quasi-Newton minimizer (engine/minimize) with analytic gradients
};
// "sw", "adadelta", "bfgs" (as the CLI spells them).
const char* localSearchName(LocalSearchMethod m);
// Accepts "sw"/"solis-wets", "ad"/"adadelta", "bfgs"; nullopt otherwise.
std::optional<LocalSearchMethod> parseLocalSearch(std::string_view name);

enum class DockScoring { Vina, Vinardo, Ad4 };
const char* dockScoringName(DockScoring s); // "vina", "vinardo", "ad4"
std::optional<DockScoring> parseDockScoring(std::string_view name);

// Solis-Wets as AutoDock-GPU runs it: a Gaussian step scaled by rho on every gene, tried both
// ways, with a bias that follows successes; rho doubles after consecutiveLimit successes, halves
// after as many failures, and the search ends when rho < rhoLowerBound or iterations run out.
struct SolisWetsOptions {
    double rhoLowerBound = 0.01;    // AD-GPU --rholb
    int consecutiveLimit = 4;       // AD-GPU --cslim
    double translationStep = 2.0;   // Å at rho = 1 (AD-GPU --lsmov)
    double angleStepDegrees = 75.0; // rotation and torsion genes at rho = 1 (AD-GPU --lsang)
};

// ADADELTA (Zeiler 2012) on the pose-space gradient, the constants AutoDock-GPU uses.
// AutoDock-GPU v1.5 also ends each ADADELTA search early (its ADADELTA_AUTOSTOP): a step counter
// that starts at 1 doubles after consecutiveLimit iterations in a row that improve on the best
// energy of the search so far and halves after as many that do not; the search stops once it
// falls to stopRhoLowerBound (at least 29 iterations; AutoDock-GPU's own searches average ~34).
// Off by default (0): on the GPU with AD4 (tests/bench/RESULTS.md, helper gpudock) our searches
// still ran ~200 iterations with it, and the best 3ce3 pose moved from 1.95 to 2.14 A.
struct AdadeltaOptions {
    double rho = 0.8;
    double epsilon = 1e-2;
    double stopRhoLowerBound = 0; // AD-GPU --rholb 0.01 turns AutoDock-GPU's early stop on
    int consecutiveLimit = 4;     // AD-GPU --cslim
    // An iteration counts as an improvement for the early stop only when it lowers the search's
    // best energy by more than this (kcal/mol). AutoDock-GPU uses 0; with our exact gradients a
    // search keeps creeping down by tiny amounts, so a small tolerance lets it end.
    double stopTolerance = 0;
};

struct LgaOptions {
    int populationSize = 150;    // AD-GPU --psize
    long maxGenerations = 27000; // cap on generations per run (the evaluation budget ends first)
    // Evaluation budget per run. 0 = AutoDock-GPU's --heuristics estimate (heuristicEvaluations):
    // grows with the torsion count, smoothly capped at heuristicsMax.
    long maxEvaluations = 0;
    long heuristicsMax = 12'000'000; // AD-GPU --heurmax
    double budgetScale = 1.0;        // multiplies the heuristic budget (not maxEvaluations)
    double crossoverRate = 0.80;     // two-point crossover, AD-GPU --crat 80
    double mutationRate = 0.02;      // per gene, AD-GPU --mrat 2
    double tournamentRate = 0.60;    // the fitter of two wins with this probability, --trat 60
    int elitism = 1;                 // best individuals copied unchanged into the next generation
    // Share of each generation that gets a local search (Lamarckian: the improved genotype
    // replaces the individual). AutoDock-GPU's default is 100% (--lsrat 100,
    // host/inc/getparameters.h).
    double localSearchRate = 1.0;
    // BFGS for every scoring: on the dock30 set (AD4, nrun 100, AutoDock-GPU's budget) it reached
    // the global minimum in 25 of 27 complexes against ADADELTA's 7 (13 with its early stop);
    // tests/bench/RESULTS.md, "Which local search" (2026-11-26).
    LocalSearchMethod localSearch = LocalSearchMethod::Bfgs;
    int localSearchIterations = 300; // AD-GPU --lsit; for BFGS: its iteration cap
    SolisWetsOptions solisWets;
    AdadeltaOptions adadelta;
    // AutoStop, pooled over a ligand's runs (dock::PooledAutoStop; AD-GPU's --autostop pools its
    // runs too): every autoStopFrequency generations the engine looks at the best energy of each
    // run; the ligand stops (all its runs) once its overall best has improved by at most
    // autoStopProgress over the last autoStopWindow checkpoints and at least autoStopQuorum of
    // its runs (at least 3, at most autoStopQuorumCap) have a best within autoStopTolerance of
    // it. With BFGS a run does few generations, each a full local minimization of the
    // population, hence a check every one.
    bool autoStop = true;
    int autoStopFrequency = 1;       // generations between checkpoints
    int autoStopWindow = 4;          // checkpoints without progress
    double autoStopTolerance = 0.15; // kcal/mol: a run "agrees" with the overall best
    double autoStopQuorum = 0.25;    // share of the runs that must agree...
    // ...but never more runs than this (0: no cap). Ten independent runs at the same best are
    // enough evidence however many runs there are: at nrun 100 the cap (10 runs, not 25) kept
    // all 27 dock30 minima and made the race 1.13x (1stp) and 1.41x (3ce3) faster, while a
    // screen's 20 runs still need 5. A tenth of 20 runs (3) ended 32 of 716 screen ligands, mostly
    // flexible, over 0.5 kcal/mol higher (tests/bench/RESULTS.md, thirteenth session).
    int autoStopQuorumCap = 10;
    double autoStopProgress = 0.01; // kcal/mol: less counts as no progress
    // Stagnation (0: off): the ligand also stops after this many checkpoints without progress,
    // however few runs agree (closer to AutoDock-GPU's test, which needs no agreement between
    // runs). Flexible ligands rarely reach the quorum and ran their whole budgets (hundreds of
    // generations); after 30 stalled generations the 716-ligand screen took half the time, every
    // ligand with up to 11 torsions ended as before, and 6 of the 43 with 12 or more ended over
    // 0.5 kcal/mol higher (20: 2.5x faster, 8 such; tests/bench/RESULTS.md, fourteenth session).
    int autoStopStagnation = 30;
    // Mutation ranges: a mutated gene moves uniformly within +-these (AD-GPU --dmov 6, --dang 90).
    double maxTranslationMutation = 6.0;   // Å
    double maxAngleMutationDegrees = 90.0; // orientation (about a random axis) and torsions
};

// AutoDock-GPU's --heuristics evaluation budget per run for a ligand with `torsions` rotatable
// bonds docked in `runs` runs: a base estimate (exponential in the torsion count, at least 500k),
// scaled by 50 / runs and capped smoothly as e * max / (max + e).
long heuristicEvaluations(int torsions, int runs, LocalSearchMethod method, long heuristicsMax);
// The budget a run actually uses: options.maxEvaluations when set, else the heuristic.
long evaluationBudget(const LgaOptions& options, int torsions, int runs);

// One generation of one LGA run, as a watcher sees it (the app's live view of a search).
struct GenerationReport {
    long ligand = 0;       // the ligand's index in the input (its LigandKeys key)
    int run = 0;           // the run within the ligand
    long generation = 0;   // generations done by this run (1 after the first)
    double bestEnergy = 0; // lowest searched energy (inter + intra) of the population
    double meanEnergy = 0; // mean searched energy of the population
    // The population's best genotype and the kinematics that turn it into coordinates
    // (kinematics->coordinates(*best)); both valid during the call only.
    const Pose* best = nullptr;
    const LigandKinematics* kinematics = nullptr;
};
// The CPU engine calls it from its worker threads after every generation of every run: it must
// be thread-safe and quick (copy what it needs, hand it on). The CUDA backend calls it from the
// thread that called dock, for the batch's first 256 runs only, with the last generation each
// has done when the host looks (every ~30 ms, and once when the runs end): generations may be
// skipped there, never repeated or reported out of order within a run.
using GenerationObserver = std::function<void(const GenerationReport&)>;

struct DockOptions {
    LgaOptions lga;
    int runs = 20;            // independent LGA runs per ligand
    std::uint64_t seed = 0;   // with (ligand index, run) seeds each run's random stream
    double clusterRmsd = 2.0; // Å, heavy-atom symmetry-aware RMSD
    int maxPosesOut = 9;      // best pose of each cluster, best first, at most this many
    bool allRuns = false;     // write every run's pose instead of one per cluster
    // Vina/Vinardo: each reported cluster's best pose minimized as `minimize` does and kept when
    // lower, as Vina refines the poses it reports (DockFinish.h). Off: the searched poses.
    bool polish = true;
    DockScoring scoring = DockScoring::Vina;
    int threads = 0; // CPU workers (0 = all cores); runs of all ligands share them
    // Off (empty) by default: the runs then skip the report entirely. Never changes a result.
    GenerationObserver onGeneration;
    // Where the batch's time goes (core/PhaseTimings.h): the backend adds its phases (upload,
    // search, re-scoring, clustering) under its device's group. Null: not recorded.
    PhaseTimings* timings = nullptr;
};

} // namespace pw::dock
