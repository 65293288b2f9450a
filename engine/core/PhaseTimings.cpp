#include "PhaseTimings.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ostream>

namespace pw {
namespace {

std::string seconds4(double s) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4f", s);
    return buf;
}

// Phase and group names are the code's own identifiers; quotes and backslashes are escaped all
// the same so that the JSON stays valid whatever a caller names.
std::string quoted(const std::string& s) {
    std::string q = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\')
            q += '\\';
        q += c;
    }
    return q + "\"";
}

} // namespace

double PhaseTimings::now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

void PhaseTimings::add(std::string_view phase, double seconds, std::string_view group) {
    std::lock_guard lock(m_);
    for (Entry& e : entries_)
        if (e.group == group && e.phase == phase) {
            e.seconds += std::max(0.0, seconds);
            ++e.count;
            return;
        }
    entries_.push_back({std::string(group), std::string(phase), std::max(0.0, seconds), 1});
}

std::vector<PhaseTimings::Entry> PhaseTimings::entries() const {
    std::lock_guard lock(m_);
    return entries_;
}

std::vector<std::string> PhaseTimings::groups() const {
    std::vector<std::string> g;
    for (const Entry& e : entries())
        if (!e.group.empty() && std::find(g.begin(), g.end(), e.group) == g.end())
            g.push_back(e.group);
    return g;
}

double PhaseTimings::sum(std::string_view group) const {
    double s = 0;
    for (const Entry& e : entries())
        if (e.group == group)
            s += e.seconds;
    return s;
}

double PhaseTimings::seconds(std::string_view phase, std::string_view group) const {
    for (const Entry& e : entries())
        if (e.group == group && e.phase == phase)
            return e.seconds;
    return 0;
}

std::string PhaseTimings::json(double wallSeconds) const {
    const std::vector<Entry> all = entries();
    auto object = [&](const std::string& group) {
        std::string o = "{";
        for (const Entry& e : all)
            if (e.group == group)
                o += (o.size() > 1 ? "," : "") + quoted(e.phase) + ":" + seconds4(e.seconds);
        return o + "}";
    };
    std::string j = "{\"wall\":" + seconds4(wallSeconds) + ",\"phases\":" + object("") +
                    ",\"groups\":{";
    bool first = true;
    for (const std::string& g : groups()) {
        j += (first ? "" : ",") + quoted(g) + ":" + object(g);
        first = false;
    }
    return j + "}}";
}

void PhaseTimings::print(std::ostream& os, double wallSeconds) const {
    const std::vector<Entry> all = entries();
    char line[160];
    auto row = [&](const char* indent, const Entry& e) {
        std::snprintf(line, sizeof line, "timings: %s%-22s %9.3f s %5.1f%%\n", indent,
                      e.phase.c_str(), e.seconds,
                      wallSeconds > 0 ? 100.0 * e.seconds / wallSeconds : 0.0);
        os << line;
    };
    std::snprintf(line, sizeof line, "timings: %-24s %9.3f s\n", "wall", wallSeconds);
    os << line;
    for (const Entry& e : all)
        if (e.group.empty())
            row("  ", e);
    for (const std::string& g : groups()) {
        os << "timings:   [" << g << "] (concurrent with the phases above)\n";
        for (const Entry& e : all)
            if (e.group == g)
                row("    ", e);
    }
}

PhaseTimer::PhaseTimer(PhaseTimings* timings, std::string_view phase, std::string_view group)
    : timings_(timings), phase_(phase), group_(group), start_(PhaseTimings::now()) {}

double PhaseTimer::stop() {
    if (stopped_)
        return 0;
    stopped_ = true;
    const double s = PhaseTimings::now() - start_;
    if (timings_)
        timings_->add(phase_, s, group_);
    return s;
}

void PhaseTimer::restart() {
    stop();
    stopped_ = false;
    start_ = PhaseTimings::now();
}

} // namespace pw
