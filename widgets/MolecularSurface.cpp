#include "MolecularSurface.h"

#include <vtkActor.h>
#include <vtkFloatArray.h>
#include <vtkFlyingEdges3D.h>
#include <vtkImageData.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>

#include <algorithm>
#include <cmath>

namespace pw {
namespace {

// Blobbiness: 2.3 keeps clefts between atoms open (the pocket stays a pocket) while smoothing
// the seams; larger values approach the union of spheres.
constexpr double kBlobbiness = 2.3;
// A contribution below 1e-3 of the isovalue is left out: d^2/r^2 < 1 + ln(1000)/B.
const double kReachFactor = std::sqrt(1.0 + std::log(1000.0) / kBlobbiness);
// For an atom whose drawing gives no radius: a carbon's size (the app normally gives Bondi's).
constexpr double kUnknownRadius = 1.70;

double radiusOf(const DrawAtom& a) {
    return a.radius > 0 ? a.radius : kUnknownRadius;
}

} // namespace

vtkSmartPointer<vtkPolyData> blobbySurface(const MoleculeDrawing& drawing, double spacing) {
    auto out = vtkSmartPointer<vtkPolyData>::New();
    if (drawing.atoms.empty())
        return out;
    double lo[3] = {1e300, 1e300, 1e300}, hi[3] = {-1e300, -1e300, -1e300};
    double largest = 0;
    for (const DrawAtom& a : drawing.atoms) {
        largest = std::max(largest, radiusOf(a));
        for (int k = 0; k < 3; ++k) {
            lo[k] = std::min(lo[k], a.position[k]);
            hi[k] = std::max(hi[k], a.position[k]);
        }
    }
    const double pad = largest * kReachFactor + spacing;
    int n[3];
    for (int k = 0; k < 3; ++k) {
        lo[k] -= pad;
        n[k] = static_cast<int>(std::ceil((hi[k] + pad - lo[k]) / spacing)) + 1;
    }
    vtkNew<vtkImageData> image;
    image->SetDimensions(n);
    image->SetOrigin(lo);
    image->SetSpacing(spacing, spacing, spacing);
    vtkNew<vtkFloatArray> density;
    density->SetNumberOfTuples(static_cast<vtkIdType>(n[0]) * n[1] * n[2]);
    density->Fill(0.0);
    float* d = density->GetPointer(0);
    for (const DrawAtom& a : drawing.atoms) {
        const double r = radiusOf(a);
        const double reach = r * kReachFactor;
        int from[3], to[3];
        for (int k = 0; k < 3; ++k) {
            from[k] = std::max(0, static_cast<int>((a.position[k] - reach - lo[k]) / spacing));
            to[k] =
                std::min(n[k] - 1, static_cast<int>((a.position[k] + reach - lo[k]) / spacing) + 1);
        }
        const double inv = 1.0 / (r * r);
        for (int z = from[2]; z <= to[2]; ++z) {
            const double dz = lo[2] + z * spacing - a.position[2];
            for (int y = from[1]; y <= to[1]; ++y) {
                const double dy = lo[1] + y * spacing - a.position[1];
                float* row = d + (static_cast<size_t>(z) * n[1] + y) * n[0];
                for (int x = from[0]; x <= to[0]; ++x) {
                    const double dx = lo[0] + x * spacing - a.position[0];
                    const double s = (dx * dx + dy * dy + dz * dz) * inv;
                    if (s < kReachFactor * kReachFactor)
                        row[x] += static_cast<float>(std::exp(-kBlobbiness * (s - 1.0)));
                }
            }
        }
    }
    image->GetPointData()->SetScalars(density);
    vtkNew<vtkFlyingEdges3D> contour;
    contour->SetInputData(image);
    contour->SetValue(0, 1.0);
    contour->ComputeNormalsOn();
    contour->Update();
    out->ShallowCopy(contour->GetOutput());
    return out;
}

vtkSmartPointer<vtkActor> makeSurfaceActor(const MoleculeDrawing& drawing) {
    vtkNew<vtkPolyDataMapper> mapper;
    mapper->SetInputData(blobbySurface(drawing));
    mapper->ScalarVisibilityOff();
    auto actor = vtkSmartPointer<vtkActor>::New();
    actor->SetMapper(mapper);
    vtkProperty* p = actor->GetProperty();
    p->SetColor(0.85, 0.88, 0.95);
    p->SetOpacity(0.3);
    p->SetSpecular(0.2);
    p->BackfaceCullingOn(); // one layer of glass, not two
    actor->PickableOff();
    return actor;
}

} // namespace pw
