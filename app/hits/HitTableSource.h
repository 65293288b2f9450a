// HitTableSource: the thin adapter between the hit store (engine/hits) and the Hits table widget
// (widgets/HitTableView), which knows nothing of the engine: the store's columns as typed vectors,
// the export of selected rows through engine/hits export, and 2D depictions through
// engine/chem/Depiction2D.
#pragma once

#include "HitDepictionDelegate.h"
#include "HitTableColumns.h"
#include "HitTableView.h"
#include "hits/HitStore.h"

#include <QList>

#include <memory>
#include <mutex>
#include <string>

namespace pw {

// Every column of the store's poses, rows in rank order (unranked last, then by id); the id
// column gives the row ids. Integer and real columns become numbers (NULL -> NaN), text columns
// strings (NULL -> empty). A store of parallelAfter poses or more is read on several threads
// (hits/PoseScan.h; tests pass 0 to run that path on small stores).
HitColumns loadHitColumns(const hits::HitStore& store, long parallelAfter = 65536);

// The engine/hits filter expression that selects exactly these pose ids (runs of consecutive ids
// as one range). Throws std::invalid_argument when ids is empty or needs more terms than one
// query can bind (kMaxIdTerms).
std::string whereIds(QList<qint64> ids);
inline constexpr int kMaxIdTerms = 15000;

// Writes the poses with these ids to an SDF file (atomically, every column as an SD tag) through
// engine/hits export; returns the number written.
long exportHitIdsToSdf(const hits::HitStore& store, const QList<qint64>& ids, const std::string& path);
// The same as CSV (every column, atomically).
long exportHitIdsToCsv(const hits::HitStore& store, const QList<qint64>& ids, const std::string& path);

// The engine/hits filter expression of the Hits panel's store filter: smarts('...') or
// substructure('...') and/or KIND('RESIDUE'), joined by and (quotes in the text doubled, so the
// text stays data); empty when the filter is empty.
std::string storeFilterExpression(const HitStoreFilter& filter);
// The ids of the poses an expression selects (throws hits::FilterError for a bad one).
std::vector<std::int64_t> matchingHitIds(const hits::HitStore& store, const std::string& where);
// One read-only connection to a store for the panel's structure filters, kept from request to
// request: its screen index, parsed molecules and per-pattern answers stay loaded, so a pattern
// asked again over a million rows costs a scan, not RDKit's match (a connection per request paid
// the load and the cold match every time). Requests from worker threads run one at a time.
class StoreFilterConnection {
public:
    explicit StoreFilterConnection(std::string path) : path_(std::move(path)) {}
    // matchingHitIds on the kept connection (opened on first use; throws as the store does).
    std::vector<std::int64_t> matchingIds(const std::string& where);

private:
    std::mutex mutex_;
    const std::string path_;
    std::unique_ptr<hits::HitStore> store_;
};

// The residues the store records contacts with, in chain and number order: "ASP86", or
// "A:ASP86" when the contacts span several chains.
QStringList contactResidues(const hits::HitStore& store);

// A depictor for HitTableView: RDKit's 2D coordinates drawn as StructureDepictionView draws them;
// a null image for a SMILES that cannot be parsed.
HitDepictionDelegate::Depictor hitDepictor();

} // namespace pw
