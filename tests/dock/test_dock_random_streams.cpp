// The GPU docking search's random draws (engine/cuda/DockRandom.h, random access by position) read
// the same keyed SplitMix64 stream as the CPU engine's dock::DockRandom (sequential): position n of
// run (seed, ligand, run) is the CPU stream's draw n + 1, so the two devices share the scheme and
// its statistics. Header-only on both sides: this runs in CPU-only builds too.
#include "cuda/DockRandom.h"
#include "dock/DockRandom.h"

#include <QtTest>

#include <cmath>
#include <cstdint>
#include <vector>

class TestDockRandomStreams : public QObject {
    Q_OBJECT

private slots:
    void gpuKeyReadsTheCpuStream() {
        const std::uint64_t seeds[] = {0, 1, 42, 0xFFFFFFFFFFFFFFFFull};
        for (std::uint64_t seed : seeds)
            for (std::uint64_t ligand : {0ull, 1ull, 999ull})
                for (std::uint64_t run : {0ull, 7ull, 99ull}) {
                    pw::dock::DockRandom cpu(seed, ligand, run);
                    const std::uint64_t key = pw::cuda::dockRunKey(seed, ligand, run);
                    for (std::uint64_t n = 1; n <= 5; ++n)
                        QCOMPARE(pw::cuda::dockFinalize(key + n * pw::cuda::kDockGolden),
                                 cpu.next());
                }
    }

    void drawsAreUniformAndDistinct() {
        // 4096 draws of one run: mean 1/2 and variance 1/12 within 4 standard errors, all
        // in [0, 1), and other individuals, purposes and runs give other numbers.
        const std::uint64_t key = pw::cuda::dockRunKey(42, 3, 5);
        double sum = 0, sum2 = 0;
        const int n = 4096;
        for (int i = 0; i < n; ++i) {
            const float u = pw::cuda::dockUniform(key, i / 64, i % 64, pw::cuda::kDrawMutation, 0);
            QVERIFY(u >= 0.0f && u < 1.0f);
            sum += u;
            sum2 += double(u) * u;
        }
        const double mean = sum / n, var = sum2 / n - mean * mean;
        QVERIFY(std::abs(mean - 0.5) < 4 * std::sqrt(1.0 / 12 / n));
        QVERIFY(std::abs(var - 1.0 / 12) < 0.01);
        const float a = pw::cuda::dockUniform(key, 1, 2, pw::cuda::kDrawTournament, 0);
        QVERIFY(a != pw::cuda::dockUniform(key, 1, 3, pw::cuda::kDrawTournament, 0));
        QVERIFY(a != pw::cuda::dockUniform(key, 1, 2, pw::cuda::kDrawCrossover, 0));
        QVERIFY(a != pw::cuda::dockUniform(pw::cuda::dockRunKey(42, 3, 6), 1, 2,
                                           pw::cuda::kDrawTournament, 0));
        for (int k = 0; k < 1000; ++k) {
            const int i = pw::cuda::dockIndex(key, 0, k, pw::cuda::kDrawInit, 0, 150);
            QVERIFY(i >= 0 && i < 150);
        }
    }
};

QTEST_APPLESS_MAIN(TestDockRandomStreams)
#include "test_dock_random_streams.moc"
