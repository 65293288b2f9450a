// The AD4 rescorer of `hits rescore` (HitsRescoreAd4.h). Per pose, as `score --scoring ad4
// --exact` with the same --unbound and --outside:
//   rescore_inter    = (1) Final Intermolecular Energy, vdW + H-bond + desolvation + electrostatics,
//                      summed from the receptor's atoms at each ligand atom (Ad4ExactScorer)
//   rescore_intra    = (2) Final Total Internal Energy (Ad4LigandScorer, autodock4's tables)
//   rescore_affinity = Estimated Free Energy of Binding = (1) + (2) + (3) Torsional Free Energy
//                      - (4) Unbound System's Energy (0, or (2) with --unbound bound)
// With --device cuda|auto the intermolecular parts of a batch come from the GPU pair scorer in
// one call (cuda::exactPoseEnergies); the internal parts stay on the CPU threads.
#include "HitsRescoreAd4.h"

#include "chem/MoleculeReader.h"
#include "core/InputError.h"
#include "core/ParallelFor.h"
#include "score/ad4/Ad4LigandScorer.h"
#include "score/ad4/Ad4MapFiles.h"
#ifdef POSEWRIGHT_HAVE_CUDA
#include "cuda/Ad4PairRescore.h"
#endif

#include <stdexcept>

namespace pw::cli {
namespace {

// Everything of the maps that can change a number: the box (its penalty), the types (which
// poses can be scored) and, for good measure, the values (the exact sums do not read them).
std::string mapsFingerprint(const ad4::Ad4Maps& maps) {
    Fnv1a h;
    const ad4::GridGeometry& g = maps.geometry();
    char num[64];
    for (int i = 0; i < 3; ++i) {
        std::snprintf(num, sizeof num, "%.15g,%d,", g.center[i], g.npts[i]);
        h.add(num);
    }
    std::snprintf(num, sizeof num, "%.15g", g.spacing);
    h.add(num);
    for (int m = 0; m < maps.mapCount(); ++m) {
        h.add(maps.mapName(m));
        h.add(maps.values(m).data(), maps.values(m).size() * sizeof(float));
    }
    return h.hex();
}

class Ad4Rescorer : public PoseRescorer {
public:
    Ad4Rescorer(const std::string& mapsFld, const std::string& receptorFile, int threads,
                const Ad4RescoreOptions& options, int device, const std::string& deviceName)
        : maps_(ad4::readMapsFld(mapsFld)), threads_(threads), options_(options),
          deviceName_(deviceName) {
        setup_ = std::make_shared<const ad4::MapSetup>(ad4::prepareMaps(
            readMolecule(receptorFile), maps_.geometry(), maps_.ligandTypes()));
        if (device >= 0) {
#ifdef POSEWRIGHT_HAVE_CUDA
            gpu_ = std::make_unique<cuda::Ad4PairScorer>(setup_, options_.outside, device);
#else
            throw std::runtime_error("this build has no CUDA backend");
#endif
        }
        inputs_ = std::string("scoring=ad4 parameters=AD4.1_bound unbound=") +
                  (options.unbound == ad4::UnboundModel::Zero ? "zero" : "bound") +
                  " outside=" + (options.outside == ad4::OutsideBox::Penalty ? "penalty" : "exact") +
                  " receptor=" + fileFingerprint(receptorFile) + " maps=" + mapsFingerprint(maps_);
    }

    std::string scoringName() const override { return "ad4"; }
    std::string inputs() const override { return inputs_; }
    std::string device() const override {
        if (gpu_)
            return deviceName_;
        return "CPU (" + std::to_string(threads_) + (threads_ == 1 ? " thread)" : " threads)");
    }
    std::string method() const override { return "exact intermolecular sums"; }

