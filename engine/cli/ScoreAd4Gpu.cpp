#include "ScoreAd4Gpu.h"

#include "ScoreEach.h"
#include "score/ad4/Ad4LigandScorer.h"
#ifdef POSEWRIGHT_HAVE_CUDA
#include "cuda/Ad4PairRescore.h"
#endif

#include <deque>
#include <stdexcept>

namespace pw::cli {

#ifdef POSEWRIGHT_HAVE_CUDA

int scoreAd4OnGpu(const std::string& ligandFile, const ad4::Ad4Maps& maps,
                  const std::shared_ptr<const ad4::MapSetup>& setup,
                  const Ad4GpuScoreOptions& options, const Ad4Report& report) {
    cuda::Ad4PairScorer gpu(setup, options.outside, options.device);
    // One record of the chunk. A deque: the poses point into its elements, which never move.
    struct Record {
        Molecule ligand;
        long index;
        ad4::Ad4LigandScorer onMaps;
        ad4::Ad4ExactScorer exact;
        std::vector<Vec3> coords;
        ad4::Ad4Energy energy;
    };
    std::deque<Record> chunk;
    auto flush = [&] {
        std::vector<cuda::Ad4ExactPose> poses;
        poses.reserve(chunk.size());
        for (Record& r : chunk)
            poses.push_back({&r.onMaps, &r.exact, &r.coords, &r.energy});
        cuda::exactPoseEnergies(gpu, poses, options.unbound);
        for (const Record& r : chunk)
            report(r.ligand, r.index, r.energy, r.onMaps.torsdof());
        chunk.clear();
    };
    const int rc = scoreEachLigand(ligandFile, [&](const Molecule& lig, long index) {
        // The scorers are made here, record by record, so that a record the maps or the setup
        // cannot score is refused (a warning) exactly as on the CPU path.
        ad4::Ad4LigandScorer onMaps(lig, maps);
        ad4::Ad4ExactScorer exact(setup, lig, options.outside);
        std::vector<Vec3> coords;
        coords.reserve(lig.atoms.size());
        for (const Atom& a : lig.atoms)
            coords.push_back(a.position);
        chunk.push_back({lig, index, std::move(onMaps), std::move(exact), std::move(coords), {}});
        if (static_cast<int>(chunk.size()) >= options.chunk)
            flush();
    });
    if (!chunk.empty())
        flush();
    return rc;
}

#else

int scoreAd4OnGpu(const std::string&, const ad4::Ad4Maps&,
                  const std::shared_ptr<const ad4::MapSetup>&, const Ad4GpuScoreOptions&,
                  const Ad4Report&) {
    // chooseAd4Device never picks a GPU in a build without CUDA.
    throw std::runtime_error("this build has no CUDA backend");
}

#endif

} // namespace pw::cli
