// MoleculeActor: turns a MoleculeDrawing into a VTK actor (vtkMolecule + vtkMoleculeMapper), with
// per-atom colours from the style so the receptor reads as context and the ligand as the subject.
#pragma once

#include "MoleculeDrawing.h"

#include <vtkSmartPointer.h>

class vtkActor;
class vtkMolecule;

namespace pw {

// The VTK molecule of a drawing: atoms, bonds, and an RGB vertex array "Colors".
vtkSmartPointer<vtkMolecule> makeVtkMolecule(const MoleculeDrawing& drawing);
// An actor drawing it in its style (receptor: thin sticks; ligands: ball-and-stick).
vtkSmartPointer<vtkActor> makeMoleculeActor(const MoleculeDrawing& drawing);

} // namespace pw
