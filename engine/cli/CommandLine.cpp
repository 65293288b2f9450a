#include "CommandLine.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>

namespace pw::cli {

CommandLine::CommandLine(const std::vector<std::string>& args,
                         const std::map<std::string, OptionKind>& spec) {
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a.rfind("--", 0) != 0 || a.size() == 2) {
            positional_.push_back(a);
            continue;
        }
        std::string name = a.substr(2);
        std::optional<std::string> inlineValue;
        if (auto eq = name.find('='); eq != std::string::npos) {
            inlineValue = name.substr(eq + 1);
            name = name.substr(0, eq);
        }
        auto it = spec.find(name);
        if (it == spec.end())
            throw UsageError("unknown option --" + name);
        switch (it->second) {
        case OptionKind::Flag:
            if (inlineValue)
                throw UsageError("option --" + name + " takes no value");
            flags_[name] = true;
            break;
        case OptionKind::Value:
            if (values_.count(name))
                throw UsageError("option --" + name + " given twice");
            if (inlineValue) {
                values_[name] = {*inlineValue};
            } else {
                if (i + 1 >= args.size() || args[i + 1].rfind("--", 0) == 0)
                    throw UsageError("option --" + name + " needs a value");
                values_[name] = {args[++i]};
            }
            break;
        case OptionKind::Values: {
            auto& list = values_[name];
            if (inlineValue)
                list.push_back(*inlineValue);
            while (i + 1 < args.size() && args[i + 1].rfind("--", 0) != 0)
                list.push_back(args[++i]);
            if (list.empty())
                throw UsageError("option --" + name + " needs at least one value");
            break;
        }
        }
    }
}

bool CommandLine::flag(const std::string& name) const { return flags_.count(name) > 0; }

std::optional<std::string> CommandLine::value(const std::string& name) const {
    auto it = values_.find(name);
    if (it == values_.end() || it->second.empty())
        return std::nullopt;
    return it->second.front();
}

std::string CommandLine::value(const std::string& name, const std::string& fallback) const {
    return value(name).value_or(fallback);
}

std::string CommandLine::required(const std::string& name) const {
    auto v = value(name);
    if (!v)
        throw UsageError("missing required option --" + name);
    return *v;
}

std::vector<std::string> CommandLine::values(const std::string& name) const {
    auto it = values_.find(name);
    return it == values_.end() ? std::vector<std::string>{} : it->second;
}

int CommandLine::intValue(const std::string& name, int fallback, int lo, int hi) const {
    auto v = value(name);
    if (!v)
        return fallback;
    int out = 0;
    auto [p, ec] = std::from_chars(v->data(), v->data() + v->size(), out);
    if (ec != std::errc() || p != v->data() + v->size() || out < lo || out > hi)
        throw UsageError("option --" + name + " expects an integer from " + std::to_string(lo) +
                         " to " + std::to_string(hi) + ", got '" + *v + "'");
    return out;
}

double CommandLine::doubleValue(const std::string& name, double fallback, double lo,
                                double hi) const {
    auto v = value(name);
    if (!v)
        return fallback;
    char* end = nullptr;
    double out = std::strtod(v->c_str(), &end);
    if (end != v->c_str() + v->size() || !std::isfinite(out) || out < lo || out > hi)
        throw UsageError("option --" + name + " expects a number from " + std::to_string(lo) +
                         " to " + std::to_string(hi) + ", got '" + *v + "'");
    return out;
}

std::optional<std::string> CommandLine::sdfOutput(const std::string& name) const {
    std::optional<std::string> path = value(name);
    if (!path)
        return path;
    const size_t dot = path->find_last_of('.');
    const size_t slash = path->find_last_of('/');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash))
        return path;
    std::string ext = path->substr(dot + 1);
    for (char& c : ext)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (const char* other : {"pdbqt", "pdb", "mol2", "smi", "smiles"})
        if (ext == other)
            throw UsageError("--" + name + " " + *path + ": this command writes SDF; name the file "
                             ".sdf (convert with obabel if you need ." + ext + ")");
    return path;
}

} // namespace pw::cli
