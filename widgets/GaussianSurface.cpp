// GaussianSurface: each centre only touches the grid points within the radius where its
// Gaussian has fallen below 1e-3 of the contour level, so sampling stays linear in the atoms.
#include "GaussianSurface.h"

#include <vtkActor.h>
#include <vtkFlyingEdges3D.h>
#include <vtkImageData.h>
#include <vtkPointData.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>

#include <algorithm>
#include <cmath>

namespace pw {

vtkSmartPointer<vtkPolyData> gaussianIsosurface(const std::vector<GaussianCentre>& centres,
                                                double p, double level, double spacing) {
    auto empty = vtkSmartPointer<vtkPolyData>::New();
    if (centres.empty() || p <= 0 || level <= 0 || spacing <= 0)
        return empty;
    const double negligible = 1e-3 * level;
    std::array<double, 3> lo{1e30, 1e30, 1e30}, hi{-1e30, -1e30, -1e30};
    std::vector<double> reach(centres.size());
    for (size_t i = 0; i < centres.size(); ++i) {
        reach[i] = std::sqrt(std::log(p / negligible) / centres[i].alpha);
        for (int k = 0; k < 3; ++k) {
            lo[k] = std::min(lo[k], centres[i].position[k] - reach[i]);
            hi[k] = std::max(hi[k], centres[i].position[k] + reach[i]);
        }
    }
    int dims[3];
    for (int k = 0; k < 3; ++k)
        dims[k] = int(std::ceil((hi[k] - lo[k]) / spacing)) + 1;
    auto grid = vtkSmartPointer<vtkImageData>::New();
    grid->SetOrigin(lo[0], lo[1], lo[2]);
    grid->SetSpacing(spacing, spacing, spacing);
    grid->SetDimensions(dims);
    grid->AllocateScalars(VTK_FLOAT, 1);
    auto* v = static_cast<float*>(grid->GetScalarPointer());
    std::fill(v, v + size_t(dims[0]) * dims[1] * dims[2], 0.0f);
    for (size_t i = 0; i < centres.size(); ++i) {
        const auto& c = centres[i];
        int a[3], b[3];
        for (int k = 0; k < 3; ++k) {
            a[k] = std::max(0, int(std::floor((c.position[k] - reach[i] - lo[k]) / spacing)));
            b[k] =
                std::min(dims[k] - 1, int(std::ceil((c.position[k] + reach[i] - lo[k]) / spacing)));
        }
        for (int z = a[2]; z <= b[2]; ++z)
            for (int y = a[1]; y <= b[1]; ++y)
                for (int x = a[0]; x <= b[0]; ++x) {
                    const double dx = lo[0] + x * spacing - c.position[0];
                    const double dy = lo[1] + y * spacing - c.position[1];
                    const double dz = lo[2] + z * spacing - c.position[2];
                    v[(size_t(z) * dims[1] + y) * dims[0] + x] +=
                        float(p * std::exp(-c.alpha * (dx * dx + dy * dy + dz * dz)));
                }
    }
    auto contour = vtkSmartPointer<vtkFlyingEdges3D>::New();
    contour->SetInputData(grid);
    contour->SetValue(0, level);
    contour->ComputeNormalsOn();
    contour->Update();
    return contour->GetOutput();
}

vtkSmartPointer<vtkActor> makeGaussianSurfaceActor(const std::vector<GaussianCentre>& centres,
                                                   double p, const QColor& colour, double opacity,
                                                   double level) {
    auto mapper = vtkSmartPointer<vtkPolyDataMapper>::New();
    mapper->SetInputData(gaussianIsosurface(centres, p, level));
    mapper->ScalarVisibilityOff();
    auto actor = vtkSmartPointer<vtkActor>::New();
    actor->SetMapper(mapper);
    actor->GetProperty()->SetColor(colour.redF(), colour.greenF(), colour.blueF());
    actor->GetProperty()->SetOpacity(opacity);
    actor->PickableOff();
    return actor;
}

} // namespace pw
