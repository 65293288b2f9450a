#include "LineReader.h"

#include "core/InputError.h"

#include <cstring>

namespace pw {
namespace {
constexpr size_t kChunk = 1 << 20; // 1 MiB reads: few system calls, bounded memory
} // namespace

LineReader::LineReader(std::istream& in, std::string path)
    : in_(&in), path_(std::move(path)), buffer_(kChunk), data_(buffer_.data()) {}

LineReader::LineReader(std::string_view text, std::string path, long firstLine)
    : in_(nullptr), path_(std::move(path)), data_(text.empty() ? "" : text.data()),
      end_(text.size()), eof_(true), lineNumber_(firstLine - 1) {}

bool LineReader::fill() {
    if (eof_ || !in_)
        return false;
    // Move the unread tail to the front, growing the buffer only for lines longer than it.
    if (begin_ > 0) {
        std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
        end_ -= begin_;
        begin_ = 0;
    }
    if (end_ == buffer_.size()) {
        buffer_.resize(buffer_.size() * 2);
        data_ = buffer_.data();
    }
    in_->read(buffer_.data() + end_, static_cast<std::streamsize>(buffer_.size() - end_));
    std::streamsize got = in_->gcount();
    if (got <= 0) {
        eof_ = true;
        return false;
    }
    end_ += static_cast<size_t>(got);
    return true;
}

bool LineReader::next(std::string_view& line) {
    if (pushedBack_) {
        pushedBack_ = false;
        ++lineNumber_;
        line = current_;
        return true;
    }
    size_t searchFrom = begin_;
    for (;;) {
        const char* start = data_ + searchFrom;
        const void* nl = std::memchr(start, '\n', end_ - searchFrom);
        if (nl) {
            size_t pos = static_cast<size_t>(static_cast<const char*>(nl) - data_);
            size_t len = pos - begin_;
            if (len > 0 && data_[begin_ + len - 1] == '\r')
                --len;
            current_ = std::string_view(data_ + begin_, len);
            begin_ = pos + 1;
            break;
        }
        size_t scanned = end_ - begin_;
        if (!fill()) {
            if (begin_ == end_)
                return false; // clean end of input
            size_t len = end_ - begin_;
            if (data_[begin_ + len - 1] == '\r')
                --len;
            current_ = std::string_view(data_ + begin_, len); // last line, no newline
            begin_ = end_;
            break;
        }
        searchFrom = begin_ + scanned; // fill() moved the data to the front
    }
    ++lineNumber_;
    line = current_;
    return true;
}

void LineReader::pushBack() {
    pushedBack_ = true;
    --lineNumber_;
}

long LineReader::appendLinesThrough(std::string_view marker, std::string& out) {
    long lines = 0;
    if (pushedBack_) { // the current line first, as next() would return it
        std::string_view line;
        next(line);
        out.append(line);
        out += '\n';
        if (line.substr(0, marker.size()) == marker)
            return 1;
        lines = 1;
    }
    size_t lineStart = begin_;
    for (;;) {
        const void* nl = std::memchr(data_ + lineStart, '\n', end_ - lineStart);
        if (!nl) {
            // Complete lines go out now; the partial one moves to the front and grows.
            out.append(data_ + begin_, lineStart - begin_);
            begin_ = lineStart;
            if (!fill()) {
                if (begin_ < end_) { // last line, no newline
                    out.append(data_ + begin_, end_ - begin_);
                    out += '\n';
                    begin_ = end_;
                    ++lines, ++lineNumber_;
                }
                return lines;
            }
            lineStart = begin_;
            continue;
        }
        const size_t pos = static_cast<size_t>(static_cast<const char*>(nl) - data_);
        const bool isMarker = pos - lineStart >= marker.size() &&
                              std::memcmp(data_ + lineStart, marker.data(), marker.size()) == 0;
        ++lines, ++lineNumber_;
        lineStart = pos + 1;
        if (isMarker) {
            out.append(data_ + begin_, lineStart - begin_);
            begin_ = lineStart;
            return lines;
        }
    }
}

bool LineReader::atEnd() {
    if (pushedBack_ || begin_ < end_)
        return false;
    return !fill();
}

void LineReader::fail(const std::string& what) const {
    fail(lineNumber_, what);
}

void LineReader::fail(long line, const std::string& what) const {
    throw InputError(path_, line, what);
}

} // namespace pw
