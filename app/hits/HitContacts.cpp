#include "HitContacts.h"

#include <map>
#include <set>
#include <string>
#include <tuple>

namespace pw {
namespace {

// The atom names of a group label as PoseInteractions names them.
std::set<std::string> groupAtoms(const std::string& label) {
    if (label == "carboxylate")
        return {"OD1", "OD2", "OE1", "OE2"};
    if (label == "guanidinium")
        return {"NE", "NH1", "NH2"};
    if (label == "imidazole")
        return {"CG", "ND1", "CD2", "CE1", "NE2"};
    return {label};
}

std::array<double, 3> toArray(const Vec3& v) {
    return {v.x(), v.y(), v.z()};
}

} // namespace

std::vector<DrawLine> hitContactLines(const hits::HitStore& store,
                                      const std::vector<ShownHitPose>& poses,
                                      const Molecule& receptor) {
    // The receptor's atoms by (chain, residue number, atom name).
    using Key = std::tuple<char, int, std::string>;
    std::map<Key, Vec3> atoms;
    for (const Atom& a : receptor.atoms)
        if (a.residue >= 0 && a.residue < static_cast<int>(receptor.residues.size())) {
            const Residue& r = receptor.residues[static_cast<size_t>(a.residue)];
            atoms.emplace(Key{r.chain, r.number, a.name}, a.position);
        }
    std::vector<DrawLine> lines;
    hits::Statement q = store.prepare(
        "SELECT kind, chain, residue_number, ligand_atom, receptor_atom FROM interactions "
        "WHERE pose_id = ? AND kind IN ('hbond', 'saltbridge', 'halogen')");
    for (const ShownHitPose& shown : poses) {
        q.reset();
        q.bind(1, shown.id);
        while (q.step()) {
            const std::string chain = q.text(1);
            const int number = static_cast<int>(q.integer(2));
            const long long ligandAtom = q.isNull(3) ? -1 : q.integer(3);
            if (ligandAtom < 0 || ligandAtom >= static_cast<long long>(shown.pose->atoms.size()))
                continue;
            Vec3 sum = Vec3::Zero();
            int found = 0;
            for (const std::string& name : groupAtoms(q.text(4))) {
                auto it = atoms.find(Key{chain.empty() ? ' ' : chain[0], number, name});
                if (it != atoms.end()) {
                    sum += it->second;
                    ++found;
                }
            }
            if (found == 0)
                continue;
            DrawLine line;
            line.from = toArray(shown.pose->atoms[static_cast<size_t>(ligandAtom)].position);
            line.to = toArray(sum / found);
            line.kind = LineKind::HydrogenBond;
            lines.push_back(line);
        }
    }
    return lines;
}

} // namespace pw
