// HitContacts: the polar contacts the hit store recorded for poses (hydrogen bonds, salt bridges,
// halogen bonds; PLIP's kinds, engine/hits/PoseInteractions) as dashed lines in the 3D view, from
// the ligand atom to the receptor atom or group it was measured to.
#pragma once

#include "MoleculeDrawing.h"
#include "core/Molecule.h"
#include "hits/HitStore.h"

#include <vector>

namespace pw {

// A pose shown in the view: its store id and its molecule (atom order as stored).
struct ShownHitPose {
    long long id = 0;
    const Molecule* pose = nullptr;
};

// The lines for these poses' hbond, saltbridge and halogen contacts. The receptor end is the
// atom of that name in that chain and residue of `receptor`, or for a group ("carboxylate",
// "guanidinium", "imidazole") the centroid of its atoms there; a contact whose atoms cannot be
// found (another receptor, a ring centre) is left out.
std::vector<DrawLine> hitContactLines(const hits::HitStore& store,
                                      const std::vector<ShownHitPose>& poses,
                                      const Molecule& receptor);

} // namespace pw
