// StopSignals: SIGINT and SIGTERM end posewright-cli cleanly: one line on stderr, every
// temporary file of an output not yet complete removed, exit code 128 + signal. Outputs are
// written to temporary files and renamed when complete, so nothing half-written remains.
#pragma once

namespace pw::cli {

// Installs the handlers for the life of the process (main calls it once).
void installStopSignalHandlers();

} // namespace pw::cli
