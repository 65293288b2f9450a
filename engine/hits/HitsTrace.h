// HitsTrace: the wall time of a cold filter's phases (the screen's load, the bulk match, the
// answers by pose id, ...) printed to stderr when POSEWRIGHT_HITS_TRACE is set, so that a
// `hits query` on a large store shows where its time goes (tests/bench/session19_device.sh).
#pragma once

#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace pw::hits {

class HitsTrace {
public:
    explicit HitsTrace(const char* phase) : phase_(phase) {}
    ~HitsTrace() {
        if (on())
            std::fprintf(stderr, "trace %-12s %.4f s\n", phase_,
                         std::chrono::duration<double>(Clock::now() - start_).count());
    }
    HitsTrace(const HitsTrace&) = delete;
    HitsTrace& operator=(const HitsTrace&) = delete;
    static bool on() {
        static const bool set = std::getenv("POSEWRIGHT_HITS_TRACE") != nullptr;
        return set;
    }

private:
    using Clock = std::chrono::steady_clock;
    const char* phase_;
    Clock::time_point start_ = Clock::now();
};

} // namespace pw::hits
