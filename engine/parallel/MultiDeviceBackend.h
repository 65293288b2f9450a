// MultiDeviceBackend: one Backend over several devices (`--device cuda:all`, `cuda:0,2`): a batch
// is cut into contiguous chunks of about equal work (WorkSplit), one worker thread per device
// takes chunks from a shared queue and runs them on its device's backend (its own streams), and
// the results land at their place in the batch. Every result depends only on its own item (the
// docking random streams are keyed by the ligand's index in the input, passed on as
// firstLigand), so the output is the one device's output whatever the split and the timing.
// Shape overlay is split the same way; LINGO runs on the first device. Docking is cut into one
// chunk per device by estimated docking work (WorkSplit's dockWork: the budget grows with the
// torsions), so that each device runs one launch.
#pragma once

#include "backend/Backend.h"

#include <memory>
#include <vector>

namespace pw {

class MultiDeviceBackend final : public Backend {
public:
    // chunksPerDevice: how finely a batch is cut for the shared queue (more: better balance on
    // uneven work, smaller launches).
    explicit MultiDeviceBackend(std::vector<std::unique_ptr<Backend>> devices,
                                int chunksPerDevice = 3);

    std::string description() const override;
    bool isGpu() const override;
    int deviceCount() const { return int(devices_.size()); }

    void minimize(const DockingTarget& target, const std::vector<Molecule>& ligands,
                  const MinimizeBatchOptions& options, std::vector<RefinementResult>& results,
                  Progress* progress = nullptr) override;
    // Exact scoring split like minimize: each device scores its chunks (the pair kernel on a GPU).
    void scoreExact(const DockingTarget& target, const std::vector<Molecule>& ligands,
                    std::vector<VinaScore>& results) override;
    BatchStatus dock(const dock::DockTarget& target, const std::vector<Molecule>& ligands,
                     const dock::DockOptions& options, std::vector<dock::LigandDockResult>& results,
                     Progress* progress = nullptr, const Molecule* reference = nullptr,
                     long firstLigand = 0) override;
    std::unique_ptr<OverlayBatch> prepareOverlay(const shape::ShapeModel& reference,
                                                 const shape::OverlayOptions& options) override;
    std::unique_ptr<LingoComparison> prepareLingo(const lingo::LingoSet& queries,
                                                  const lingo::LingoSet& database,
                                                  bool allVsAll) override;

private:
    std::vector<std::unique_ptr<Backend>> devices_;
    int chunksPerDevice_;
};

// The number of devices behind a backend (1 unless it is a MultiDeviceBackend): commands scale
// their batch sizes with it so that every device gets a full batch.
int backendDeviceCount(const Backend& backend);

} // namespace pw
