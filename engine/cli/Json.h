// Json: a tiny streaming JSON object writer for the CLI's one-object-per-line output.
// Keys keep insertion order; numbers are written with enough digits to round-trip what we measure.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace pw::cli {

std::string jsonEscape(std::string_view s);

// Builds one JSON object as text: obj.add("name", "x").add("atoms", 12).str()
class JsonObject {
public:
    JsonObject& add(std::string_view key, std::string_view value);
    JsonObject& add(std::string_view key, const char* value) { return add(key, std::string_view(value)); }
    JsonObject& add(std::string_view key, const std::string& value) { return add(key, std::string_view(value)); }
    JsonObject& add(std::string_view key, double value, int precision = 6);
    JsonObject& add(std::string_view key, int value);
    JsonObject& add(std::string_view key, long value);
    JsonObject& add(std::string_view key, long long value);
    JsonObject& add(std::string_view key, bool value);
    JsonObject& addNull(std::string_view key);
    // value must already be valid JSON (a nested object or array).
    JsonObject& addRaw(std::string_view key, std::string_view json);
    std::string str() const { return "{" + body_ + "}"; }

private:
    void key(std::string_view k);
    std::string body_;
};

std::string jsonNumber(double value, int precision = 6);
std::string jsonArray(const std::vector<std::string>& jsonValues);
std::string jsonStringArray(const std::vector<std::string>& strings);

} // namespace pw::cli
