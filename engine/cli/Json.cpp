#include "Json.h"

#include <cmath>
#include <cstdio>

namespace pw::cli {

std::string jsonEscape(std::string_view s) {
    std::string out;
    out.reserve(s.size() + 2);
    for (unsigned char c : s) {
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
            if (c < 0x20) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", c);
                out += buf;
            } else {
                out += static_cast<char>(c);
            }
        }
    }
    return out;
}

std::string jsonNumber(double value, int precision) {
    if (!std::isfinite(value))
        return "null"; // JSON has no NaN/inf
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*g", precision, value);
    return buf;
}

std::string jsonArray(const std::vector<std::string>& values) {
    std::string out = "[";
    for (size_t i = 0; i < values.size(); ++i) {
        if (i)
            out += ",";
        out += values[i];
    }
    return out + "]";
}

std::string jsonStringArray(const std::vector<std::string>& strings) {
    std::vector<std::string> quoted;
    quoted.reserve(strings.size());
    for (const auto& s : strings)
        quoted.push_back("\"" + jsonEscape(s) + "\"");
    return jsonArray(quoted);
}

void JsonObject::key(std::string_view k) {
    if (!body_.empty())
        body_ += ",";
    body_ += "\"";
    body_ += jsonEscape(k);
    body_ += "\":";
}

JsonObject& JsonObject::add(std::string_view k, std::string_view value) {
    key(k);
    body_ += "\"" + jsonEscape(value) + "\"";
    return *this;
}
JsonObject& JsonObject::add(std::string_view k, double value, int precision) {
    key(k);
    body_ += jsonNumber(value, precision);
    return *this;
}
JsonObject& JsonObject::add(std::string_view k, int value) { return add(k, static_cast<long long>(value)); }
JsonObject& JsonObject::add(std::string_view k, long value) { return add(k, static_cast<long long>(value)); }
JsonObject& JsonObject::add(std::string_view k, long long value) {
    key(k);
    body_ += std::to_string(value);
    return *this;
}
JsonObject& JsonObject::add(std::string_view k, bool value) {
    key(k);
    body_ += value ? "true" : "false";
    return *this;
}
JsonObject& JsonObject::addNull(std::string_view k) {
    key(k);
    body_ += "null";
    return *this;
}
JsonObject& JsonObject::addRaw(std::string_view k, std::string_view json) {
    key(k);
    body_ += json;
    return *this;
}

} // namespace pw::cli
