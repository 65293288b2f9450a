// BatchStatus: what a batch operation of the Backend hands back besides its results: how much of
// the batch it finished (a cancel stops it early and says so) and, for benchmarks, its timing.
#pragma once

namespace pw {

struct BatchStatus {
    long done = 0;  // items finished (in any order: workers take items as they come)
    long total = 0; // items asked for
    bool cancelled = false;

    bool complete() const { return !cancelled && done == total; }
};

// Where the last batch's time went (seconds). deviceSeconds is the computation itself: on a GPU
// H2D copies + kernels + D2H timed around the device work (what PAPER and SIML time), on the CPU
// the wall time of the threads' work. hostSeconds: a GPU batch's host-side packing and
// unpacking; uploadSeconds: preparing and copying inputs that later batches reuse.
struct BatchTiming {
    double uploadSeconds = 0;
    double deviceSeconds = 0;
    double hostSeconds = 0;
};

} // namespace pw
