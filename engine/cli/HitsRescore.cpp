// `posewright-cli hits rescore STORE.db --receptor R --box B`: the exact Vina/Vinardo energies
// (Backend::scoreExact: the CPU's pair sums, the GPU pair kernel on a CUDA device) of the store's
// poses, selected with --where, written into the columns rescore_affinity, rescore_inter and
// rescore_intra in one transaction: an error, Ctrl-C or a kill leaves the store as it was.
// With --scoring ad4 --maps FLD the numbers are AutoDock 4's (HitsRescoreAd4.cpp; the CPU unless
// --device names auto or a GPU).
#include "Ad4Device.h"
#include "BenchClock.h"
#include "CommandLine.h"
#include "Commands.h"
#include "DeviceOption.h"
#include "HitsRescoreAd4.h"
#include "Json.h"
#include "PoseRescorer.h"
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

// A re-run with an edited receptor or box file counts as other inputs even under the same name.
std::string fileFingerprint(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    Fnv1a h;
    char buf[65536];
    while (in.read(buf, sizeof buf) || in.gcount() > 0)
        h.add(buf, static_cast<size_t>(in.gcount()));
    return h.hex();
}

namespace {

using namespace pw::hits;

const std::vector<std::string> kColumns = {"rescore_affinity", "rescore_inter", "rescore_intra"};
// pw_meta keys: what the values were computed from (compared on a re-run), and for people.
constexpr const char* kInputsKey = "rescore_inputs";
constexpr const char* kReceptorKey = "rescore_receptor";
constexpr const char* kDeviceKey = "rescore_device";
constexpr int kMaxWarnings = 20; // each refused pose is named up to this many, then only counted

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

// Vina or Vinardo: the backend's exact pair sums (the CPU's, or the GPU kernel's).
class VinaRescorer : public PoseRescorer {
public:
    VinaRescorer(const CommandLine& cl, const DeviceRequest& request, int threadOption)
        : inputs_(loadTarget(cl)), inputsText_(describeInputs(cl, inputs_)) {
        std::string note;
        backend_ = createBackend(request, threadOption, note);
        std::cerr << "hits rescore: " << note << "\n";
        target_ = std::make_unique<DockingTarget>(inputs_.receptor, inputs_.box, inputs_.scoring,
                                                  threadOption);
    }

    std::string scoringName() const override {
        return std::string(scoringKindName(inputs_.scoring.kind()));
    }
    std::string inputs() const override { return inputsText_; }
    std::string device() const override { return backend_->description(); }
    std::string method() const override { return "exact pair sums"; }
    const std::string& boxSource() const { return inputs_.boxSource; }

