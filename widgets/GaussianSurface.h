// GaussianSurface: the isosurface of a sum of atomic Gaussians (the shape engine's density),
// sampled on a grid and contoured with flying edges; a translucent actor in one colour.
#pragma once

#include <QColor>

#include <vtkSmartPointer.h>

#include <array>
#include <vector>

class vtkActor;
class vtkPolyData;

namespace pw {

struct GaussianCentre {
    std::array<double, 3> position{};
    double alpha = 0.0; // exp(-alpha r^2), in 1/Å^2
};

// Surface where sum_i p exp(-alpha_i |x - c_i|^2) = level, sampled every `spacing` Å.
vtkSmartPointer<vtkPolyData> gaussianIsosurface(const std::vector<GaussianCentre>& centres,
                                                double p, double level = 1.0,
                                                double spacing = 0.35);
vtkSmartPointer<vtkActor> makeGaussianSurfaceActor(const std::vector<GaussianCentre>& centres,
                                                   double p, const QColor& colour,
                                                   double opacity = 0.4, double level = 1.0);

} // namespace pw
