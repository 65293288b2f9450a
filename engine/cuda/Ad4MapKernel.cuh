// Ad4MapKernel: device code of the AD4 grid maps: one thread per grid point, receptor atoms read
// in tiles from shared memory. Squared distances in double with the CPU's exact operations; within
// the 8 Å cutoff the distance too (so every pair-table index, the cutoff and the closest donor are
// the CPU's); beyond it, where only electrostatics counts, a float distance. Energies in float.
#pragma once

#include <cuda_runtime.h>

namespace pw::cuda::ad4kernel {

constexpr int kMaxMaps = 16; // affinity maps per launch (AutoDock 4 itself takes at most 14 types)

struct Probe {
    int hbond; // ad4::HbondType value
    float solpar, vol;
    int pad;
};

// Site position relative to the grid centre (Å); padded to 32 bytes for aligned loads.
struct alignas(32) SitePosition {
    double x, y, z, pad;
};

struct Args {
    int nx, ny, nz; // points per axis
    int hx, hy, hz; // npts / 2: point i sits at (i - h) * spacing from the centre
    double spacing;
    int nsites, ndonors, nmaps, nrec;
    const SitePosition* pos;
    const float4* site;             // charge, vol, solpar + qsolpar |q|, unused
    const int2* kind;               // receptor type index, hbond | cosExponent << 8
    const float4* bond;             // directional H-bond vector (w unused)
    const float4* plane;            // lone-pair plane vector (w unused)
    const int* donors;              // indices of donor sites
    const float* pairTables;        // [(map * nrec + type) * pairTableSize + i]
    const float* desolvation;       // coeff_desolv * Gaussian
    const float* inverseDielectric; // 332 / eps(r)
    float estat;
    float* out; // [map][point], x fastest; nmaps affinity maps, then e, then d
    long long points;
};

// Uploads the probes to constant memory and launches the sweep on `stream`.
void launchMaps(const Args& args, const Probe* probes, cudaStream_t stream);

} // namespace pw::cuda::ad4kernel
