// GpuTestMain: main() for GPU test suites: exits 77 (CTest's "skipped") when no CUDA device is
// usable, so that CI machines without a GPU report these suites as skipped, never as passed.
#pragma once

#include <QtTest>
#include <cuda_runtime_api.h>

#include <cstdio>

namespace pw::test {

inline bool cudaDeviceUsable() {
    int count = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess || count == 0) {
        std::printf("SKIP: no usable CUDA device (%s)\n",
                    err != cudaSuccess ? cudaGetErrorString(err) : "no device");
        return false;
    }
    return true;
}

} // namespace pw::test

#define POSEWRIGHT_GPU_TEST_MAIN(TestClass)                                                        \
    int main(int argc, char** argv) {                                                              \
        if (!pw::test::cudaDeviceUsable())                                                         \
            return 77;                                                                             \
        QCoreApplication app(argc, argv);                                                          \
        TestClass tc;                                                                              \
        QTEST_SET_MAIN_SOURCE_PATH                                                                 \
        return QTest::qExec(&tc, argc, argv);                                                      \
    }
