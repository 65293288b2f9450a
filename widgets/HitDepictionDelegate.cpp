#include "HitDepictionDelegate.h"

#include "HitTableModel.h"

#include <QPainter>

#include <utility>

namespace pw {

HitDepictionDelegate::HitDepictionDelegate(Depictor depictor, QObject* parent, int cacheEntries)
    : QStyledItemDelegate(parent), depictor_(std::move(depictor)), cache_(cacheEntries) {}

QImage HitDepictionDelegate::depiction(const QString& smiles, QSize size) const {
    if (smiles.isEmpty() || !depictor_)
        return {};
    const QString key = smiles + QLatin1Char('@') + QString::number(size.width()) + QLatin1Char('x') +
                        QString::number(size.height());
    if (const QImage* hit = cache_.object(key))
        return *hit;
    ++drawn_;
    QImage image = depictor_(smiles, size);
    cache_.insert(key, new QImage(image));
    return image;
}

void HitDepictionDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                                 const QModelIndex& index) const {
    QStyledItemDelegate::paint(painter, option, index); // background and selection
    const QImage image = depiction(index.data(HitTableModel::SmilesRole).toString(), kSize);
    if (image.isNull())
        return;
    const QSize fitted = image.size().scaled(option.rect.size() - QSize(4, 4), Qt::KeepAspectRatio);
    const QRect target(option.rect.center() - QPoint(fitted.width() / 2, fitted.height() / 2), fitted);
    painter->drawImage(target, image);
}

QSize HitDepictionDelegate::sizeHint(const QStyleOptionViewItem&, const QModelIndex&) const {
    return kSize;
}

} // namespace pw
