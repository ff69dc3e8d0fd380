// pl.tile.gather_compare (pto-isa TGATHER compare form, frontend/sema_gather_compare.cpp + frontend/ops_sort.cpp):
// both forms PyPTO produces (the DSL's `d, c = ...` and the printed `t = ...; t[0]; t[1]`) run bit-exact to the
// reference on both targets and equal indices and counts computed here by hand (valid region, offset, UINT32
// counts); cvsim's printed expansion reads back and runs to the same outputs; a row with more matches than
// out_cols is an E-OOB finding; misuse gets a diagnostic at a caret, with the a2a3 form's narrower dtype list.
#include <gtest/gtest.h>

#include <filesystem>

#include "npy_support.h"

using namespace cvsim;
using namespace cvsim::test;

namespace {

std::string kernel(const std::string& name) {
    return source_dir() + "/tests/e2e/kernels/" + name;
}

// x[r, c] in -5..5; y has 7 at the columns c = r (mod 16) of row r, 100 + c elsewhere (y[0, 0] = 7 is the key).
std::vector<double> x_values() {
    std::vector<double> x(8 * 64);
    for (int r = 0; r < 8; ++r)
        for (int c = 0; c < 64; ++c) x[static_cast<size_t>(r * 64 + c)] = (r * 7 + c * 3) % 11 - 5;
    return x;
}
std::vector<double> y_values(int extra_in_row1 = 0) {
    std::vector<double> y(8 * 64);
    for (int r = 0; r < 8; ++r)
        for (int c = 0; c < 64; ++c) y[static_cast<size_t>(r * 64 + c)] = c % 16 == r ? 7 : 100 + c;
    for (int c = 2; c < 2 + extra_in_row1; ++c) y[static_cast<size_t>(64 + c)] = 7;  // more matches in row 1
    return y;
}

struct Inputs {
    std::string dir;
    std::vector<std::string> args() const {
        return {"--input", "x=" + dir + "/x.npy", "--input", "y=" + dir + "/y.npy", "--output-dir", dir};
    }
};
Inputs write_inputs(const std::string& tag, int extra_in_row1 = 0) {
    Inputs in{::testing::TempDir() + "/gather_compare_" + tag};
    std::filesystem::create_directories(in.dir);
    rt::write_npy(npy_buffer("x", DType::FP32, {8, 64}, x_values()), in.dir + "/x.npy");
    rt::write_npy(npy_buffer("y", DType::INT32, {8, 64}, y_values(extra_in_row1)), in.dir + "/y.npy");
    return in;
}

void expect_hand_computed(const std::string& dir) {
    const std::vector<double> x = x_values();
    const auto d1 = npy_values(dir, "d1", DType::INT32, {8, 16}), c1 = npy_values(dir, "c1", DType::INT32, {1, 8});
    const auto d2 = npy_values(dir, "d2", DType::INT32, {8, 8}), c2 = npy_values(dir, "c2", DType::UINT32, {1, 8});
    for (int r = 0; r < 8; ++r) {
        SCOPED_TRACE(r);
        // gt 2.0 over the 6 x 50 valid region, offset 100; rows 6 and 7 have no valid element.
        std::vector<double> want;
        for (int c = 0; r < 6 && c < 50; ++c)
            if (x[static_cast<size_t>(r * 64 + c)] > 2.0) want.push_back(100 + c);
        ASSERT_LE(want.size(), 16u);
        EXPECT_EQ(c1[static_cast<size_t>(r)], static_cast<double>(want.size()));
        for (size_t k = 0; k < 16; ++k)
            EXPECT_EQ(d1[static_cast<size_t>(r) * 16 + k], k < want.size() ? want[k] : 0.0) << k;
        // eq 7: columns r, r + 16, r + 32, r + 48 (the column within the row, not the flattened position).
        EXPECT_EQ(c2[static_cast<size_t>(r)], 4.0);
        for (int k = 0; k < 8; ++k) EXPECT_EQ(d2[static_cast<size_t>(r * 8 + k)], k < 4 ? r + 16.0 * k : 0.0) << k;
    }
}

}  // namespace

