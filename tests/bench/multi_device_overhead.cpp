// The host cost MultiDeviceBackend adds to a minimize batch, without any device: two "devices"
// that return at once (NullDevice), N perturbed 1iep poses, minimize() (each device's piece
// copied out of the batch) against minimizeLent() (moved out and back). What is left is the
// split's own cost; what the copy adds is what `bench minimize` on two GPUs paid on top of
// the GPUs' work (tests/bench/RESULTS.md, helper scale2). Not built by CMake; from a build
// folder that has built posewright-cli:
//   L=$(grep -A6 "build engine/posewright-cli:" build.ninja | grep LINK_LIBRARIES | sed 's/.*= //')
//   g++ -O2 -std=c++20 -I../engine -I/usr/include/eigen3 -I/usr/include/rdkit \
//       ../tests/bench/multi_device_overhead.cpp $L -L/usr/local/cuda/lib64 -o multi_device_overhead
//   D=../tests/data/complexes/1iep
//   ./multi_device_overhead $D/receptor.pdbqt $D/box.txt $D/ligand_xtal.pdbqt 200000
#include "chem/LigandPreparation.h"
#include "chem/MoleculeReader.h"
#include "chem/ReceptorPreparation.h"
#include "minimize/PosePerturbation.h"
#include "parallel/MultiDeviceBackend.h"
#include "score/BoxConfig.h"
#include "score/DockingTarget.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>

using namespace pw;

namespace {

double now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// A device that minimizes nothing: one default result per pose, at once.
class NullDevice final : public Backend {
public:
    std::string description() const override { return "null"; }
    bool isGpu() const override { return true; }
    void minimize(const DockingTarget&, const std::vector<Molecule>& ligands,
                  const MinimizeBatchOptions&, std::vector<RefinementResult>& results,
                  Progress*) override {
        results.assign(ligands.size(), {});
    }
    std::unique_ptr<OverlayBatch> prepareOverlay(const shape::ShapeModel&,
                                                 const shape::OverlayOptions&) override {
        return nullptr;
    }
    std::unique_ptr<LingoComparison> prepareLingo(const lingo::LingoSet&, const lingo::LingoSet&,
                                                  bool) override {
        return nullptr;
    }
};

} // namespace

int main(int argc, char** argv) {
    if (argc < 5) {
        std::fprintf(stderr, "usage: %s RECEPTOR.pdbqt BOX.txt LIGAND.pdbqt POSES\n", argv[0]);
        return 2;
    }
    // The target is passed along, never read (no grid is built).
    const DockingTarget target(prepareReceptor(readMolecule(argv[1])), readBoxConfig(argv[2]),
                               ScoringKind::Vina, 1);
    const Molecule ligand = prepareLigand(readMolecule(argv[3]));
    const long n = std::atol(argv[4]);
    PosePerturbation perturbation(ligand, PerturbationOptions{});
    std::vector<Molecule> poses;
    poses.reserve(size_t(n));
    for (long i = 0; i < n; ++i)
        poses.push_back(perturbation.perturbed(1, std::uint64_t(i)));
    std::vector<std::unique_ptr<Backend>> two;
    two.push_back(std::make_unique<NullDevice>());
    two.push_back(std::make_unique<NullDevice>());
    MultiDeviceBackend multi(std::move(two));
    MinimizeBatchOptions options;
    std::vector<RefinementResult> results;
    for (int repeat = 0; repeat < 3; ++repeat) {
        const double t0 = now();
        multi.minimize(target, poses, options, results);
        const double t1 = now();
        multi.minimizeLent(target, poses, options, results);
        const double t2 = now();
        std::printf("{\"poses\":%ld,\"atoms\":%zu,\"copied_s\":%.3f,\"lent_s\":%.3f}\n", n,
                    ligand.atoms.size(), t1 - t0, t2 - t1);
    }
    return 0;
}
