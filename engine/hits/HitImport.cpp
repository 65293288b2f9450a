// HitImport: a pipeline of three stages: one thread cuts the file into records, N threads parse
// and describe (RDKit, interactions) whole batches of them, and the caller's thread inserts the
// batches in file order with prepared statements.
#include "HitImport.h"

#include "chem/MoleculeReader.h"
#include "chem/RdkitThreads.h"
#include "chem/SdfReader.h"
#include "chem/SdfWriter.h"
#include "core/InputError.h"

#include <Eigen/Geometry>

#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <cstring>
#include <ctime>
#include <deque>
#include <exception>
#include <fstream>
#include <mutex>
#include <string_view>
#include <thread>
#include <unordered_map>

namespace pw::hits {
namespace {

// The store keeps the connection table and the tag block apart: SdfWriter's record cut after
// "M  END".
void splitRecord(const Molecule& m, std::string& molblock, std::string& tags) {
    Molecule bare;
    bare.name = m.name;
    bare.atoms = m.atoms;
    bare.bonds = m.bonds;
    std::string text;
    appendSdfRecord(text, bare);
    const size_t end = text.rfind("M  END\n");
    molblock = text.substr(0, end == std::string::npos ? text.size() : end + 7);
    Molecule tagsOnly;
    tagsOnly.properties = m.properties;
    std::string t;
    appendSdfRecord(t, tagsOnly);
    const size_t start = t.find("M  END\n");
    tags = t.substr(start + 7, t.size() - (start + 7) - 5); // without "$$$$\n"
}

// The same cut straight from the record's text, as it was read, when that text is a plain V2000
// record (LF line ends, "M  END", tags each closed by a blank line): re-writing the coordinates
// (printf per number) was the import's costliest step once RDKit was cached. Anything else takes
// splitRecord. Tags an export added are left out and counted.
// molblockEnd: the length of the connection table's text (through "M  END\n").
bool splitRecordText(std::string_view text, size_t& molblockEnd, std::string& tags,
                     size_t& droppedExportTags) {
    if (text.find('\r') != std::string_view::npos)
        return false;
    size_t counts = 0; // the counts line is the fourth
    for (int line = 0; line < 3; ++line) {
        const size_t eol = text.find('\n', counts);
        if (eol == std::string_view::npos)
            return false;
        counts = eol + 1;
    }
    const size_t countsEnd = text.find('\n', counts);
    if (countsEnd == std::string_view::npos ||
        text.substr(counts, countsEnd - counts).find("V2000") == std::string_view::npos)
        return false;
    const size_t end = text.find("\nM  END\n");
    const size_t close = text.rfind("$$$$");
    if (end == std::string_view::npos || close == std::string_view::npos || close < end)
        return false;
    const std::string_view tagText = text.substr(end + 8, close - (end + 8));
    if (!tagText.empty() && (tagText.front() != '>' || tagText.size() < 2 ||
                             tagText.substr(tagText.size() - 2) != "\n\n"))
        return false;
    molblockEnd = end + 8;
    // Every tag but those an export added (pw_hit_, recomputed): entries are "> <name>..." lines
    // up to a blank line.
    tags.clear();
    for (size_t at = 0; at < tagText.size();) {
        size_t next = tagText.find("\n\n>", at);
        next = next == std::string_view::npos ? tagText.size() : next + 2;
        const std::string_view entry = tagText.substr(at, next - at);
        const size_t open = entry.find('<');
        const size_t close = open == std::string_view::npos ? open : entry.find('>', open);
        const bool exported = open != std::string_view::npos && open < entry.find('\n') &&
                              close != std::string_view::npos &&
                              recomputedOnImport(entry.substr(open + 1, close - open - 1));
        if (exported)
            ++droppedExportTags;
        else
            tags.append(entry);
        at = next;
    }
    return true;
}

SqlValue typedValue(const ColumnInfo& c, double v) {
    if (c.type == ColumnType::Integer && std::floor(v) == v && std::abs(v) < 9e15)
        return static_cast<long long>(v);
    return v;
}

// columnForTag once per tag name and thread: which column a numeric tag goes to depends on its
// name alone, and working it out (lower-casing, the fixed-name check, two strings) per tag per
// pose showed in the import's profile.
const ColumnInfo& columnOfNumericTag(const std::string& tag) {
    thread_local std::unordered_map<std::string, ColumnInfo> memo;
    auto it = memo.find(tag);
    if (it == memo.end()) {
        if (memo.size() >= 4096) // bounded: files with ever new tag names
            memo.clear();
        it = memo.emplace(tag, *columnForTag(tag, "0")).first;
    }
    return it->second;
}

} // namespace

std::shared_ptr<const MoleculeDescriptors> DescriptorCache::find(const std::string& key) const {
    std::lock_guard lock(mutex_);
    auto it = map_.find(key);
    return it == map_.end() ? nullptr : it->second;
}

void DescriptorCache::add(const std::string& key, const MoleculeDescriptors& d) {
    auto shared = std::make_shared<const MoleculeDescriptors>(d);
    std::lock_guard lock(mutex_);
    if (map_.size() >= 100000) // bounded memory over a million distinct molecules
        map_.clear();
    map_.emplace(key, std::move(shared));
}

namespace {

// Sign of a signed volume or dihedral, with a third state for geometry too flat to decide (RDKit
// assigns no stereo there either, or may decide either way: such poses get their own key).
char parity(double v) {
    return v > 1e-3 ? '+' : v < -1e-3 ? '-' : '0';
}

// Atom neighbours as one flat list (CSR), per thread: the key runs once per pose, and a vector
// per atom (Molecule::neighbours) was most of its cost. Neighbours in bond order, as there.
struct Adjacency {
    std::vector<int> start, list;
    void build(const Molecule& m) {
        const size_t n = m.atoms.size();
        start.assign(n + 1, 0);
        for (const Bond& b : m.bonds) {
            ++start[b.a + 1];
            ++start[b.b + 1];
        }
        for (size_t i = 0; i < n; ++i)
            start[i + 1] += start[i];
        list.resize(start[n]);
        fill.assign(start.begin(), start.end() - 1);
        for (const Bond& b : m.bonds) {
            list[fill[b.a]++] = b.b;
            list[fill[b.b]++] = b.a;
        }
    }
    int degree(int i) const { return start[i + 1] - start[i]; }
    const int* of(int i) const { return list.data() + start[i]; }

private:
    std::vector<int> fill;
};

// The handedness of every atom with three or four neighbours and the cis/trans sense of every
// double bond, read from the coordinates in the record's own atom order. Two poses of one graph
// with the same signature get the same stereo from RDKit's assignStereochemistryFrom3D (it reads
// the geometry only through these signs), hence the same canonical isomeric SMILES.
void appendStereoSignature(std::string& k, const Molecule& m) {
    double lo = 0, hi = 0; // a flat drawing (z = 0) carries no stereo: hasDepth in chem
    for (size_t i = 0; i < m.atoms.size(); ++i) {
        const double z = m.atoms[i].position.z();
        lo = i ? std::min(lo, z) : z;
        hi = i ? std::max(hi, z) : z;
    }
    if (hi - lo <= 0.01) {
        k += "|flat";
        return;
    }
    thread_local Adjacency nb;
    thread_local std::vector<char> planar;
    nb.build(m);
    // A carbon or nitrogen with a double, triple or aromatic bond is planar, never a
    // stereocentre: its sign would only split the poses of one molecule (flexible docking bends
    // such centres a little either way) and cost RDKit runs.
    planar.assign(m.atoms.size(), 0);
    for (const Bond& b : m.bonds)
        if (b.order != BondOrder::Single)
            planar[b.a] = planar[b.b] = 1;
    k += '|';
    for (size_t i = 0; i < m.atoms.size(); ++i) {
        const int degree = nb.degree(static_cast<int>(i));
        if (degree < 3 || degree > 4)
            continue;
        const int e = m.atoms[i].element;
        if (planar[i] && (e == 6 || e == 7))
            continue;
        const int* n = nb.of(static_cast<int>(i));
        // Two hydrogens on one atom (CH2, CH3, NH2+): never a stereocentre (the model keeps no
        // isotopes), so its sign would only split poses.
        int hydrogens = 0;
        for (int j = 0; j < degree; ++j)
            hydrogens += m.atoms[n[j]].element == 1;
        if (hydrogens >= 2)
            continue;
        const Vec3 c = m.atoms[i].position;
        const Vec3 a = m.atoms[n[0]].position - c, b = m.atoms[n[1]].position - c,
                   d = m.atoms[n[2]].position - c;
        k += parity(a.dot(b.cross(d)));
    }
    k += '|';
    for (const Bond& bond : m.bonds) {
        if (bond.order != BondOrder::Double)
            continue;
        int x = -1, y = -1; // one neighbour on each side, the first in bond order
        for (int j = 0; j < nb.degree(bond.a); ++j)
            if (nb.of(bond.a)[j] != bond.b) {
                x = nb.of(bond.a)[j];
                break;
            }
        for (int j = 0; j < nb.degree(bond.b); ++j)
            if (nb.of(bond.b)[j] != bond.a) {
                y = nb.of(bond.b)[j];
                break;
            }
        if (x < 0 || y < 0)
            continue;
        const Vec3 pa = m.atoms[bond.a].position, pb = m.atoms[bond.b].position;
        const Vec3 axis = pb - pa;
        const Vec3 u = (m.atoms[x].position - pa).cross(axis);
        const Vec3 w = (m.atoms[y].position - pb).cross(axis);
        k += parity(u.dot(w)); // same side (cis) or opposite (trans)
    }
}

void appendInt(std::string& k, int v) {
    char bytes[sizeof v];
    std::memcpy(bytes, &v, sizeof v);
    k.append(bytes, sizeof v);
}

} // namespace

// Elements and charges (no byte is '|'), then the bond count and each bond as binary atom
// indices and order (fixed width, so no two graphs write the same bytes), then the stereo
// signature.
std::string DescriptorCache::key(const Molecule& m) {
    std::string k;
    k.reserve(m.atoms.size() * 3 + m.bonds.size() * 9 + 16);
    for (const Atom& a : m.atoms) {
        k += static_cast<char>(a.element);
        k += static_cast<char>(a.formalCharge + 64);
    }
    k += '|';
    appendInt(k, static_cast<int>(m.bonds.size()));
    for (const Bond& b : m.bonds) {
        appendInt(k, b.a);
        appendInt(k, b.b);
        k += static_cast<char>('0' + static_cast<int>(b.order));
    }
    appendStereoSignature(k, m);
    return k;
}

namespace {

// makePoseRecord on a molecule the caller reuses (its vectors keep their capacity from record to
// record; its tags and source file are taken). When ownedRecordText (the string recordText
// views) is given, it is moved into the molblock.
PoseRecord buildPoseRecord(Molecule& m, const ImportOptions& options, std::string* warning,
                           DescriptorCache* cache, std::string_view recordText,
                           std::string* ownedRecordText) {
    // Tags that export added for the fixed columns are recomputed, not kept.
    const size_t tagCount = m.properties.size();
    std::erase_if(m.properties, [](const auto& p) { return recomputedOnImport(p.first); });
    PoseRecord r;
    r.name = m.name;
    r.sourceFile = std::move(m.sourceFile); // only its atoms, bonds and tags are read below
    r.sourceRecord = m.sourceRecord;
    size_t droppedExportTags = 0, molblockEnd = 0;
    if (recordText.empty() ||
        !splitRecordText(recordText, molblockEnd, r.sdTags, droppedExportTags) ||
        droppedExportTags != tagCount - m.properties.size()) { // the text and the reader disagree
        splitRecord(m, r.molblock, r.sdTags);
    } else if (ownedRecordText) { // the record's own string becomes the molblock: no copy
        r.molblock = std::move(*ownedRecordText);
        r.molblock.resize(molblockEnd);
    } else {
        r.molblock.assign(recordText.substr(0, molblockEnd));
    }
    std::optional<double> affinity;
    r.scores.reserve(m.properties.size());
    for (const auto& [key, value] : m.properties) {
        double v = 0;
        if (!parseNumber(value, v)) // text tags stay in the tag block only
            continue;
        const ColumnInfo& column = columnOfNumericTag(key);
        r.scores.emplace_back(column, typedValue(column, v));
        if (column.name == "dock_score" || (column.name == "min_affinity" && !affinity))
            affinity = v;
    }
    r.heavyAtoms = m.heavyAtomCount();
    try {
        std::shared_ptr<const MoleculeDescriptors> known;
        MoleculeDescriptors computed;
        const std::string key = cache ? DescriptorCache::key(m) : std::string();
        if (cache)
            known = cache->find(key); // the key holds the stereo signature: the same SMILES too
        if (!known) {
            computed = computeDescriptors(m);
            if (cache)
                cache->add(key, computed);
            // The first pose of a molecule carries its screening fingerprint (the store keeps one
            // per SMILES); made from the SMILES as the filter will re-read it.
            r.screen = screenFingerprint(computed.smiles, &r.screenMolecule, &r.screenCompact);
        }
        const MoleculeDescriptors& d = known ? *known : computed;
        r.smiles = d.smiles;
        r.mw = d.mw;
        r.clogp = d.clogp;
        r.hbd = d.hbd;
        r.hba = d.hba;
        r.tpsa = d.tpsa;
        r.rotatableBonds = d.rotatableBonds;
        r.qed = d.qed;
    } catch (const std::exception& e) { // RDKit's own errors too: the pose is kept without them
        if (warning)
            *warning = e.what() + std::string(" (stored without properties)");
    }
    // Ligand efficiency: binding free energy per heavy atom (kcal/mol/HA), the docking score
    // first, else the minimized affinity.
    if (affinity && *r.heavyAtoms > 0)
        r.ligandEfficiency = -*affinity / *r.heavyAtoms;
    if (options.receptor)
        r.interactions = options.receptor->interactions(m);
    return r;
}

} // namespace

PoseRecord makePoseRecord(Molecule m, const ImportOptions& options, std::string* warning,
                          DescriptorCache* cache, std::string_view recordText) {
    return buildPoseRecord(m, options, warning, cache, recordText, nullptr);
}

namespace {

// One batch of records: their text, what the workers made of them, and their messages.
struct Batch {
    long sequence = 0; // position in the file, counted in batches
    std::vector<SdfRecordText> texts;
    std::vector<PoseRecord> records;
    std::vector<std::string> parseWarnings, chemWarnings;
    std::vector<char> ok;
};

// CPU time of the calling thread (waiting costs none): what each stage itself spent.
double threadCpuSeconds() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// The three stages of an import and the batches between them. One thread cuts records (no
// parsing: it only looks for "$$$$"), `workers` threads parse and describe whole batches, and the
// caller's thread (which owns the SQLite connection and its transaction) reports and inserts them
// in file order. A fixed pool of batches bounds memory and lets the cutter run ahead of the
// workers, and the workers ahead of the inserter; a stage that waits sleeps on a condition.
class ImportPipeline {
public:
    ImportPipeline(SdfRecordSource& source, const std::string& path, const ReadOptions& read,
                   const ImportOptions& options, int workers)
        : source_(source), path_(path), read_(read), options_(options),
          pool_(static_cast<size_t>(workers) + 3),
          // At most ~32,768 records in flight (~10 KB each with their pose records): on a
          // machine with many threads the batches get smaller, not the memory larger.
          batch_(std::max(1, std::min(options.batch, std::max(32, 32768 / (workers + 3))))) {
        for (Batch& b : pool_)
            free_.push_back(&b);
        try {
            threads_.emplace_back([this] { cutStage(); });
            for (int w = 0; w < workers; ++w)
                threads_.emplace_back([this] { parseStage(); });
        } catch (...) { // no thread left running (or joinable) when a start fails
            stop();
            throw;
        }
    }
    // Also on an error or a kill of the caller's stage (an exception from insert or afterBatch):
    // the other stages stop at their next batch.
    ~ImportPipeline() { stop(); }

