// HitDepictionDelegate: draws the Structure column of the hit table: the 2D depiction of the row's
// SMILES, made by a callback the app provides (widgets know no chemistry) only when a row is
// painted, and kept in a bounded cache so scrolling back draws nothing new.
#pragma once

#include <QCache>
#include <QImage>
#include <QStyledItemDelegate>

#include <functional>

namespace pw {

class HitDepictionDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    // smiles, size in pixels -> image (a null image when the SMILES cannot be drawn).
    using Depictor = std::function<QImage(const QString& smiles, QSize size)>;

    explicit HitDepictionDelegate(Depictor depictor, QObject* parent = nullptr, int cacheEntries = 2000);

    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override;
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;

    // The image for a SMILES, drawn at most once while it stays in the cache.
    QImage depiction(const QString& smiles, QSize size) const;
    int depictionsDrawn() const { return drawn_; }
    void clearCache() { cache_.clear(); }

    static constexpr QSize kSize{120, 90};

private:
    Depictor depictor_;
    mutable QCache<QString, QImage> cache_; // keyed by SMILES: poses of one ligand share it
    mutable int drawn_ = 0;
};

} // namespace pw
