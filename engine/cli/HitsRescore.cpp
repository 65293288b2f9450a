// `posewright-cli hits rescore STORE.db --receptor R --box B`: the exact Vina/Vinardo energies
// (Backend::scoreExact: the CPU's pair sums, the GPU pair kernel on a CUDA device) of the store's
// poses, selected with --where, written into the columns rescore_affinity, rescore_inter and
// rescore_intra in one transaction: an error, Ctrl-C or a kill leaves the store as it was.
#include "BenchClock.h"
#include "CommandLine.h"
#include "Commands.h"
#include "DeviceOption.h"
#include "Json.h"
#include "TargetSetup.h"
#include "chem/LigandPreparation.h"
#include "chem/OutputStall.h"
#include "chem/RdkitThreads.h"
#include "chem/SdfReader.h"
#include "core/InputError.h"
#include "core/ParallelFor.h"
#include "hits/ComputedScores.h"
#include "hits/HitExport.h"
#include "hits/HitFilter.h"
#include "hits/HitStore.h"
#include "score/DockingTarget.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>
#include <thread>

namespace pw::cli {
namespace {

using namespace pw::hits;

const std::vector<std::string> kColumns = {"rescore_affinity", "rescore_inter", "rescore_intra"};
// pw_meta keys: what the values were computed from (compared on a re-run), and for people.
constexpr const char* kInputsKey = "rescore_inputs";
constexpr const char* kReceptorKey = "rescore_receptor";
constexpr const char* kDeviceKey = "rescore_device";
constexpr int kMaxWarnings = 20; // each refused pose is named up to this many, then only counted

// FNV-1a over the file's bytes: a re-run with an edited receptor or box file counts as other
// inputs even under the same name.
std::string fileFingerprint(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    unsigned long long h = 1469598103934665603ULL;
    char buf[65536];
    while (in.read(buf, sizeof buf) || in.gcount() > 0) {
        for (std::streamsize i = 0; i < in.gcount(); ++i) {
            h ^= static_cast<unsigned char>(buf[i]);
            h *= 1099511628211ULL;
        }
    }
    char out[24];
    std::snprintf(out, sizeof out, "%016llx", h);
    return out;
}

// Everything that changes the numbers: scoring function and weights, the receptor file's content
// and its protonation pH, the box (its out-of-box penalty is part of inter).
std::string describeInputs(const CommandLine& cl, const TargetInputs& t) {
    std::string s = "scoring=" + std::string(scoringKindName(t.scoring.kind())) + " weights=";
    char num[40];
    for (size_t i = 0; i < t.scoring.weights().size(); ++i) {
        std::snprintf(num, sizeof num, "%s%.15g", i ? "," : "", t.scoring.weights()[i]);
        s += num;
    }
    s += " receptor=" + fileFingerprint(cl.required("receptor"));
    std::snprintf(num, sizeof num, " ph=%.15g", receptorPreparationOptions(cl).pH);
    s += num;
    s += " box=";
    for (int i = 0; i < 3; ++i) {
        std::snprintf(num, sizeof num, "%s%.15g", i ? "," : "", t.box.center[i]);
        s += num;
    }
    for (int i = 0; i < 3; ++i) {
        std::snprintf(num, sizeof num, ",%.15g", t.box.size[i]);
        s += num;
    }
    return s;
}

// One batch of poses on their way from the store to their new values.
struct Batch {
    std::vector<long long> ids;
    std::vector<SdfRecordText> records;
    std::vector<std::string> names;                // for warnings
    std::vector<std::optional<Molecule>> prepared; // nullopt: refused (warning says why)
    std::vector<std::string> warnings;
};

// Parses and prepares the batch's poses as `score` prepares a ligand file's records (RDKit:
// hydrogens, charges, types, torsion tree), on `threads` threads.
void prepareBatch(Batch& b, const std::string& storePath, int threads) {
    const size_t n = b.records.size();
    b.prepared.assign(n, std::nullopt);
    b.warnings.assign(n, {});
    prepareRdkitForThreads();
    parallelFor(static_cast<long>(n), threads, [&](long i) {
        try {
            Molecule raw;
            std::string warning;
            if (!parseSdfRecord(b.records[i], storePath, {}, raw, warning)) {
                b.warnings[i] = warning.empty() ? "no molecule in its stored molblock" : warning;
                return;
            }
            b.prepared[i] = prepareLigand(raw);
        } catch (const InputError& e) {
            b.warnings[i] = e.what();
        } catch (const std::exception& e) {
            // Whatever else RDKit throws on a strange molecule: this pose only, never an abort
            // (an exception leaving a worker thread would end the process).
            b.warnings[i] = std::string("cannot be prepared as a ligand: ") + e.what();
        }
    });
}

template <class F> auto withFilterErrors(F&& f) {
    try {
        return f();
    } catch (const FilterError& e) {
        throw UsageError(std::string("bad --where: ") + e.what());
    }
}

} // namespace

int runHitsRescore(const std::vector<std::string>& args) {
    auto spec = targetOptionSpec();
    spec.insert({{"where", OptionKind::Value},
                 {"device", OptionKind::Value},
                 {"threads", OptionKind::Value},
                 {"batch", OptionKind::Value},
                 {"json", OptionKind::Flag}});
    CommandLine cl(args, spec);
    if (cl.positional().empty())
        throw UsageError("missing the store file (STORE.db)");
    if (cl.positional().size() > 1)
        throw UsageError("unexpected argument '" + cl.positional()[1] + "'");
    if (!cl.value("receptor"))
        throw UsageError("missing --receptor R.pdbqt (the receptor to rescore the poses against)");
    if (!cl.value("box") && !cl.value("autobox-ligand"))
        throw UsageError("missing --box CONFIG (or --autobox-ligand FILE): the exact energies "
                         "include Vina's out-of-box penalty, so the box must be given");
    const int threadOption = cl.intValue("threads", 0, 0, 1024);
    const int threads = threadOption > 0
                            ? threadOption
                            : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
    const long batchSize = cl.intValue("batch", 4096, 1, 1000000);
    const bool json = cl.flag("json");
    const DeviceRequest request = deviceRequestOption(cl); // a bad --device is usage (exit 2)

    // Everything is checked before the store is written: the store, the expression, the target.
    const double t0 = benchNow();
    HitStore store(cl.positional()[0], HitStore::Mode::ReadWrite);
    Selection selection;
    selection.where = cl.value("where", "");
    if (!selection.where.empty())
        withFilterErrors([&] { return compileWhere(selection.where, store); });
    const TargetInputs inputs = loadTarget(cl);
    const std::string inputsText = describeInputs(cl, inputs);
    std::string note;
    std::unique_ptr<Backend> backend = createBackend(request, threadOption, note);
    std::cerr << "hits rescore: " << note << "\n";
    DockingTarget target(inputs.receptor, inputs.box, inputs.scoring, threadOption);

    long rescored = 0, refused = 0;
    long long cleared = 0, selected = 0;
    const double t1 = benchNow(); // the rescore itself: read, prepare, score, write, commit
    double prepareSeconds = 0, scoreSeconds = 0; // RDKit preparation; the backend's exact sums
    {
        // One transaction: nothing is visible, or on disk after a kill, until the commit.
        HitStore::Transaction tx(store);
        std::vector<long long> ids;
        withFilterErrors([&] {
            return forEachSelected(store, selection, {"id"},
                                   [&](const Statement& s) { ids.push_back(s.integer(0)); });
        });
        std::sort(ids.begin(), ids.end()); // read and rewrite the rows in table order
        selected = static_cast<long long>(ids.size());
        ComputedScoreWriter writer(store, kInputsKey, kColumns, inputsText);
        cleared = writer.cleared();
        if (cleared > 0)
            std::cerr << "hits rescore: the store's rescore values came from other inputs ("
                      << *writer.previousInputs() << "); cleared them in " << cleared << " poses\n";
        setMetaValue(store, kReceptorKey, cl.required("receptor") + " (" + inputs.boxSource + ")");
        setMetaValue(store, kDeviceKey, backend->description());
        Statement fetch = store.prepare("SELECT " + store.blockColumns() + ", poses.name FROM " +
                                        store.blocksFrom() + " WHERE poses.id = ?");
        std::vector<VinaScore> scores;
        for (size_t first = 0; first < ids.size(); first += batchSize) {
            Batch b;
            const size_t last = std::min(ids.size(), first + batchSize);
            b.ids.assign(ids.begin() + first, ids.begin() + last);
            for (long long id : b.ids) {
                fetch.bind(1, id);
                SdfRecordText record;
                std::string name;
                if (fetch.step()) {
                    record.text = fetch.text(0) + "$$$$\n";
                    name = fetch.text(2);
                }
                record.record = id; // messages name the pose by its id
                fetch.reset();
                b.records.push_back(std::move(record));
                b.names.push_back(std::move(name));
            }
            double t = benchNow();
            prepareBatch(b, store.path(), threads);
            prepareSeconds += benchNow() - t;
            std::vector<Molecule> ligands;
            for (auto& m : b.prepared)
                if (m)
                    ligands.push_back(std::move(*m));
            t = benchNow();
            backend->scoreExact(target, ligands, scores);
            scoreSeconds += benchNow() - t;
            size_t k = 0;
            for (size_t i = 0; i < b.ids.size(); ++i) {
                if (!b.prepared[i]) {
                    if (++refused <= kMaxWarnings)
                        std::cerr << "warning: " << store.path() << ": pose " << b.ids[i] << " '"
                                  << b.names[i] << "' left empty: " << b.warnings[i] << "\n";
                    writer.write(b.ids[i], {std::nullopt, std::nullopt, std::nullopt});
                    continue;
                }
                const VinaScore& s = scores[k++];
                writer.write(b.ids[i], {s.affinity, s.inter, s.intra});
                ++rescored;
            }
            if (ids.size() > static_cast<size_t>(batchSize))
                std::cerr << "hits rescore: " << last << "/" << ids.size() << " poses\n";
            // Test hook: a kill here is a kill in the middle of the rescore's transaction.
            if (last < ids.size())
                stallOutputIfRequested("rescore-batch", store.path());
        }
        tx.commit();
    }
    if (refused > kMaxWarnings)
        std::cerr << "warning: " << refused - kMaxWarnings << " more poses could not be prepared\n";
    const double t2 = benchNow();
    if (json) {
        JsonObject o;
        o.add("store", store.path()).add("selected", selected).add("rescored", rescored);
        o.add("refused", refused).add("cleared", cleared);
        o.add("scoring", std::string(scoringKindName(inputs.scoring.kind())));
        o.add("device", backend->description()).add("threads", threads);
        o.add("seconds", t2 - t0, 3).add("rescore_seconds", t2 - t1, 3);
        o.add("prepare_seconds", prepareSeconds, 3).add("score_seconds", scoreSeconds, 3);
        o.add("poses_per_second", t2 > t1 ? selected / (t2 - t1) : 0.0, 6);
        std::cout << o.str() << "\n";
    } else {
        std::cout << "rescored " << rescored << " of " << selected << " poses in " << store.path()
                  << " (" << scoringKindName(inputs.scoring.kind()) << ", exact pair sums; "
                  << refused << " could not be prepared, left empty)\n";
    }
    return 0;
}

} // namespace pw::cli
