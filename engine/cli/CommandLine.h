// CommandLine: option parsing for posewright-cli subcommands (--flag, --key value, --key v1 v2 ...).
// Unknown or malformed options raise UsageError with one clear line; main prints it and exits 2.
#pragma once

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace pw::cli {

struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

enum class OptionKind { Flag, Value, Values };

class CommandLine {
public:
    // spec: option name without dashes -> kind. Tokens not belonging to an option are positional.
    CommandLine(const std::vector<std::string>& args, const std::map<std::string, OptionKind>& spec);

    bool flag(const std::string& name) const;
    std::optional<std::string> value(const std::string& name) const;
    std::string value(const std::string& name, const std::string& fallback) const;
    std::string required(const std::string& name) const;
    std::vector<std::string> values(const std::string& name) const;
    // Numeric values with range checks: UsageError names the option and the range.
    int intValue(const std::string& name, int fallback, int lo, int hi) const;
    double doubleValue(const std::string& name, double fallback, double lo, double hi) const;
    const std::vector<std::string>& positional() const { return positional_; }
    // The value of an option that names an SDF output (--out of minimize, dock, overlay), or
    // nullopt; UsageError when its extension is another molecule format (.pdbqt, .pdb, .mol2,
    // .smi), which would otherwise receive SDF text under a misleading name.
    std::optional<std::string> sdfOutput(const std::string& name) const;

private:
    std::map<std::string, std::vector<std::string>> values_;
    std::map<std::string, bool> flags_;
    std::vector<std::string> positional_;
};

} // namespace pw::cli
