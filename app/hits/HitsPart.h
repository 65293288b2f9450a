// HitsPart: the hit triage workflow (issue 15 item 3): File > Open hit store opens a Posewright
// hit store (engine/hits) into the Hits table (a bottom dock, hidden until first used); selecting
// rows puts their poses in the pocket as the document's ligands, with the polar contacts the store
// recorded as dashed lines and the reference (when one is set) beside them; Export selection
// writes them to SDF or CSV through the store's export; Refine, Overlay and Dock again hand them
// to the parts that take them (PartContext::handPoses: batch, overlay and dock parts), and are
// disabled when none does (a build without that part).
#pragma once

#include <QDir>

#include "parts/WorkflowPart.h"

#include <QList>
#include <QString>

#include "core/Molecule.h"

#include <memory>
#include <optional>
#include <vector>

class QAction;
class QDockWidget;

namespace pw {

namespace hits {
class HitStore;
}
class HitTableView;
class StoreFilterConnection;
struct HitStoreFilter;
struct HitTableState;

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
    // Writes the selected rows to an SDF or CSV file (by its suffix; atomically); the number
    // written, -1 (and the error) on failure.
    long exportSelection(const QList<qint64>& ids, const QString& path);
    // The first selected row's pose becomes the reference: drawn with every selection after, and
    // the pose the selection is overlaid on.
    void setReferenceFromSelection();
    void clearReference();
    const std::optional<Molecule>& reference() const { return reference_; }
    // Hands the selected rows' poses (at most kMaxHandedPoses) to the part that takes `kind`
    // ("refine", "overlay": the reference first, "dock"); false when none takes it or nothing is
    // selected.
    bool handSelection(const QString& kind);
    // What the last showPoses drew: poses (the reference included) and contact lines.
    int shownDrawingCount() const { return shownDrawings_; }
    int shownContactLineCount() const { return shownContactLines_; }

    // The table's structure/interaction filter, evaluated by the store on a worker thread.
    void runStoreFilter(int request, const HitStoreFilter& filter);

    static constexpr int kMaxShownPoses = 200;
    static constexpr int kMaxContactPoses = 20; // contact lines of more poses are unreadable
    static constexpr int kMaxHandedPoses = 10000;

signals:
    void storeOpened(bool ok);

private:
    // The poses of these ids as stored (name set), in the ids' order, at most limit; the ids
    // read go to readIds.
    std::vector<Molecule> readPoses(const QList<qint64>& ids, qsizetype limit,
                                    std::vector<long long>* readIds = nullptr);
    void drawShown(const std::vector<Molecule>& poses, const std::vector<long long>& ids);
    void updateActions(const QList<qint64>& ids);

    PartContext* context_ = nullptr;
    QAction* reloadAction_ = nullptr; // File > Reload hit store: the open store read again
    // The table's sort and filters when a reload was asked for, restored when that read lands.
    std::shared_ptr<const HitTableState> reloadState_;
    int reloadGeneration_ = 0;
    QAction* referenceAction_ = nullptr;
    QAction* refineAction_ = nullptr;
    QAction* overlayAction_ = nullptr;
    QAction* dockAction_ = nullptr;
    std::optional<Molecule> reference_;
    int shownDrawings_ = 0;
    int shownContactLines_ = 0;
    bool storeHasContacts_ = false; // imported with a receptor
    HitTableView* table_ = nullptr;
    QDockWidget* dock_ = nullptr;
    std::unique_ptr<hits::HitStore> store_;
    // The structure filter's own connection (worker threads); a new one per opened store.
    std::shared_ptr<StoreFilterConnection> filterConnection_;
    QString storePath_;
    int openGeneration_ = 0; // the latest openStore call; older results are dropped
};

} // namespace pw
