// HitsRescoreAd4: `hits rescore --scoring ad4 --maps FLD --receptor R.pdbqt`: each pose's AutoDock 4
// estimated free energy of binding with the exact intermolecular part, the number `score
// --scoring ad4 --maps FLD --exact --receptor R` prints for the same pose (ScoreAd4.cpp).
#pragma once

#include "PoseRescorer.h"
#include "score/ad4/Ad4ExactScorer.h"

#include <memory>
#include <string>

namespace pw::cli {

// `score --scoring ad4 --exact`'s options, with its defaults: --unbound zero|bound (the unbound
// energy (4): 0, or the pose's own internal energy) and --outside penalty|exact (autodock4's
// penalty for an atom outside the maps' box, or the exact sum there too).
struct Ad4RescoreOptions {
    ad4::UnboundModel unbound = ad4::UnboundModel::Zero;
    ad4::OutsideBox outside = ad4::OutsideBox::Penalty;
};

// Reads the maps (they give the box and its outside penalty, and which ligand types can be
// scored) and the receptor (AD4 types and charges, as the maps were made from), and prepares the
// receptor once for every map type. Throws InputError (exit 1) for an unreadable map set or a
// receptor without AD4 types or charges: before the store is written. Scores on `threads` CPU
// threads, or with `device` >= 0 the intermolecular parts on that CUDA device (cuda::
// Ad4PairScorer, the same numbers within 1e-4 relative; `deviceName` for the summary and the
// store's rescore_device), the rest on the CPU threads. Throws std::runtime_error when the
// device cannot be used.
std::unique_ptr<PoseRescorer> makeAd4Rescorer(const std::string& mapsFld,
                                              const std::string& receptorFile, int threads,
                                              const Ad4RescoreOptions& options = {},
                                              int device = -1, const std::string& deviceName = {});

} // namespace pw::cli
