#include "FlexResidues.h"

#include "core/InputError.h"
#include "dock/DockOptions.h"

#include <algorithm>

namespace pw {
namespace {

bool sameResidue(const FlexResidueSpec& a, const FlexResidueSpec& b) {
    return a.chain == b.chain && a.resSeq == b.resSeq && a.insertion == b.insertion;
}

QString specText(const FlexResidueSpec& s) {
    QString t;
    if (s.chain != ' ')
        t += QChar(s.chain) + QStringLiteral(":");
    t += QString::fromStdString(s.resName) + QString::number(s.resSeq);
    if (s.insertion != ' ')
        t += QChar(s.insertion);
    return t;
}

// The residue of each spec in the prepared receptor split off: the CLI's split and its messages.
FlexSplit split(const ScoringTarget& target, const std::vector<FlexResidueSpec>& specs) {
    return splitFlexResidues(target.receptor, specs,
                             target.receptor.name.empty() ? std::string("receptor")
                                                          : target.receptor.name);
}

// Vina refuses a start with a moving flexible atom outside the box; so does the CLI.
void requireInsideBox(const FlexModel& flex, const GridDims& box) {
    for (int r = 0; r < flex.residueCount(); ++r) {
        const FlexResidue& res = flex.residue(r);
        for (size_t i = 0; i < res.mol.atoms.size(); ++i) {
            const int f = flex.atomOffset(r) + static_cast<int>(i);
            if (flex.movable()[static_cast<size_t>(f)] && !box.contains(res.mol.atoms[i].position))
                throw InputError("flexible residues", 0,
                                 res.label() + ": atom " + res.mol.atoms[i].name +
                                     " lies outside the search box; expected the moving atoms "
                                     "of flexible residues inside it (enlarge the box or choose "
                                     "residues within it)");
        }
    }
}

void requireTorsionLimit(const FlexModel& flex, int ligandTorsions) {
    if (ligandTorsions + flex.torsionCount() > maxFlexTorsions())
        throw InputError(
            "flexible residues", 0,
            "too many torsions: the side chains have " + std::to_string(flex.torsionCount()) +
                " and the ligand " + std::to_string(ligandTorsions) + "; expected at most " +
                std::to_string(maxFlexTorsions()) + " together (choose fewer residues)");
}

QStringList labelsOf(const FlexModel& flex) {
    QStringList out;
    for (int r = 0; r < flex.residueCount(); ++r) {
        const FlexResidue& res = flex.residue(r);
        const int torsions = res.mol.torsionTree ? res.mol.torsionTree->torsionCount() : 0;
        out << QStringLiteral("%1 (%2 torsion%3)")
                   .arg(QString::fromStdString(res.label()))
                   .arg(torsions)
                   .arg(torsions == 1 ? QString() : QStringLiteral("s"));
    }
    return out;
}

} // namespace

int maxFlexTorsions() {
    return dock::kMaxDockTorsions;
}

std::vector<FlexResidueSpec> parseFlexChoice(const QString& text) {
    if (text.trimmed().isEmpty())
        return {};
    std::vector<FlexResidueSpec> specs = parseFlexResidueSpecs(text.toUpper().toStdString());
    for (size_t i = 0; i < specs.size(); ++i) {
        specs[i].text = specText(specs[i]).toStdString();
        for (size_t j = 0; j < i; ++j)
            if (sameResidue(specs[i], specs[j]))
                throw InputError("flexible residues", 0,
                                 specs[i].text + " is named twice; name each residue once");
    }
    return specs;
}

QString flexChoiceText(const std::vector<FlexResidueSpec>& specs) {
    QStringList parts;
    for (const FlexResidueSpec& s : specs)
        parts << specText(s);
    return parts.join(QLatin1Char(','));
}

QString residueSpecOfAtom(const Molecule& receptor, int atom) {
    if (atom < 0 || atom >= static_cast<int>(receptor.atoms.size()))
        return {};
    const int r = receptor.atoms[static_cast<size_t>(atom)].residue;
    if (r < 0 || r >= static_cast<int>(receptor.residues.size()))
        return {};
    const Residue& res = receptor.residues[static_cast<size_t>(r)];
    FlexResidueSpec s;
    s.chain = res.chain;
    s.resName = res.name;
    s.resSeq = res.number;
    s.insertion = res.insertion;
    return specText(s);
}

std::vector<FlexResidueSpec> toggledFlexChoice(const std::vector<FlexResidueSpec>& specs,
                                               const QString& spec) {
    std::vector<FlexResidueSpec> out = specs;
    const std::vector<FlexResidueSpec> added = parseFlexChoice(spec);
    for (const FlexResidueSpec& a : added) {
        const auto same = [&](const FlexResidueSpec& s) { return sameResidue(s, a); };
        if (std::any_of(out.begin(), out.end(), same))
            std::erase_if(out, same);
        else
            out.push_back(a);
    }
    return out;
}

QString flexMessage(const std::string& engineMessage) {
    QString m = QString::fromStdString(engineMessage);
    m.replace(QStringLiteral("--flex-residues "), QStringLiteral("flexible residue "));
    m.replace(QStringLiteral("--flex-residues"), QStringLiteral("flexible residues"));
    return m;
}

QStringList checkFlexChoice(const ScoringTarget& target,
                            const std::vector<FlexResidueSpec>& specs) {
    if (specs.empty())
        return {};
    FlexSplit s = split(target, specs);
    const FlexModel flex(std::move(s.residues), s.rigid);
    requireTorsionLimit(flex, 0);
    requireInsideBox(flex, target.target->receptor().region());
    return labelsOf(flex);
}

std::shared_ptr<const FlexSetup> flexModelSetup(const ScoringTarget& target,
                                                const std::vector<FlexResidueSpec>& specs) {
    auto setup = std::make_shared<FlexSetup>();
    setup->specs = specs;
    FlexSplit s = split(target, specs);
    setup->rigid = std::make_shared<const Molecule>(std::move(s.rigid));
    auto flex = std::make_shared<const FlexModel>(std::move(s.residues), *setup->rigid);
    setup->labels = labelsOf(*flex);
    setup->flex = std::move(flex);
    return setup;
}

std::shared_ptr<const FlexSetup> buildFlexSetup(const ScoringTarget& target,
                                                const std::vector<FlexResidueSpec>& specs,
                                                const Molecule& ligand, int threads) {
    auto setup = std::make_shared<FlexSetup>();
    setup->specs = specs;
    FlexSplit s = split(target, specs);
    setup->rigid = std::make_shared<const Molecule>(std::move(s.rigid));
    auto flex = std::make_shared<const FlexModel>(std::move(s.residues), *setup->rigid);
    requireTorsionLimit(*flex, ligand.torsionTree ? ligand.torsionTree->torsionCount() : 0);
    setup->target =
        std::make_shared<DockingTarget>(*setup->rigid, target.box, target.kind, threads);
    requireInsideBox(*flex, setup->target->receptor().region());
    // One set of maps, as `minimize --flex` builds it: the side chains' moving types (the
    // unbound energy reads them) and the ligand's (the Vina guard moves both on them).
    std::vector<XsType> types = flex->movableTypes();
    for (const Atom& a : ligand.atoms)
        if (a.xs != XsType::None && std::find(types.begin(), types.end(), a.xs) == types.end())
            types.push_back(a.xs);
    setup->grid = &setup->target->gridFor(types);
    setup->labels = labelsOf(*flex);
    setup->flex = std::move(flex);
    return setup;
}

} // namespace pw

namespace pw {

VinaScore flexAsVinaScore(const FlexScore& flex, const VinaScore& rigidScore) {
    VinaScore v = rigidScore;
    v.affinity = flex.affinity;
    v.inter = flex.inter();
    v.intra = flex.intra();
    v.torsional = flex.torsional;
    v.unbound = flex.unbound;
    return v;
}

} // namespace pw
