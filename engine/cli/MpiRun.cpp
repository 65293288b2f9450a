// The batch commands across MPI ranks (MpiRun.h); built with -DPOSEWRIGHT_MPI=ON only.
#include "MpiRun.h"

#include "Shard.h"
#include "chem/AtomicFile.h"

#include <mpi.h>

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>

namespace pw::cli {
namespace {

namespace fs = std::filesystem;

bool launchedByMpirun() {
    return std::getenv("OMPI_COMM_WORLD_SIZE") || std::getenv("PMIX_RANK") ||
           std::getenv("PMI_SIZE");
}

// "input records 0-255, 768-1023, 1536-1791, ... (block b of 256 records for every b with
// b % 3 == 0)".
std::string heldRecords(const Shard& s) {
    std::ostringstream o;
    o << "input records ";
    for (int i = 0; i < 3; ++i) {
        const long first = (long(s.k - 1) + long(i) * s.n) * s.block;
        o << (i ? ", " : "") << first;
        if (s.block > 1)
            o << "-" << first + s.block - 1;
    }
    o << ", ... (block b of " << s.block << " records for every b with b % " << s.n
      << " == " << s.k - 1 << ", numbered from 0 over the readable records)";
    return o.str();
}

struct RankPlan {
    std::vector<std::string> args; // the command's own, without --out and --resume
    std::string out;
    bool resume = false;
    long block = kDefaultShardBlock;
    std::string error; // a usage error
};

RankPlan plan(const std::vector<std::string>& args) {
    RankPlan p;
    for (size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--resume") {
            p.resume = true;
        } else if (args[i] == "--out" && i + 1 < args.size()) {
            p.out = args[++i];
        } else if (args[i] == "--shard") {
            p.error = "--shard is set by mpirun's ranks (rank R runs shard R+1/N); leave it out";
        } else {
            if (args[i] == "--shard-block" && i + 1 < args.size())
                p.block = std::atol(args[i + 1].c_str()); // checked by the command itself
            p.args.push_back(args[i]);
        }
    }
    if (p.out.empty() && p.error.empty())
        p.error = "under mpirun, --out FILE is required: the ranks' outputs are merged into it";
    return p;
}

int broadcast(int value) {
    MPI_Bcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return value;
}

// The ranks of a batch command; returns the exit code of the whole run (the same on every rank).
int runRanks(const Command& command, const std::vector<std::string>& args, int rank, int size,
             int (*guarded)(const Command&, const std::vector<std::string>&)) {
    const RankPlan p = plan(args);
    if (!p.error.empty()) {
        if (rank == 0)
            std::cerr << "posewright-cli " << command.name << ": " << p.error << "\n";
        return 2;
    }
    const std::string dir = p.out + ".mpi-parts";
    const std::string ext = std::string(command.name) == "lingo" ? ".tsv" : ".sdf";
    const auto partPath = [&](int k) {
        return dir + "/part-" + std::to_string(k) + "-of-" + std::to_string(size) + ext;
    };
    const auto shardOf = [&](int k) { return Shard{k, size, std::max(1L, p.block)}; };

    // Rank 0: the parts folder and the command line its parts belong to.
    int setup = 0;
    if (rank == 0) {
        std::string line = command.name;
        for (const std::string& a : p.args)
            line += "\n" + a;
        line += "\nranks " + std::to_string(size) + "\n";
        const std::string record = dir + "/command.txt";
        std::error_code ec;
        fs::create_directories(dir, ec);
        std::ifstream in(record);
        const std::string before((std::istreambuf_iterator<char>(in)), {});
        if (ec) {
            std::cerr << "error: " << dir << ": cannot create the folder of the ranks' parts\n";
            setup = 1;
        } else if (p.resume && !before.empty() && before != line) {
            std::cerr << "error: " << record << ": the parts there come from another command "
                      << "line (or another number of ranks); --resume needs the same one\n";
            setup = 1;
        } else {
            if (before != line) {
                AtomicFile f(record);
                f.stream() << line;
                f.commit();
            }
            if (p.resume)
                for (int k = 1; k <= size; ++k)
                    std::cerr << "resume: shard " << shardOf(k).label() << " (rank " << k - 1
                              << ") "
                              << (fs::exists(partPath(k)) ? "finished before, kept"
                                                          : "not finished, runs again: it "
                                                            "holds " + heldRecords(shardOf(k)))
                              << "\n";
        }
    }
    if (const int rc = broadcast(setup))
        return rc;

    const Shard shard = shardOf(rank + 1);
    const std::string part = partPath(rank + 1);
    int rc = 0;
    const bool kept = p.resume && fs::exists(part);
    if (!kept) {
        std::vector<std::string> a = p.args;
        a.insert(a.end(), {"--out", part, "--shard", std::to_string(shard.k) + "/" +
                                                         std::to_string(shard.n)});
        rc = guarded(command, a);
    }
    // Fault injection for the tests: this rank dies once the run is over, its part not kept
    // (as a rank killed before its commit), after rank 0 has reported it.
    const char* kill = std::getenv("POSEWRIGHT_MPI_TEST_KILL_RANK");
    const bool dies = kill && std::atoi(kill) == rank && !kept;
    if (dies)
        fs::remove(part);

    std::vector<int> codes(size_t(size), 0);
    MPI_Gather(&rc, 1, MPI_INT, codes.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
    int result = 0;
    if (rank == 0) {
        for (int k = 1; k <= size; ++k) {
            if (codes[size_t(k - 1)] == 0 && fs::exists(partPath(k)))
                continue;
            std::cerr << "error: rank " << k - 1 << " (shard " << shardOf(k).label()
                      << ") did not finish"
                      << (codes[size_t(k - 1)] ? " (exit " + std::to_string(codes[size_t(k - 1)]) + ")"
                                               : "")
                      << "; it held " << heldRecords(shardOf(k)) << "\n";
            result = std::max({result, codes[size_t(k - 1)], 1});
        }
        if (result) {
            std::cerr << "error: " << p.out << " not written; the finished ranks' parts are kept "
                      << "in " << dir << ": run the same command with --resume to complete it\n";
        } else {
            std::vector<std::string> merge{p.out};
            for (int k = 1; k <= size; ++k)
                merge.push_back(partPath(k));
            const Command* mergeCommand = nullptr;
            for (const Command& c : commands())
                if (std::string(c.name) == "merge")
                    mergeCommand = &c;
            result = guarded(*mergeCommand, merge);
            if (result == 0) {
                std::error_code ec;
                fs::remove_all(dir, ec);
            }
        }
    }
    result = broadcast(result);
    if (dies) {
        std::cerr.flush();
        std::raise(SIGKILL);
    }
    return result;
}

} // namespace

int runAcrossRanks(const Command& command, const std::vector<std::string>& args,
                   int (*guarded)(const Command&, const std::vector<std::string>&)) {
    if (!launchedByMpirun())
        return guarded(command, args);
    MPI_Init(nullptr, nullptr);
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    static const std::set<std::string> batch{"minimize", "dock", "overlay", "lingo"};
    int rc = 0;
    if (size == 1)
        rc = guarded(command, args);
    else if (batch.count(command.name))
        rc = runRanks(command, args, rank, size, guarded);
    else // one answer, not N copies of it
        rc = broadcast(rank == 0 ? guarded(command, args) : 0);
    MPI_Finalize();
    return rc;
}

} // namespace pw::cli
