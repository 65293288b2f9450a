#include "DeviceOption.h"

#include "core/InputError.h"

#include <iostream>

namespace pw::cli {

DeviceRequest deviceRequestOption(const CommandLine& cl) {
    const std::string spec = cl.value("device", "auto");
    try {
        return parseDeviceRequest(spec);
    } catch (const InputError&) {
        throw UsageError("--device: expected auto, cpu, cuda or cuda:N, got '" + spec +
                         "' (several GPUs: cuda:all, or distinct indices as cuda:0,2)");
    }
}

DeviceChoice chooseDevice(const CommandLine& cl, int threads, const std::string& command) {
    DeviceChoice choice;
    choice.request = deviceRequestOption(cl);
    std::string note;
    choice.backend = createBackend(choice.request, threads, note);
    std::cerr << command << ": " << note << "\n";
    return choice;
}

} // namespace pw::cli
