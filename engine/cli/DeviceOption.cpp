#include "DeviceOption.h"

#include "core/InputError.h"

#include <iostream>

namespace pw::cli {

DeviceChoice chooseDevice(const CommandLine& cl, int threads, const std::string& command) {
    const std::string spec = cl.value("device", "auto");
    DeviceChoice choice;
    try {
        choice.request = parseDeviceRequest(spec);
    } catch (const InputError&) {
        throw UsageError("--device: expected auto, cpu, cuda or cuda:N, got '" + spec + "'");
    }
    std::string note;
    choice.backend = createBackend(choice.request, threads, note);
    std::cerr << command << ": " << note << "\n";
    return choice;
}

} // namespace pw::cli
