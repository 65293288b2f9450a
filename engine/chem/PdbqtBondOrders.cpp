#include "PdbqtBondOrders.h"

#include <GraphMol/GraphMol.h>
#include <GraphMol/SmilesParse/SmilesParse.h>
#include <GraphMol/MolOps.h>

#include <map>
#include <memory>
#include <sstream>

namespace pw {

bool applySmilesBondOrders(Molecule& m) {
    const std::string* smiles = m.property("SMILES");
    const std::string* idx = m.property("SMILES IDX");
    if (!smiles || !idx)
        return false;
    std::unique_ptr<RDKit::RWMol> mol;
    try {
        mol.reset(RDKit::SmilesToMol(*smiles));
        if (!mol)
            return false;
        RDKit::MolOps::Kekulize(*mol, false);
    } catch (const std::exception&) {
        return false;
    }
    // "SMILES IDX" pairs: 1-based SMILES atom index, PDBQT atom serial.
    std::map<int, int> atomOfSerial;
    for (size_t i = 0; i < m.atoms.size(); ++i)
        atomOfSerial[m.atoms[i].serial] = static_cast<int>(i);
    std::map<int, int> atomOfSmiles; // SMILES index (0-based) -> our atom index
    std::istringstream pairs(*idx);
    int s = 0, serial = 0;
    while (pairs >> s >> serial) {
        auto it = atomOfSerial.find(serial);
        if (it == atomOfSerial.end() || s < 1 || s > static_cast<int>(mol->getNumAtoms()))
            return false;
        if (m.atoms[it->second].element != static_cast<int>(mol->getAtomWithIdx(s - 1)->getAtomicNum()))
            return false;
        atomOfSmiles[s - 1] = it->second;
    }
    std::vector<std::pair<int, BondOrder>> orders;
    for (const RDKit::Bond* b : mol->bonds()) {
        auto a = atomOfSmiles.find(static_cast<int>(b->getBeginAtomIdx()));
        auto c = atomOfSmiles.find(static_cast<int>(b->getEndAtomIdx()));
        if (a == atomOfSmiles.end() || c == atomOfSmiles.end())
            continue;
        const int bond = m.findBond(a->second, c->second);
        if (bond < 0)
            return false; // the SMILES and the coordinates disagree: keep what we have
        const auto type = b->getBondType();
        orders.emplace_back(bond, type == RDKit::Bond::DOUBLE   ? BondOrder::Double
                                  : type == RDKit::Bond::TRIPLE ? BondOrder::Triple
                                                                : BondOrder::Single);
    }
    for (auto [bond, order] : orders)
        m.bonds[bond].order = order;
    for (auto [smilesIndex, atom] : atomOfSmiles)
        m.atoms[atom].formalCharge = mol->getAtomWithIdx(smilesIndex)->getFormalCharge();
    return true;
}

} // namespace pw
