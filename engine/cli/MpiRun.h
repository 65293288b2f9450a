// MpiRun: the batch commands under `mpirun -n N posewright-cli CMD ... --out FILE` (a build with
// -DPOSEWRIGHT_MPI=ON; without it, or outside mpirun, a command runs as one process).
//
// Every rank R runs the command as shard R+1/N (Shard.h: blocks of --shard-block records dealt
// round-robin, so rank 0's rule deals every record exactly once, no record travels) on its own
// device(s) (--device cuda:all per node), and commits its ranked output as a part file in
// FILE.mpi-parts/. When all ranks are done, rank 0 checks the parts and merges them (the
// streaming k-way merge of `posewright-cli merge`) into FILE: the file one process writes, byte for
// byte, and removes the parts. A rank that did not finish is reported with the records it held;
// its part is missing, the others' parts stay, and the same command with `--resume` runs only the
// missing shards (it refuses parts made by another command line) and merges.
// `--parts-per-rank S` (default 1) cuts the input into N x S shards, rank R running shards R+1,
// R+1+N, ... one after the other, each committed as its own part: a dead rank then loses only the
// part it was making (every shard reads the whole input once more, so S stays small).
// Several ranks on one node with --device cuda or auto each take the GPU of their local rank
// (OMPI_COMM_WORLD_LOCAL_RANK modulo the GPUs); cuda:all or cuda:N is left as given.
// Commands other than minimize, dock, overlay and lingo run on rank 0 only.
#pragma once

#include "Commands.h"

#include <string>
#include <vector>

namespace pw::cli {

// guarded: runs a command with its arguments and turns its exceptions into messages and an exit
// code (main's handling). Returns the exit code of this process.
int runAcrossRanks(const Command& command, const std::vector<std::string>& args,
                   int (*guarded)(const Command&, const std::vector<std::string>&));

} // namespace pw::cli
