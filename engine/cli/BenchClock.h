// BenchClock: the wall clock and peak-memory readings every `bench` command reports, so that
// all benchmarks time and measure the same way.
#pragma once

#include <sys/resource.h>

#include <chrono>

namespace pw::cli {

// Seconds on the monotonic clock (differences only).
inline double benchNow() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// Peak resident set size of this process so far, MiB (Linux reports ru_maxrss in KiB).
inline double peakRssMiB() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_maxrss) / 1024.0;
}

} // namespace pw::cli
