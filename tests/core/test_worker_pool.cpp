// WorkerPool (core/WorkerPool.h): every index of every loop runs exactly once, on the pool's
// threads and the caller's, loop after loop; a body's exception comes back to the caller after
// the loop stopped and the pool goes on working; callers on two threads take turns.
#include "core/WorkerPool.h"

#include <QtTest>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

using namespace pw;

class TestWorkerPool : public QObject {
    Q_OBJECT
private slots:
    void everyIndexOnceLoopAfterLoop() {
        WorkerPool pool(4);
        for (long count : {0L, 1L, 3L, 4L, 5L, 1000L, 7L, 20000L, 2L}) {
            for (int repeat = 0; repeat < 50; ++repeat) {
                std::vector<std::atomic<int>> visits(size_t(count) + 1);
                pool.parallelFor(count, [&](long i) { ++visits[size_t(i)]; });
                for (long i = 0; i < count; ++i)
                    QCOMPARE(visits[size_t(i)].load(), 1);
                QCOMPARE(visits[size_t(count)].load(), 0);
            }
        }
        // The work is shared: whichever thread takes the first of two items holds it long enough
        // for another to take the second (on one core the caller could otherwise finish quick
        // items before any worker runs).
        std::mutex m;
        std::set<std::thread::id> threads;
        pool.parallelFor(2, [&](long i) {
            {
                std::lock_guard lock(m);
                threads.insert(std::this_thread::get_id());
            }
            if (i == 0)
                std::this_thread::sleep_for(std::chrono::milliseconds(200));
        });
        QCOMPARE(threads.size(), size_t{2});
    }

    void oneThreadIsTheCaller() {
        WorkerPool pool(1);
        long sum = 0;
        const auto caller = std::this_thread::get_id();
        bool elsewhere = false;
        pool.parallelFor(100, [&](long i) {
            sum += i;
            elsewhere = elsewhere || std::this_thread::get_id() != caller;
        });
        QCOMPARE(sum, 4950L);
        QVERIFY(!elsewhere);
    }

    void exceptionReachesTheCaller() {
        WorkerPool pool(4);
        std::atomic<long> ran{0};
        bool caught = false;
        try {
            pool.parallelFor(100000, [&](long i) {
                ++ran;
                if (i == 10)
                    throw std::runtime_error("item 10");
            });
        } catch (const std::runtime_error& e) {
            caught = QString(e.what()) == "item 10";
        }
        QVERIFY(caught);
        QVERIFY(ran < 100000); // no more items were handed out once it threw
        // The pool still works.
        std::atomic<long> sum{0};
        pool.parallelFor(1000, [&](long i) { sum += i; });
        QCOMPARE(sum.load(), 499500L);
    }

    void callersTakeTurns() {
        WorkerPool pool(3);
        std::atomic<long> a{0}, b{0};
        std::thread other([&] {
            for (int k = 0; k < 200; ++k)
                pool.parallelFor(500, [&](long i) { a += i; });
        });
        for (int k = 0; k < 200; ++k)
            pool.parallelFor(300, [&](long i) { b += i; });
        other.join();
        QCOMPARE(a.load(), 200L * 124750);
        QCOMPARE(b.load(), 200L * 44850);
    }
};

QTEST_GUILESS_MAIN(TestWorkerPool)
#include "test_worker_pool.moc"
