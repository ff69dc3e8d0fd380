// Forms printed or hand-written programs use (issue 10, class 13): a valid region carried only by the
// result's type annotation, a hand-written split AIV function, a hand-written V2C push on a5.
#include <gtest/gtest.h>

#include "test_support.h"

using namespace cvsim::test;

namespace {

std::string kernel(const std::string& name) {
    return source_dir() + "/tests/e2e/kernels/" + name;
}

// Runs `k` and returns the bytes of its output tensor `name` (.npy written by --output-dir).
std::string run_output(const std::string& k, const std::string& name, const std::string& tag) {
    std::string dir = ::testing::TempDir() + "/printed_forms_" + tag;
    RunResult r = run_cvsim({"run", kernel(k), "--output-dir", dir});
    EXPECT_EQ(r.exit_code, 0) << k << r.out << r.err;
    return read_file(dir + "/" + name + ".npy");
}

TEST(PrintedForms, AValidShapeInTheResultAnnotationBoundsTheReferenceToo) {
    RunResult c = run_cvsim({"check", kernel("annotated_valid.py")});
    EXPECT_EQ(c.exit_code, 0) << c.out << c.err;
    EXPECT_EQ(c.out.find("E-UNWRITTEN"), std::string::npos) << c.out;
}

TEST(PrintedForms, AHandWrittenSplitAivFunctionIsHalvedBetweenTheLanes) {
    RunResult c = run_cvsim({"check", kernel("handwritten_split_aiv.py")});
    EXPECT_EQ(c.exit_code, 0) << c.out << c.err;
    EXPECT_EQ(c.out.find("E-RACE-WAW"), std::string::npos) << c.out;
    // The halves add up to what one unsplit vector kernel computes (same tensor names: same inputs).
    std::string split = run_output("handwritten_split_aiv.py", "y", "split");
    EXPECT_FALSE(split.empty());
    EXPECT_EQ(split, run_output("handwritten_split_aiv_plain.py", "y", "plain"));
}

TEST(PrintedForms, AHandWrittenSplitV2cRingGathersBothHalves) {
    RunResult c = run_cvsim({"check", kernel("handwritten_split_v2c.py")});
    EXPECT_EQ(c.exit_code, 0) << c.out << c.err;
    // Equal to the mixed kernel it is the expansion of.
    std::string hand = run_output("handwritten_split_v2c.py", "out", "hand");
    EXPECT_FALSE(hand.empty());
    EXPECT_EQ(hand, run_output("handwritten_split_v2c_mixed.py", "out", "mixed"));
}

TEST(PrintedForms, AHandWrittenV2cPushInAMixedKernelGetsTheNzAdapterOnA5) {
    RunResult c = run_cvsim({"check", kernel("mixed_handwritten_push_a5.py"), "--target", "a5"});
    EXPECT_EQ(c.exit_code, 0) << c.out << c.err;
    EXPECT_EQ(c.out.find("W-V2C-LAYOUT"), std::string::npos) << c.out;
    RunResult e = run_cvsim({"expand", kernel("mixed_handwritten_push_a5.py"), "--target", "a5"});
    EXPECT_NE(e.out.find("pl.tile.tpush_to_aic(t2_nz, split=0)"), std::string::npos) << e.out;
    // a2a3 repacks on the pop: no adapter there.
    RunResult a2 = run_cvsim({"expand", kernel("mixed_handwritten_push_a5.py")});
    EXPECT_NE(a2.out.find("pl.tile.tpush_to_aic(t2, split=0)"), std::string::npos) << a2.out;
}

}  // namespace
