// HitsPart: the hit triage workflow (issue 15 item 3): File > Open hit store opens a Posewright
// hit store (engine/hits) into the Hits table (a bottom dock, hidden until first used); selecting
// rows puts their poses in the 3D view as the document's ligands; Export selection writes the
// selected poses to SDF through the store's export.
#pragma once

#include <QDir>

#include "parts/WorkflowPart.h"

#include <QList>
#include <QString>

#include <memory>

class QDockWidget;

namespace pw {

namespace hits {
class HitStore;
}
class HitTableView;
struct HitStoreFilter;

class HitsPart : public WorkflowPart {
    Q_OBJECT
public:
    HitsPart();
    ~HitsPart() override;

    QString name() const override { return QStringLiteral("hits"); }
    void install(PartContext& context) override;
    QJsonObject saveState(const QDir& sessionDir) const override;
    void restoreState(const QJsonObject& state, const QDir& sessionDir) override;

    HitTableView* table() const { return table_; }
    QDockWidget* dock() const { return dock_; }
    // Opens a store read-only and reads its columns on a worker thread (a million rows take
    // seconds), then fills the table and emits storeOpened(true); on failure the frame's error,
    // storeOpened(false), and the table keeps the store it had. A newer call supersedes an older.
    void openStore(const QString& path);
    const QString& storePath() const { return storePath_; }
    // The selected rows' poses become the document's ligands (at most kMaxShownPoses).
    void showPoses(const QList<qint64>& ids);
    // Writes the selected rows to an SDF file; the number written, -1 (and the error) on failure.
    long exportSelection(const QList<qint64>& ids, const QString& path);

    // The table's structure/interaction filter, evaluated by the store on a worker thread.
    void runStoreFilter(int request, const HitStoreFilter& filter);

    static constexpr int kMaxShownPoses = 200;

signals:
    void storeOpened(bool ok);

private:
    PartContext* context_ = nullptr;
    HitTableView* table_ = nullptr;
    QDockWidget* dock_ = nullptr;
    std::unique_ptr<hits::HitStore> store_;
    QString storePath_;
    int openGeneration_ = 0; // the latest openStore call; older results are dropped
};

} // namespace pw
