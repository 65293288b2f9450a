// OverlayPart: the shape overlay workflow: File > Shape overlay reads a molecule file whose first
// record is the reference and the rest fits, into the overlay dock (hidden until first used).
#pragma once

#include "parts/WorkflowPart.h"

#include <QString>

class QDockWidget;

namespace pw {

class OverlayPanel;

class OverlayPart : public WorkflowPart {
    Q_OBJECT
public:
    QString name() const override { return QStringLiteral("overlay"); }
    void install(PartContext& context) override;
    // The file overlaid, reopened with the session.
    QJsonObject saveState() const override;
    void restoreState(const QJsonObject& state) override;

    OverlayPanel* panel() const { return panel_; }
    QDockWidget* dock() const { return dock_; }
    void openFile(const QString& path);

private:
    PartContext* context_ = nullptr;
    OverlayPanel* panel_ = nullptr;
    QDockWidget* dock_ = nullptr;
    QString path_; // the file shown, empty when none
};

} // namespace pw
