// Valid programs cvsim used to reject (issue 11): bounds on the valid region, a split axis of extent 1,
// *_initialize_pipe defaults, tfree(..., split=), operands in the wrong memory (InferTileMemorySpace's moves).
#include <gtest/gtest.h>

#include "test_support.h"

using namespace cvsim::test;

namespace {

std::string kernel(const std::string& name) {
    return source_dir() + "/tests/e2e/kernels/" + name;
}

void expect_clean_check(const std::string& k) {
    RunResult c = run_cvsim({"check", kernel(k), "--schedules", "30", "--jobs", "0"});
    EXPECT_EQ(c.exit_code, 0) << k << "\n" << c.out << c.err;
    EXPECT_NE(c.out.find("PASS"), std::string::npos) << c.out;
}

void expect_run_matches_reference(const std::string& k) {
    RunResult r = run_cvsim({"run", kernel(k)});
    EXPECT_EQ(r.exit_code, 0) << k << "\n" << r.out << r.err;
    EXPECT_NE(unwrapped(r.out).find("equal to the reference"), std::string::npos) << r.out;
}

TEST(FalseRejections, BoundsAreCheckedOnTheValidRegionNotThePhysicalTile) {
    expect_run_matches_reference("fr_valid_bounds.py");
    // Only the valid region is read and written: 16 x 100 FP32 each way.
    RunResult r = run_cvsim({"run", kernel("fr_valid_bounds.py")});
    EXPECT_NE(r.out.find("6400 B read, 6400 B written"), std::string::npos) << r.out;
}

TEST(FalseRejections, AValidRegionOutsideTheSourceIsStillOutOfBounds) {
    std::string dir = ::testing::TempDir() + "/fr_oob";
    std::string text = read_file(kernel("fr_valid_bounds.py"));
    auto at = text.find("valid_shape=[16, 100]");
    ASSERT_NE(at, std::string::npos);
    text.replace(at, 21, "valid_shape=[16, 104]");
    std::string path = ::testing::TempDir() + "/fr_oob.py";
    FILE* f = fopen(path.c_str(), "w");
    ASSERT_TRUE(f);
    fputs(text.c_str(), f);
    fclose(f);
    RunResult r = run_cvsim({"run", path});
    EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
    EXPECT_NE(r.err.find("E-OOB"), std::string::npos) << r.err;
}

TEST(FalseRejections, ASplitAxisOfExtentOneIsLeftUnsplit) {
    RunResult e = run_cvsim({"expand", kernel("fr_singleton_split_axis.py"), "--v2c", "off"});
    ASSERT_EQ(e.exit_code, 0) << e.err;
    // The [16, 1] column stays whole on the AIV lane; the matmul result is halved by columns.
    EXPECT_NE(e.out.find("col: pl.Tile[[16, 1], pl.FP32, pl.Mem.Vec] = pl.tile.load(s, [0, 0], [16, 1]"),
              std::string::npos)
        << e.out;
    EXPECT_NE(e.out.find("y: pl.Tile[[16, 32], pl.FP32"), std::string::npos) << e.out;
    expect_clean_check("fr_singleton_split_axis.py");
    expect_run_matches_reference("fr_singleton_split_axis.py");
}

TEST(FalseRejections, PipeSetupDefaultsLocalSlotNumAndTfreeSplitAreAccepted) {
    expect_clean_check("fr_pipe_defaults.py");
    expect_run_matches_reference("fr_pipe_defaults.py");
}

TEST(FalseRejections, LocalSlotNumAboveSlotNumIsATypeError) {
    std::string text = read_file(kernel("fr_pipe_defaults.py"));
    auto at = text.find("slot_num=2, local_slot_num=2)");
    ASSERT_NE(at, std::string::npos);
    text.replace(at, 29, "slot_num=2, local_slot_num=3)");
    std::string path = ::testing::TempDir() + "/fr_local_slots.py";
    FILE* f = fopen(path.c_str(), "w");
    ASSERT_TRUE(f);
    fputs(text.c_str(), f);
    fclose(f);
    RunResult r = run_cvsim({"run", path});
    EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
    EXPECT_NE(r.err.find("local_slot_num must be a constant in 1..slot_num"), std::string::npos) << r.err;
}

TEST(FalseRejections, OperandsInTheWrongMemoryGetTheMovesInferTileMemorySpaceInserts) {
    RunResult e = run_cvsim({"expand", kernel("fr_wrong_mem.py"), "--v2c", "off"});
    ASSERT_EQ(e.exit_code, 0) << e.err;
    EXPECT_NE(
        e.out.find(
            "x_mat_Left: pl.Tile[[16, 64], pl.FP16, pl.Mem.Left] = pl.tile.move(x_mat, target_memory=pl.Mem.Left)"),
        std::string::npos)
        << e.out;
    EXPECT_NE(e.out.find("pl.tile.matmul(x_mat_Left, w_mat_Right)"), std::string::npos) << e.out;
    EXPECT_NE(e.out.find("pl.tile.exp(z_Vec)"), std::string::npos) << e.out;
    expect_clean_check("fr_wrong_mem.py");
    expect_run_matches_reference("fr_wrong_mem.py");
}

}  // namespace
