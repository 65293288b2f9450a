#include "SdfWriter.h"

#include "core/Element.h"
#include "core/RingClosure.h"

#include <charconv>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace pw {
namespace {

// MDL atom block charge code (CTfile spec): +3..+1 -> 1..3, -1..-3 -> 5..7.
int v2000ChargeCode(int charge) {
    switch (charge) {
    case 3:
        return 1;
    case 2:
        return 2;
    case 1:
        return 3;
    case -1:
        return 5;
    case -2:
        return 6;
    case -3:
        return 7;
    default:
        return 0;
    }
}

std::string symbolOf(const Atom& a) {
    return a.element == 0 ? std::string("*") : std::string(elementSymbol(a.element));
}

// The title is one line of at most 80 characters.
std::string titleLine(const std::string& name) {
    std::string t = name.substr(0, 80);
    for (char& c : t)
        if (c == '\n' || c == '\r')
            c = ' ';
    return t;
}

// Right-aligned in `width` columns (wider when it does not fit), as printf's %<width>... does.
void appendRight(std::string& out, const char* text, size_t length, size_t width) {
    if (length < width)
        out.append(width - length, ' ');
    out.append(text, length);
}

// printf's "%10.4f": std::to_chars rounds as printf does (the value's exact decimal expansion,
// ties to even; tests/chem/test_writers.cpp compares them) at a fraction of its cost, which
// dominated writing the SD records of a large minimization.
void appendCoordinate(std::string& out, double v) {
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, 4);
    appendRight(out, buf, size_t(r.ptr - buf), 10);
}

// printf's "%3d".
void appendInt3(std::string& out, int v) {
    char buf[16];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    appendRight(out, buf, size_t(r.ptr - buf), 3);
}

void writeV2000(std::string& out, const Molecule& m) {
    char buf[128];
    std::snprintf(buf, sizeof buf, "%3d%3d  0  0  0  0  0  0  0  0999 V2000\n",
                  static_cast<int>(m.atoms.size()), static_cast<int>(m.bonds.size()));
    out += buf;
    std::vector<std::pair<int, int>> charged;
    for (size_t i = 0; i < m.atoms.size(); ++i) {
        const Atom& a = m.atoms[i];
        // "%10.4f%10.4f%10.4f %-3s 0%3d  0  0  0  0  0  0  0  0  0  0\n"
        appendCoordinate(out, a.position.x());
        appendCoordinate(out, a.position.y());
        appendCoordinate(out, a.position.z());
        out += ' ';
        const std::string symbol = symbolOf(a);
        out += symbol;
        if (symbol.size() < 3)
            out.append(3 - symbol.size(), ' ');
        out += " 0";
        appendInt3(out, v2000ChargeCode(a.formalCharge));
        out += "  0  0  0  0  0  0  0  0  0  0\n";
        if (a.formalCharge != 0)
            charged.emplace_back(static_cast<int>(i) + 1, a.formalCharge);
    }
    for (const Bond& b : m.bonds) { // "%3d%3d%3d  0\n"
        appendInt3(out, b.a + 1);
        appendInt3(out, b.b + 1);
        appendInt3(out, static_cast<int>(b.order));
        out += "  0\n";
    }
    // M  CHG holds every charge (the atom block cannot say +4 or -4), at most 8 per line.
    for (size_t i = 0; i < charged.size(); i += 8) {
        size_t n = std::min<size_t>(8, charged.size() - i);
        std::snprintf(buf, sizeof buf, "M  CHG%3d", static_cast<int>(n));
        out += buf;
        for (size_t k = i; k < i + n; ++k) {
            std::snprintf(buf, sizeof buf, " %3d %3d", charged[k].first, charged[k].second);
            out += buf;
        }
        out += '\n';
    }
    out += "M  END\n";
}

void writeV3000(std::string& out, const Molecule& m) {
    char buf[160];
    out += "  0  0  0     0  0            999 V3000\n";
    out += "M  V30 BEGIN CTAB\n";
    std::snprintf(buf, sizeof buf, "M  V30 COUNTS %d %d 0 0 0\n", static_cast<int>(m.atoms.size()),
                  static_cast<int>(m.bonds.size()));
    out += buf;
    out += "M  V30 BEGIN ATOM\n";
    for (size_t i = 0; i < m.atoms.size(); ++i) {
        const Atom& a = m.atoms[i];
        std::snprintf(buf, sizeof buf, "M  V30 %d %s %.4f %.4f %.4f 0", static_cast<int>(i) + 1,
                      symbolOf(a).c_str(), a.position.x(), a.position.y(), a.position.z());
        out += buf;
        if (a.formalCharge != 0)
            out += " CHG=" + std::to_string(a.formalCharge);
        out += '\n';
    }
    out += "M  V30 END ATOM\n";
    if (!m.bonds.empty()) {
        out += "M  V30 BEGIN BOND\n";
        for (size_t i = 0; i < m.bonds.size(); ++i) {
            const Bond& b = m.bonds[i];
            std::snprintf(buf, sizeof buf, "M  V30 %d %d %d %d\n", static_cast<int>(i) + 1,
                          static_cast<int>(b.order), b.a + 1, b.b + 1);
            out += buf;
        }
        out += "M  V30 END BOND\n";
    }
    out += "M  V30 END CTAB\nM  END\n";
}

} // namespace

void appendSdfRecord(std::string& out, const Molecule& input) {
    // SDF is chemistry: a macrocycle's ring-closure pseudo-atoms go, its broken bond comes back.
    if (hasRingClosures(input)) {
        const Molecule closed = withRingsClosed(input);
        if (closed.atoms.size() < input.atoms.size()) {
            appendSdfRecord(out, closed);
            return;
        }
    }
    const Molecule& m = input;
    out += titleLine(m.name);
    out += "\n  Posewrt           3D\n\n";
    if (m.atoms.size() > 999 || m.bonds.size() > 999)
        writeV3000(out, m);
    else
        writeV2000(out, m);
    for (const auto& [key, value] : m.properties) {
        out += "> <";
        out += key;
        out += ">\n";
        // A blank line ends a value, so blank lines inside one are written as a single space.
        size_t pos = 0;
        while (pos < value.size()) {
            size_t nl = value.find('\n', pos);
            size_t end = nl == std::string::npos ? value.size() : nl;
            std::string_view line(value.data() + pos, end - pos);
            if (!line.empty() && line.back() == '\r')
                line.remove_suffix(1);
            if (line.find_first_not_of(" \t") == std::string_view::npos)
                out += ' ';
            else
                out += line;
            out += '\n';
            pos = end + 1;
        }
        out += '\n';
    }
    out += "$$$$\n";
}

void writeSdfRecord(std::ostream& out, const Molecule& m) {
    std::string text;
    appendSdfRecord(text, m);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
}

} // namespace pw
