// The exact AD4 intermolecular scorer against the map scorer on one core: one crystal ligand
// scored `repeat` times by each (Ad4ExactScorer::inter, its smooth twin with the gradient
// energyAndGradient, Ad4LigandScorer::score's map interpolation), one JSON line with the seconds per pose. A program, not a test (tests never
// assert a time): `bench_ad4_exact RECEPTOR.pdbqt MAPS.fld LIGAND.pdbqt [REPEAT]`.
#include "chem/MoleculeReader.h"
#include "score/ad4/Ad4ExactScorer.h"
#include "score/ad4/Ad4LigandScorer.h"
#include "score/ad4/Ad4MapFiles.h"

#include <chrono>
#include <cstdio>
#include <exception>
#include <string>

namespace {

template <class F>
double secondsPerCall(long repeat, F&& f) {
    const auto t0 = std::chrono::steady_clock::now();
    for (long i = 0; i < repeat; ++i)
        f();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / repeat;
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 4 || argc > 5) {
        std::fprintf(stderr, "usage: bench_ad4_exact RECEPTOR.pdbqt MAPS.fld LIGAND.pdbqt [REPEAT]\n");
        return 2;
    }
    try {
        const long repeat = argc == 5 ? std::stol(argv[4]) : 200;
        const pw::Molecule receptor = pw::readMolecule(argv[1]);
        const pw::ad4::Ad4Maps maps = pw::ad4::readMapsFld(argv[2]);
        const pw::Molecule lig = pw::readMolecule(argv[3]);
        std::vector<Eigen::Vector3d> x;
        for (const pw::Atom& a : lig.atoms)
            x.push_back(a.position);
        const pw::ad4::Ad4LigandScorer onMaps(lig, maps);
        double setup = 0;
        const double setupSeconds = secondsPerCall(20, [&] {
            setup += pw::ad4::Ad4ExactScorer(receptor, maps.geometry(), lig).setup().sites.size();
        });
        const pw::ad4::Ad4ExactScorer exact(receptor, maps.geometry(), lig);
        double sink = 0;
        const double exactSeconds = secondsPerCall(repeat, [&] { sink += exact.inter(x).inter(); });
        std::vector<Eigen::Vector3d> grad;
        const double smoothSeconds =
            secondsPerCall(repeat, [&] { sink += exact.energyAndGradient(x, &grad); });
        const double mapSeconds =
            secondsPerCall(repeat * 100, [&] { sink += onMaps.score(x).inter(); });
        std::printf("{\"what\":\"ad4_exact_vs_maps\",\"atoms\":%zu,\"receptor_atoms\":%zu,"
                    "\"exact_s_per_pose\":%.6g,\"smooth_with_gradient_s_per_pose\":%.6g,\"maps_s_per_pose\":%.6g,\"exact_setup_s\":%.6g,"
                    "\"exact_inter\":%.4f,\"maps_inter\":%.4f,\"threads\":1,\"device\":\"cpu\"}\n",
                    lig.atoms.size(), receptor.atoms.size(), exactSeconds, smoothSeconds, mapSeconds,
                    setupSeconds, exact.inter(x).inter(), onMaps.score(x).inter());
        return sink == 12345.678 && setup < 0 ? 3 : 0; // keeps the loops from being optimized away
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_ad4_exact: %s\n", e.what());
        return 1;
    }
}
