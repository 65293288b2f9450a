// ShapeModel: a molecule as the Gaussian shape engine sees it: atom centres with a radius class,
// colour feature points, and the principal-axes frame in which overlays start.
#pragma once

#include "core/Molecule.h"

#include <Eigen/Core>

#include <cstdint>
#include <vector>

namespace pw::shape {

enum class RadiiMode { Carbon, Element };

// Pharmacophore colour types (typed by engine/chem/ShapeFeatures from RDKit).
enum class ColourType : std::uint8_t { Donor, Acceptor, Cation, Anion, Aromatic, Hydrophobe };
inline constexpr int kColourTypeCount = 6;
const char* colourTypeName(ColourType t);

struct ColourFeature {
    ColourType type = ColourType::Hydrophobe;
    Vec3 position = Vec3::Zero();
};

// Gaussian widths come in a few classes (one per distinct radius), so that the pair constants
// K_ij = p^2 (pi/(a_i+a_j))^1.5 and c_ij = a_i a_j/(a_i+a_j) are a small table, not per-pair
// powers: the CPU and the GPU read the same table.
inline constexpr int kRadiusClassCount = 12;
inline constexpr int kColourClass = kRadiusClassCount - 1;
int radiusClass(int atomicNumber, RadiiMode mode);
double classRadius(int cls);
double classAlpha(int cls);
struct PairConstants {
    double k[kRadiusClassCount][kRadiusClassCount];
    double c[kRadiusClassCount][kRadiusClassCount];
};
const PairConstants& pairConstants();

// Centroid and axes (rows of `axes`, largest spread first, right-handed) of a point set; frame
// coordinates are axes * (x - centroid). Axis signs put the larger third moment on the positive
// side, so that one start already matches molecules of similar shape.
struct PrincipalFrame {
    Vec3 centroid = Vec3::Zero();
    Eigen::Matrix3d axes = Eigen::Matrix3d::Identity();
};
PrincipalFrame principalFrame(const std::vector<Vec3>& points);

struct ShapeModel {
    std::vector<Vec3> positions;   // Gaussian centres as given (heavy atoms unless asked)
    std::vector<std::uint8_t> cls; // radius class per centre
    std::vector<int> atomIndex;    // index into the source Molecule::atoms
    std::vector<ColourFeature> colour;
    PrincipalFrame frame;
    std::vector<Vec3> framePositions; // positions in the principal frame
    std::vector<Vec3> frameColour;    // colour feature positions in the principal frame
    // Centres of the molecule's smallest rings (RingCentroids.h), as given and in the principal
    // frame: a reference's are where ring-centroid starts put the fit's centroid.
    std::vector<Vec3> ringCentroids;
    std::vector<Vec3> frameRingCentroids;
};

struct ShapeModelOptions {
    RadiiMode radii = RadiiMode::Carbon;
    bool hydrogens = false;
};

// Throws InputError (naming the molecule's file and record) when it has no atom to use.
ShapeModel makeShapeModel(const Molecule& m, const ShapeModelOptions& options,
                          std::vector<ColourFeature> colour = {});

} // namespace pw::shape
