// text::toDouble's plain-decimal fast path gives the very double std::from_chars gives (bit for
// bit, signed zeros included) and accepts and refuses exactly the same fields: on SDF-style
// coordinates, on every short string over digits, signs, points and exponent letters, and on
// random long and odd fields.
#include "chem/TextFields.h"

#include <QtTest>

#include <charconv>
#include <cstdio>
#include <cstring>
#include <random>

using namespace pw;

namespace {

// The reader's rule before the fast path: trim, one leading '+', then from_chars on the rest.
bool reference(std::string_view s, double& out) {
    s = text::trim(s);
    if (!s.empty() && s[0] == '+')
        s.remove_prefix(1);
    if (s.empty())
        return false;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && p == s.data() + s.size();
}

// Both read s alike; false (with a message) when they differ.
bool sameAsFromChars(const std::string& s, QString& why) {
    double fast = 12345.678, slow = 12345.678;
    const bool a = text::toDouble(s, fast), b = reference(s, slow);
    if (a != b) {
        why =
            QString("'%1': accepted %2 by toDouble, %3 by from_chars").arg(s.c_str()).arg(a).arg(b);
        return false;
    }
    if (a && std::memcmp(&fast, &slow, sizeof fast) != 0) {
        why = QString("'%1': %2 against %3")
                  .arg(s.c_str())
                  .arg(fast, 0, 'g', 17)
                  .arg(slow, 0, 'g', 17);
        return false;
    }
    return true;
}

} // namespace

class TestTextFields : public QObject {
    Q_OBJECT
private slots:
    void coordinatesAsFromChars() {
        std::mt19937_64 rng(7);
        std::uniform_real_distribution<double> coordinate(-999.9999, 9999.9999);
        QString why;
        char buf[64];
        for (int i = 0; i < 200000; ++i) {
            const double v = coordinate(rng);
            for (const char* format : {"%10.4f", "%.4f", "%.6f", "%9.3f", "%.15g", "%.1f"}) {
                std::snprintf(buf, sizeof buf, format, v);
                QVERIFY2(sameAsFromChars(buf, why), qPrintable(why));
            }
        }
        for (const char* s : {"    0.0000",
                              "   -0.0000",
                              "-0",
                              "0",
                              "-.5",
                              ".5",
                              "5.",
                              ".",
                              "-",
                              "+",
                              "+-1",
                              "-+1",
                              "--1",
                              "1..2",
                              "1.2.3",
                              "1e5",
                              "1E-3",
                              "0x10",
                              "inf",
                              "-nan",
                              "123456789012345",
                              "1234567890123456",
                              "0.000000000000001",
                              "0.0000000000000001",
                              "9007199254740993",
                              "999999999999999.9",
                              "00000000000000000001",
                              " 1 2",
                              "1-",
                              "\t3.5\r"})
            QVERIFY2(sameAsFromChars(s, why), qPrintable(why));
    }

    void everyShortStringAsFromChars() {
        // Every string of up to 5 characters over these: each way of ordering digits, signs,
        // points, exponents and spaces.
        const std::string alphabet = "09.-+e ";
        QString why;
        std::string s;
        long checked = 0;
        for (int length = 0; length <= 5; ++length) {
            long count = 1;
            for (int k = 0; k < length; ++k)
                count *= static_cast<long>(alphabet.size());
            for (long code = 0; code < count; ++code) {
                s.clear();
                for (long c = code, k = 0; k < length; ++k, c /= static_cast<long>(alphabet.size()))
                    s += alphabet[static_cast<size_t>(c % static_cast<long>(alphabet.size()))];
                QVERIFY2(sameAsFromChars(s, why), qPrintable(why));
                ++checked;
            }
        }
        QVERIFY(checked > 19000);
    }

    void randomLongFieldsAsFromChars() {
        std::mt19937_64 rng(11);
        const std::string alphabet = "0123456789012345678901234567890123456789..-+eE";
        std::uniform_int_distribution<size_t> pick(0, alphabet.size() - 1), length(1, 24);
        QString why;
        std::string s;
        for (int i = 0; i < 300000; ++i) {
            s.clear();
            for (size_t k = length(rng); k > 0; --k)
                s += alphabet[pick(rng)];
            QVERIFY2(sameAsFromChars(s, why), qPrintable(why));
        }
    }
};

QTEST_GUILESS_MAIN(TestTextFields)
#include "test_text_fields.moc"
