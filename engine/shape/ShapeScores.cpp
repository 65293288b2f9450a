#include "ShapeScores.h"

#include "ShapeConstants.h"

namespace pw::shape {

void finishScores(ShapeScores& s) {
    auto ratio = [](double num, double den) { return den > 0 ? num / den : 0.0; };
    s.tanimoto = ratio(s.overlap, s.volumeRef + s.volumeFit - s.overlap);
    s.tverskyRef = ratio(s.overlap, kTverskyMajor * s.volumeRef + kTverskyMinor * s.volumeFit);
    s.tverskyFit = ratio(s.overlap, kTverskyMinor * s.volumeRef + kTverskyMajor * s.volumeFit);
    s.colourTanimoto =
        s.hasColour ? ratio(s.colourOverlap, s.colourRef + s.colourFit - s.colourOverlap) : 0.0;
    s.combo = s.tanimoto + s.colourTanimoto;
}

} // namespace pw::shape
