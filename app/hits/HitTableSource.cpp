#include "HitTableSource.h"

#include "StructureDepictionView.h"
#include "chem/Depiction2D.h"
#include "hits/HitExport.h"
#include "hits/HitFilter.h"
#include "hits/PoseScan.h"

#include <QPainter>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <stdexcept>

namespace pw {

namespace {

// SQL's "rank ASC NULLS LAST, id" on the loaded numbers (NULL is NaN).
bool rankBefore(double rankA, std::int64_t idA, double rankB, std::int64_t idB) {
    const bool nullA = std::isnan(rankA), nullB = std::isnan(rankB);
    if (nullA != nullB)
        return nullB;
    if (!nullA && rankA != rankB)
        return rankA < rankB;
    return idA < idB;
}

// Puts every column's rows in `order` (order[k]: the row that goes to place k).
void reorderRows(HitColumns& h, const std::vector<std::uint32_t>& order) {
    std::vector<std::int64_t> ids(order.size());
    for (size_t k = 0; k < order.size(); ++k)
        ids[k] = h.rowIds[order[k]];
    h.rowIds = std::move(ids);
    for (HitColumn& c : h.columns) {
        if (c.numeric) {
            std::vector<double> v(order.size());
            for (size_t k = 0; k < order.size(); ++k)
                v[k] = c.numbers[order[k]];
            c.numbers = std::move(v);
        } else {
            std::vector<std::string> v(order.size());
            for (size_t k = 0; k < order.size(); ++k)
                v[k] = std::move(c.texts[order[k]]);
            c.texts = std::move(v);
        }
    }
}

} // namespace

HitColumns loadHitColumns(const hits::HitStore& store, long parallelAfter) {
    HitColumns out;
    std::vector<std::string> names;
    int idColumn = -1, rankColumn = -1;
    for (const hits::ColumnInfo& c : store.columns()) {
        if (c.name == "id")
            idColumn = int(names.size());
        if (c.name == "rank" && c.type != hits::ColumnType::Text)
            rankColumn = int(names.size());
        names.push_back(c.name);
        HitColumn column;
        column.name = c.name;
        column.numeric = c.type != hits::ColumnType::Text;
        out.columns.push_back(std::move(column));
    }
    if (idColumn < 0)
        throw hits::StoreError(store.path() + ": the poses table has no id column");
    // Read in storage (id) order, by ranges of ids on several threads (hits/PoseScan), each into
    // a part of its own; in rank order SQLite looked every row up through the rank index, a
    // page read per row (1M rows: 7.4 s on 2 cores, most of it copying pages from the OS).
    // Rank order is made here instead.
    std::vector<HitColumns> parts;
    hits::PoseScan scan;
    scan.columns = names;
    scan.parallelAfter = parallelAfter;
    hits::scanPoses(
        store, scan,
        [&](int count) {
            parts.assign(size_t(count), HitColumns());
            for (HitColumns& part : parts)
                for (const HitColumn& c : out.columns)
                    part.columns.push_back(HitColumn{c.name, c.numeric, {}, {}});
        },
        [&](int p, const hits::Statement& s) {
            HitColumns& part = parts[size_t(p)];
            part.rowIds.push_back(s.integer(idColumn));
            for (size_t i = 0; i < part.columns.size(); ++i) {
                HitColumn& c = part.columns[i];
                const int col = int(i);
                const bool null = sqlite3_column_type(s.raw(), col) == SQLITE_NULL;
                if (c.numeric)
                    c.numbers.push_back(null ? HitColumns::null()
                                             : sqlite3_column_double(s.raw(), col));
                else
                    c.texts.push_back(null ? std::string() : s.text(col));
            }
        });
    size_t rows = 0;
    for (const HitColumns& part : parts)
        rows += part.rowIds.size();
    out.rowIds.reserve(rows);
    for (HitColumn& c : out.columns)
        (c.numeric ? c.numbers.reserve(rows) : c.texts.reserve(rows));
    for (HitColumns& part : parts) {
        out.rowIds.insert(out.rowIds.end(), part.rowIds.begin(), part.rowIds.end());
        for (size_t i = 0; i < out.columns.size(); ++i) {
            HitColumn& to = out.columns[i];
            HitColumn& from = part.columns[i];
            if (to.numeric)
                to.numbers.insert(to.numbers.end(), from.numbers.begin(), from.numbers.end());
            else
                to.texts.insert(to.texts.end(), std::make_move_iterator(from.texts.begin()),
                                std::make_move_iterator(from.texts.end()));
        }
        part = HitColumns(); // its memory back before the next part is copied
    }
    // The store's default order (forEachSelected's): rank ascending, unranked last, then id.
    if (rankColumn >= 0) {
        const std::vector<double>& rank = out.columns[size_t(rankColumn)].numbers;
        std::vector<std::uint32_t> order(out.rowIds.size());
        for (size_t k = 0; k < order.size(); ++k)
            order[k] = std::uint32_t(k);
        const bool ranked = std::is_sorted(order.begin(), order.end(), [&](auto a, auto b) {
            return rankBefore(rank[a], out.rowIds[a], rank[b], out.rowIds[b]);
        });
        if (!ranked) {
            std::sort(order.begin(), order.end(), [&](auto a, auto b) {
                return rankBefore(rank[a], out.rowIds[a], rank[b], out.rowIds[b]);
            });
            reorderRows(out, order);
        }
    }
    out.nameColumn = out.indexOf("name");
    out.smilesColumn = out.indexOf("smiles");
    return out;
}

std::string whereIds(QList<qint64> ids) {
    if (ids.isEmpty())
        throw std::invalid_argument("no hits selected");
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    std::string where;
    int terms = 0;
    for (qsizetype i = 0; i < ids.size();) {
        qsizetype j = i;
        while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1)
            ++j;
        if (++terms > kMaxIdTerms)
            throw std::invalid_argument("the selection is too scattered to export at once (more than " +
                                        std::to_string(kMaxIdTerms) +
                                        " separate runs of ids); sort by id or export a filter instead");
        if (!where.empty())
            where += " or ";
        where += i == j ? "id = " + std::to_string(ids[i])
                        : "(id >= " + std::to_string(ids[i]) + " and id <= " + std::to_string(ids[j]) + ")";
        i = j + 1;
    }
    return where;
}

