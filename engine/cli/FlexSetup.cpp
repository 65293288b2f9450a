#include "FlexSetup.h"

#include "ScoreEach.h"
#include "chem/FlexResidueReader.h"
#include "chem/FlexResidueSplit.h"
#include "core/InputError.h"

#include <cstdio>
#include <iostream>

namespace pw::cli {

bool wantsFlex(const CommandLine& cl) {
    return cl.value("flex") || cl.value("flex-residues");
}

bool flexOnGpu(const CommandLine& cl) {
    const std::string device = cl.value("device").value_or("cpu");
    if (device.rfind("cuda:all", 0) == 0 || device.find(',') != std::string::npos)
        throw UsageError("--flex runs on one GPU: pass --device cuda or cuda:N");
    return device != "cpu";
}

std::unique_ptr<FlexModel> loadFlex(const CommandLine& cl, Molecule& receptor) {
    if (!wantsFlex(cl))
        return nullptr;
    const std::string receptorPath = cl.value("receptor").value_or("receptor");
    std::vector<FlexResidue> residues;
    if (auto list = cl.value("flex-residues")) {
        FlexSplit split = splitFlexResidues(receptor, parseFlexResidueSpecs(*list), receptorPath);
        receptor = std::move(split.rigid);
        residues = std::move(split.residues);
    }
    if (auto path = cl.value("flex")) {
        std::vector<FlexResidue> fromFile = readFlexResidues(*path);
        checkFlexResiduesInReceptor(fromFile, receptor, receptorPath);
        for (FlexResidue& r : fromFile) {
            for (const FlexResidue& other : residues)
                if (other.chain == r.chain && other.resSeq == r.resSeq &&
                    other.insertion == r.insertion)
                    throw InputError(r.sourceFile, r.line,
                                     "residue " + r.label() +
                                         " is also named by --flex-residues; name it once");
            residues.push_back(std::move(r));
        }
    }
    return std::make_unique<FlexModel>(std::move(residues), receptor);
}

void requireFlexInsideBox(const FlexModel& flex, const DockingTarget& target) {
    const GridDims& box = target.receptor().region();
    for (int r = 0; r < flex.residueCount(); ++r) {
        const FlexResidue& res = flex.residue(r);
        for (size_t i = 0; i < res.mol.atoms.size(); ++i) {
            const int f = flex.atomOffset(r) + static_cast<int>(i);
            if (flex.movable()[f] && !box.contains(res.mol.atoms[i].position))
                throw InputError(res.sourceFile, res.line,
                                 "flexible residue " + res.label() + ": atom " +
                                     res.mol.atoms[i].name +
                                     " lies outside the box; expected the moving atoms of "
                                     "flexible residues inside the search box (enlarge the box "
                                     "or choose residues within it)");
        }
    }
}

const ReceptorGrid& unboundGridFor(DockingTarget& target, const FlexModel& flex) {
    return target.gridFor(flex.movableTypes());
}

std::optional<std::string> flexOutputPath(const CommandLine& cl,
                                          const std::optional<std::string>& sdfPath) {
    if (auto f = cl.value("flex-out")) {
        if (f->size() < 6 || f->substr(f->size() - 6) != ".pdbqt")
            throw UsageError("--flex-out " + *f + ": the moved side chains are written as "
                             "PDBQT; name the file .pdbqt");
        return f;
    }
    if (!sdfPath)
        return std::nullopt;
    const size_t dot = sdfPath->find_last_of('.');
    const size_t slash = sdfPath->find_last_of('/');
    const bool hasExt = dot != std::string::npos && (slash == std::string::npos || dot > slash);
    return (hasExt ? sdfPath->substr(0, dot) : *sdfPath) + "_flex.pdbqt";
}

void writeFlexModel(std::ostream& out, const FlexModel& flex, const std::vector<Vec3>& flexCoords,
                    size_t model, const std::string& remark) {
    out << "MODEL " << model << "\n";
    out << "REMARK " << remark << "\n";
    for (int r = 0; r < flex.residueCount(); ++r) {
        const FlexResidue& res = flex.residue(r);
        const auto begin = flexCoords.begin() + flex.atomOffset(r);
        out << res.blockWith(std::vector<Vec3>(begin, begin + res.mol.atoms.size()));
    }
    out << "ENDMDL\n";
}

std::string fixed3(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", v);
    return buf;
}

void addFlexScoreFields(JsonObject& o, const FlexScore& s) {
    o.add("affinity", s.affinity, 6).add("inter", s.inter(), 6).add("intra", s.intra(), 6);
    o.add("torsional", s.torsional, 6).add("unbound", s.unbound, 6);
    o.add("ligand_receptor", s.ligandReceptor, 6).add("ligand_flex", s.ligandFlex, 6);
    o.add("ligand_intra", s.ligandIntra, 6).add("flex_receptor", s.flexReceptor, 6);
    o.add("flex_flex", s.flexFlex, 6);
}

void printFlexScore(const std::string& name, const FlexScore& s) {
    std::printf("%-24s affinity %8.3f  inter %8.3f  intra %8.3f  torsional %7.3f\n",
                name.empty() ? "(no name)" : name.c_str(), s.affinity, s.inter(), s.intra(),
                s.torsional);
    printFlexParts(s);
}

void printFlexParts(const FlexScore& s) {
    std::printf("%-24s ligand-receptor %8.3f  ligand-flex %8.3f  ligand %8.3f  flex-receptor "
                "%8.3f  flex-flex %8.3f  unbound %8.3f\n",
                "", s.ligandReceptor, s.ligandFlex, s.ligandIntra, s.flexReceptor, s.flexFlex,
                s.unbound);
}

int scoreWithFlex(const CommandLine& cl, const std::string& ligandFile, DockingTarget& target,
                  const FlexModel& flex, bool json) {
    (void)cl;
    requireFlexInsideBox(flex, target);
    const ReceptorGrid& unbound = unboundGridFor(target, flex);
    const std::vector<Vec3>& flexCoords = flex.referenceCoordinates();
    return scoreEachLigand(ligandFile, [&](const Molecule& lig, long index) {
        LigandScorer ligand(lig, target.scoring(), target.receptor());
        FlexScorer scorer(ligand, flex, &unbound);
        std::vector<Vec3> coords;
        for (const Atom& a : lig.atoms)
            coords.push_back(a.position);
        const FlexScore s = scorer.finalScore(coords, flexCoords);
        if (json) {
            JsonObject o;
            o.add("name", lig.name).add("index", index);
            addFlexScoreFields(o, s);
            o.add("mode", "exact").add("flex_residues", flex.residueCount());
            std::cout << o.str() << "\n";
        } else {
            printFlexScore(lig.name, s);
        }
    });
}

} // namespace pw::cli
