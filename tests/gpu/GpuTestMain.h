// GpuTestMain: main() for GPU test suites: exits 77 (CTest's "skipped") when no CUDA device is
// usable, so that CI machines without a GPU report these suites as skipped, never as passed.
#pragma once

#include <QtTest>
#include <cuda_runtime_api.h>

#include <cmath>
#include <cstdio>

namespace pw::test {

// Small-problem mode, for compute-sanitizer runs (tests/bench/sanitize_device.sh sets
// POSEWRIGHT_GPU_TEST_SMALL=1): the tools slow kernels 10-1000x, so a suite then runs fewer
// poses, runs, evaluations and molecules through the same kernels. Every comparison with the CPU
// reference stays, with count thresholds scaled to the smaller problem (scaledCount). Not made in
// this mode: checks of search quality (a crystal pose found in 100 full-budget runs: that budget
// is what the tool cannot afford) and of the clock (cancel latency, throughput: the tool's
// slowdown voids them); each such place says so.
inline bool smallProblems() {
    static const bool small = qEnvironmentVariableIntValue("POSEWRIGHT_GPU_TEST_SMALL") != 0;
    return small;
}

// Racecheck mode (POSEWRIGHT_GPU_TEST_SMALL=2, implies small-problem mode): racecheck instruments
// every shared-memory access, and the docking kernel keeps its whole state in shared memory, so
// even small mode's single generation per run took a test function past QtTest's 5 minutes.
// Docking searches then run a few generations of a small population with short local searches:
// every code path of the kernel (initial population, selection, crossover, mutation, both local
// searches, the reported terms, the observer copies) with far fewer accesses.
inline bool racecheckProblems() {
    static const bool tiny = qEnvironmentVariableIntValue("POSEWRIGHT_GPU_TEST_SMALL") >= 2;
    return tiny;
}

// Cuts a docking search's options to racecheck size (nothing outside racecheck mode). The run
// count is left to the test (sized): some tests check per-run bookkeeping.
template <class DockOptionsT>
void shrinkDockingForRacecheck(DockOptionsT& o, long maxEvaluations = 600) {
    if (!racecheckProblems())
        return;
    o.lga.populationSize = 16;
    o.lga.localSearchIterations = 10;
    o.lga.maxEvaluations = maxEvaluations; // about three generations of 16 + 16 x 10
}

// `full` in a normal run, `small` in small-problem mode.
inline int sized(int full, int small) { return smallProblems() ? small : full; }

// A count threshold stated for `fullN` items, for a run of `n` items (same fraction, rounded).
inline int scaledCount(int count, int fullN, int n) {
    return int(std::lround(double(count) * n / fullN));
}

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
