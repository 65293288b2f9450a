#include "SceneDecorations.h"

#include <vtkActor.h>
#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkCubeSource.h>
#include <vtkNew.h>
#include <vtkOutlineSource.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkSplineFilter.h>
#include <vtkTubeFilter.h>
#include <vtkUnsignedCharArray.h>

#include <cmath>

namespace pw {
namespace {

constexpr double kDash = 0.25;             // Å drawn
constexpr double kGap = 0.20;              // Å left out
constexpr double kDashRadius = 0.07;       // Å
constexpr double kBackboneRadius = 0.28;   // Å
constexpr double kBackboneSampling = 0.95; // Å between spline samples

} // namespace

vtkSmartPointer<vtkActor> makeBoxActor(const DrawBox& box) {
    vtkNew<vtkOutlineSource> outline;
    double bounds[6];
    for (int k = 0; k < 3; ++k) {
        bounds[2 * k] = box.center[k] - box.size[k] / 2;
        bounds[2 * k + 1] = box.center[k] + box.size[k] / 2;
    }
    outline->SetBounds(bounds);
    vtkNew<vtkPolyDataMapper> mapper;
    mapper->SetInputConnection(outline->GetOutputPort());
    auto actor = vtkSmartPointer<vtkActor>::New();
    actor->SetMapper(mapper);
    // Pale and half transparent: a frame of reference, not a subject.
    actor->GetProperty()->SetColor(0.75, 0.8, 0.9);
    actor->GetProperty()->SetOpacity(0.45);
    actor->GetProperty()->SetLineWidth(1.0);
    actor->GetProperty()->LightingOff();
    actor->PickableOff();
    return actor;
}

vtkSmartPointer<vtkActor> makeBoxFacesActor(const DrawBox& box) {
    vtkNew<vtkCubeSource> cube;
    cube->SetCenter(box.center[0], box.center[1], box.center[2]);
    cube->SetXLength(box.size[0]);
    cube->SetYLength(box.size[1]);
    cube->SetZLength(box.size[2]);
    vtkNew<vtkPolyDataMapper> mapper;
    mapper->SetInputConnection(cube->GetOutputPort());
    auto actor = vtkSmartPointer<vtkActor>::New();
    actor->SetMapper(mapper);
    // The handles' amber, faint enough that the pocket shows through.
    actor->GetProperty()->SetColor(0.95, 0.8, 0.3);
    actor->GetProperty()->SetOpacity(0.12);
    actor->GetProperty()->LightingOff();
    actor->PickableOff();
    return actor;
}

vtkSmartPointer<vtkActor> makeDashedLinesActor(const std::vector<DrawLine>& lines) {
    vtkNew<vtkPoints> points;
    vtkNew<vtkCellArray> cells;
    vtkNew<vtkUnsignedCharArray> colors;
    colors->SetNumberOfComponents(3);
    colors->SetName("Colors");
    for (const DrawLine& l : lines) {
        const unsigned char yellow[3] = {255, 220, 40}, red[3] = {255, 60, 60};
        const unsigned char* c = l.kind == LineKind::HydrogenBond ? yellow : red;
        double d[3], length = 0;
        for (int k = 0; k < 3; ++k) {
            d[k] = l.to[k] - l.from[k];
            length += d[k] * d[k];
        }
        length = std::sqrt(length);
        if (length < 1e-6)
            continue;
        for (double s = 0; s < length; s += kDash + kGap) {
            const double e = std::min(length, s + kDash);
            vtkIdType ids[2];
            ids[0] = points->InsertNextPoint(l.from[0] + d[0] * s / length,
                                             l.from[1] + d[1] * s / length,
                                             l.from[2] + d[2] * s / length);
            ids[1] = points->InsertNextPoint(l.from[0] + d[0] * e / length,
                                             l.from[1] + d[1] * e / length,
                                             l.from[2] + d[2] * e / length);
            cells->InsertNextCell(2, ids);
            colors->InsertNextTypedTuple(c);
        }
    }
    vtkNew<vtkPolyData> poly;
    poly->SetPoints(points);
    poly->SetLines(cells);
    poly->GetCellData()->SetScalars(colors);
    // Thin tubes, not GL lines: core-profile drivers (Mesa among them) draw lines one pixel wide.
    vtkNew<vtkTubeFilter> tube;
    tube->SetInputData(poly);
    tube->SetRadius(kDashRadius);
    tube->SetNumberOfSides(8);
    vtkNew<vtkPolyDataMapper> mapper;
    mapper->SetInputConnection(tube->GetOutputPort());
    mapper->SetColorModeToDirectScalars();
    mapper->SetScalarModeToUseCellData();
    auto actor = vtkSmartPointer<vtkActor>::New();
    actor->SetMapper(mapper);
    actor->GetProperty()->SetAmbient(0.5);
    actor->GetProperty()->SetDiffuse(0.6);
    actor->PickableOff();
    return actor;
}

vtkSmartPointer<vtkActor> makeBackboneActor(const std::vector<Trace>& segments) {
    vtkNew<vtkPoints> points;
    vtkNew<vtkCellArray> cells;
    for (const Trace& t : segments) {
        if (t.size() < 2)
            continue;
        cells->InsertNextCell(static_cast<vtkIdType>(t.size()));
        for (const auto& p : t)
            cells->InsertCellPoint(points->InsertNextPoint(p[0], p[1], p[2]));
    }
    vtkNew<vtkPolyData> poly;
    poly->SetPoints(points);
    poly->SetLines(cells);
    // Four samples per residue: smooth enough, and the curve stays within the tube radius of
    // the straight C-alpha trace.
    vtkNew<vtkSplineFilter> spline;
    spline->SetInputData(poly);
    spline->SetSubdivideToLength();
    spline->SetLength(kBackboneSampling);
    vtkNew<vtkTubeFilter> tube;
    tube->SetInputConnection(spline->GetOutputPort());
    tube->SetRadius(kBackboneRadius);
    tube->SetNumberOfSides(12);
    tube->CappingOn();
    vtkNew<vtkPolyDataMapper> mapper;
    mapper->SetInputConnection(tube->GetOutputPort());
    mapper->ScalarVisibilityOff();
    auto actor = vtkSmartPointer<vtkActor>::New();
    actor->SetMapper(mapper);
    vtkProperty* p = actor->GetProperty();
    p->SetColor(0.42, 0.5, 0.68);
    p->SetAmbient(0.2);
    p->SetDiffuse(0.75);
    p->SetSpecular(0.2);
    p->SetOpacity(1.0);
    actor->PickableOff();
    return actor;
}

} // namespace pw
