// PhaseTimings: where a command's wall time goes (reading, preparing, maps, upload, GPU search,
// exact re-scoring, clustering, writing), always collected: a steady_clock read per phase.
//
// Two kinds of entries:
// - the command's own phases (group ""), timed on its main thread one after the other, so they
//   never overlap and add up to at most the wall time;
// - the phases of concurrent work, one group each: a device ("cuda:0", "cpu") timed inside the
//   command's backend phase, or a pipeline thread ("pipeline") that works while the main thread
//   waits on the device. A group's own phases never overlap either, so each group's sum is at
//   most the wall time; groups overlap each other (two GPUs search at the same time).
// Thread-safe: the devices of a MultiDeviceBackend add from their own threads.
#pragma once

#include <iosfwd>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace pw {

class PhaseTimings {
public:
    static double now(); // steady clock, seconds

    // Adds seconds to `phase` of `group` ("" = the command itself).
    void add(std::string_view phase, double seconds, std::string_view group = {});

    struct Entry {
        std::string group, phase;
        double seconds = 0;
        long count = 0; // how many intervals were added
    };
    std::vector<Entry> entries() const;        // groups and phases in first-added order
    std::vector<std::string> groups() const;   // the non-empty groups, first-added order
    double sum(std::string_view group = {}) const;
    double seconds(std::string_view phase, std::string_view group = {}) const; // 0 when absent

    // {"wall":W,"phases":{"read":s,...},"groups":{"cuda:0":{"gpu_search":s,...},...}}
    std::string json(double wallSeconds) const;
    // A readable table: one line per phase (seconds, share of the wall), groups indented.
    void print(std::ostream& os, double wallSeconds) const;

private:
    mutable std::mutex m_;
    std::vector<Entry> entries_;
};

// Adds the time from its construction to stop() (or its destruction) to one phase; a null
// PhaseTimings makes it a no-op, so that callers need no test.
class PhaseTimer {
public:
    PhaseTimer(PhaseTimings* timings, std::string_view phase, std::string_view group = {});
    ~PhaseTimer() { stop(); }
    PhaseTimer(const PhaseTimer&) = delete;
    PhaseTimer& operator=(const PhaseTimer&) = delete;
    double stop(); // the seconds added (0 when already stopped)
    void restart(); // a new interval of the same phase from now (after stop())

private:
    PhaseTimings* timings_;
    std::string phase_, group_;
    double start_;
    bool stopped_ = false;
};

} // namespace pw
