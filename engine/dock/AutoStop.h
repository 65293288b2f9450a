// AutoStop: the convergence test of one LGA run (after AutoDock-GPU's --autostop): the run stops
// when its best individuals have stopped improving and agree within a tolerance.
#pragma once

#include <array>
#include <vector>

namespace pw::dock {

class AutoStop {
public:
    // tolerance: kcal/mol (AD-GPU --stopstd); frequency: generations between checks (--asfreq).
    AutoStop(double tolerance, int frequency) : tolerance_(tolerance), frequency_(frequency) {}

    // Called after every generation with the population's energies. Every `frequency`
    // generations it records the best energy and the mean and spread of the best tenth of the
    // population ("the cream"); it answers true once the last four records pool to a standard
    // deviation below the tolerance and their best energies are equal (no progress).
    bool converged(long generation, const std::vector<double>& energies);

private:
    struct Record {
        double best = 0, sum = 0, sumSquares = 0;
        int count = 0;
    };
    double tolerance_;
    int frequency_;
    std::array<Record, 4> window_{};
    int recorded_ = 0;
    std::vector<double> sorted_;
};

} // namespace pw::dock
