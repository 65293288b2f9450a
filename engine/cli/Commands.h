// Commands: the posewright-cli subcommands. Each takes its arguments (after the command name),
// writes results to stdout and diagnostics to stderr, and returns the process exit code.
#pragma once

#include <string>
#include <vector>

namespace pw::cli {

struct Command {
    const char* name;
    const char* summary;
    const char* usage; // options, one per line
    int (*run)(const std::vector<std::string>& args);
};

int runInfo(const std::vector<std::string>& args);
int runScore(const std::vector<std::string>& args);
int runScoreAd4(const std::vector<std::string>& args); // score --scoring ad4 (ScoreAd4.cpp)
int runMinimize(const std::vector<std::string>& args);
int runLingo(const std::vector<std::string>& args);
int runBenchLingo(const std::vector<std::string>& args); // bench lingo (BenchLingo.cpp)
int runOverlay(const std::vector<std::string>& args);
int runBenchMinimize(const std::vector<std::string>& args); // bench minimize (BenchMinimize.cpp)
int runMaps(const std::vector<std::string>& args); // AD4 grid maps (MapsCommand.cpp)
int runBenchAd4Maps(const std::vector<std::string>& args); // bench ad4maps (BenchAd4Maps.cpp)
int runBench(const std::vector<std::string>& args); // sub-modes: overlay
int runDock(const std::vector<std::string>& args); // dock (DockCommand.cpp)
int runBenchDock(const std::vector<std::string>& args); // bench dock (BenchDock.cpp)
int runHits(const std::vector<std::string>& args);  // hit store (HitsCommand.cpp)
int runBenchHits(const std::vector<std::string>& args); // bench hits (BenchHits.cpp)
int runBenchHitsSubstructure(const std::vector<std::string>& args); // bench hits substructure
int runBenchPairScore(const std::vector<std::string>& args); // bench pairscore (BenchPairScore.cpp)
int runBenchAd4Exact(const std::vector<std::string>& args); // bench ad4exact (BenchAd4Exact.cpp)
int runMerge(const std::vector<std::string>& args); // merge shard outputs (MergeCommand.cpp)

const std::vector<Command>& commands();

} // namespace pw::cli