    void score(std::vector<std::optional<Molecule>>& prepared,
               std::vector<std::optional<RescoreValues>>& values,
               std::vector<std::string>& warnings) override {
#ifdef POSEWRIGHT_HAVE_CUDA
        if (gpu_) {
            scoreOnGpu(prepared, values, warnings);
            return;
        }
#endif
        parallelFor(static_cast<long>(prepared.size()), threads_, [&](long i) {
            if (!prepared[i])
                return;
            try {
                values[i] = scoreOne(*prepared[i]);
            } catch (const InputError& e) {
                warnings[i] = e.what(); // a type without a map, a macrocycle's closure atoms
            } catch (const std::exception& e) {
                // This pose only: an exception leaving a worker thread would end the process.
                warnings[i] = std::string("cannot be scored with AD4: ") + e.what();
            }
        });
    }

private:
#ifdef POSEWRIGHT_HAVE_CUDA
    // The batch's scorers made on the CPU threads (a pose they refuse is a warning, as on the
    // CPU path), then every intermolecular part in one GPU call.
    void scoreOnGpu(std::vector<std::optional<Molecule>>& prepared,
                    std::vector<std::optional<RescoreValues>>& values,
                    std::vector<std::string>& warnings) {
        struct Pose {
            std::optional<ad4::Ad4LigandScorer> onMaps;
            std::optional<ad4::Ad4ExactScorer> exact;
            std::vector<Eigen::Vector3d> coords;
            ad4::Ad4Energy energy;
        };
        std::vector<Pose> poses(prepared.size());
        parallelFor(static_cast<long>(prepared.size()), threads_, [&](long i) {
            if (!prepared[i])
                return;
            try {
                Pose& p = poses[size_t(i)];
                p.onMaps.emplace(*prepared[i], maps_);
                p.exact.emplace(setup_, *prepared[i], options_.outside);
                for (const Atom& a : prepared[i]->atoms)
                    p.coords.push_back(a.position);
            } catch (const InputError& e) {
                warnings[i] = e.what();
                poses[size_t(i)].exact.reset();
            }
        });
        std::vector<cuda::Ad4ExactPose> batch;
        std::vector<size_t> which;
        for (size_t i = 0; i < poses.size(); ++i)
            if (poses[i].exact) {
                batch.push_back({&*poses[i].onMaps, &*poses[i].exact, &poses[i].coords,
                                 &poses[i].energy});
                which.push_back(i);
            }
        if (batch.empty())
            return;
        cuda::exactPoseEnergies(*gpu_, batch, options_.unbound, threads_);
        for (size_t i : which) {
            const ad4::Ad4Energy& e = poses[i].energy;
            values[i] = RescoreValues{e.freeEnergy(), e.inter(), e.intra};
        }
    }
#endif

    // As `score --scoring ad4 --exact` reports it (ad4::exactPoseEnergy).
    RescoreValues scoreOne(const Molecule& ligand) const {
        const ad4::Ad4LigandScorer onMaps(ligand, maps_);
        std::vector<Eigen::Vector3d> coords;
        coords.reserve(ligand.atoms.size());
        for (const Atom& a : ligand.atoms)
            coords.push_back(a.position);
        const ad4::Ad4Energy e = ad4::exactPoseEnergy(
            onMaps, ad4::Ad4ExactScorer(setup_, ligand, options_.outside), coords,
            options_.unbound);
        return {e.freeEnergy(), e.inter(), e.intra};
    }

    ad4::Ad4Maps maps_;
    std::shared_ptr<const ad4::MapSetup> setup_;
    int threads_;
    Ad4RescoreOptions options_;
    std::string inputs_;
    std::string deviceName_;
#ifdef POSEWRIGHT_HAVE_CUDA
    std::unique_ptr<cuda::Ad4PairScorer> gpu_;
#else
    std::unique_ptr<int> gpu_; // never set: no GPU path in this build
#endif
};

} // namespace

std::unique_ptr<PoseRescorer> makeAd4Rescorer(const std::string& mapsFld,
                                              const std::string& receptorFile, int threads,
                                              const Ad4RescoreOptions& options, int device,
                                              const std::string& deviceName) {
    return std::make_unique<Ad4Rescorer>(mapsFld, receptorFile, threads, options, device,
                                         deviceName);
}

} // namespace pw::cli