TEST(GatherCompare, BothFormsEqualTheReferenceAndTheHandComputedIndicesAndCounts) {
    for (const char* target : {"a2a3", "a5"}) {
        SCOPED_TRACE(target);
        Inputs in = write_inputs(target);
        std::vector<std::string> cmd = {"run", kernel("gather_compare.py"), "--target", target};
        for (auto& a : in.args()) cmd.push_back(a);
        RunResult r = run_cvsim(cmd);
        ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
        EXPECT_NE(unwrapped(r.out).find("outputs: equal to the reference (4 tensors, bit-exact)"), std::string::npos)
            << r.out;
        expect_hand_computed(in.dir);
    }
}

TEST(GatherCompare, ThePrintedLoweringReadsBackAndRunsToTheSameOutputs) {
    const std::string printed = ::testing::TempDir() + "/gather_compare_printed.py";
    RunResult e = run_cvsim({"expand", kernel("gather_compare.py"), "-o", printed});
    ASSERT_EQ(e.exit_code, 0) << e.out << e.err;
    const std::string text = read_file(printed);
    EXPECT_NE(text.find("pl.tile.gather_compare_dst("), std::string::npos) << text;
    EXPECT_NE(text.find("pl.tile.gather_compare_cdst("), std::string::npos) << text;
    Inputs in = write_inputs("printed");
    std::vector<std::string> cmd = {"run", printed, "--entry", "f"};  // expand prints the kernel as an AIV function
    for (auto& a : in.args()) cmd.push_back(a);
    RunResult r = run_cvsim(cmd);
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    expect_hand_computed(in.dir);
}

TEST(GatherCompare, ARowWithMoreMatchesThanOutColsIsOutOfBounds) {
    Inputs in = write_inputs("overflow", 5);  // row 1: 4 + 5 = 9 matches, out_cols 8
    std::vector<std::string> cmd = {"run", kernel("gather_compare.py")};
    for (auto& a : in.args()) cmd.push_back(a);
    RunResult r = run_cvsim(cmd);
    EXPECT_NE(r.exit_code, 0) << r.out << r.err;
    EXPECT_NE((r.out + r.err).find("error[E-OOB]"), std::string::npos) << r.out << r.err;
    EXPECT_NE((r.out + r.err).find("row 1 of src has 9 matches but out_cols is 8"), std::string::npos)
        << r.out << r.err;
}