    // The next batch in file order once parsed; null after the last. Rethrows a stage's error.
    Batch* nextParsed() {
        std::unique_lock lock(mutex_);
        for (;;) {
            if (failure_)
                std::rethrow_exception(failure_);
            auto it = std::find_if(parsed_.begin(), parsed_.end(),
                                   [&](Batch* b) { return b->sequence == nextToInsert_; });
            if (it != parsed_.end()) {
                Batch* b = *it;
                parsed_.erase(it);
                ++nextToInsert_;
                return b;
            }
            if (cutDone_ && nextToInsert_ == batchesCut_)
                return nullptr;
            changed_.wait(lock);
        }
    }
    void release(Batch* b) {
        {
            std::lock_guard lock(mutex_);
            free_.push_back(b);
        }
        changed_.notify_all();
    }
    double cutCpuSeconds() const { return cutCpu_; }
    double parseCpuSeconds() const { return parseCpu_; }

private:
    void stop() {
        {
            std::lock_guard lock(mutex_);
            stopping_ = true;
        }
        changed_.notify_all();
        for (std::thread& t : threads_)
            t.join();
        threads_.clear();
    }

    void fail(std::exception_ptr e) {
        {
            std::lock_guard lock(mutex_);
            if (!failure_)
                failure_ = e;
            stopping_ = true;
        }
        changed_.notify_all();
    }

