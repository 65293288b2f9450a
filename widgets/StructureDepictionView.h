// StructureDepictionView: a small QPainter widget drawing one 2D structure (element labels on
// hetero atoms, bonds as lines, double/triple bonds offset), from plain values: no RDKit here.
#pragma once

#include <QString>
#include <QVector>
#include <QWidget>

namespace pw {

struct StructureDrawing {
    struct Atom {
        double x = 0, y = 0;
        QString symbol;
        int charge = 0;
        int hydrogens = 0;
    };
    struct Bond {
        int a = 0, b = 0, order = 1;
    };
    QVector<Atom> atoms;
    QVector<Bond> bonds;
    QString title; // drawn under the structure (name, or the message when there is no structure)
};

class StructureDepictionView : public QWidget {
    Q_OBJECT
public:
    explicit StructureDepictionView(QWidget* parent = nullptr);
    void setDrawing(const StructureDrawing& drawing);
    const StructureDrawing& drawing() const { return drawing_; }
    QSize sizeHint() const override { return {220, 200}; }

protected:
    void paintEvent(QPaintEvent*) override;

private:
    StructureDrawing drawing_;
};

} // namespace pw
