// The batch commands across MPI ranks (MpiRun.h); built with -DPOSEWRIGHT_MPI=ON only.
#include "MpiRun.h"

#include "Shard.h"
#include "backend/DeviceSelection.h"
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
    int partsPerRank = 1;
    std::string error; // a usage error
};

// Several ranks on one node with `--device cuda` or `auto` (or none): each takes the GPU of its
// local rank (modulo the GPUs there), so that N ranks per node use N GPUs, not GPU 0 N times.
void placeOnLocalGpu(std::vector<std::string>& args) {
    const char* localRank = std::getenv("OMPI_COMM_WORLD_LOCAL_RANK");
    const char* localSize = std::getenv("OMPI_COMM_WORLD_LOCAL_SIZE");
    if (!localRank || !localSize || std::atoi(localSize) < 2)
        return;
    auto device = std::find(args.begin(), args.end(), std::string("--device"));
    if (device != args.end() && (device + 1 == args.end() ||
                                 (device[1] != "auto" && device[1] != "cuda")))
        return;
    const size_t gpus = cudaDevices().size();
    if (gpus == 0)
        return;
    const std::string mine = "cuda:" + std::to_string(size_t(std::atoi(localRank)) % gpus);
    if (device == args.end())
        args.insert(args.end(), {"--device", mine});
    else
        device[1] = mine;
}

RankPlan plan(const std::string& command, const std::vector<std::string>& args) {
    RankPlan p;
    for (size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--resume") {
            p.resume = true;
        } else if (args[i] == "--out" && i + 1 < args.size()) {
            p.out = args[++i];
        } else if (args[i] == "--parts-per-rank" && i + 1 < args.size()) {
            p.partsPerRank = std::atoi(args[++i].c_str());
            if (p.partsPerRank < 1 || p.partsPerRank > 100000)
                p.error = "--parts-per-rank expects a whole number from 1 to 100000, got '" +
                          args[i] + "'";
        } else if (args[i] == "--shard") {
            p.error = "--shard is set by mpirun's ranks (rank R runs shard R+1/N); leave it out";
        } else {
            if (args[i] == "--shard-block" && i + 1 < args.size())
                p.block = std::atol(args[i + 1].c_str()); // checked by the command itself
            p.args.push_back(args[i]);
        }
    }
    // dock's JSON summary is one file per run: the ranks would overwrite each other's.
    if (command == "dock" && std::find(args.begin(), args.end(), "--json") != args.end())
        p.error = "under mpirun, dock's --json summary is not merged across ranks: leave it out "
                  "(the ranked SDF carries every pose's scores)";
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
    const RankPlan p = plan(command.name, args);
    if (!p.error.empty()) {
        if (rank == 0)
            std::cerr << "posewright-cli " << command.name << ": " << p.error << "\n";
        return 2;
    }
    // size x partsPerRank shards; rank R runs shards R+1, R+1+size, ..., each its own part.
    const int shards = size * p.partsPerRank;
    const std::string dir = p.out + ".mpi-parts";
    const std::string ext = std::string(command.name) == "lingo" ? ".tsv" : ".sdf";
    const auto partPath = [&](int k) {
        return dir + "/part-" + std::to_string(k) + "-of-" + std::to_string(shards) + ext;
    };
    const auto shardOf = [&](int k) { return Shard{k, shards, std::max(1L, p.block)}; };
    const auto rankOf = [&](int k) { return (k - 1) % size; };

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
                for (int k = 1; k <= shards; ++k)
                    std::cerr << "resume: shard " << shardOf(k).label() << " (rank " << rankOf(k)
                              << ") "
                              << (fs::exists(partPath(k)) ? "finished before, kept"
                                                          : "not finished, runs again: it "
                                                            "holds " + heldRecords(shardOf(k)))
                              << "\n";
        }
    }
    if (const int rc = broadcast(setup))
        return rc;

    int rc = 0;
    std::string lastPart; // the last part this rank made (the test's dying rank loses it)
    for (int k = rank + 1; k <= shards && rc == 0; k += size) {
        if (p.resume && fs::exists(partPath(k)))
            continue; // finished before
        std::vector<std::string> a = p.args;
        a.insert(a.end(), {"--out", partPath(k), "--shard",
                           std::to_string(k) + "/" + std::to_string(shards)});
        placeOnLocalGpu(a);
        rc = guarded(command, a);
        lastPart = partPath(k);
    }
    // Fault injection for the tests: this rank dies once its work is over and its last part lost
    // (as a rank killed before that commit), after rank 0 has reported it.
    const char* kill = std::getenv("POSEWRIGHT_MPI_TEST_KILL_RANK");
    const bool dies = kill && std::atoi(kill) == rank && !lastPart.empty();
    if (dies)
        fs::remove(lastPart);

    std::vector<int> codes(size_t(size), 0);
    MPI_Gather(&rc, 1, MPI_INT, codes.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
    int result = 0;
    if (rank == 0) {
        for (int k = 1; k <= shards; ++k) {
            if (fs::exists(partPath(k)))
                continue;
            const int code = codes[size_t(rankOf(k))];
            std::cerr << "error: rank " << rankOf(k) << " (shard " << shardOf(k).label()
                      << ") did not finish" << (code ? " (exit " + std::to_string(code) + ")" : "")
                      << "; it held " << heldRecords(shardOf(k)) << "\n";
            result = std::max({result, code, 1});
        }
        if (result) {
            std::cerr << "error: " << p.out << " not written; the finished parts are kept in "
                      << dir << ": run the same command with --resume to complete it\n";
        } else {
            std::vector<std::string> merge{p.out};
            for (int k = 1; k <= shards; ++k)
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
