// LineReader::appendLinesThrough (the SDF record cutter): on random texts of marker-like lines
// ("$$$$", "$$$", " $$$$", "$$$$x", CRLF, empty, long), read from a stream across the reader's
// 1 MiB refills, every cut, line count and line number equals a plain line-by-line reference.
#include "chem/LineReader.h"

#include <QtTest>

#include <random>
#include <sstream>

using namespace pw;

namespace {

struct Cut {
    std::string text;
    long lines = 0;
    long lineNumber = 0;
};

// Line by line: the lines through the next one that starts with the marker, each with its own
// end of line; a last line without one gets '\n'.
std::vector<Cut> reference(const std::string& text, const std::string& marker) {
    std::vector<Cut> cuts;
    Cut cur;
    long lineNumber = 0;
    for (size_t at = 0; at < text.size();) {
        size_t nl = text.find('\n', at);
        const bool complete = nl != std::string::npos;
        const size_t next = complete ? nl + 1 : text.size();
        cur.text += text.substr(at, next - at);
        if (!complete)
            cur.text += '\n';
        ++cur.lines, ++lineNumber;
        const bool isMarker =
            complete && text.compare(at, marker.size(), marker) == 0 && nl - at >= marker.size();
        at = next;
        if (isMarker || at == text.size()) {
            cur.lineNumber = lineNumber;
            cuts.push_back(cur);
            cur = Cut();
        }
    }
    return cuts;
}

std::vector<Cut> cutAll(const std::string& text, const std::string& marker) {
    std::istringstream in(text);
    LineReader reader(in, "t.sdf");
    std::vector<Cut> cuts;
    for (;;) {
        Cut c;
        c.lines = reader.appendLinesThrough(marker, c.text);
        if (c.lines == 0)
            break;
        c.lineNumber = reader.lineNumber();
        cuts.push_back(c);
    }
    return cuts;
}

std::string randomText(std::mt19937& rng, size_t bytes) {
    static const std::vector<std::string> lines{
        "$$$$\n",   "$$$$\r\n",         "$$$\n",   " $$$$\n",
        "$$$$x\n",  "x$$$$\n",          "\n",      "\r\n",
        "M  END\n", "> <dock_score>\n", "-7.25\n", "    1.2340   -0.5000    2.0000 C   0  0\n"};
    std::uniform_int_distribution<size_t> pick(0, lines.size() - 1), longLine(0, 400);
    std::string text;
    while (text.size() < bytes) {
        if (longLine(rng) == 0)
            text += std::string(longLine(rng) * 50, '$') + "\n"; // long lines of '$' only
        else
            text += lines[pick(rng)];
    }
    return text;
}

} // namespace

class TestLineReader : public QObject {
    Q_OBJECT
private slots:
    void cutsAsLineByLine() {
        std::mt19937 rng(3);
        // Small texts (every shape of the end: marker last, no final newline, a partial marker)
        // and texts over 1 MiB, so that marker lines straddle the reader's refills.
        for (int round = 0; round < 400; ++round) {
            const size_t bytes = round < 380 ? 1 + round % 60 : (1 << 20) + 4096 * round;
            std::string text = randomText(rng, bytes);
            if (round % 3 == 1)
                text.pop_back(); // no final newline
            if (round % 5 == 2)
                text += "$$"; // a partial marker at the end
            const std::vector<Cut> expected = reference(text, "$$$$");
            const std::vector<Cut> got = cutAll(text, "$$$$");
            QCOMPARE(got.size(), expected.size());
            for (size_t i = 0; i < got.size(); ++i) {
                QVERIFY2(got[i].text == expected[i].text,
                         qPrintable(QString("round %1 cut %2").arg(round).arg(i)));
                QCOMPARE(got[i].lines, expected[i].lines);
                QCOMPARE(got[i].lineNumber, expected[i].lineNumber);
            }
        }
    }

    void aLineLongerThanTheBufferIsCutWhole() {
        const std::string text = "a\n" + std::string(3 << 20, 'x') + "\n$$$$\nb\n$$$$\n";
        const std::vector<Cut> got = cutAll(text, "$$$$");
        QCOMPARE(got.size(), size_t(2));
        QCOMPARE(got[0].text, text.substr(0, text.size() - 7));
        QCOMPARE(got[0].lines, 3L);
        QCOMPARE(got[1].text, std::string("b\n$$$$\n"));
        QCOMPARE(got[1].lineNumber, 5L);
    }
};

QTEST_GUILESS_MAIN(TestLineReader)
#include "test_line_reader.moc"
