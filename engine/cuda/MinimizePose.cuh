// MinimizePose.cuh: one warp's view of its pose in shared memory and the pose kinematics:
// fragment frames and atom coordinates from a pose, pose steps (position, quaternion, torsions).
#pragma once

#include "DockAd4Types.h"
#include "MinimizeDeviceMath.cuh"
#include "MinimizeTypes.h"

namespace pw::cuda::mk {

// Per-warp views into shared memory (see minimizeSharedBytesPerWarp for the layout).
struct WarpState {
    float3 *local, *coords, *grad;
    float3 *relOrigin, *relAxis, *origin, *axis, *force, *moment;
    float* rot;
    float *x, *trial, *start;
    float *g, *gT, *p, *y, *hy, *H;
    float* misc;
    float* mma; // Reduction::TensorCoreWmma staging: 256 floats, 32-byte aligned
    const int* atoms;
    const NodeGpu* nodes;
    const PairGpu* pairs;
    // AD4 scoring (docking only; null otherwise): per-atom charges and the internal pairs (then
    // nPairs counts these).
    const float* charge = nullptr;
    const Ad4PairGpu* ad4Pairs = nullptr;
    int A, N, nPairs, T, D;
    // Nodes [0, movingNodes) are placed from the pose; the rest (flexible side chains' roots,
    // TemplateGpu::movingNodes) keep the frames the kernel's set-up gave them.
    int movingNodes;
    int lane;
};

// Fragment frames and then atom coordinates (all lanes) of a pose. Only the chain of frames is
// serial (lane 0, parents first): each node's rotation about its bond in its parent's frame
// (Rodrigues) depends on its torsion alone, so the lanes make those first, one node each, in the
// node's rotation slot, and the world axes after the chain. (Lane 0 alone made all of it: about
// a quarter of the docking search's instructions ran on one lane; tests/bench/RESULTS.md,
// twenty-first session.)
__device__ inline void placeAtoms(WarpState& w, const float* pose) {
    for (int k = 1 + w.lane; k < w.movingNodes; k += 32) {
        const float3 u = w.relAxis[k];
        float sn, cs;
        sincosf(pose[7 + w.nodes[k].torsion], &sn, &cs);
        const float c1 = 1.0f - cs;
        float* a = w.rot + 9 * k;
        a[0] = cs + c1 * u.x * u.x, a[1] = c1 * u.x * u.y - sn * u.z;
        a[2] = c1 * u.x * u.z + sn * u.y, a[3] = c1 * u.x * u.y + sn * u.z;
        a[4] = cs + c1 * u.y * u.y, a[5] = c1 * u.y * u.z - sn * u.x;
        a[6] = c1 * u.x * u.z - sn * u.y, a[7] = c1 * u.y * u.z + sn * u.x;
        a[8] = cs + c1 * u.z * u.z;
    }
    __syncwarp();
    if (w.lane == 0) {
        const float qw = pose[3], qx = pose[4], qy = pose[5], qz = pose[6];
        float* r = w.rot;
        r[0] = 1 - 2 * (qy * qy + qz * qz);
        r[1] = 2 * (qx * qy - qw * qz);
        r[2] = 2 * (qx * qz + qw * qy);
        r[3] = 2 * (qx * qy + qw * qz);
        r[4] = 1 - 2 * (qx * qx + qz * qz);
        r[5] = 2 * (qy * qz - qw * qx);
        r[6] = 2 * (qx * qz - qw * qy);
        r[7] = 2 * (qy * qz + qw * qx);
        r[8] = 1 - 2 * (qx * qx + qy * qy);
        w.origin[0] = make_float3(pose[0], pose[1], pose[2]);
        for (int k = 1; k < w.movingNodes; ++k) {
            const int parent = w.nodes[k].parent;
            const float* rp = w.rot + 9 * parent;
            w.origin[k] = w.origin[parent] + mul(rp, w.relOrigin[k]);
            // r = rp * Rodrigues(u, t), the latter waiting in r's slot
            float* rk = w.rot + 9 * k;
            float a[9];
            for (int e = 0; e < 9; ++e)
                a[e] = rk[e];
            for (int i = 0; i < 3; ++i)
                for (int j = 0; j < 3; ++j)
                    rk[3 * i + j] =
                        rp[3 * i] * a[j] + rp[3 * i + 1] * a[3 + j] + rp[3 * i + 2] * a[6 + j];
        }
    }
    __syncwarp();
    for (int k = 1 + w.lane; k < w.movingNodes; k += 32)
        w.axis[k] = mul(w.rot + 9 * w.nodes[k].parent, w.relAxis[k]);
    for (int i = w.lane; i < w.A; i += 32) {
        const int node = w.atoms[i] >> 8;
        w.coords[i] = w.origin[node] + mul(w.rot + 9 * node, w.local[i]);
    }
    __syncwarp();
}

__device__ inline float warpDot(const WarpState& w, const float* a, const float* b, int n) {
    float v = 0.0f;
    for (int i = w.lane; i < n; i += 32)
        v += a[i] * b[i];
    return warpSum(v);
}

// dst = src (+) alpha * step (Pose::applyStep in float).
__device__ inline void applyStep(WarpState& w, float* dst, const float* src, const float* step,
                                 float alpha) {
    for (int i = w.lane; i < 3; i += 32)
        dst[i] = src[i] + alpha * step[i];
    for (int i = w.lane; i < w.T; i += 32)
        dst[7 + i] = normalizeAngle(src[7 + i] + alpha * step[6 + i]);
    if (w.lane == 0) {
        const float vx = alpha * step[3], vy = alpha * step[4], vz = alpha * step[5];
        const float angle = sqrtf(vx * vx + vy * vy + vz * vz);
        float aw = 1, ax = 0, ay = 0, az = 0;
        if (angle > 0.0f) {
            float sn, cs;
            sincosf(0.5f * normalizeAngle(angle), &sn, &cs);
            const float k = sn / angle;
            aw = cs, ax = k * vx, ay = k * vy, az = k * vz;
        }
        const float bw = src[3], bx = src[4], by = src[5], bz = src[6];
        float qw = aw * bw - ax * bx - ay * by - az * bz;
        float qx = aw * bx + ax * bw + ay * bz - az * by;
        float qy = aw * by - ax * bz + ay * bw + az * bx;
        float qz = aw * bz + ax * by - ay * bx + az * bw;
        const float inv = rsqrtf(qw * qw + qx * qx + qy * qy + qz * qz);
        dst[3] = qw * inv, dst[4] = qx * inv, dst[5] = qy * inv, dst[6] = qz * inv;
    }
    __syncwarp();
}

__device__ inline void copyPose(WarpState& w, float* dst, const float* src) {
    for (int i = w.lane; i < 7 + w.T; i += 32)
        dst[i] = src[i];
    __syncwarp();
}

__device__ inline void setScaledIdentity(WarpState& w, float diagonal) {
    for (int e = w.lane; e < w.D * w.D; e += 32)
        w.H[e] = (e / w.D == e % w.D) ? diagonal : 0.0f;
    __syncwarp();
}

} // namespace pw::cuda::mk
