// PhaseTimings (core/PhaseTimings.h): phases add up per group, timers add once, the JSON has
// every phase under its group, and adds from several threads are all counted.
#include "core/PhaseTimings.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <sstream>
#include <thread>
#include <vector>

using namespace pw;

class TestPhaseTimings : public QObject {
    Q_OBJECT
private slots:
    void addsPerPhaseAndGroup() {
        PhaseTimings t;
        t.add("read", 0.5);
        t.add("dock", 2.0);
        t.add("read", 0.25);
        t.add("gpu_search", 1.5, "cuda:0");
        t.add("gpu_search", 1.0, "cuda:1");
        t.add("rescore", -1.0, "cuda:0"); // a clock that went back counts as 0
        QCOMPARE(t.seconds("read"), 0.75);
        QCOMPARE(t.seconds("gpu_search", "cuda:1"), 1.0);
        QCOMPARE(t.seconds("rescore", "cuda:0"), 0.0);
        QCOMPARE(t.seconds("absent"), 0.0);
        QCOMPARE(t.sum(), 2.75);
        QCOMPARE(t.sum("cuda:0"), 1.5);
        QCOMPARE(t.groups(), (std::vector<std::string>{"cuda:0", "cuda:1"}));
        const auto e = t.entries();
        QCOMPARE(e.size(), size_t(5));
        QCOMPARE(e[0].phase, std::string("read"));
        QCOMPARE(e[0].count, 2L);
    }

    void jsonHasEveryPhaseUnderItsGroup() {
        PhaseTimings t;
        t.add("read", 0.125);
        t.add("gpu_search", 1.5, "cuda:0");
        t.add("odd\"name", 0.5, "cuda:0");
        QJsonParseError err;
        const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(t.json(3.0)), &err);
        QCOMPARE(err.error, QJsonParseError::NoError);
        const QJsonObject o = doc.object();
        QCOMPARE(o["wall"].toDouble(), 3.0);
        QCOMPARE(o["phases"].toObject()["read"].toDouble(), 0.125);
        const QJsonObject g = o["groups"].toObject()["cuda:0"].toObject();
        QCOMPARE(g["gpu_search"].toDouble(), 1.5);
        QCOMPARE(g["odd\"name"].toDouble(), 0.5);
        std::ostringstream table;
        t.print(table, 3.0);
        QVERIFY(table.str().find("gpu_search") != std::string::npos);
        QVERIFY(table.str().find("[cuda:0]") != std::string::npos);
    }

    void timerAddsOnceAndRestarts() {
        PhaseTimings t;
        {
            PhaseTimer timer(&t, "write", "g");
            const double s = timer.stop();
            QVERIFY(s >= 0);
            QCOMPARE(timer.stop(), 0.0); // stopped: nothing more
            timer.restart();
        } // the second interval ends here
        const auto e = t.entries();
        QCOMPARE(e.size(), size_t(1));
        QCOMPARE(e[0].count, 2L);
        PhaseTimer none(nullptr, "nothing"); // no timings: a no-op
        none.stop();
    }

    void addsFromManyThreads() {
        PhaseTimings t;
        std::vector<std::thread> threads;
        for (int k = 0; k < 8; ++k)
            threads.emplace_back([&t, k] {
                for (int i = 0; i < 1000; ++i)
                    t.add("search", 0.001, "cuda:" + std::to_string(k % 2));
            });
        for (auto& th : threads)
            th.join();
        QCOMPARE(t.entries()[0].count + t.entries()[1].count, 8000L);
        QVERIFY(std::abs(t.sum("cuda:0") + t.sum("cuda:1") - 8.0) < 1e-9);
    }
};

QTEST_GUILESS_MAIN(TestPhaseTimings)
#include "test_phase_timings.moc"
