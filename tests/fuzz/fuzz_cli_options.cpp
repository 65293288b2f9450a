// libFuzzer target: posewright-cli's option parser (one argument per line of the input) with the
// option kinds the commands use, and the numeric accessors with their range checks.
#include "cli/CommandLine.h"

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    std::vector<std::string> args;
    for (std::string line; args.size() < 64 && std::getline(in, line);)
        args.push_back(line);
    using pw::cli::OptionKind;
    const std::map<std::string, OptionKind> spec{
        {"receptor", OptionKind::Value},  {"ligands", OptionKind::Values},
        {"json", OptionKind::Flag},       {"threads", OptionKind::Value},
        {"tolerance", OptionKind::Value}, {"device", OptionKind::Value}};
    try {
        pw::cli::CommandLine cl(args, spec);
        cl.flag("json");
        cl.values("ligands");
        cl.value("device", "auto");
        cl.intValue("threads", 1, 1, 1024);
        cl.doubleValue("tolerance", 1e-5, 0.0, 1e6);
        cl.required("receptor");
    } catch (const pw::cli::UsageError&) {
    }
    return 0;
}
