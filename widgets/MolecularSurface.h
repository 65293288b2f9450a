// MolecularSurface: a smooth molecular surface of a drawing's atoms (Blinn's blobby model over
// van der Waals radii, contoured with flying edges), drawn translucent over the pocket.
#pragma once

#include "MoleculeDrawing.h"

#include <vtkSmartPointer.h>

class vtkActor;
class vtkPolyData;

namespace pw {

// Bondi's van der Waals radius (Å) of an element (J. Phys. Chem. 68, 441 (1964)); 1.7 for
// elements he did not tabulate.
double vdwRadius(int atomicNumber);

// Surface where sum_i exp(-B (d_i^2 / r_i^2 - 1)) = 1 (for one atom: its van der Waals sphere),
// sampled every `spacing` Å.
vtkSmartPointer<vtkPolyData> blobbySurface(const MoleculeDrawing& atoms, double spacing = 0.5);
vtkSmartPointer<vtkActor> makeSurfaceActor(const MoleculeDrawing& atoms);

} // namespace pw
