// Calibration of the a2a3 preset against the figures HARDWARE.md gives (printed for the record).
#include <gtest/gtest.h>

#include <iostream>

#include "core/cost_model.h"
#include "sim/session.h"
#include "test_support.h"

using namespace cvsim;
using namespace cvsim::sim;
using namespace cvsim::test;

namespace {

uint64_t nominal_cycles(const std::string& path) {
    SessionOptions o;
    Session s(SourceFile::read(path), o);
    ScheduleResult r = s.run(Schedule{});
    EXPECT_TRUE(r.clean()) << path;
    return r.cycles();
}

TEST(Calibration, NarrowGmRowsCost16To25PercentMoreThanWideRows) {
    uint64_t narrow = nominal_cycles(kernel_path("l2_rows_narrow.py"));
    uint64_t wide = nominal_cycles(kernel_path("l2_rows_wide.py"));
    double ratio = static_cast<double>(narrow) / static_cast<double>(wide);
    std::cout << "calibration: l2_rows_narrow " << narrow << " cycles / l2_rows_wide " << wide << " cycles = " << ratio
              << " (device: 1.16-1.25)\n";
    RecordProperty("narrow_over_wide", std::to_string(ratio));
    EXPECT_GE(ratio, 1.16);
    EXPECT_LE(ratio, 1.25);
}

TEST(Calibration, ComputeBoundMatmulIsWithinTenPercentOfTheMadBound) {
    uint64_t total = nominal_cycles(source_dir() + "/examples/matmul_compute_bound.py");
    HwParams hw = preset(Target::A2A3);
    uint64_t bound = 64 * mad_cycles(hw.cube, DType::FP16, 128, 128, 256);
    double over = static_cast<double>(total) / static_cast<double>(bound);
    std::cout << "calibration: compute-bound matmul " << total << " cycles, MAD bound " << bound << " cycles, ratio "
              << over << "\n";
    RecordProperty("matmul_over_mad_bound", std::to_string(over));
    EXPECT_GE(over, 1.0);
    EXPECT_LE(over, 1.10);
}

}  // namespace
