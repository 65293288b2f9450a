// `posewright-cli info FILE`: one JSON object (or a text block) per molecule, after the same
// preparation the engine applies before scoring, so that later checks see what the engine sees.
#include "CommandLine.h"
#include "Commands.h"
#include "Json.h"
#include "MoleculeRole.h"
#include "TargetSetup.h"
#include "chem/MoleculeReader.h"
#include "core/Element.h"
#include "core/InputError.h"

#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>

namespace pw::cli {
namespace {

std::string vec3Json(const Vec3& v) {
    return jsonArray({jsonNumber(v.x(), 4), jsonNumber(v.y(), 4), jsonNumber(v.z(), 4)});
}

std::string countsJson(const std::map<std::string, int>& counts) {
    JsonObject o;
    for (const auto& [k, n] : counts)
        o.add(k, n);
    return o.str();
}

struct Summary {
    std::map<std::string, int> elements, ad4, xs;
    double totalCharge = 0;
};

Summary summarize(const Molecule& m) {
    Summary s;
    for (const Atom& a : m.atoms) {
        ++s.elements[std::string(elementSymbol(a.element))];
        if (!a.ad4Type.empty())
            ++s.ad4[a.ad4Type];
        if (a.xs != XsType::None)
            ++s.xs[std::string(xsTypeName(a.xs))];
        s.totalCharge += a.charge;
    }
    return s;
}

std::string describeJson(const Molecule& m, const std::string& file, long record, Role role) {
    Summary s = summarize(m);
    auto [lo, hi] = m.boundingBox();
    std::vector<std::string> charges;
    charges.reserve(m.atoms.size());
    for (const Atom& a : m.atoms)
        charges.push_back(jsonNumber(a.charge, 4));
    JsonObject box;
    box.addRaw("min", vec3Json(lo)).addRaw("max", vec3Json(hi));
    box.addRaw("center", vec3Json((lo + hi) / 2)).addRaw("size", vec3Json(hi - lo));
    JsonObject o;
    o.add("file", file).add("record", record).add("name", m.name).add("role", roleName(role));
    o.add("atoms", static_cast<int>(m.atoms.size())).add("heavy_atoms", m.heavyAtomCount());
    o.add("bonds", static_cast<int>(m.bonds.size())).add("residues", static_cast<int>(m.residues.size()));
    if (m.torsionTree)
        o.add("torsions", m.torsionTree->torsionCount());
    else
        o.addNull("torsions");
    o.addRaw("elements", countsJson(s.elements)).addRaw("ad4_types", countsJson(s.ad4));
    o.addRaw("xs_types", countsJson(s.xs));
    o.add("total_charge", s.totalCharge, 4).addRaw("charges", jsonArray(charges));
    o.addRaw("box", box.str());
    return o.str();
}

void describeText(std::ostream& out, const Molecule& m, long record, Role role) {
    Summary s = summarize(m);
    auto [lo, hi] = m.boundingBox();
    out << "record " << record << ": " << (m.name.empty() ? "(no name)" : m.name) << " ["
        << roleName(role) << "]\n  atoms " << m.atoms.size() << " (heavy " << m.heavyAtomCount()
        << "), bonds " << m.bonds.size() << ", residues " << m.residues.size() << ", torsions "
        << (m.torsionTree ? std::to_string(m.torsionTree->torsionCount()) : "-") << "\n  XS types:";
    for (const auto& [k, n] : s.xs)
        out << " " << k << "=" << n;
    char buf[160];
    std::snprintf(buf, sizeof buf,
                  "\n  total charge %.3f\n  box min (%.3f, %.3f, %.3f) max (%.3f, %.3f, %.3f)\n",
                  s.totalCharge, lo.x(), lo.y(), lo.z(), hi.x(), hi.y(), hi.z());
    out << buf;
}

} // namespace

int runInfo(const std::vector<std::string>& args) {
    CommandLine cl(args, {{"json", OptionKind::Flag},
                          {"role", OptionKind::Value},
                          {"ph", OptionKind::Value}});
    if (cl.positional().size() != 1)
        throw UsageError("expected exactly one FILE");
    const std::string file = cl.positional()[0];
    Role requested = roleFromName(cl.value("role", "auto"));
    bool json = cl.flag("json");
    const ReceptorPreparationOptions receptorOptions = receptorPreparationOptions(cl);

    ReadOptions options;
    int warnings = 0;
    options.warn = [&](const std::string& msg) {
        ++warnings;
        std::cerr << "warning: " << msg << "\n";
    };
    auto reader = MoleculeReader::open(file, options);
    Molecule m;
    long described = 0, refused = 0;
    // The first refusal is held back: if it is the file's only molecule it becomes the error.
    std::string pending;
    auto flushPending = [&] {
        if (!pending.empty())
            std::cerr << "warning: " << pending << "\n";
        pending.clear();
    };
    // Long reads (a SMILES file embeds every record in 3D) say how far they are, every 10 s.
    using Clock = std::chrono::steady_clock;
    const Clock::time_point started = Clock::now();
    Clock::time_point lastProgress = started;
    while (reader->next(m)) {
        long record = reader->recordsRead();
        if (Clock::now() - lastProgress > std::chrono::seconds(10)) {
            lastProgress = Clock::now();
            std::cerr << "info: " << file << ": " << record << " records read, "
                      << reader->recordsSkipped() << " skipped ("
                      << std::chrono::duration_cast<std::chrono::seconds>(lastProgress - started)
                             .count()
                      << " s)\n";
        }
        Role role = requested == Role::Auto ? guessRole(m, reader->format()) : requested;
        try {
            prepareForRole(m, role, receptorOptions);
        } catch (const InputError& e) {
            if (++refused == 1 && described == 0) {
                pending = e.what();
            } else {
                flushPending();
                std::cerr << "warning: " << e.what() << "\n";
            }
            continue;
        }
        flushPending();
        if (json)
            std::cout << describeJson(m, file, record, role) << "\n";
        else
            describeText(std::cout, m, record, role);
        ++described;
    }
    if (described == 0 && refused == 1 && reader->recordsSkipped() == 0) {
        std::cerr << "error: " << pending << "\n";
        return 1;
    }
    flushPending();
    if (reader->recordsSkipped() + refused > 0)
        std::cerr << file << ": " << described << " molecules described, "
                  << reader->recordsSkipped() + refused << " skipped\n";
    if (described == 0) {
        std::cerr << "error: " << file << ": no molecule could be read\n";
        return 1;
    }
    return 0;
}

} // namespace pw::cli
