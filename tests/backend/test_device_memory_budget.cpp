// The GPU batch splitting rule, on the host: chunks shrink to what the memory cap leaves, a
// batch of any size then completes in more chunks, and a cap below one pose is a clear error.
#include "backend/DeviceMemoryBudget.h"

#include <QtTest>

using namespace pw;

class TestDeviceMemoryBudget : public QObject {
    Q_OBJECT
private slots:
    void plentyOfMemoryKeepsTheRequestedChunk() {
        const ChunkBudget b = posesPerChunkWithin(80ull << 30, 1 << 20, 2000, 32768);
        QCOMPARE(b.posesPerChunk, 32768L);
        QVERIFY(b.message.empty());
    }
    void aCapShrinksTheChunkToWhatFits() {
        // 10 MiB cap, 2 MiB of templates, 1000 bytes per pose, two chunks in flight:
        // (10 - 2) MiB / 2000 bytes = 4194 poses per chunk.
        const ChunkBudget b = posesPerChunkWithin(10 << 20, 2 << 20, 1000, 32768);
        QCOMPARE(b.posesPerChunk, 4194L);
        QVERIFY(2 * b.posesPerChunk * 1000 + (2 << 20) <= (10 << 20));
        QVERIFY(2 * (b.posesPerChunk + 1) * 1000 + (2 << 20) > (10 << 20));
    }
    void aBigBatchIsSplitAndCoversEveryPose() {
        const long total = 100000;
        const ChunkBudget b = posesPerChunkWithin(4 << 20, 1 << 20, 3000, 32768);
        QVERIFY(b.posesPerChunk > 0 && b.posesPerChunk < total);
        long covered = 0, chunks = 0;
        for (long first = 0; first < total; first += b.posesPerChunk, ++chunks)
            covered += std::min(b.posesPerChunk, total - first);
        QCOMPARE(covered, total);
        QCOMPARE(chunks, (total + b.posesPerChunk - 1) / b.posesPerChunk);
    }
    void notEvenOnePoseIsAClearError() {
        const ChunkBudget b = posesPerChunkWithin(1 << 20, 2 << 20, 1000, 32768);
        QCOMPARE(b.posesPerChunk, 0L);
        QVERIFY2(b.message.find("not enough GPU memory: 1.0 MiB may be used") == 0,
                 b.message.c_str());
        QVERIFY(b.message.find("--max-gpu-memory") != std::string::npos);
    }
    void allocationFailureIsOneClearLine() {
        const std::string m = deviceAllocationFailedMessage(512ull << 20, 100ull << 20, 80ull << 30);
        QVERIFY2(m.find("not enough GPU memory: 512.0 MiB asked, 100.0 MiB free of 81920.0 MiB") ==
                     0,
                 m.c_str());
        QVERIFY(m.find("--device cpu") != std::string::npos);
        QVERIFY(m.find('\n') == std::string::npos);
        const std::string unknown = deviceAllocationFailedMessage(3ull << 20, 0, 0);
        QVERIFY2(unknown.find("not enough GPU memory: 3.0 MiB asked and refused") == 0,
                 unknown.c_str());
    }
    void injectedFailureFromTheNthAllocation() {
        qunsetenv("POSEWRIGHT_GPU_FAIL_ALLOCATION");
        QVERIFY(!injectedDeviceAllocationFailure()); // off by default, and not counted
        qputenv("POSEWRIGHT_GPU_FAIL_ALLOCATION", "3");
        QVERIFY(!injectedDeviceAllocationFailure());
        QVERIFY(!injectedDeviceAllocationFailure());
        QVERIFY(injectedDeviceAllocationFailure()); // the third
        QVERIFY(injectedDeviceAllocationFailure()); // and every later one
        qputenv("POSEWRIGHT_GPU_FAIL_ALLOCATION", "0");
        QVERIFY(!injectedDeviceAllocationFailure());
        qunsetenv("POSEWRIGHT_GPU_FAIL_ALLOCATION");
        QVERIFY(!injectedDeviceAllocationFailure());
    }
    void mebibytes() {
        QCOMPARE(parseMebibytes("64"), std::size_t(64) << 20);
        QCOMPARE(parseMebibytes("0"), std::size_t(0));
        QCOMPARE(parseMebibytes("12x"), std::size_t(0));
        QCOMPARE(parseMebibytes(""), std::size_t(0));
        QCOMPARE(parseMebibytes("-5"), std::size_t(0));
    }
};

QTEST_GUILESS_MAIN(TestDeviceMemoryBudget)
#include "test_device_memory_budget.moc"
