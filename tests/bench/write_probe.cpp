// write_probe: how fast one large file can be filled from memory by several threads, by pwrite
// (what RankedSdfWriter's commit does) and through a shared mapping, and what removing it costs.
// A measurement aid for the device scripts (tests/bench/session18_device.sh), not part of the
// build:  g++ -O2 -std=c++20 -pthread write_probe.cpp -o write_probe
// Usage: write_probe FILE GIB MODE THREADS   (MODE: pwrite | mmap | anon | anon-huge; the last two
// fill anonymous memory instead of FILE, with transparent huge pages asked for in anon-huge)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

namespace {

double now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

} // namespace

int main(int argc, char** argv) {
    if (argc != 5) {
        std::fprintf(stderr, "usage: write_probe FILE GIB pwrite|mmap THREADS\n");
        return 2;
    }
    const std::string path = argv[1];
    const std::size_t total = static_cast<std::size_t>(std::atof(argv[2]) * (1ull << 30));
    const std::string mode = argv[3];
    const unsigned threads = static_cast<unsigned>(std::atoi(argv[4]));
    const std::size_t piece = std::size_t{4} << 20;

    const double t0 = now();
    const bool anon = mode.rfind("anon", 0) == 0;
    const int fd = anon ? -1 : ::open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC, 0644);
    if (!anon && (fd < 0 || ::fallocate(fd, 0, 0, static_cast<off_t>(total)) != 0)) {
        std::perror("open/fallocate");
        return 1;
    }
    char* map = nullptr;
    if (anon) {
        map = static_cast<char*>(::mmap(nullptr, total, PROT_READ | PROT_WRITE,
                                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0));
        if (map == MAP_FAILED) {
            std::perror("mmap");
            return 1;
        }
        if (mode == "anon-huge" && ::madvise(map, total, MADV_HUGEPAGE) != 0)
            std::perror("madvise");
    } else if (mode == "mmap") {
        map = static_cast<char*>(::mmap(nullptr, total, PROT_WRITE, MAP_SHARED, fd, 0));
        if (map == MAP_FAILED) {
            std::perror("mmap");
            return 1;
        }
    }
    const double t1 = now();
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t)
        pool.emplace_back([&, t] {
            std::vector<char> buffer(piece, static_cast<char>('a' + t % 26));
            const std::size_t begin = total / threads * t;
            const std::size_t end = t + 1 == threads ? total : total / threads * (t + 1);
            for (std::size_t at = begin; at < end; at += piece) {
                const std::size_t n = std::min(piece, end - at);
                if (map)
                    std::memcpy(map + at, buffer.data(), n);
                else if (::pwrite(fd, buffer.data(), n, static_cast<off_t>(at)) !=
                         static_cast<ssize_t>(n))
                    std::perror("pwrite"), std::exit(1);
            }
        });
    for (std::thread& t : pool)
        t.join();
    const double t2 = now();
    if (map)
        ::munmap(map, total);
    if (!anon)
        ::close(fd);
    const double t3 = now();
    if (!anon)
        ::unlink(path.c_str());
    const double t4 = now();
    std::printf("%-6s %2u threads %5.1f GiB: set-up %.2f s, fill %.2f s (%.2f GB/s), unmap+close "
                "%.2f s, unlink %.2f s\n",
                mode.c_str(), threads, total / double(1ull << 30), t1 - t0, t2 - t1,
                total / (t2 - t1) / 1e9, t3 - t2, t4 - t3);
    return 0;
}
