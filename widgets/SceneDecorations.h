// SceneDecorations: the non-molecular things in the 3D view: the search box as a wireframe and
// dashed interaction lines (hydrogen bonds yellow, clashes red).
#pragma once

#include "MoleculeDrawing.h"

#include <vtkSmartPointer.h>

#include <vector>

class vtkActor;

namespace pw {

vtkSmartPointer<vtkActor> makeBoxActor(const DrawBox& box);
// The box's six faces, filled and nearly transparent (the box being edited).
vtkSmartPointer<vtkActor> makeBoxFacesActor(const DrawBox& box);
// One actor for all lines; dashes are real segments (0.25 Å on, 0.2 Å off) so they stay dashed
// at any zoom, unlike a stipple pattern that core OpenGL no longer has.
vtkSmartPointer<vtkActor> makeDashedLinesActor(const std::vector<DrawLine>& lines);
// The protein backbone as a smooth tube through each chain segment's C-alpha atoms (a cartoon
// without secondary structure, which PDBQT files do not carry).
using Trace = std::vector<std::array<double, 3>>;
vtkSmartPointer<vtkActor> makeBackboneActor(const std::vector<Trace>& segments);

} // namespace pw
