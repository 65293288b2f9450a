// MinimizeDeviceMath.cuh: small device helpers of the minimization kernel: warp sums, float3
// algebra, angle wrapping and Vina's curl.
#pragma once

#include <cuda_runtime.h>

#include <cmath>

namespace pw::cuda::mk {

constexpr unsigned kFull = 0xffffffffu;
constexpr float kPi = 3.14159265358979f;
// The curvature guard of BfgsMinimizer (double epsilon there; kept so both sides skip the same
// updates).
constexpr float kCurvatureEpsilon = 2.220446e-16f;

__device__ __forceinline__ float warpSum(float v) {
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_xor_sync(kFull, v, off);
    return v;
}

// Energies are summed in double: the line search compares sums of hundreds of terms whose
// float rounding would otherwise flip Armijo decisions that the double CPU reference makes.
__device__ __forceinline__ double warpSumD(double v) {
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_xor_sync(kFull, v, off);
    return v;
}

__device__ __forceinline__ float3 operator+(float3 a, float3 b) {
    return make_float3(a.x + b.x, a.y + b.y, a.z + b.z);
}
__device__ __forceinline__ float3 operator-(float3 a, float3 b) {
    return make_float3(a.x - b.x, a.y - b.y, a.z - b.z);
}
__device__ __forceinline__ float3 operator*(float s, float3 a) {
    return make_float3(s * a.x, s * a.y, s * a.z);
}
__device__ __forceinline__ float dot3(float3 a, float3 b) {
    return a.x * b.x + a.y * b.y + a.z * b.z;
}
__device__ __forceinline__ float3 cross3(float3 a, float3 b) {
    return make_float3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
__device__ __forceinline__ float3 mul(const float* r, float3 v) { // row-major 3x3
    return make_float3(r[0] * v.x + r[1] * v.y + r[2] * v.z, r[3] * v.x + r[4] * v.y + r[5] * v.z,
                       r[6] * v.x + r[7] * v.y + r[8] * v.z);
}

__device__ __forceinline__ float normalizeAngle(float a) {
    if (a > kPi || a < -kPi)
        a = remainderf(a, 2.0f * kPi);
    return a;
}

// Vina's curl: positive energies softened to e v / (v + e); returns the derivative scale.
__device__ __forceinline__ float curl(float e, float v, float& scale) {
    if (e > 0.0f) {
        const float t = v / (v + e);
        scale = t * t;
        return e * t;
    }
    scale = 1.0f;
    return e;
}

} // namespace pw::cuda::mk
