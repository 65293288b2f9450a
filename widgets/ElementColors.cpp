#include "ElementColors.h"

namespace pw {
namespace {

// Index = atomic number (1..54). Colours from the Jmol element colour table
// (https://jmol.sourceforge.net/jscolors/), the usual CPK variant in molecular viewers.
constexpr std::array<Rgb, 55> kJmolColors{{
    {255, 20, 147}, // 0: unknown / dummy
    {255, 255, 255}, {217, 255, 255}, {204, 128, 255}, {194, 255, 0},   {255, 181, 181}, // H-B
    {144, 144, 144}, {48, 80, 248},   {255, 13, 13},   {144, 224, 80},  {179, 227, 245}, // C-Ne
    {171, 92, 242},  {138, 255, 0},   {191, 166, 166}, {240, 200, 160}, {255, 128, 0},   // Na-P
    {255, 255, 48},  {31, 240, 31},   {128, 209, 227}, {143, 64, 212},  {61, 255, 0},    // S-Ca
    {230, 230, 230}, {191, 194, 199}, {166, 166, 171}, {138, 153, 199}, {156, 122, 199}, // Sc-Mn
    {224, 102, 51},  {240, 144, 160}, {80, 208, 80},   {200, 128, 51},  {125, 128, 176}, // Fe-Zn
    {194, 143, 143}, {102, 143, 143}, {189, 128, 227}, {255, 161, 0},   {166, 41, 41},   // Ga-Br
    {92, 184, 209},  {112, 46, 176},  {0, 255, 0},     {148, 255, 255}, {148, 224, 224}, // Kr-Zr
    {115, 194, 201}, {84, 181, 181},  {59, 158, 158},  {36, 143, 143},  {10, 125, 140},  // Nb-Rh
    {0, 105, 133},   {192, 192, 192}, {255, 217, 143}, {166, 117, 115}, {102, 128, 128}, // Pd-Sn
    {158, 99, 181},  {212, 122, 0},   {148, 0, 148},   {66, 158, 176},                   // Sb-Xe
}};

// Heavier elements that still occur in ligands or receptors (Jmol table as above).
Rgb heavyElementColor(int z) {
    switch (z) {
    case 78:
        return {208, 208, 224}; // Pt
    case 79:
        return {255, 209, 35}; // Au
    case 80:
        return {184, 184, 208}; // Hg
    case 82:
        return {87, 89, 97}; // Pb
    default:
        return kJmolColors[0];
    }
}

} // namespace

Rgb elementColor(int z) {
    if (z > 0 && z < static_cast<int>(kJmolColors.size()))
        return kJmolColors[z];
    return heavyElementColor(z);
}

Rgb atomColor(int z, DrawStyle style) {
    if (z != 6)
        return elementColor(z);
    // Carbon carries the style: grey for the receptor (context), green or cyan for ligands.
    switch (style) {
    case DrawStyle::Receptor:
        return {165, 165, 165};
    case DrawStyle::Ligand:
        return {64, 210, 64};
    case DrawStyle::LigandAlternate:
        return {0, 200, 220};
    case DrawStyle::FlexibleResidue:
        return {255, 150, 30};
    }
    return elementColor(z);
}

} // namespace pw