TEST(GatherCompare, MisusesGetADiagnosticAtACaret) {
    const std::string first = "pl.tile.gather_compare(s, 2.0, tmp, cmp_mode=\"gt\", offset=100, out_cols=16)";
    const std::vector<Misuse> cases = {
        {"cmp_mode=\"gt\"", "cmp_mode=\"ne\"", "E-UNSUPPORTED", "TGATHER compare form has only EQ and GT", "a5"},
        {"cmp_mode=\"gt\"", "cmp_mode=\"gte\"", "E-TYPE", "invalid cmp_mode 'gte'", "a5"},
        {"cmp_mode=0", "cmp_mode=4", "E-UNSUPPORTED", "INT32 src with cmp_mode gt is not supported on a2a3", "a2a3"},
        {", out_cols=16)", ")", "E-TYPE", "missing required argument 'out_cols'", "a5"},
        {"out_cols=16", "out_cols=0", "E-TYPE", "requires out_cols > 0", "a5"},
        {"count_dtype=pl.UINT32", "count_dtype=pl.INT16", "E-TYPE", "count_dtype to be INT32 or UINT32", "a5"},
        {"k: pl.Scalar[pl.INT32] = pl.tile.read(v, [0, 0])", "k: pl.Scalar[pl.FP32] = pl.tile.read(x1, [0, 0])",
         "E-TYPE", "kvalue dtype equal to src dtype INT32, but got FP32", "a5"},
        {"d1_1 = pl.store(idx, [0, 0], d1)",
         "d1_1 = pl.store(idx, [0, 0], d1)\n        bad = pl.tile.gather_compare(s, 1.0, tmp, out_cols=4)\n"
         "        w = pl.tile.add(bad, bad)",
         "E-TYPE", "pair of tiles pl.tile.gather_compare returns", "a5"},
        {first, "pl.tile.add(" + first + ", s)", "E-TYPE", "returns two tiles (dst, cdst)", "a5"},
        {"offset=100,", "ofset=100,", "E-TYPE", "unexpected keyword argument 'ofset'", "a5"},
        {"d2_1 = pl.store(e, [0, 0], d2)",
         "t__cdst = pl.tile.full([1, 8], dtype=pl.UINT32, value=7)\n        d2_1 = pl.store(e, [0, 0], d2)", "E-TYPE",
         "'t__cdst' names an element of 't'", "a5"},
        {"        v = pl.load(y, [0, 0], [8, 64])\n",
         "        t__dst = pl.tile.full([8, 8], dtype=pl.INT32, value=7)\n        v = pl.load(y, [0, 0], [8, 64])\n",
         "E-TYPE", "already has a 't__dst'", "a5"},
    };
    std::string src = read_file(kernel("gather_compare.py"));
    // A FP32 tile for the kvalue-dtype case.
    src.replace(src.find("        v = pl.load("), 0, "        x1 = pl.load(x, [0, 0], [8, 64])\n");
    expect_misuses(src, cases, "gather_compare");
}

TEST(GatherCompare, Int16IsAnA5FormOnly) {
    std::string src = read_file(kernel("gather_compare.py"));
    // An INT16 source compared for equality: the a5 form takes it, a2a3's refuses it at the operand.
    const std::string from = "        v = pl.load(y, [0, 0], [8, 64])\n";
    src.replace(src.find(from), from.size(), "        v = pl.cast(pl.load(y, [0, 0], [8, 64]), pl.INT16)\n");
    src.replace(src.find("pl.Scalar[pl.INT32]"), 19, "pl.Scalar[pl.INT16]");
    const std::string path = ::testing::TempDir() + "/gather_compare_int16.py";
    ASSERT_TRUE(write_text_file(path, src));
    Inputs in = write_inputs("int16");
    std::vector<std::string> cmd = {"run", path, "--target", "a5"};
    for (auto& a : in.args()) cmd.push_back(a);
    RunResult ok = run_cvsim(cmd);
    ASSERT_EQ(ok.exit_code, 0) << ok.out << ok.err;
    expect_hand_computed(in.dir);
    RunResult no = run_cvsim({"run", path, "--target", "a2a3"});
    EXPECT_EQ(no.exit_code, 2) << no.out << no.err;
    EXPECT_NE(no.err.find("INT16 src is not supported on a2a3"), std::string::npos) << no.err;
}

TEST(GatherCompare, TheCountsAloneStillCheckTheRowOverflowInAMixedKernel) {
    RunResult r = run_cvsim({"run", kernel("gather_compare_mixed.py")});
    EXPECT_NE(r.exit_code, 0) << r.out << r.err;
    // Found by the simulator's counts op (the indices op is dead after the expansion), not only by the reference.
    EXPECT_NE(unwrapped(r.out).find(
                  "error[E-OOB]: gather_compare_mixed.py:19: pl.tile.gather_compare: row 0 of src has 16 matches"),
              std::string::npos)
        << r.out;
    RunResult e = run_cvsim({"expand", kernel("gather_compare_mixed.py")});
    ASSERT_EQ(e.exit_code, 0) << e.err;
    EXPECT_EQ(e.out.find("gather_compare_dst"), std::string::npos) << e.out;
    EXPECT_NE(e.out.find("gather_compare_cdst"), std::string::npos) << e.out;
}
