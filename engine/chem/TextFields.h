// TextFields: small helpers the plain-text molecule readers share: fixed-column fields, trimming,
// whitespace tokens and number parsing with std::from_chars (no locale, no allocation).
#pragma once

#include <charconv>
#include <cmath>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace pw::text {

inline std::string_view trim(std::string_view s) {
    size_t b = 0, e = s.size();
    while (b < e && (s[b] == ' ' || s[b] == '\t' || s[b] == '\r'))
        ++b;
    while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\t' || s[e - 1] == '\r'))
        --e;
    return s.substr(b, e - b);
}

// Columns [first, last], 1-based and inclusive as in the format specifications; the part of the
// range past the end of the line is empty.
inline std::string_view columns(std::string_view line, size_t first, size_t last) {
    if (first > line.size())
        return {};
    size_t len = std::min(last, line.size()) - (first - 1);
    return line.substr(first - 1, len);
}

inline bool startsWith(std::string_view s, std::string_view prefix) {
    return s.substr(0, prefix.size()) == prefix;
}

inline bool isBlank(std::string_view s) {
    return trim(s).empty();
}

// Whitespace-separated tokens into out (cleared first); views into s.
inline void split(std::string_view s, std::vector<std::string_view>& out) {
    out.clear();
    size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r'))
            ++i;
        size_t j = i;
        while (j < s.size() && s[j] != ' ' && s[j] != '\t' && s[j] != '\r')
            ++j;
        if (j > i)
            out.push_back(s.substr(i, j - i));
        i = j;
    }
}

// A plain decimal ("-12.3456", "7", ".5": an optional '-', digits with at most one '.', at most
// 15 digits) read exactly as std::from_chars reads it: the digits as an integer and the power of
// ten are both exact doubles, so the one division rounds correctly (Clinger's fast path), which
// is what from_chars guarantees. False, out untouched, for anything else (exponents, longer
// numbers, other text): the caller then asks from_chars. Coordinates of a million-record SDF
// are parsed here; from_chars' general algorithm was the parser's largest cost.
inline bool plainDecimal(std::string_view s, double& out) {
    static constexpr double kPow10[] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                        1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
    size_t i = 0;
    const bool negative = !s.empty() && s[0] == '-';
    i += negative;
    unsigned long long mantissa = 0;
    int digits = 0, decimals = -1; // decimals: digits after the '.', -1 before one
    for (; i < s.size(); ++i) {
        const char c = s[i];
        if (c >= '0' && c <= '9') {
            if (++digits > 15)
                return false;
            mantissa = mantissa * 10 + static_cast<unsigned>(c - '0');
            decimals += decimals >= 0;
        } else if (c == '.' && decimals < 0) {
            decimals = 0;
        } else {
            return false;
        }
    }
    if (digits == 0)
        return false;
    const double v = static_cast<double>(mantissa) / kPow10[decimals < 0 ? 0 : decimals];
    out = negative ? -v : v;
    return true;
}

// Whole (trimmed) field as a number (a leading '+' allowed); false when empty or not entirely
// a number.
template <class T> bool toNumber(std::string_view s, T& out) {
    s = trim(s);
    if (!s.empty() && s[0] == '+')
        s.remove_prefix(1);
    if (s.empty())
        return false;
    if constexpr (std::is_same_v<T, double>)
        if (plainDecimal(s, out))
            return true;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && p == s.data() + s.size();
}
inline bool toDouble(std::string_view s, double& out) { return toNumber(s, out); }
inline bool toInt(std::string_view s, int& out) { return toNumber(s, out); }
inline bool toLong(std::string_view s, long& out) { return toNumber(s, out); }

inline bool allFinite(double x, double y, double z) {
    return std::isfinite(x) && std::isfinite(y) && std::isfinite(z);
}

// Quoted, shortened copy of a field for messages (non-printable bytes shown as '?').
inline std::string quote(std::string_view s, size_t maxLength = 40) {
    std::string q = "'";
    for (size_t i = 0; i < s.size() && i < maxLength; ++i) {
        unsigned char c = static_cast<unsigned char>(s[i]);
        q += (c < 0x20 || c == 0x7f) ? '?' : static_cast<char>(c);
    }
    if (s.size() > maxLength)
        q += "...";
    return q + "'";
}

// Strict UTF-8 check (no overlong forms, no surrogates): names must be text we can show.
inline bool isValidUtf8(std::string_view s) {
    size_t i = 0;
    while (i < s.size()) {
        unsigned char c = static_cast<unsigned char>(s[i]);
        int extra;
        unsigned int cp;
        if (c < 0x80) {
            ++i;
            continue;
        } else if ((c & 0xE0) == 0xC0) {
            extra = 1;
            cp = c & 0x1F;
        } else if ((c & 0xF0) == 0xE0) {
            extra = 2;
            cp = c & 0x0F;
        } else if ((c & 0xF8) == 0xF0) {
            extra = 3;
            cp = c & 0x07;
        } else {
            return false;
        }
        if (i + extra >= s.size())
            return false;
        for (int k = 1; k <= extra; ++k) {
            unsigned char d = static_cast<unsigned char>(s[i + k]);
            if ((d & 0xC0) != 0x80)
                return false;
            cp = (cp << 6) | (d & 0x3F);
        }
        if ((extra == 1 && cp < 0x80) || (extra == 2 && cp < 0x800) ||
            (extra == 3 && (cp < 0x10000 || cp > 0x10FFFF)) || (cp >= 0xD800 && cp <= 0xDFFF))
            return false;
        i += extra + 1;
    }
    return true;
}

} // namespace pw::text