    void cutStage() {
        const double c0 = threadCpuSeconds();
        try {
            for (bool more = true; more;) {
                Batch* b = nullptr;
                {
                    std::unique_lock lock(mutex_);
                    changed_.wait(lock, [&] { return stopping_ || !free_.empty(); });
                    if (stopping_)
                        break;
                    b = free_.back();
                    free_.pop_back();
                }
                size_t n = 0;
                while (static_cast<int>(n) < batch_) {
                    if (b->texts.size() <= n)
                        b->texts.emplace_back();
                    if (!(more = source_.nextRecordText(b->texts[n])))
                        break;
                    ++n;
                }
                b->texts.resize(n); // keeps the strings' capacity for the next round
                std::lock_guard lock(mutex_);
                if (n == 0) {
                    free_.push_back(b);
                    break;
                }
                b->sequence = batchesCut_++;
                cut_.push_back(b);
                changed_.notify_all();
            }
        } catch (...) {
            fail(std::current_exception());
        }
        std::lock_guard lock(mutex_);
        cutDone_ = true;
        cutCpu_ += threadCpuSeconds() - c0;
        changed_.notify_all();
    }

    void parseStage() {
        const double c0 = threadCpuSeconds();
        try {
            for (;;) {
                Batch* b = nullptr;
                {
                    std::unique_lock lock(mutex_);
                    changed_.wait(lock, [&] { return stopping_ || !cut_.empty() || cutDone_; });
                    if (stopping_ || cut_.empty())
                        break;
                    b = cut_.front();
                    cut_.pop_front();
                }
                parse(*b);
                std::lock_guard lock(mutex_);
                parsed_.push_back(b);
                changed_.notify_all();
            }
        } catch (...) {
            fail(std::current_exception());
        }
        std::lock_guard lock(mutex_);
        parseCpu_ += threadCpuSeconds() - c0;
    }

