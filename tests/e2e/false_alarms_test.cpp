// False alarms on correct kernels (issues 10 and 11), each from a kernel written for cvsim with the construct
// that upstream's printed programs use: an unsplit AIV function marked dual_aiv_dispatch (a2a3: lane 1 is a
// replay), a split_aiv region's expansion, a mixed function already in per-lane form (the reference runs both
// lanes), set_validshape in a hand-written split function, pl.dynamic dims sized by --input files, and a
// split_aiv region in a vector-only function. Hand-written AIC/AIV functions hold only their own side's ops.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "test_support.h"

using namespace cvsim::test;

namespace {

std::string kernel(const std::string& name) {
    return source_dir() + "/tests/e2e/kernels/" + name;
}

std::string write_text(const std::string& name, const std::string& text) {
    std::string path = ::testing::TempDir() + "/" + name;
    std::ofstream(path) << text;
    return path;
}

// An FP32 .npy of the given shape, every element `v`.
std::string write_npy(const std::string& name, int64_t rows, int64_t cols, float v) {
    std::string path = ::testing::TempDir() + "/" + name;
    std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (" + std::to_string(rows) + ", " +
                         std::to_string(cols) + "), }";
    while ((10 + header.size() + 1) % 64) header += ' ';
    header += '\n';
    std::ofstream out(path, std::ios::binary);
    out.write("\x93NUMPY\x01\x00", 8);
    const char len[2] = {static_cast<char>(header.size() & 0xff), static_cast<char>(header.size() >> 8)};
    out.write(len, 2);
    out << header;
    for (int64_t i = 0; i < rows * cols; ++i) out.write(reinterpret_cast<const char*>(&v), sizeof v);
    return path;
}

RunResult check(const std::string& path, const std::string& extra = "") {
    auto args = split_args("check " + path + " --schedules 20 --jobs 1 --no-progress " + extra);
    return run_cvsim(args);
}

}  // namespace

TEST(FalseAlarms, AnUnsplitDualDispatchAivFunctionReplaysLaneOneOnA2a3) {
    // a2a3: PyPTO's SplitVectorKernel turns lane 1 into a replay (no loads, no stores, empty pushes): clean.
    RunResult a = check(kernel("fa_dual_nosplit.py"));
    EXPECT_EQ(a.exit_code, 0) << a.out << a.err;
    EXPECT_EQ(unwrapped(a.out).find("E-RACE"), std::string::npos) << a.out;
    // a5: dual_aiv_dispatch runs both lanes in full, and both store `scaled`: the WAW is real and stays.
    RunResult b = check(kernel("fa_dual_nosplit.py"), "--target a5");
    EXPECT_EQ(b.exit_code, 1) << b.out << b.err;
    EXPECT_NE(unwrapped(b.out).find("error[E-RACE-WAW]: WAW on GM scaled"), std::string::npos) << b.out;
}

TEST(FalseAlarms, PyptoPrintedDualDispatchExpansionIsClean) {
    // PyPTO's own expansion (a2a3) of a kernel written for cvsim: its AIV function is dual_aiv_dispatch.
    std::string after = source_dir() + "/tests/golden/pypto/parity/v2c_scale_matmul.after.py";
    ASSERT_NE(read_file(after).find("\"dual_aiv_dispatch\": True"), std::string::npos);
    RunResult r = check(after);
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
}

TEST(FalseAlarms, ASplitAivRegionStillRunsBothLanesAfterItsExpansion) {
    // cvsim's expansion of a split_aiv(NONE) region marks the AIV function split_aiv as PyPTO does, so checking
    // the expanded program keeps lane 1's stores: both halves of y (plus z) are written.
    RunResult e = run_cvsim({"expand", kernel("fa_region_none.py")});
    ASSERT_EQ(e.exit_code, 0) << e.err;
    EXPECT_NE(e.out.find("pl.func_attr({'split_aiv': True, 'dual_aiv_dispatch': True})"), std::string::npos) << e.out;
    for (const std::string& path : {kernel("fa_region_none.py"), write_text("fa_region_none_after.py", e.out)}) {
        RunResult r = run_cvsim({"run", path});
        EXPECT_EQ(r.exit_code, 0) << path << "\n" << r.out << r.err;
        EXPECT_NE(unwrapped(r.out).find("4096 B written"), std::string::npos) << path << "\n" << r.out;
        EXPECT_NE(unwrapped(r.out).find("equal to the reference"), std::string::npos) << r.out;
    }
}

TEST(FalseAlarms, APerLaneMixedFunctionIsReferencedWithBothLanes) {
    // With split + split_aiv (the lanes used to run, the reference ran lane 0 only: E-MISMATCH on lane 1's
    // rows) and with split_aiv alone (lane 1 used to be a replay: half the kernel unchecked).
    std::string text = read_file(kernel("fa_per_lane_mixed.py"));
    std::string only = text;
    const std::string attr = "{\"split\": pl.SplitMode.UP_DOWN, \"split_aiv\": True}";
    auto at = only.find(attr);
    ASSERT_NE(at, std::string::npos);
    only.replace(at, attr.size(), "{\"split_aiv\": True}");
    for (const std::string& path : {kernel("fa_per_lane_mixed.py"), write_text("fa_per_lane_only.py", only)}) {
        RunResult r = run_cvsim({"run", path});
        EXPECT_EQ(r.exit_code, 0) << path << "\n" << r.out << r.err;
        EXPECT_NE(unwrapped(r.out).find("4096 B written"), std::string::npos) << path << "\n" << r.out;
        EXPECT_NE(unwrapped(r.out).find("equal to the reference (2 tensors"), std::string::npos) << r.out;
        RunResult c = check(path);
        EXPECT_EQ(c.exit_code, 0) << path << "\n" << c.out << c.err;
    }
}

TEST(FalseAlarms, SetValidShapeInAHandWrittenSplitFunctionIsLocalizedPerLane) {
    // Lane 1 keeps rows [8, 16) of the narrowed tile: no E-OOB, 16 x 8 FP32 stored in all.
    RunResult c = check(kernel("fa_split_validshape.py"));
    EXPECT_EQ(c.exit_code, 0) << c.out << c.err;
    EXPECT_EQ(unwrapped(c.out + c.err).find("E-OOB"), std::string::npos) << c.out << c.err;
    RunResult r = run_cvsim({"run", kernel("fa_split_validshape.py")});
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_NE(unwrapped(r.out).find("512 B written"), std::string::npos) << r.out;
}

TEST(FalseAlarms, ADynamicDimTakesTheShapeOfItsInputFile) {
    std::string x = write_npy("fa_dyn_x48.npy", 48, 64, 1.5f);
    std::string dir = ::testing::TempDir() + "/fa_dyn_out";
    RunResult r = run_cvsim({"run", kernel("fa_dynamic_input.py"), "--input", "x=" + x, "--output-dir", dir});
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_NE(read_file(dir + "/y.npy").find("'shape': (48, 64)"), std::string::npos);
    RunResult c =
        run_cvsim({"check", kernel("fa_dynamic_input.py"), "--input", "x=" + x, "--schedules", "5", "--no-progress"});
    EXPECT_EQ(c.exit_code, 0) << c.out << c.err;
    EXPECT_EQ(c.err.find("is not bound"), std::string::npos) << c.err;  // M came from the file, not the default
    // An explicit --dim still wins: the file then disagrees with the declared shape.
    RunResult d = run_cvsim({"run", kernel("fa_dynamic_input.py"), "--input", "x=" + x, "--dim", "M=32"});
    EXPECT_EQ(d.exit_code, 2) << d.out << d.err;
    EXPECT_NE(d.err.find("shape does not match"), std::string::npos) << d.err;
}

TEST(FalseAlarms, ACoreNumAttrIsTheLaunchBlockCount) {
    // Missed before: checked on one block, two blocks storing the same rows could not race.
    std::string text = read_file(kernel("fa_core_num.py"));
    std::string racy = text;
    const std::string store = "mid = pl.store(s, [b * 16, 0], mid)";
    auto at = racy.find(store);
    ASSERT_NE(at, std::string::npos);
    racy.replace(at, store.size(), "mid = pl.store(s, [0, 0], mid)");
    RunResult bad = check(write_text("fa_core_num_racy.py", racy));
    EXPECT_EQ(bad.exit_code, 1) << bad.out << bad.err;
    EXPECT_NE(unwrapped(bad.out).find("error[E-RACE-WAW]: WAW on GM mid[0:16, 0:32]"), std::string::npos) << bad.out;
    RunResult good = check(kernel("fa_core_num.py"));
    EXPECT_EQ(good.exit_code, 0) << good.out << good.err;
    EXPECT_EQ(good.err.find("core_num at run time"), std::string::npos) << good.err;  // a constant core_num
    // One launch: the plan itself takes the width (4 blocks x 16 rows x 32 FP32 written).
    std::string one = text;
    const std::string second = "        o = self.scale_spmd(m, out, attrs={\"core_num\": 4})\n        return o\n";
    at = one.find(second);
    ASSERT_NE(at, std::string::npos);
    one.replace(at, second.size(), "        return m\n");
    RunResult r = run_cvsim({"run", write_text("fa_core_num_one.py", one)});
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_NE(unwrapped(r.out).find("8192 B written"), std::string::npos) << r.out;
}

// A core_num the orchestration computes (cores = 2 + 2) is the width the host walk evaluates: the racy
// single launch is checked on 4 blocks and the race found; before, it ran as the entry on --blocks 1 (a note
// said so) and the race was missed.
TEST(FalseAlarms, AComputedCoreNumIsTheWidthTheHostWalkEvaluates) {
    std::string text = read_file(kernel("fa_core_num.py"));
    auto replace = [&](const std::string& from, const std::string& to) {
        auto at = text.find(from);
        ASSERT_NE(at, std::string::npos) << from;
        text.replace(at, from.size(), to);
    };
    replace("mid = pl.store(s, [b * 16, 0], mid)", "mid = pl.store(s, [0, 0], mid)");
    replace(
        "        m = self.double_spmd(a, mid, attrs={\"core_num\": 4})\n        o = self.scale_spmd(m, out, "
        "attrs={\"core_num\": 4})\n        return o\n",
        "        cores: pl.Scalar[pl.INDEX] = 2 + 2\n        m = self.double_spmd(a, mid, attrs={\"core_num\": "
        "cores})\n        return m\n");
    RunResult r = check(write_text("fa_core_num_computed.py", text));
    EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
    EXPECT_NE(unwrapped(r.out).find("error[E-RACE-WAW]: WAW on GM mid[0:16, 0:32]"), std::string::npos) << r.out;
    EXPECT_NE(unwrapped(r.err).find("the host walk evaluates it to 4 block(s), which cvsim launches"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(r.err.find("cvsim launches --blocks 1"), std::string::npos) << r.err;
}

TEST(FalseAlarms, BothLanesOfASplitZeroGatherOnA5DoNotRaceWithEachOther) {
    // Upstream's own a5 expansion of its dual-dispatch V2C board tests has both AIV lanes push one split-0 slot;
    // the cube's pop waits for both. Their two writes of one slot generation are a gather, not a WAW (SPEC 4.3).
    RunResult same = check(kernel("fa_dual_gather_a5.py"), "--target a5");
    EXPECT_EQ(same.exit_code, 0) << same.out << same.err;
    EXPECT_EQ(unwrapped(same.out).find("E-RACE"), std::string::npos) << same.out;
    // Lane-dependent data: the cube's tile depends on which push landed last: W-NONUNIFORM-GATHER, not a pass.
    RunResult differs = check(kernel("fa_dual_gather_differs_a5.py"), "--target a5");
    EXPECT_EQ(differs.exit_code, 1) << differs.out << differs.err;
    EXPECT_NE(unwrapped(differs.out).find("warning[W-NONUNIFORM-GATHER]"), std::string::npos) << differs.out;
    EXPECT_EQ(unwrapped(differs.out).find("E-RACE-WAW"), std::string::npos) << differs.out;
}

TEST(FalseAlarms, InProcessCheckOfLaunchesOfDifferentWidthsGivesEachItsVerdict) {
    // Two launches of 2 and then 4 blocks, checked in one process (--jobs 0, as scripts/read_dumps.py does):
    // SystemC elaborates once, so the second launch used to stop at "this process elaborated 2 clusters".
    std::string text = read_file(kernel("fa_core_num.py"));
    const std::string first = "attrs={\"core_num\": 4})\n        o =";
    ASSERT_NE(text.find(first), std::string::npos);
    text.replace(text.find(first), first.size(), "attrs={\"core_num\": 2})\n        o =");
    RunResult r = run_cvsim(
        {"check", write_text("fa_core_num_2_4.py", text), "--schedules", "5", "--jobs", "0", "--no-progress"});
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_EQ(r.err.find("elaborated"), std::string::npos) << r.err;
    const std::string out = unwrapped(r.out);
    size_t passes = 0;
    for (size_t at = out.find("PASS: no finding"); at != std::string::npos; at = out.find("PASS: no finding", at + 1))
        ++passes;
    EXPECT_EQ(passes, 2u) << "one verdict per launch:\n" << r.out;
    // and the file's own line last (its last lines would otherwise be one kernel's verdict)
    EXPECT_NE(out.find("PASS (the file): all 2 kernel verdict(s) clean\n"), std::string::npos) << r.out;
}

TEST(FalseAlarms, ASplitAivRegionOfAVectorOnlyFunctionGivesEachLaneItsHalf) {
    // Each lane used to run both iterations of the region (both wrote both halves: E-RACE-WAW on every run).
    for (const char* target : {"a2a3", "a5"}) {
        SCOPED_TRACE(target);
        RunResult r = run_cvsim(
            {"check", kernel("split_region_vector_only.py"), "--target", target, "--schedules", "20", "--jobs", "1"});
        EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
        RunResult e = run_cvsim({"expand", kernel("split_region_vector_only.py"), "--target", target});
        ASSERT_EQ(e.exit_code, 0) << e.err;
        EXPECT_NE(e.out.find("lane: pl.Scalar[pl.INDEX] = pl.tile.get_subblock_idx()"), std::string::npos) << e.out;
    }
    // The adversary: both lanes write rows 0-7 (the store ignores the lane) -- a real WAW between the lanes.
    std::string src = read_file(kernel("split_region_vector_only.py"));
    const std::string from = "out = pl.store(v, [lane * 8, 0], out)";
    src.replace(src.find(from), from.size(), "out = pl.store(v, [0, 0], out)");
    RunResult bad =
        run_cvsim({"check", write_text("split_region_vector_only_waw.py", src), "--schedules", "20", "--jobs", "1"});
    EXPECT_EQ(bad.exit_code, 1) << bad.out << bad.err;
    EXPECT_NE(unwrapped(bad.out).find("error[E-RACE-WAW]: WAW on GM out[0:8, 0:16]: AIV"), std::string::npos)
        << bad.out;
}

TEST(LaneSides, AVectorOpInAnAicFunctionAndACubeOpInAnAivFunctionAreTypeErrors) {
    const std::string head = "import pypto.language as pl\n\n\n@pl.program\nclass P:\n";
    const std::string aic = head +
                            "    @pl.function(type=pl.FunctionType.AIC)\n"
                            "    def k(self, t: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], "
                            "pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:\n"
                            "        g = pl.tile.adds(pl.load(t, [0, 0], [16, 16]), 1.0)\n"
                            "        out_1 = pl.store(g, [0, 0], out)\n"
                            "        return out_1\n";
    RunResult r = run_cvsim({"run", write_text("lane_sides_aic.py", aic), "--entry", "k"});
    EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
    EXPECT_NE(
        r.err.find(
            "lane_sides_aic.py:8:26: error[E-TYPE]: pl.tile.load runs on the vector core, but 'k' is an AIC function"),
        std::string::npos)
        << r.err;
    const std::string aiv = head +
                            "    @pl.function(type=pl.FunctionType.AIV)\n"
                            "    def k(self, a: pl.Tensor[[16, 16], pl.FP16], out: pl.Out[pl.Tensor[[16, 16], "
                            "pl.FP16]]) -> pl.Tensor[[16, 16], pl.FP16]:\n"
                            "        a_l = pl.load(a, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)\n"
                            "        v = pl.load(a, [0, 0], [16, 16])\n"
                            "        out_1 = pl.store(v, [0, 0], out)\n"
                            "        return out_1\n";
    RunResult v = run_cvsim({"run", write_text("lane_sides_aiv.py", aiv), "--entry", "k"});
    EXPECT_EQ(v.exit_code, 2) << v.out << v.err;
    EXPECT_NE(v.err.find("error[E-TYPE]: pl.tile.load runs on the cube core, but 'k' is an AIV function"),
              std::string::npos)
        << v.err;
    EXPECT_NE(v.err.find("^"), std::string::npos) << v.err;
}
