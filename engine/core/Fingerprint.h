// Fingerprint: a 64-bit FNV-1a hash over raw bytes, for cache keys (fast, stable across runs and
// builds of the same platform; not a cryptographic hash).
#pragma once

#include "core/Molecule.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace pw {

struct Fingerprint {
    std::uint64_t h = 1469598103934665603ull;
    void bytes(const void* p, std::size_t n) {
        const auto* b = static_cast<const unsigned char*>(p);
        for (std::size_t i = 0; i < n; ++i) {
            h ^= b[i];
            h *= 1099511628211ull;
        }
    }
    void number(double v) { bytes(&v, sizeof v); }
    void integer(long long v) { bytes(&v, sizeof v); }
    void text(const std::string& s) {
        integer(static_cast<long long>(s.size()));
        bytes(s.data(), s.size());
    }
    // Every atom (position, charges, types, name, residue), bond and residue of a molecule, in
    // file order: what preparing or scoring it can read.
    void molecule(const Molecule& m) {
        integer(static_cast<long long>(m.atoms.size()));
        for (const Atom& a : m.atoms) {
            number(a.position.x());
            number(a.position.y());
            number(a.position.z());
            number(a.charge);
            integer(a.element);
            integer(a.formalCharge);
            integer(a.aromatic);
            integer(static_cast<int>(a.xs));
            integer(a.residue);
            text(a.name);
            text(a.ad4Type);
        }
        integer(static_cast<long long>(m.bonds.size()));
        for (const Bond& b : m.bonds) {
            integer(b.a);
            integer(b.b);
            integer(static_cast<int>(b.order));
        }
        integer(static_cast<long long>(m.residues.size()));
        for (const Residue& r : m.residues) {
            text(r.name);
            integer(r.number);
            integer(r.chain);
            integer(r.insertion);
            integer(r.hetero);
        }
    }
};

} // namespace pw
