#include "ShapeModel.h"

#include "RingCentroids.h"
#include "ShapeConstants.h"
#include "core/Element.h"
#include "core/InputError.h"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace pw::shape {
namespace {

// Distinct radii: class 0 is carbon (the all-carbon default), then every other radius of Bondi's
// table in order of atomic number, the last class the colour width.
struct RadiusClasses {
    double radius[kRadiusClassCount] = {};
    int count = 0;
};

const RadiusClasses& radiusClasses() {
    static const RadiusClasses table = [] {
        RadiusClasses t;
        t.radius[t.count++] = bondiRadius(6);
        for (int z = 1; elementSymbol(z) != "?"; ++z) { // every known element
            const double r = bondiRadius(z);
            if (std::find(t.radius, t.radius + t.count, r) != t.radius + t.count)
                continue;
            if (t.count == kColourClass)
                throw std::logic_error(
                    "more distinct Bondi radii than ShapeModel's radius classes");
            t.radius[t.count++] = r;
        }
        for (int c = t.count; c < kColourClass; ++c) // unused classes: finite constants
            t.radius[c] = t.radius[0];
        t.radius[kColourClass] = kColourRadius;
        return t;
    }();
    return table;
}

} // namespace

const char* colourTypeName(ColourType t) {
    switch (t) {
    case ColourType::Donor:
        return "donor";
    case ColourType::Acceptor:
        return "acceptor";
    case ColourType::Cation:
        return "cation";
    case ColourType::Anion:
        return "anion";
    case ColourType::Aromatic:
        return "aromatic";
    case ColourType::Hydrophobe:
        return "hydrophobe";
    }
    return "?";
}

int radiusClass(int atomicNumber, RadiiMode mode) {
    if (mode == RadiiMode::Carbon)
        return 0;
    const RadiusClasses& t = radiusClasses();
    const double r = bondiRadius(atomicNumber);
    for (int c = 0; c < t.count; ++c)
        if (t.radius[c] == r)
            return c;
    return 0;
}

double classRadius(int cls) {
    return radiusClasses().radius[cls];
}
double classAlpha(int cls) {
    const double r = classRadius(cls);
    return kKappa / (r * r);
}

const PairConstants& pairConstants() {
    static const PairConstants table = [] {
        PairConstants t{};
        for (int i = 0; i < kRadiusClassCount; ++i)
            for (int j = 0; j < kRadiusClassCount; ++j) {
                double ai = classAlpha(i), aj = classAlpha(j), s = ai + aj;
                t.k[i][j] = kGaussianPSquared * std::pow(kPi / s, 1.5);
                t.c[i][j] = ai * aj / s;
            }
        return t;
    }();
    return table;
}

PrincipalFrame principalFrame(const std::vector<Vec3>& points) {
    PrincipalFrame f;
    if (points.empty())
        return f;
    for (const Vec3& p : points)
        f.centroid += p;
    f.centroid /= double(points.size());
    Eigen::Matrix3d cov = Eigen::Matrix3d::Zero();
    for (const Vec3& p : points) {
        Vec3 d = p - f.centroid;
        cov += d * d.transpose();
    }
    Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> es(cov);
    // Eigen sorts eigenvalues ascending: the largest spread is column 2.
    Vec3 a0 = es.eigenvectors().col(2), a1 = es.eigenvectors().col(1);
    auto thirdMoment = [&](const Vec3& axis) {
        double m = 0;
        for (const Vec3& p : points) {
            double s = axis.dot(p - f.centroid);
            m += s * s * s;
        }
        return m;
    };
    if (thirdMoment(a0) < 0)
        a0 = -a0;
    if (thirdMoment(a1) < 0)
        a1 = -a1;
    f.axes.row(0) = a0.transpose();
    f.axes.row(1) = a1.transpose();
    f.axes.row(2) = a0.cross(a1).transpose();
    return f;
}

ShapeModel makeShapeModel(const Molecule& m, const ShapeModelOptions& options,
                          std::vector<ColourFeature> colour) {
    ShapeModel s;
    s.positions.reserve(m.atoms.size());
    for (int i = 0; i < int(m.atoms.size()); ++i) {
        const Atom& a = m.atoms[i];
        if (a.element == 1 && !options.hydrogens)
            continue;
        s.positions.push_back(a.position);
        s.cls.push_back(std::uint8_t(radiusClass(a.element, options.radii)));
        s.atomIndex.push_back(i);
    }
    if (s.positions.empty())
        throw InputError(m.sourceFile, 0,
                         "record " + std::to_string(m.sourceRecord) + " (molecule '" + m.name +
                             "') has no heavy atom: a shape needs at least one atom");
    s.colour = std::move(colour);
    s.frame = principalFrame(s.positions);
    s.framePositions.reserve(s.positions.size());
    for (const Vec3& p : s.positions)
        s.framePositions.push_back(s.frame.axes * (p - s.frame.centroid));
    for (const ColourFeature& c : s.colour)
        s.frameColour.push_back(s.frame.axes * (c.position - s.frame.centroid));
    s.ringCentroids = ringCentroids(m);
    for (const Vec3& c : s.ringCentroids)
        s.frameRingCentroids.push_back(s.frame.axes * (c - s.frame.centroid));
    return s;
}

} // namespace pw::shape
