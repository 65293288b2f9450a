// DockAd4Target: the host side of AutoDock 4 scoring in the CUDA docking search: the maps on
// the device (uploaded once per map set) and one ligand's template (kinematic atom order, the
// map of each atom, its charge, the internal pairs with their weighted coefficients), taken from
// ad4::Ad4LigandScorer so that the device evaluates exactly the CPU search objective's model.
#pragma once

#include "DeviceMemory.h"
#include "DockAd4Types.h"
#include "MinimizeTemplates.h"
#include "core/Molecule.h"
#include "score/ad4/Ad4Maps.h"

#include <vector>

namespace pw::cuda {

class DeviceAd4Maps {
public:
    // Uploads the maps unless they are the ones uploaded last (same object); true when it did.
    bool upload(const ad4::Ad4Maps& maps);
    // The maps and the model's constants; coordinates relative to centre().
    const Ad4ScoringGpu& params() const { return params_; }
    Vec3 centre() const { return centre_; }

private:
    std::uint64_t key_ = 0; // the uploaded maps' instanceId (an address could be reused)
    DeviceBuffer<float> values_;
    Ad4ScoringGpu params_{};
    Vec3 centre_ = Vec3::Zero();
};

struct Ad4HostTemplate {
    HostTemplate kinematics; // atoms: packAtom(fragment, map index); pairs: none (below)
    std::vector<float> charges;     // per slot
    std::vector<Ad4PairGpu> pairs;  // slots; kinematics.gpu.pairCount of them
};

// Throws InputError (naming the ligand's file) for a ligand the kernel cannot take or an atom
// type without AD4 parameters or without a map.
Ad4HostTemplate buildAd4Template(const Molecule& mol, const ad4::Ad4Maps& maps);

} // namespace pw::cuda
