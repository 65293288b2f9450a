// `posewright-cli overlay`: Gaussian shape overlay of every molecule of a file onto a reference,
// on the GPU when one is usable; JSON lines (or a table) per fit and an optional ranked SDF.
#include "CommandLine.h"
#include "Commands.h"
#include "DeviceOption.h"
#include "Json.h"
#include "OverlaySetup.h"
#include "Shard.h"
#include "chem/MoleculeReader.h"
#include "chem/MoleculeWriter.h"
#include "chem/ShapeFeatures.h"
#include "core/InputError.h"
#include "shape/OverlayStarts.h"
#include "shape/ShapeOverlay.h"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <numeric>

namespace pw::cli {
namespace {

constexpr int kBatch = 65536; // fits read, overlaid and printed per round (bounded memory)

std::string scoresJson(const std::string& name, const shape::ShapeScores& s) {
    JsonObject o;
    o.add("name", name);
    o.add("shape_tanimoto", s.tanimoto, 5).add("tversky_ref", s.tverskyRef, 5);
    o.add("tversky_fit", s.tverskyFit, 5);
    if (s.hasColour)
        o.add("color_tanimoto", s.colourTanimoto, 5);
    else
        o.addNull("color_tanimoto");
    o.add("combo", s.combo, 5);
    o.add("volume_ref", s.volumeRef, 4).add("volume_fit", s.volumeFit, 4);
    o.add("overlap", s.overlap, 4);
    return o.str();
}

void tag(Molecule& m, const char* key, double v, int digits = 4) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", digits, v);
    m.setProperty(key, buf);
}

} // namespace

int runOverlay(const std::vector<std::string>& args) {
    CommandLine cl(args, {{"reference", OptionKind::Value},
                          {"fit", OptionKind::Value},
                          {"starts", OptionKind::Value},
                          {"ring-starts", OptionKind::Flag},
                          {"color", OptionKind::Flag},
                          {"radii", OptionKind::Value},
                          {"score-only", OptionKind::Flag},
                          {"device", OptionKind::Value},
                          {"out", OptionKind::Value},
                          {"json", OptionKind::Flag},
                          {"threads", OptionKind::Value},
                          {"shard", OptionKind::Value},
                          {"shard-block", OptionKind::Value}});
    if (!cl.positional().empty())
        throw UsageError("unexpected argument '" + cl.positional().front() + "'");
    const std::string refPath = cl.required("reference"), fitPath = cl.required("fit");
    shape::OverlayOptions options;
    shape::ShapeModelOptions modelOptions;
    parseShapeOptions(cl, options, modelOptions);
    options.colour = cl.flag("color");
    const bool scoreOnly = cl.flag("score-only"), json = cl.flag("json");
    const int threads = cl.intValue("threads", 0, 0, 1024);
    const DeviceChoice device = chooseDevice(cl, threads, "overlay");
    const auto out = cl.sdfOutput("out");
    const std::optional<Shard> shard = shardOption(cl);
    // A shard's ranked output is merged by `posewright-cli merge`, which reads SDF.
    if (shard && out && !(out->size() > 4 && out->compare(out->size() - 4, 4, ".sdf") == 0))
        throw UsageError("--shard writes its ranked output as SDF (--out FILE.sdf) for merge");

    const Molecule refMol = readMolecule(refPath);
    const std::unique_ptr<OverlayBatch> overlay = device.backend->prepareOverlay(
        shape::makeShapeModel(refMol, modelOptions,
                              options.colour ? colourFeatures(refMol)
                                             : std::vector<shape::ColourFeature>{}),
        options);

    ReadOptions readOptions;
    readOptions.warn = [](const std::string& msg) { std::cerr << "warning: " << msg << "\n"; };
    auto reader = MoleculeReader::open(fitPath, readOptions);
    std::vector<Molecule> kept; // aligned poses for --out
    std::vector<double> keptScore;
    std::vector<long> keptIndex; // input position (readable records), the merge's tie-break
    if (!json)
        std::cout << "# name\tshape_tanimoto\ttversky_ref\ttversky_fit\tcolor_tanimoto\tcombo\n";
    long total = 0, read = 0;
    std::vector<Molecule> batch;
    std::vector<shape::ShapeModel> models;
    std::vector<long> batchIndex;
    Molecule m;
    bool more = true;
    while (more) {
        batch.clear();
        batchIndex.clear();
        models.clear();
        while (int(batch.size()) < kBatch && (more = reader->next(m))) {
            if (shard && !shard->owns(read++))
                continue; // another shard's record
            try {
                models.push_back(shape::makeShapeModel(
                    m, modelOptions,
                    options.colour ? colourFeatures(m) : std::vector<shape::ColourFeature>{}));
                batch.push_back(m);
                batchIndex.push_back(read - 1);
            } catch (const InputError& e) {
                std::cerr << "warning: " << e.what() << " (skipped)\n";
            }
        }
        if (batch.empty())
            break;
        std::vector<shape::ShapeScores> scores;
        overlay->overlay(models, scoreOnly, scores);
        for (size_t i = 0; i < batch.size(); ++i) {
            const shape::ShapeScores& s = scores[i];
            if (json) {
                std::cout << scoresJson(batch[i].name, s) << "\n";
            } else {
                std::printf("%s\t%.4f\t%.4f\t%.4f\t%s\t%.4f\n", batch[i].name.c_str(), s.tanimoto,
                            s.tverskyRef, s.tverskyFit,
                            s.hasColour ? std::to_string(s.colourTanimoto).c_str() : "-", s.combo);
                std::fflush(stdout);
            }
            if (out) {
                Molecule a = shape::transformed(batch[i], s.rotation, s.translation);
                tag(a, "PW_SHAPE_TANIMOTO", s.tanimoto);
                tag(a, "PW_TVERSKY_REF", s.tverskyRef);
                tag(a, "PW_TVERSKY_FIT", s.tverskyFit);
                if (s.hasColour)
                    tag(a, "PW_COLOR_TANIMOTO", s.colourTanimoto);
                tag(a, "PW_COMBO", s.combo);
                tag(a, "PW_OVERLAP", s.overlap, 3);
                kept.push_back(std::move(a));
                keptScore.push_back(options.colour ? s.combo : s.tanimoto);
                keptIndex.push_back(batchIndex[i]);
            }
        }
        total += long(batch.size());
    }
    std::cout.flush();
    if (total == 0 && shard && read > 0)
        std::cerr << "note: shard " << shard->label() << " holds no molecule; its output is empty\n";
    else if (total == 0)
        throw InputError(fitPath, 0,
                         "no molecule could be read: expected at least one fit molecule");
    if (out) {
        std::vector<size_t> order(kept.size());
        std::iota(order.begin(), order.end(), size_t(0));
        std::stable_sort(order.begin(), order.end(),
                         [&](size_t a, size_t b) { return keptScore[a] > keptScore[b]; });
        auto writer = MoleculeWriter::create(*out);
        int rank = 0;
        for (size_t i : order) {
            kept[i].setProperty("PW_RANK", std::to_string(++rank)); // merge renumbers it
            if (shard) // higher scores rank first: the key's score is negated
                kept[i].setProperty(kShardKeyTag,
                                    shardKeyValue(*shard, -keptScore[i], keptIndex[i], 0));
            writer->write(kept[i]);
        }
        writer->commit();
    }
    return 0;
}

} // namespace pw::cli
