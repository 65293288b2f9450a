// MolecularSurface: a smooth molecular surface of a drawing's atoms (Blinn's blobby model over
// van der Waals radii, contoured with flying edges), drawn translucent over the pocket.
#pragma once

#include "MoleculeDrawing.h"

#include <vtkSmartPointer.h>

class vtkActor;
class vtkPolyData;

namespace pw {

// Surface where sum_i exp(-B (d_i^2 / r_i^2 - 1)) = 1 (for one atom: its van der Waals sphere),
// sampled every `spacing` Å; r_i is the atom's DrawAtom::radius (1.70 Å where it is 0).
vtkSmartPointer<vtkPolyData> blobbySurface(const MoleculeDrawing& atoms, double spacing = 0.5);
vtkSmartPointer<vtkActor> makeSurfaceActor(const MoleculeDrawing& atoms);

} // namespace pw
