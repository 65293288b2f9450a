// DeviceOption: the `--device auto|cpu|cuda[:N]` option of the overlay and LINGO commands: one
// backend from backend/DeviceSelection and the one stderr line that says which device runs.
#pragma once

#include "CommandLine.h"
#include "backend/DeviceSelection.h"

#include <memory>
#include <string>

namespace pw::cli {

struct DeviceChoice {
    DeviceRequest request;
    std::unique_ptr<Backend> backend;
};

// Reads --device (default auto), creates the backend with `threads` CPU threads (0 = all) and
// prints "<command>: device: ..." to stderr (the GPU, the CPU, or the reason and the CPU).
// A malformed value is a UsageError ("--device: expected auto, cpu, cuda or cuda:N, got '...'").
DeviceChoice chooseDevice(const CommandLine& cl, int threads, const std::string& command);

// --device alone (default auto), for commands that create their backend themselves; a malformed
// value is the same UsageError (exit 2), never an input error.
DeviceRequest deviceRequestOption(const CommandLine& cl);

} // namespace pw::cli
