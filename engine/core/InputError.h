// InputError: the one exception type for bad input (files, records, options).
// Its message names the file, the record or line, and what was expected, ready to print.
#pragma once

#include <stdexcept>
#include <string>

namespace pw {

class InputError : public std::runtime_error {
public:
    // file: path as the user gave it; line: 1-based line (0 = whole file);
    // what: what was wrong and what was expected.
    InputError(std::string file, long line, std::string what)
        : std::runtime_error(format(file, line, what)), file_(std::move(file)), line_(line),
          detail_(std::move(what)) {}

    const std::string& file() const { return file_; }
    long line() const { return line_; }
    const std::string& detail() const { return detail_; }

    static std::string format(const std::string& file, long line, const std::string& what) {
        // Built with append() only: GCC 12 warns falsely (-Wrestrict) on chained operator+.
        std::string s;
        s.append(file.empty() ? std::string("<input>") : file);
        if (line > 0)
            s.append(":").append(std::to_string(line));
        s.append(": ").append(what);
        return s;
    }

private:
    std::string file_;
    long line_;
    std::string detail_;
};

} // namespace pw
