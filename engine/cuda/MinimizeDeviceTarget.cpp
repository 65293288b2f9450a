#include "MinimizeDeviceTarget.h"

#include "MinimizeTemplates.h"
#include "core/ParallelFor.h"
#include "minimize/IntraSmoothing.h"
#include "score/VinaConstants.h"

namespace pw::cuda {

static_assert(static_cast<int>(GridInterpolation::Trilinear) == 0 &&
                  static_cast<int>(GridInterpolation::CatmullRom) == 1 &&
                  static_cast<int>(GridInterpolation::BSpline) == 2,
              "ScoringParamsGpu::interpolation codes");

bool DeviceScoringTarget::upload(const DockingTarget& target, int threads) {
    const ReceptorGrid* grid = target.grid();
    const std::uint64_t key = grid ? grid->instanceId() : 0;
    if (uploaded_ && gridKey_ == key && kindKey_ == target.scoring().kind() &&
        centre_ == target.box().center)
        return false;
    maps_.clear();
    const ScoringFunction& sf = target.scoring();
    ScoringParamsGpu s{};
    for (int t = 0; t < kXsTypeCount; ++t)
        s.maps[t] = nullptr;
    // The kernel works in coordinates relative to the box centre: small magnitudes keep
    // float steps of 1e-4 A resolvable (absolute receptor coordinates reach 50-100 A).
    centre_ = target.box().center;
    if (grid) {
        const GridDims& dims = grid->dims();
        const int n[3] = {dims.voxels[0] + 1, dims.voxels[1] + 1, dims.voxels[2] + 1};
        const size_t points = static_cast<size_t>(n[0]) * n[1] * n[2];
        std::vector<float> host(points);
        for (int t = 0; t < kXsTypeCount; ++t) {
            if (!grid->hasMap(t))
                continue;
            // The maps are read back through the interpolator at the sample points (exact there).
            parallelFor(n[0], threads, [&](long x) {
                Vec3 g, og;
                double outside;
                for (int y = 0; y < n[1]; ++y)
                    for (int z = 0; z < n[2]; ++z) {
                        const Vec3 p = dims.begin + dims.spacing * Vec3(double(x), y, z);
                        host[(static_cast<size_t>(x) * n[1] + y) * n[2] + z] =
                            static_cast<float>(grid->interpolate(t, p, g, outside, og));
                    }
            });
            maps_.emplace_back();
            uploadVector(maps_.back(), host);
            s.maps[t] = maps_.back().p;
        }
        s.nx = n[0], s.ny = n[1], s.nz = n[2];
        const Vec3 b = dims.begin - centre_;
        s.gridBegin = make_float3(float(b.x()), float(b.y()), float(b.z()));
        s.spacing = static_cast<float>(dims.spacing);
        s.invSpacing = static_cast<float>(1.0 / dims.spacing);
    }

    const bool vina = sf.kind() == ScoringKind::Vina;
    s.cutoff2 = static_cast<float>(sf.cutoffSquared());
    s.curlV = static_cast<float>(vina::kCurlV);
    s.outSlope = static_cast<float>(vina::kOutOfBoxSlope);
    for (int k = 0; k < 5; ++k)
        s.w[k] = static_cast<float>(sf.weights()[k]);
    s.secondGauss = vina ? 1 : 0;
    s.g1Offset = float(vina ? vina::kVinaGauss1Offset : vina::kVinardoGaussOffset);
    s.g1InvWidth = float(1.0 / (vina ? vina::kVinaGauss1Width : vina::kVinardoGaussWidth));
    s.g2Offset = float(vina::kVinaGauss2Offset);
    s.g2InvWidth = float(1.0 / vina::kVinaGauss2Width);
    s.hydGood = float(vina ? vina::kVinaHydrophobicGood : vina::kVinardoHydrophobicGood);
    s.hydBad = float(vina ? vina::kVinaHydrophobicBad : vina::kVinardoHydrophobicBad);
    s.hbGood = float(vina ? vina::kVinaHbondGood : vina::kVinardoHbondGood);
    s.hbBad = float(vina ? vina::kVinaHbondBad : vina::kVinardoHbondBad);

    std::vector<float4> pp(kXsTypeCount * kXsTypeCount);
    for (int i = 0; i < kXsTypeCount; ++i)
        for (int j = 0; j < kXsTypeCount; ++j) {
            const auto a = static_cast<XsType>(i), b = static_cast<XsType>(j);
            const bool hyd = xsIsHydrophobic(a) && xsIsHydrophobic(b);
            const bool hb = (xsIsDonor(a) && xsIsAcceptor(b)) || (xsIsDonor(b) && xsIsAcceptor(a));
            pp[i * kXsTypeCount + j] = make_float4(float(sf.radius(a) + sf.radius(b)),
                                                   hyd ? 1.f : 0.f, hb ? 1.f : 0.f, 0.f);
        }
    uploadVector(pairParams_, pp);
    s.pairParams = pairParams_.p;

    // Per type pair: the intra potential at the cutoff (IntraSmoothing's force shift).
    std::vector<float2> shift(kXsTypeCount * kXsTypeCount);
    for (int i = 0; i < kXsTypeCount; ++i)
        for (int j = 0; j < kXsTypeCount; ++j) {
            double value, slope;
            IntraSmoothing::cutoffShift(sf, i, j, value, slope);
            shift[i * kXsTypeCount + j] = make_float2(float(value), float(slope));
        }
    uploadVector(cutoffShift_, shift);
    s.cutoffShift = cutoffShift_.p;

    // Vina's tabulated potential, bin by bin, read back through ScoringFunction.
    s.tableFactor = static_cast<float>(ScoringFunction::kTableSamplesPerA2);
    s.tableSize = static_cast<int>(ScoringFunction::kTableSamplesPerA2 * sf.cutoffSquared()) + 3;
    const int rows = kXsTypeCount * (kXsTypeCount + 1) / 2;
    std::vector<float> table(static_cast<size_t>(rows) * s.tableSize, 0.0f);
    for (int i = 0; i < kXsTypeCount; ++i)
        for (int j = i; j < kXsTypeCount; ++j)
            for (int k = 0; k < s.tableSize - 1; ++k) {
                const double r2 = (k + 0.5) / ScoringFunction::kTableSamplesPerA2;
                if (r2 < sf.cutoffSquared())
                    table[static_cast<size_t>(tableRow(i, j)) * s.tableSize + k] =
                        static_cast<float>(sf.tabulatedEnergy(i, j, r2));
            }
    uploadVector(table_, table);
    s.table = table_.p;
    params_ = s;
    gridKey_ = key;
    kindKey_ = sf.kind();
    uploaded_ = true;
    return true;
}

} // namespace pw::cuda