    void score(std::vector<std::optional<Molecule>>& prepared,
               std::vector<std::optional<RescoreValues>>& values,
               std::vector<std::string>&) override {
        std::vector<Molecule> ligands;
        for (auto& m : prepared)
            if (m)
                ligands.push_back(std::move(*m)); // moved-from, still engaged: values follow it
        backend_->scoreExact(*target_, ligands, scores_);
        size_t k = 0;
        for (size_t i = 0; i < prepared.size(); ++i)
            if (prepared[i]) {
                const VinaScore& s = scores_[k++];
                values[i] = RescoreValues{s.affinity, s.inter, s.intra};
            }
    }

private:
    TargetInputs inputs_;
    std::string inputsText_;
    std::unique_ptr<Backend> backend_;
    std::unique_ptr<DockingTarget> target_;
    std::vector<VinaScore> scores_;
};

// The usage errors of --scoring ad4 (exit 2), before anything is read; its own options.
Ad4RescoreOptions ad4Options(const CommandLine& cl, const DeviceRequest& request) {
    if (cl.value("box") || cl.value("autobox-ligand"))
        throw UsageError(std::string("--scoring ad4 takes its box from the grid maps (--maps FLD), "
                                     "not ") +
                         (cl.value("box") ? "--box" : "--autobox-ligand"));
    if (!cl.value("maps"))
        throw UsageError("--scoring ad4 needs --maps FLD (an autogrid .maps.fld: its box and "
                         "ligand types; make them with `posewright-cli maps --gpf GPF --receptor R "
                         "--out FLD`)");
    if (cl.value("ph"))
        throw UsageError("--ph is not for --scoring ad4: the receptor is read as given (a PDBQT "
                         "with AD4 types and charges, the one the maps were made from)");
    if (request.allDevices || request.indices.size() > 1)
        throw UsageError("--scoring ad4 rescoring runs on one GPU: give --device cuda:N (or "
                         "auto, cpu)");
    Ad4RescoreOptions o;
    const std::string unbound = cl.value("unbound", "zero");
    if (unbound != "zero" && unbound != "bound")
        throw UsageError("--unbound expects zero or bound, got '" + unbound + "'");
    if (unbound == "bound")
        o.unbound = ad4::UnboundModel::SameAsBound;
    const std::string outside = cl.value("outside", "penalty");
    if (outside != "penalty" && outside != "exact")
        throw UsageError("--outside expects penalty or exact, got '" + outside + "'");
    if (outside == "exact")
        o.outside = ad4::OutsideBox::ExactSum;
    return o;
}

} // namespace

