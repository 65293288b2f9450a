// The scoring target's builds while the box changes faster than a grid is built (a box face
// dragged in the view): the requests fold into one build of the newest box instead of queueing a
// grid per step, and no build outlives the window (grids are counted per process, so a build left
// running once made the next window's count wrong: gui_test_dock failed in CI that way).
#include "ExampleWindow.h"
#include "GuiTestSetup.h"
#include "MainWindow.h"
#include "ScoringTarget.h"
#include "StartupFiles.h"
#include "TargetBuilder.h"
#include "score/BoxConfig.h"

#include <QtTest>

using namespace pw;

namespace {

SearchBox shifted(SearchBox box, double dx) {
    box.center.x() += dx;
    return box;
}

} // namespace

class TestTargetBuilder : public QObject {
    Q_OBJECT

private slots:
    void boxStepsFoldIntoOneBuildOfTheNewestBox() {
        MainWindow w;
        QVERIFY(openExample(w));
        const SearchBox start = *w.document().box();
        const long before = scoringGridBuilds();
        constexpr int kSteps = 8;
        for (int k = 1; k <= kSteps; ++k) // faster than any grid builds
            w.document().setBox(shifted(start, 0.25 * k), BoxSource::Typed);
        QVERIFY(w.targets().building());
        QVERIFY(settle(w));
        // The build the first step started, then one of the last box; none of the steps between.
        QCOMPARE(scoringGridBuilds(), before + 2);
        const SearchBox last = shifted(start, 0.25 * kSteps);
        QVERIFY(w.targets().current()->box.center == last.center);
        QVERIFY(w.targets().current()->box.size == last.size);
    }

    void boxBackToTheBuiltOneNeedsNoBuild() {
        MainWindow w;
        QVERIFY(openExample(w));
        const SearchBox start = *w.document().box();
        const auto built = w.targets().current();
        const long before = scoringGridBuilds();
        w.document().setBox(shifted(start, 3.0), BoxSource::Typed);
        QVERIFY(w.targets().building());
        w.document().setBox(start, BoxSource::Typed); // undone before the build ended
        QVERIFY(w.targetReady());
        QVERIFY(settle(w));
        QCOMPARE(w.targets().current().get(), built.get()); // the running build's grid is dropped
        QVERIFY(!w.targets().building());
        QVERIFY(scoringGridBuilds() <= before + 1);
    }

    void noBuildOutlivesItsWindow() {
        long atClose = 0;
        {
            MainWindow w;
            QVERIFY(openExample(w));
            w.document().setBox(shifted(*w.document().box(), 7.0), BoxSource::Typed);
            QVERIFY(w.targets().building());
            atClose = scoringGridBuilds();
        } // closed while the grid of the new box is being built
        const long afterClose = scoringGridBuilds();
        QVERIFY(afterClose <= atClose + 1); // the running build ended with the window ...
        QTest::qWait(500);
        QCOMPARE(scoringGridBuilds(), afterClose); // ... not behind the next one's back
    }
};

QTEST_MAIN(TestTargetBuilder)
#include "test_targetbuilder.moc"
