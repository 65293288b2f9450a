// PdbRecords: the fixed-column ATOM/HETATM parsing, alternate-location choice and residue
// bookkeeping that the PDB and PDBQT readers share (wwPDB format 3.3, "Coordinate section").
#pragma once

#include "LineReader.h"
#include "MoleculeReader.h"

#include <string>
#include <string_view>

namespace pw {

struct PdbAtomFields {
    bool hetero = false;
    int serial = 0;
    std::string_view name; // columns 13-16, as written (not trimmed)
    char altLoc = ' ';     // column 17
    std::string_view resName;
    char chain = ' ';
    int resSeq = 0;
    char iCode = ' ';
    Vec3 position = Vec3::Zero();
};

// True for "ATOM  " and "HETATM" lines.
bool isPdbAtomLine(std::string_view line);
// Parses the shared columns of an ATOM/HETATM line; fails through lines with the column range
// and what was expected.
void parsePdbAtomLine(std::string_view line, const LineReader& lines, PdbAtomFields& f);

// Element from columns 77-78 when present, else from the atom name's alignment (columns 13-14
// hold the element right-justified). Returns 0 when nothing fits.
int pdbElement(std::string_view line, std::string_view atomName);

// Formal charge from columns 79-80 ("1+", "2-"); 0 when blank.
int pdbFormalCharge(std::string_view line);

// Groups atoms into residues (a new one when chain, number or insertion code change) and keeps
// only the first alternate location seen in each residue (blank, 'A', or whichever comes first).
class PdbResidueTracker {
public:
    // False when the atom is another alternate location and must be skipped. Otherwise adds a
    // residue to m when this atom starts one and returns its index in residueIndex.
    bool accept(const PdbAtomFields& f, Molecule& m, int& residueIndex);
    void reset() { current_ = -1; }

private:
    int current_ = -1;
    char chosenAlt_ = ' ';
};

// Checks that a file named .pdb/.pdbqt starts like one (its first non-blank line is a PDB or
// PDBQT record); throws InputError naming the line otherwise.
void checkPdbContent(std::string_view head, const std::string& path, FileFormat format);

// File name without directory and extension, used as the molecule name.
std::string fileStem(const std::string& path);

} // namespace pw