    void parse(Batch& b) {
        const size_t n = b.texts.size();
        b.records.assign(n, PoseRecord{});
        b.parseWarnings.assign(n, std::string());
        b.chemWarnings.assign(n, std::string());
        b.ok.assign(n, 0);
        Molecule m; // one per batch: its vectors keep their capacity from record to record
        for (size_t i = 0; i < n; ++i) {
            if (!parseSdfRecord(b.texts[i], path_, read_, m, b.parseWarnings[i]))
                continue;
            // The record's text is not needed after this: its string becomes the molblock.
            b.records[i] = buildPoseRecord(m, options_, &b.chemWarnings[i], &cache_,
                                           b.texts[i].text, &b.texts[i].text);
            b.ok[i] = 1;
        }
    }

    SdfRecordSource& source_;
    const std::string& path_;
    const ReadOptions& read_;
    const ImportOptions& options_;
    DescriptorCache cache_;
    std::vector<Batch> pool_;
    const int batch_; // records per batch

    std::mutex mutex_; // guards everything below
    std::condition_variable changed_;
    std::vector<Batch*> free_;
    std::deque<Batch*> cut_;     // cut, waiting for a worker, in file order
    std::vector<Batch*> parsed_; // parsed, waiting for the inserter (any order)
    long batchesCut_ = 0, nextToInsert_ = 0;
    bool cutDone_ = false, stopping_ = false;
    std::exception_ptr failure_;
    double cutCpu_ = 0, parseCpu_ = 0;
    std::vector<std::thread> threads_; // last: started after every member above exists
};

} // namespace

ImportStats importSdf(HitStore& store, const std::string& path, const ImportOptions& options) {
    ImportStats stats;
    ReadOptions readOptions;
    readOptions.warn = [&](const std::string& w) {
        if (options.warn)
            options.warn(w);
    };
    auto reader = MoleculeReader::open(path, readOptions);
    auto* source = dynamic_cast<SdfRecordSource*>(reader.get());
    if (!source)
        throw InputError(path, 0, "expected an SDF file (.sdf, .sd or .mol) of poses");
    const int threads = options.threads > 0
                            ? options.threads
                            : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    prepareRdkitForThreads(); // the workers describe molecules with RDKit at the same time
    const double insert0 = threadCpuSeconds();
    ImportPipeline pipeline(*source, path, readOptions, options, threads);
    while (Batch* b = pipeline.nextParsed()) {
        const size_t n = b->texts.size();
        long rows = 0;
        for (size_t i = 0; i < n; ++i) {
            if (!b->ok[i]) {
                if (!b->parseWarnings[i].empty()) {
                    ++stats.skipped;
                    if (options.warn)
                        options.warn(b->parseWarnings[i]);
                }
                continue;
            }
            if (!b->parseWarnings[i].empty() && options.warn) // read with repairs
                options.warn(b->parseWarnings[i]);
            ++rows;
            if (!b->chemWarnings[i].empty()) {
                ++stats.noProperties;
                if (options.warn)
                    options.warn(b->chemWarnings[i]);
            }
        }
        for (size_t i = 0; i < n; ++i)
            if (b->ok[i])
                store.insertPose(b->records[i]);
        stats.poses += rows;
        pipeline.release(b);
        if (options.afterBatch)
            options.afterBatch(stats.poses);
    }
    stats.insertCpuSeconds = threadCpuSeconds() - insert0;
    stats.cutCpuSeconds = pipeline.cutCpuSeconds();
    stats.parseCpuSeconds = pipeline.parseCpuSeconds();
    return stats;
}

long importLingoHits(HitStore& store, const std::string& path) {
    std::ifstream in(path);
    if (!in)
        throw InputError(path, 0, "cannot open the LINGO hit list");
    Statement update =
        store.prepare("UPDATE poses SET lingo_similarity = max(coalesce(lingo_similarity, -1), ?) "
                      "WHERE name = ?");
    std::string line;
    long lineNo = 0, updated = 0, rows = 0;
    while (std::getline(in, line)) {
        ++lineNo;
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        if (line.empty() || line[0] == '#' || line.rfind("query\t", 0) == 0)
            continue;
        if (line[0] == '{')
            throw InputError(path, lineNo,
                             "expected the lingo command's tab-separated hit list "
                             "(its --out without --json), got a JSON line");
        const size_t t1 = line.find('\t');
        const size_t t2 = t1 == std::string::npos ? t1 : line.find('\t', t1 + 1);
        double similarity = 0;
        if (t2 == std::string::npos || !parseNumber(line.substr(t2 + 1), similarity))
            throw InputError(path, lineNo,
                             "expected 'query<TAB>hit<TAB>similarity' as the "
                             "lingo command writes with --out");
        update.bind(1, similarity);
        update.bind(2, std::string_view(line).substr(t1 + 1, t2 - t1 - 1));
        update.run();
        updated += sqlite3_changes(store.handle());
        ++rows;
    }
    if (rows == 0)
        throw InputError(path, 0, "no hit lines: expected 'query<TAB>hit<TAB>similarity' lines");
    return updated;
}

} // namespace pw::hits
