// InstanceId: a number no other object of the process ever gets (a copy gets a new one). A cache
// that remembers "the object I uploaded last" by address can be fooled when that object is freed
// and another is built at the same address; by this id it cannot.
#pragma once

#include <atomic>
#include <cstdint>

namespace pw {

class InstanceId {
public:
    InstanceId() : value_(next()) {}
    InstanceId(const InstanceId&) : value_(next()) {}
    InstanceId& operator=(const InstanceId&) {
        value_ = next(); // the object now holds other contents
        return *this;
    }
    std::uint64_t value() const { return value_; }

private:
    static std::uint64_t next() {
        static std::atomic<std::uint64_t> counter{0};
        return ++counter;
    }
    std::uint64_t value_;
};

} // namespace pw
