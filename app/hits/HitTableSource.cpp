#include "HitTableSource.h"

#include "StructureDepictionView.h"
#include "chem/Depiction2D.h"
#include "hits/HitExport.h"
#include "hits/HitFilter.h"

#include <QPainter>

#include <algorithm>
#include <memory>
#include <stdexcept>

namespace pw {

HitColumns loadHitColumns(const hits::HitStore& store) {
    HitColumns out;
    std::vector<std::string> names;
    int idColumn = -1;
    for (const hits::ColumnInfo& c : store.columns()) {
        if (c.name == "id")
            idColumn = int(names.size());
        names.push_back(c.name);
        HitColumn column;
        column.name = c.name;
        column.numeric = c.type != hits::ColumnType::Text;
        out.columns.push_back(std::move(column));
    }
    if (idColumn < 0)
        throw hits::StoreError(store.path() + ": the poses table has no id column");
    const auto rows = size_t(store.poseCount());
    out.rowIds.reserve(rows);
    for (HitColumn& c : out.columns)
        (c.numeric ? c.numbers.reserve(rows) : c.texts.reserve(rows));

    hits::forEachSelected(store, {}, names, [&](const hits::Statement& s) {
        out.rowIds.push_back(s.integer(idColumn));
        for (size_t i = 0; i < out.columns.size(); ++i) {
            HitColumn& c = out.columns[i];
            const int col = int(i);
            if (c.numeric)
                c.numbers.push_back(s.isNull(col) ? HitColumns::null() : s.real(col));
            else
                c.texts.push_back(s.isNull(col) ? std::string() : s.text(col));
        }
    });
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
