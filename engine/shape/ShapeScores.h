// ShapeScores: the similarity numbers of one overlay (shape Tanimoto, ROCS's reference and fit
// Tversky, colour Tanimoto and the 0..2 combo) and the pose that produced them.
#pragma once

#include "core/Molecule.h"

#include <Eigen/Core>

namespace pw::shape {

struct ShapeScores {
    double volumeRef = 0, volumeFit = 0, overlap = 0;
    double tanimoto = 0, tverskyRef = 0, tverskyFit = 0;
    bool hasColour = false;
    double colourRef = 0, colourFit = 0, colourOverlap = 0, colourTanimoto = 0;
    double combo = 0; // tanimoto + colourTanimoto (colour counts 0 when not scored)
    // Moves the fit molecule's original coordinates onto the reference: x' = rotation x +
    // translation.
    Eigen::Matrix3d rotation = Eigen::Matrix3d::Identity();
    Vec3 translation = Vec3::Zero();
    int start = -1;     // index into ShapeOverlay::startPoses() of the best (-1: scored as given)
    int iterations = 0; // BFGS iterations of that start
};

// Fills tanimoto, tversky*, colourTanimoto and combo from the volumes and overlaps.
void finishScores(ShapeScores& s);

} // namespace pw::shape
