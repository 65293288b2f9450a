#include "MoleculeActor.h"

#include "ElementColors.h"

#include <vtkActor.h>
#include <vtkDataSetAttributes.h>
#include <vtkMolecule.h>
#include <vtkMoleculeMapper.h>
#include <vtkNew.h>
#include <vtkProperty.h>
#include <vtkUnsignedCharArray.h>

namespace pw {

vtkSmartPointer<vtkMolecule> makeVtkMolecule(const MoleculeDrawing& drawing) {
    auto molecule = vtkSmartPointer<vtkMolecule>::New();
    vtkNew<vtkUnsignedCharArray> colors;
    colors->SetName("Colors");
    colors->SetNumberOfComponents(3);
    colors->SetNumberOfTuples(static_cast<vtkIdType>(drawing.atoms.size()));
    vtkIdType index = 0;
    for (const DrawAtom& a : drawing.atoms) {
        const int z = a.element > 0 && a.element < 119 ? a.element : 0;
        molecule->AppendAtom(static_cast<unsigned short>(z), a.position[0], a.position[1],
                             a.position[2]);
        const Rgb c = atomColor(z, drawing.style);
        colors->SetTypedTuple(index++, c.data());
    }
    const int n = static_cast<int>(drawing.atoms.size());
    for (const DrawBond& b : drawing.bonds) {
        if (b.i < 0 || b.j < 0 || b.i >= n || b.j >= n || b.i == b.j)
            continue; // a drawing is shown as far as it is valid; the view is not a validator
        const int order = b.order >= 1 && b.order <= 3 ? b.order : 1;
        molecule->AppendBond(b.i, b.j, static_cast<unsigned short>(order));
    }
    molecule->GetVertexData()->AddArray(colors);
    return molecule;
}

vtkSmartPointer<vtkActor> makeMoleculeActor(const MoleculeDrawing& drawing) {
    vtkNew<vtkMoleculeMapper> mapper;
    mapper->SetInputData(makeVtkMolecule(drawing));
    // Colour atoms and bond halves straight from the RGB array rather than the periodic table's
    // lookup table: the carbon colour depends on the style.
    mapper->SetInputArrayToProcess(0, 0, 0, vtkDataObject::FIELD_ASSOCIATION_VERTICES, "Colors");
    mapper->SetMapScalars(false);

    auto actor = vtkSmartPointer<vtkActor>::New();
    actor->SetMapper(mapper);
    vtkProperty* p = actor->GetProperty();
    p->SetAmbient(0.15);
    p->SetDiffuse(0.8);
    p->SetSpecular(0.35);
    p->SetSpecularPower(30.0);

    switch (drawing.style) {
    case DrawStyle::Receptor:
        // Thin sticks: bonds and atoms of one radius, so lone atoms (waters, ions) still show.
        mapper->UseLiquoriceStickSettings();
        mapper->SetAtomicRadiusScaleFactor(drawing.stickRadius > 0 ? drawing.stickRadius : 0.1f);
        mapper->SetBondRadius(drawing.stickRadius > 0 ? drawing.stickRadius : 0.1f);
        p->SetSpecular(0.15);
        break;
    case DrawStyle::FlexibleResidue:
        mapper->UseLiquoriceStickSettings();
        mapper->SetAtomicRadiusScaleFactor(0.22f);
        mapper->SetBondRadius(0.22f);
        break;
    case DrawStyle::Ligand:
    case DrawStyle::LigandAlternate:
        mapper->UseBallAndStickSettings();
        mapper->SetAtomicRadiusScaleFactor(0.25f);
        mapper->SetBondRadius(0.16f);
        mapper->SetUseMultiCylindersForBonds(true);
        break;
    }
    return actor;
}

} // namespace pw