int runHitsRescore(const std::vector<std::string>& args) {
    auto spec = targetOptionSpec();
    spec.insert({{"where", OptionKind::Value},
                 {"device", OptionKind::Value},
                 {"threads", OptionKind::Value},
                 {"batch", OptionKind::Value},
                 {"maps", OptionKind::Value},
                 {"unbound", OptionKind::Value},
                 {"outside", OptionKind::Value},
                 {"json", OptionKind::Flag}});
    CommandLine cl(args, spec);
    if (cl.positional().empty())
        throw UsageError("missing the store file (STORE.db)");
    if (cl.positional().size() > 1)
        throw UsageError("unexpected argument '" + cl.positional()[1] + "'");
    if (!cl.value("receptor"))
        throw UsageError("missing --receptor R.pdbqt (the receptor to rescore the poses against)");
    const bool ad4 = cl.value("scoring") == std::optional<std::string>("ad4");
    const int threadOption = cl.intValue("threads", 0, 0, 1024);
    const int threads = threadOption > 0
                            ? threadOption
                            : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
    const long batchSize = cl.intValue("batch", 4096, 1, 1000000);
    const bool json = cl.flag("json");
    const DeviceRequest request = deviceRequestOption(cl); // a bad --device is usage (exit 2)
    Ad4RescoreOptions ad4Choices;
    if (ad4) {
        ad4Choices = ad4Options(cl, request);
    } else {
        for (const char* option : {"maps", "unbound", "outside"})
            if (cl.value(option))
                throw UsageError(std::string("--") + option + " is for --scoring ad4");
        if (!cl.value("box") && !cl.value("autobox-ligand"))
            throw UsageError("missing --box CONFIG (or --autobox-ligand FILE): the exact energies "
                             "include Vina's out-of-box penalty, so the box must be given");
    }

    // Everything is checked before the store is written: the store, the expression, the target.
    const double t0 = benchNow();
    HitStore store(cl.positional()[0], HitStore::Mode::ReadWrite);
    Selection selection;
    selection.where = cl.value("where", "");
    if (!selection.where.empty())
        withFilterErrors([&] { return compileWhere(selection.where, store); });
    std::unique_ptr<PoseRescorer> rescorer;
    std::string receptorNote = cl.required("receptor");
    if (ad4) {
        // The CPU unless a device is named (the default before the GPU path existed, kept):
        // --device auto|cuda[:N] takes the GPU pair scorer, or the CPU with the reason.
        const std::string cpu =
            "CPU, " + std::to_string(threads) + (threads == 1 ? " thread" : " threads");
        std::string note = "device: " + cpu;
        const int device = cl.value("device") ? chooseAd4Device(request, cpu, note) : -1;
        std::cerr << "hits rescore: " << note << "\n";
        rescorer = makeAd4Rescorer(cl.required("maps"), cl.required("receptor"), threads,
                                   ad4Choices, device, note.substr(std::string("device: ").size()));
        receptorNote += " (maps " + cl.required("maps") + ")";
    } else {
        auto vina = std::make_unique<VinaRescorer>(cl, request, threadOption);
        receptorNote += " (" + vina->boxSource() + ")";
        rescorer = std::move(vina);
    }

    long rescored = 0, refused = 0;
    long long cleared = 0, selected = 0;
    const double t1 = benchNow(); // the rescore itself: read, prepare, score, write, commit
    double prepareSeconds = 0, scoreSeconds = 0; // RDKit preparation; the scoring function
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
        ComputedScoreWriter writer(store, kInputsKey, kColumns, rescorer->inputs());
        cleared = writer.cleared();
        if (cleared > 0)
            std::cerr << "hits rescore: the store's rescore values came from other inputs ("
                      << *writer.previousInputs() << "); cleared them in " << cleared << " poses\n";
        setMetaValue(store, kReceptorKey, receptorNote);
        setMetaValue(store, kDeviceKey, rescorer->device());
        Statement fetch = store.prepare("SELECT " + store.blockColumns() + ", poses.name FROM " +
                                        store.blocksFrom() + " WHERE poses.id = ?");
        for (size_t first = 0; first < ids.size(); first += batchSize) {
            Batch b;
            const size_t last = std::min(ids.size(), first + batchSize);
            b.ids.assign(ids.begin() + first, ids.begin() + last);
            for (long long id : b.ids) {
                fetch.bind(1, id);
                SdfRecordText record;
                std::string name;
                if (fetch.step()) {
                    // The pose as imported, its SD tags included: `score` reads them too (AD4
                    // takes a TORSDOF tag for its torsional free energy).
                    record.text = fetch.text(0) + fetch.text(1) + "$$$$\n";
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
            std::vector<std::optional<RescoreValues>> values(b.ids.size());
            t = benchNow();
            rescorer->score(b.prepared, values, b.warnings);
            scoreSeconds += benchNow() - t;
            for (size_t i = 0; i < b.ids.size(); ++i) {
                if (!values[i]) {
                    if (++refused <= kMaxWarnings)
                        std::cerr << "warning: " << store.path() << ": pose " << b.ids[i] << " '"
                                  << b.names[i] << "' left empty: " << b.warnings[i] << "\n";
                    writer.write(b.ids[i], {std::nullopt, std::nullopt, std::nullopt});
                    continue;
                }
                const RescoreValues& v = *values[i];
                writer.write(b.ids[i], {v.affinity, v.inter, v.intra});
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
        std::cerr << "warning: " << refused - kMaxWarnings << " more poses could not be scored\n";
    const double t2 = benchNow();
    if (json) {
        JsonObject o;
        o.add("store", store.path()).add("selected", selected).add("rescored", rescored);
        o.add("refused", refused).add("cleared", cleared);
        o.add("scoring", rescorer->scoringName());
        o.add("device", rescorer->device()).add("threads", threads);
        o.add("seconds", t2 - t0, 3).add("rescore_seconds", t2 - t1, 3);
        o.add("prepare_seconds", prepareSeconds, 3).add("score_seconds", scoreSeconds, 3);
        o.add("poses_per_second", t2 > t1 ? selected / (t2 - t1) : 0.0, 6);
        std::cout << o.str() << "\n";
    } else {
        std::cout << "rescored " << rescored << " of " << selected << " poses in " << store.path()
                  << " (" << rescorer->scoringName() << ", " << rescorer->method() << "; "
                  << refused << " could not be prepared or scored, left empty)\n";
    }
    return 0;
}

} // namespace pw::cli
