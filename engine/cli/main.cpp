// posewright-cli: headless use of the engine (file info, scoring, minimization, docking, AD4 maps,
// shape overlay, LINGO similarity, the hit store, benchmarks).
// Exit codes: 0 success, 1 bad input or a failed job, 2 usage error.
#include "CommandLine.h"
#include "Commands.h"
#include "MpiRun.h"
#include "StopSignals.h"
#include "core/InputError.h"

#include <climits>
#include <cstring>
#include <exception>
#include <iostream>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace pw::cli {

const std::vector<Command>& commands() {
    static const std::vector<Command> list{
        {"info", "describe molecules in a file (atoms, bonds, torsions, types, charges, box)",
         "info FILE [--role auto|ligand|receptor] [--ph X] [--json]", runInfo},
        {"score", "Vina/Vinardo scores of poses as given (as vina --score_only)",
         "score --receptor R [--ph X] --ligand L [--box CONFIG | --autobox-ligand L2] "
         "[--scoring vina|vinardo] [--grid] [--json] [--device cpu|cuda[:N]|auto [--chunk N]] "
         "[--flex FLEX.pdbqt] [--flex-residues A:THR315,...]\n"
         "      posewright-cli score --scoring ad4 --maps FLD --ligand L [--unbound zero|bound] [--json] "
         "[--exact --receptor R.pdbqt [--outside penalty|exact] [--device cpu|cuda[:N]|auto "
         "[--chunk N]]]",
         runScore},
        {"minimize", "flexible minimization of ligand poses in the receptor, ranked SDF out",
         "minimize --receptor R [--ph X] --ligands L... [--box CONFIG | --autobox-ligand L2] "
         "[--scoring vina|vinardo] [--device auto|cpu|cuda[:N|:all|:N,M]] [--threads N] [--out OUT.sdf] "
         "[--json] [--vina-steps | --smooth] [--no-vina-guard] [--exact] [--interpolation "
         "trilinear|catmull-rom|bspline] "
         "[--line-search wolfe|armijo] [--max-iterations N] [--max-step S] "
         "[--tolerance G] [--chunk N] [--reduction shuffle|shared|wmma] [--no-reuse] "
         "[--max-gpu-memory MiB] [--shard K/N [--shard-block B]] [--flex FLEX.pdbqt] [--flex-residues "
         "A:THR315,...] [--flex-out F.pdbqt] [--timings]",
         runMinimize},
        {"lingo", "LINGO similarity: top hits per query, threshold hits or the full matrix",
         "lingo [--query Q.smi] --db DB.smi [--top K] [--threshold T] [--matrix OUT.tsv] [--out "
         "FILE] [--device auto|cpu|cuda[:N]] [--threads N] [--json] [--shard K/N [--shard-block B]]",
         runLingo},
        {"overlay", "Gaussian shape overlay of every molecule of a file onto a reference",
         "overlay --reference REF.sdf --fit DB.sdf [--starts 1|4|12] [--ring-starts] [--color] "
         "[--radii carbon|element] [--score-only] [--device auto|cpu|cuda[:N|:all|:N,M]] [--out aligned.sdf] "
         "[--json] [--threads N] [--shard K/N [--shard-block B]]",
         runOverlay},
        {"dock", "Lamarckian GA docking of ligands into a receptor, ranked SDF + JSON summary",
         "dock --receptor R [--ph X] --ligands L... [--box CONFIG | --autobox-ligand L2] | --maps FLD "
         "[--scoring vina|vinardo|ad4] [--runs N] [--seed S] [--local-search bfgs|adadelta|sw] "
         "[--device auto|cpu|cuda[:N|:all|:N,M]] [--threads N] [--out ranked.sdf] [--json FILE] "
         "[--reference XTAL] [--poses N] [--all-runs] [--cluster-rmsd A] [--population N] "
         "[--evaluations N] [--generations N] [--ls-iterations N] [--ls-rate PCT] "
         "[--no-autostop] [--no-map-cache] [--batch N] [--shard K/N [--shard-block B]] "
         "[--flex FLEX.pdbqt] [--flex-residues A:THR315,...] [--flex-out F.pdbqt] [--timings] "
         "[--budget-scale F] [--adadelta-stop RHO] [--adadelta-tolerance E] "
         "[--autostop-tolerance SD] [--no-polish] [--autostop-quorum PCT] "
         "[--autostop-quorum-cap RUNS] [--autostop-window G] "
         "[--autostop-every K] [--autostop-stagnation S]\n"
         "      AutoStop (default on): every K (1) generations a ligand's runs are tested together; "
         "they all stop once the best energy over all of them has not improved for G (4) "
         "tests and PCT (25) % of the runs, at least 3 and at most RUNS (10; 0: no cap), "
         "have a best within SD (0.15) "
         "kcal/mol of it, or after S (30; 0: off) tests without progress whatever the agreement. "
         "--no-autostop runs every run to its evaluation budget.",
         runDock},
        {"hits", "hit store (SQLite): import results, query, columns, cluster, export",
         "hits import STORE.db RESULTS.sdf... [--receptor R.pdb] [--lingo HITS.tsv] [--rank-by "
         "[-]COLUMN] [--threads N] [--json]\n"
         "      posewright-cli hits query STORE.db [--where EXPR] [--order [-]COL,...] [--limit N] "
         "[--columns a,b] [--json]\n"
         "      posewright-cli hits columns STORE.db [--json]\n"
         "      posewright-cli hits cluster STORE.db [--method leader|butina] [--threshold T] "
         "[--where EXPR] [--order ...] [--threads N] [--json]\n"
         "      posewright-cli hits export STORE.db --out OUT.sdf|OUT.csv [--where EXPR] [--order "
         "...] [--limit N] [--columns a,b (CSV)]\n"
         "      posewright-cli hits upgrade STORE.db [--threads N] [--json]  (screening "
         "fingerprints for a store written before them)\n"
         "      posewright-cli hits rescore STORE.db --receptor R.pdbqt --box B.txt [--scoring "
         "vina|vinardo] [--where EXPR] [--device cpu|cuda|auto] [--threads N] [--batch N] [--json]"
         "  (exact energies into rescore_* columns)\n"
         "      posewright-cli hits rescore STORE.db --scoring ad4 --maps FLD --receptor R.pdbqt "
         "[--unbound zero|bound] [--outside penalty|exact] [--where EXPR] [--device cpu|cuda[:N]|auto] "
         "[--threads N] [--batch N] [--json]  (AD4, exact intermolecular part; CPU unless --device)",
         runHits},
        {"merge", "join the outputs of --shard K/N runs into the single run's file",
         "merge OUT.sdf SHARD.sdf...  (minimize, dock, overlay)\n"
         "      posewright-cli merge OUT.tsv SHARD.tsv...  (lingo)", runMerge},
        {"maps", "AutoDock 4 grid maps from a receptor and a GPF, written as autogrid4 writes them",
         "maps --gpf GPF [--receptor R.pdbqt|R.pdb [--ph X]] --out OUT.maps.fld "
         "[--device auto|cpu|cuda[:N]] [--threads N]",
         runMaps},
        {"bench", "benchmarks: overlay, lingo, minimize, dock, ad4maps, hits, pairscore, ad4exact (one JSON object per run)",
         "bench overlay --reference REF --fit DB [--starts 4] [--ring-starts] [--device "
         "auto|cpu|cuda[:N]] "
         "[--size N...] [--repeat K] [--threads N] [--iterations N]\n"
         "      posewright-cli bench lingo|minimize|dock|ad4maps ... (see their own usage)\n"
         "      posewright-cli bench hits --molecules SDF --dir DIR [--poses 1000000] [--seed S] "
         "[--threads N] [--sort a,b] [--where EXPR] [--sdf POSES.sdf] [--export-threads N] "
         "[--no-export] [--keep]\n"
         "      posewright-cli bench hits substructure --smiles SMI --dir DIR [--molecules 1000000] "
         "[--threads N] [--patterns 'P P'] [--sample N] [--reuse] [--keep]\n"
         "      posewright-cli bench pairscore --receptor R --box CONFIG --ligand L [--poses 1000000] "
         "[--cpu-poses 20000] [--repeat 5] [--seed S] [--threads N]\n"
         "      posewright-cli bench ad4exact --gpf GPF --receptor R.pdbqt --ligand L [--poses 100000] "
         "[--cpu-poses 300] [--repeat 3] [--seed S] [--outside penalty|exact] [--gradient] [--threads N]",
         runBench},
    };
    return list;
}

} // namespace pw::cli

