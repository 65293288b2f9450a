#include "PocketFraming.h"

#include <vtkMath.h>

#include <algorithm>
#include <cmath>

namespace pw {
namespace {

// Receptor atoms closer than this to the ligand centre decide which side is open (Å): about the
// depth of a binding site.
constexpr double kPocketProbeRadius = 12.0;

} // namespace

std::optional<PocketFrame> framePocket(const std::vector<MoleculeDrawing>& ligands,
                                       const MoleculeDrawing& receptor) {
    std::array<double, 6> box{};
    bool have = false;
    for (const MoleculeDrawing& d : ligands) {
        if (d.empty())
            continue;
        const auto b = d.bounds();
        for (int k = 0; k < 3; ++k) {
            box[2 * k] = have ? std::min(box[2 * k], b[2 * k]) : b[2 * k];
            box[2 * k + 1] = have ? std::max(box[2 * k + 1], b[2 * k + 1]) : b[2 * k + 1];
        }
        have = true;
    }
    if (!have)
        return std::nullopt;

    PocketFrame f;
    for (int k = 0; k < 3; ++k)
        f.center[k] = 0.5 * (box[2 * k] + box[2 * k + 1]);

    // Principal axes of the ligand atoms: the eye looks along the smallest, the largest lies
    // across the (wide) screen, so a ring system is seen face-on and a chain at full length.
    double cov[3][3] = {};
    int n = 0;
    for (const MoleculeDrawing& d : ligands) {
        for (const DrawAtom& a : d.atoms) {
            double r[3];
            for (int k = 0; k < 3; ++k)
                r[k] = a.position[k] - f.center[k];
            for (int i = 0; i < 3; ++i)
                for (int j = 0; j < 3; ++j)
                    cov[i][j] += r[i] * r[j];
            f.ligandRadius = std::max(f.ligandRadius, std::sqrt(vtkMath::Dot(r, r)));
            ++n;
        }
    }
    double* rows[3] = {cov[0], cov[1], cov[2]};
    double eigenvalues[3];
    double vectors[3][3];
    double* vrows[3] = {vectors[0], vectors[1], vectors[2]};
    if (n >= 3 && vtkMath::Jacobi(rows, eigenvalues, vrows) && eigenvalues[1] > 1e-6) {
        // Jacobi sorts eigenvalues in decreasing order; eigenvectors are the columns.
        for (int k = 0; k < 3; ++k) {
            f.direction[k] = vectors[k][2];
            f.viewUp[k] = vectors[k][1];
        }
    } else {
        f.direction = {0.0, 0.0, 1.0};
        f.viewUp = {0.0, 1.0, 0.0};
        // A linear ligand: any view perpendicular to its axis will do.
        if (n >= 2 && eigenvalues[0] > 1e-6) {
            double axis[3] = {vectors[0][0], vectors[1][0], vectors[2][0]};
            double dir[3] = {0.0, 0.0, 1.0};
            if (std::abs(axis[2]) > 0.9)
                dir[0] = 1.0, dir[2] = 0.0;
            double up[3];
            vtkMath::Cross(dir, axis, up);
            vtkMath::Normalize(up);
            vtkMath::Cross(axis, up, dir);
            for (int k = 0; k < 3; ++k)
                f.direction[k] = dir[k], f.viewUp[k] = up[k];
        }
    }

    // Look from the open side of the pocket.
    int front = 0, back = 0;
    for (const DrawAtom& a : receptor.atoms) {
        double r[3];
        for (int k = 0; k < 3; ++k)
            r[k] = a.position[k] - f.center[k];
        if (vtkMath::Dot(r, r) > kPocketProbeRadius * kPocketProbeRadius)
            continue;
        (vtkMath::Dot(r, f.direction.data()) > 0.0 ? front : back)++;
    }
    if (front > back) {
        for (double& c : f.direction)
            c = -c;
        for (double& c : f.viewUp)
            c = -c; // keeps the frame right-handed, so the view is turned, not mirrored
    }
    return f;
}

} // namespace pw
