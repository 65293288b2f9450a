// bench_hittable: timings of the Hits table widget on generated rows (issue 15 item 4: sort any
// column in under 1 s, a filter in under 0.5 s, scrolling never stalls the GUI thread for more
// than 16 ms, memory under 2 GiB). Not a test: it prints a table for tests/bench/RESULTS.md.
//   bench_hittable [rows=1000000] [numeric columns=20]
//   bench_hittable --store hits.db      (the columns of a saved hit store, read by HitTableSource)
#include "HitTableModel.h"
#include "HitTableSource.h"
#include "HitTableView.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QScrollBar>
#include <QTableView>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <ctime>
#include <random>

using namespace pw;

namespace {

long rssKb() {
    QFile f("/proc/self/status");
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray& line : f.readAll().split('\n'))
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').first().toLong();
    return -1;
}

double threadCpuMs() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

HitColumns generate(int rows, int numericColumns) {
    std::mt19937 rng(1);
    std::normal_distribution<double> score(-8.0, 1.5);
    std::uniform_int_distribution<int> tenth(0, 9);
    const char* fragments[] = {"c1ccccc1", "CCO", "C(=O)N", "Cl", "c1ccncc1", "OC", "N", "CC(C)"};
    HitColumns h;
    h.rowIds.resize(size_t(rows));
    HitColumn name{"name", false, {}, {}}, smiles{"smiles", false, {}, {}};
    name.texts.reserve(size_t(rows));
    smiles.texts.reserve(size_t(rows));
    for (int r = 0; r < rows; ++r) {
        h.rowIds[size_t(r)] = r + 1;
        name.texts.push_back("ZINC" + std::to_string(100000000 + rng() % 900000000));
        std::string s;
        for (int k = 0; k < 4; ++k)
            s += fragments[rng() % 8];
        smiles.texts.push_back(s);
    }
    h.columns = {std::move(name), std::move(smiles)};
    for (int c = 0; c < numericColumns; ++c) {
        HitColumn col{"score_" + std::to_string(c), true, {}, {}};
        col.numbers.resize(size_t(rows));
        for (double& v : col.numbers)
            v = tenth(rng) == 0 ? HitColumns::null() : score(rng); // 10% NULL
        h.columns.push_back(std::move(col));
    }
    h.nameColumn = 0;
    h.smilesColumn = 1;
    return h;
}

} // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    const bool fromStore = argc > 2 && std::string(argv[1]) == "--store";
    const long rss0 = rssKb();
    HitColumns h;
    if (fromStore) {
        const double cpu0 = threadCpuMs();
        QElapsedTimer read;
        read.start();
        hits::HitStore store(argv[2], hits::HitStore::Mode::ReadOnly);
        h = loadHitColumns(store);
        std::printf("store %s: open + loadHitColumns %.1f ms wall, %.1f ms thread CPU\n", argv[2],
                    read.nsecsElapsed() / 1e6, threadCpuMs() - cpu0);
    } else {
        h = generate(argc > 1 ? std::atoi(argv[1]) : 1000000, argc > 2 ? std::atoi(argv[2]) : 20);
    }
    const int rows = int(h.rowCount());
    const int numeric = int(std::count_if(h.columns.begin(), h.columns.end(),
                                          [](const HitColumn& c) { return c.numeric; }));
    const long rssData = rssKb();

    HitTableView view;
    view.resize(1200, 800);
    QElapsedTimer t;
    t.start();
    view.setColumns(std::move(h));
    const double loadMs = t.nsecsElapsed() / 1e6;
    view.show();
    app.processEvents();
    HitTableModel* m = view.model();

    // Wall time and this thread's CPU time: on a shared machine the CPU time is the figure to
    // compare, the wall time what a user on it would have waited.
    auto timeIt = [&](const char* what, auto&& f) {
        const double cpu0 = threadCpuMs();
        t.restart();
        f();
        app.processEvents(); // the view's response to the reset/layout change
        std::printf("| %s | %.1f | %.1f | %d |\n", what, t.nsecsElapsed() / 1e6, threadCpuMs() - cpu0,
                    m->rowCount());
    };
    std::printf("rows %d, numeric columns %d\n\n| operation | wall ms | thread CPU ms | visible rows |\n"
                "| --- | ---: | ---: | ---: |\n",
                rows, numeric);
    std::printf("| setColumns (model + view reset) | %.1f | | %d |\n", loadMs, m->rowCount());
    // Generated: score_0, score_1, score_2, score_7; a store: dock_score, mw, qed, clogp.
    const HitColumns& cols = m->columns();
    auto pick = [&](const char* generated, const char* stored) {
        const int c = cols.indexOf(fromStore ? stored : generated);
        if (c < 0 || !cols.columns[size_t(c)].numeric) {
            std::fprintf(stderr, "no numeric column %s\n", fromStore ? stored : generated);
            std::exit(1);
        }
        return c;
    };
    const int a = pick("score_0", "dock_score"), b = pick("score_1", "mw"), c2 = pick("score_2", "qed"),
              d = pick("score_7", "clogp");
    const bool s = fromStore;
    timeIt(s ? "sort dock_score ascending" : "sort score_0 ascending", [&] { m->sortByData(a, Qt::AscendingOrder); });
    timeIt(s ? "sort dock_score descending" : "sort score_0 descending", [&] { m->sortByData(a, Qt::DescendingOrder); });
    timeIt(s ? "sort clogp ascending" : "sort score_7 ascending", [&] { m->sortByData(d, Qt::AscendingOrder); });
    timeIt("sort name (text)", [&] { m->sortByData(cols.nameColumn, Qt::AscendingOrder); });
    timeIt(s ? "range filter dock_score in [-9, -7]" : "range filter score_0 in [-9, -7]",
           [&] { m->setRangeFilter(a, -9.0, -7.0); });
    timeIt(s ? "second range filter mw <= 400" : "second range filter score_1 <= -8",
           [&] { m->setRangeFilter(b, NAN, s ? 400.0 : -8.0); });
    timeIt(s ? "sort qed while filtered" : "sort score_2 while filtered", [&] { m->sortByData(c2, Qt::AscendingOrder); });
    timeIt("text filter \"ccncc\" (SMILES)", [&] { m->setTextFilter("ccncc"); });
    timeIt("text filter \"zinc1234\" (name, any case)", [&] { m->setTextFilter("zinc1234"); });
    timeIt("clear filters", [&] { m->clearFilters(); });
    timeIt("select all", [&] { view.table()->selectAll(); });
    timeIt("selectedRowIds of all", [&] { (void)view.selectedRowIds(); });
    view.table()->clearSelection();
    app.processEvents();

    // Scrolling: jump the scroll bar to 200 places over the table, repaint each time.
    QScrollBar* bar = view.table()->verticalScrollBar();
    double worst = 0, total = 0, worstCpu = 0, totalCpu = 0;
    std::mt19937 rng(2);
    for (int i = 0; i < 200; ++i) {
        const double cpu0 = threadCpuMs();
        t.restart();
        bar->setValue(int(rng() % unsigned(bar->maximum() + 1)));
        view.table()->viewport()->repaint();
        const double ms = t.nsecsElapsed() / 1e6, cpu = threadCpuMs() - cpu0;
        worst = std::max(worst, ms);
        total += ms;
        worstCpu = std::max(worstCpu, cpu);
        totalCpu += cpu;
    }
    std::printf("| scroll jump + repaint (200 jumps): mean | %.2f | %.2f | |\n"
                "| scroll jump + repaint: worst | %.2f | %.2f | |\n",
                total / 200, totalCpu / 200, worst, worstCpu);
    std::printf("\nRSS: %ld MB at start, %ld MB with the generated columns, %ld MB at the end\n",
                rss0 / 1024, rssData / 1024, rssKb() / 1024);
    return 0;
}