namespace {

std::string quoted(const QString& text) {
    std::string out = "'";
    for (char c : text.trimmed().toStdString()) {
        out += c;
        if (c == '\'')
            out += c;
    }
    return out + "'";
}

} // namespace

std::string storeFilterExpression(const HitStoreFilter& filter) {
    std::string where;
    if (!filter.pattern.trimmed().isEmpty())
        where = (filter.smarts ? "smarts(" : "substructure(") + quoted(filter.pattern) + ")";
    if (!filter.residue.trimmed().isEmpty()) {
        const QString kind = filter.kind.isEmpty() ? QStringLiteral("interacts") : filter.kind;
        where += (where.empty() ? "" : " and ") + kind.toStdString() + "(" +
                 quoted(filter.residue) + ")";
    }
    return where;
}

std::vector<std::int64_t> matchingHitIds(const hits::HitStore& store, const std::string& where) {
    const hits::SqlFragment w = hits::compileWhere(where, store);
    hits::Statement q = store.prepare("SELECT id FROM poses WHERE " + w.sql);
    for (size_t i = 0; i < w.params.size(); ++i)
        q.bind(int(i) + 1, w.params[i]);
    std::vector<std::int64_t> ids;
    while (q.step())
        ids.push_back(q.integer(0));
    return ids;
}

std::vector<std::int64_t> StoreFilterConnection::matchingIds(const std::string& where) {
    std::lock_guard lock(mutex_);
    if (!store_)
        store_ = std::make_unique<hits::HitStore>(path_, hits::HitStore::Mode::ReadOnly);
    return matchingHitIds(*store_, where);
}

QStringList contactResidues(const hits::HitStore& store) {
    hits::Statement q = store.prepare(
        "SELECT DISTINCT coalesce(chain, ''), residue, residue_number FROM interactions "
        "ORDER BY 1, 3, 2");
    std::vector<std::pair<QString, QString>> found; // (chain, residue)
    while (q.step())
        found.emplace_back(QString::fromStdString(q.text(0)).trimmed(),
                           QString::fromStdString(q.text(1)));
    const bool chains = std::any_of(found.begin(), found.end(), [&](const auto& r) {
        return r.first != found.front().first;
    });
    QStringList labels;
    for (const auto& [chain, residue] : found)
        labels << (chains && !chain.isEmpty() ? chain + QLatin1Char(':') + residue : residue);
    labels.removeDuplicates();
    return labels;
}

long exportHitIdsToSdf(const hits::HitStore& store, const QList<qint64>& ids, const std::string& path) {
    hits::Selection selection;
    selection.where = whereIds(ids);
    return hits::exportSdf(store, selection, path);
}

long exportHitIdsToCsv(const hits::HitStore& store, const QList<qint64>& ids, const std::string& path) {
    hits::Selection selection;
    selection.where = whereIds(ids);
    return hits::exportCsv(store, selection, path);
}

HitDepictionDelegate::Depictor hitDepictor() {
    // One hidden view, reused for every picture (the delegate calls on the GUI thread).
    auto view = std::make_shared<StructureDepictionView>();
    return [view](const QString& smiles, QSize size) -> QImage {
        Depiction2D d;
        try {
            d = depictSmiles(smiles.toStdString());
        } catch (const std::exception&) {
            return {};
        }
        StructureDrawing drawing;
        for (const auto& a : d.atoms)
            drawing.atoms.push_back({a.x, a.y, QString::fromStdString(a.symbol), a.charge, a.hydrogens});
        for (const auto& b : d.bonds)
            drawing.bonds.push_back({b.a, b.b, b.order});
        view->setDrawing(drawing);
        view->resize(size);
        QImage image(size, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::white);
        view->render(&image);
        return image;
    };
}

} // namespace pw
