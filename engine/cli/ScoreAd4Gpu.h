// ScoreAd4Gpu: `score --scoring ad4 --exact --device cuda|auto` on a GPU: the records of the
// ligand file read and checked one by one (ScoreEach), gathered in chunks, each chunk's
// intermolecular parts summed by the GPU pair scorer in one call (cuda::exactPoseEnergies), and
// reported in input order with the numbers the CPU path prints (ad4::exactPoseEnergy).
#pragma once

#include "core/Molecule.h"
#include "score/ad4/Ad4ExactScorer.h"
#include "score/ad4/Ad4Maps.h"

#include <functional>
#include <memory>
#include <string>

namespace pw::cli {

struct Ad4GpuScoreOptions {
    int device = 0;
    int chunk = 16384; // records per GPU call
    ad4::OutsideBox outside = ad4::OutsideBox::Penalty;
    ad4::UnboundModel unbound = ad4::UnboundModel::Zero;
};

// report(ligand, record index, energy, torsdof) prints one record.
using Ad4Report =
    std::function<void(const Molecule& ligand, long index, const ad4::Ad4Energy& e, int torsdof)>;

// scoreEachLigand's exit code. Throws std::runtime_error when the device fails.
int scoreAd4OnGpu(const std::string& ligandFile, const ad4::Ad4Maps& maps,
                  const std::shared_ptr<const ad4::MapSetup>& setup,
                  const Ad4GpuScoreOptions& options, const Ad4Report& report);

} // namespace pw::cli
