// InteractionRules: the geometric thresholds of the interaction profiler, from PLIP
// (Salentin et al., Nucleic Acids Res. 43, W443 (2015); plip/modules/config.py, PLIP 2.x).
#pragma once

namespace pw::hits::rules {

inline constexpr double kHydrophobicMax = 4.0;     // HYDROPH_DIST_MAX, Å between carbons
inline constexpr double kHbondMax = 4.1;           // HBOND_DIST_MAX, Å donor-acceptor
inline constexpr double kHbondDonorAngleMin = 100; // HBOND_DON_ANGLE_MIN, D-H...A degrees
inline constexpr double kPiStackMax = 5.5;         // PISTACK_DIST_MAX, Å between ring centroids
inline constexpr double kPiStackAngleDev = 30;     // PISTACK_ANG_DEV, degrees from 0 or 90
inline constexpr double kPiStackOffsetMax = 2.0;   // PISTACK_OFFSET_MAX, Å in the ring plane
inline constexpr double kSaltBridgeMax = 5.5;      // SALTBRIDGE_DIST_MAX, Å between charge centres
inline constexpr double kHalogenMax = 4.0;         // HALOGEN_DIST_MAX, Å halogen-acceptor
inline constexpr double kHalogenAcceptorAngle = 120; // HALOGEN_ACC_ANGLE, X...A-Y degrees
inline constexpr double kHalogenDonorAngle = 165;    // HALOGEN_DON_ANGLE, C-X...A degrees
inline constexpr double kHalogenAngleDev = 30;       // HALOGEN_ANGLE_DEV, degrees

} // namespace pw::hits::rules