namespace {

void printUsage(std::ostream& out) {
    out << "usage: posewright-cli COMMAND [OPTIONS]\n\ncommands:\n";
    for (const auto& c : pw::cli::commands())
        out << "  " << c.name << "\t" << c.summary << "\n      posewright-cli " << c.usage << "\n";
}

// Runs a command; its exceptions become one message and the exit code (2: usage error).
int runGuarded(const pw::cli::Command& c, const std::vector<std::string>& args) {
    try {
        return c.run(args);
    } catch (const pw::cli::UsageError& e) {
        std::cerr << "posewright-cli " << c.name << ": " << e.what()
                  << "\nusage: posewright-cli " << c.usage << "\n";
        return 2;
    } catch (const pw::InputError& e) {
        std::cerr << "error: " << e.what() << "\n";
        return 1;
    } catch (const std::bad_alloc&) {
        std::cerr << "error: out of memory\n";
        return 1;
    } catch (const std::exception& e) {
        std::cerr << "error: " << e.what() << "\n";
        return 1;
    }
}

} // namespace

// A batch makes and frees millions of small per-pose arrays from every host thread. With glibc's
// defaults each thread's heap is handed back to the kernel as it shrinks and faulted in again as
// it grows, under the process's one memory-map lock: `bench minimize` of 2M poses spent 192 s of
// system CPU on 32 cores, and its result unpacking did not get faster on two GPUs. Keeping freed
// memory (and growing heaps in large steps) took that to 15 s: unpacking 3.0 -> 0.3 s on one GPU
// and on each of two (tests/bench/RESULTS.md, fourteenth session). The process keeps its peak
// footprint until it exits, which suits a batch command. (Where the build links jemalloc,
// engine/CMakeLists.txt, glibc's malloc serves nothing and these settings change nothing.)
static void keepFreedMemoryForReuse() {
#if defined(__GLIBC__)
    mallopt(M_TRIM_THRESHOLD, INT_MAX);
    mallopt(M_TOP_PAD, 256 << 20);
#endif
}

int main(int argc, char** argv) {
    keepFreedMemoryForReuse();
    std::ios::sync_with_stdio(false);
    pw::cli::installStopSignalHandlers();
    if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "help")) {
        printUsage(argc < 2 ? std::cerr : std::cout);
        return argc < 2 ? 2 : 0;
    }
    if (!std::strcmp(argv[1], "--version")) {
        std::cout << "posewright-cli 0.1.0\n";
        return 0;
    }
    std::vector<std::string> args(argv + 2, argv + argc);
    for (const auto& c : pw::cli::commands())
        if (c.name == std::string(argv[1]))
            return pw::cli::runAcrossRanks(c, args, runGuarded); // one process unless mpirun
    std::cerr << "posewright-cli: unknown command '" << argv[1] << "'\n";
    printUsage(std::cerr);
    return 2;
}
