// LineReader: fast line-by-line reading of a text stream for the molecule readers, with the
// 1-based line number kept for messages; no allocation per line (lines are views into a buffer).
#pragma once

#include <istream>
#include <string>
#include <string_view>
#include <vector>

namespace pw {

class LineReader {
public:
    LineReader(std::istream& in, std::string path);
    // Reads lines from text held elsewhere (it must outlive the reader; nothing is copied), the
    // first of them numbered firstLine in messages: one SDF record cut from a file, parsed on
    // another thread with the line numbers it has in the file.
    LineReader(std::string_view text, std::string path, long firstLine);

    // Next line without its end-of-line characters ("\n" or "\r\n"); false at end of input.
    // The view stays valid until the next call to next().
    bool next(std::string_view& line);
    // Makes the next call to next() return the current line again (one line of look-back).
    void pushBack();
    // Appends to out, as read (end-of-line characters kept, a final line without one given
    // '\n'), the lines up to and including the next one that starts with marker, or to the end
    // of input; returns how many lines were appended (0 at the end of input). Cuts records out of
    // a file without looking at each line more than once. No pushBack() afterwards.
    long appendLinesThrough(std::string_view marker, std::string& out);

    long lineNumber() const { return lineNumber_; }
    const std::string& path() const { return path_; }
    bool atEnd();

    // Throws InputError naming this file and the current line.
    [[noreturn]] void fail(const std::string& what) const;
    [[noreturn]] void fail(long line, const std::string& what) const;

private:
    bool fill();

    std::istream* in_; // null when reading from text
    std::string path_;
    std::vector<char> buffer_;
    const char* data_; // buffer_.data(), or the text
    size_t begin_ = 0; // start of unread data in buffer_
    size_t end_ = 0;   // end of valid data in buffer_
    bool eof_ = false;
    bool pushedBack_ = false;
    std::string_view current_;
    long lineNumber_ = 0;
};

} // namespace pw
