// Lazy GM inputs (docs/DECISIONS.md, "Lazy GM inputs"): a kernel reading 2 KiB of a 13 MB input gives the same
// outputs, report and verdict with the input generated per page (the default above 1 MiB) as with it generated
// whole (CVSIM_LAZY_INPUT_BYTES=off), and the rows it copies out are the seeded input's own values.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <regex>
#include <sstream>

#include "npy_support.h"

using namespace cvsim;
using namespace cvsim::test;

namespace {

std::string kernel(const std::string& name) {
    return source_dir() + "/tests/e2e/kernels/" + name;
}

// TEXT without what differs between two runs: the schedules-per-second rate (its width also moves the wrapping,
// so wrapped lines are joined first), wall time and peak RSS.
std::string stable_lines(const std::string& text) {
    std::istringstream in(unwrapped(text));
    std::string line, out;
    static const std::regex rate(R"(\(\d+/s\))");
    while (std::getline(in, line))
        if (line.find("peak RSS") == std::string::npos && line.rfind("wall ", 0) != 0)
            out += std::regex_replace(line, rate, "(N/s)") + "\n";
    return out;
}

struct Runs {
    RunResult run, check;
};

Runs run_both(const std::string& mode, const std::string& dir, const std::string& n) {
    if (mode.empty())
        unsetenv("CVSIM_LAZY_INPUT_BYTES");
    else
        setenv("CVSIM_LAZY_INPUT_BYTES", mode.c_str(), 1);
    Runs r;
    std::filesystem::create_directories(dir);
    r.run = run_cvsim({"run", kernel("symdim_kernel_only.py"), "--dim", "n__ssa_v0=" + n, "--output-dir", dir});
    r.check = run_cvsim({"check", kernel("symdim_kernel_only.py"), "--dim", "n__ssa_v0=" + n, "--schedules", "5",
                         "--jobs", "2", "--no-progress"});
    unsetenv("CVSIM_LAZY_INPUT_BYTES");
    return r;
}

}  // namespace

TEST(LazyInputs, ABigInputGivesTheSameOutputsAndReportsLazyOrEager) {
    // x is [n + 16, 32] FP32 = 13.1 MB; the kernel copies its last 16 rows (bytes 13,106,176 to 13,108,224: across
    // the page boundary at 200 * 64 KiB) into y.
    const int64_t n = 102392;
    const std::string base = ::testing::TempDir() + "/lazy_inputs";
    const Runs lazy = run_both("", base + "/lazy", std::to_string(n));
    const Runs eager = run_both("off", base + "/eager", std::to_string(n));
    ASSERT_EQ(lazy.run.exit_code, 0) << lazy.run.out << lazy.run.err;
    ASSERT_EQ(eager.run.exit_code, 0) << eager.run.out << eager.run.err;
    EXPECT_NE(unwrapped(lazy.run.out).find("outputs: equal to the reference (1 tensor, bit-exact)"), std::string::npos)
        << lazy.run.out;
    EXPECT_EQ(stable_lines(lazy.run.out), stable_lines(eager.run.out));
    EXPECT_EQ(stable_lines(lazy.run.err), stable_lines(eager.run.err));
    EXPECT_EQ(lazy.check.exit_code, 0) << lazy.check.out << lazy.check.err;
    EXPECT_EQ(lazy.check.exit_code, eager.check.exit_code);
    EXPECT_EQ(stable_lines(lazy.check.out), stable_lines(eager.check.out));
    EXPECT_EQ(stable_lines(lazy.check.err), stable_lines(eager.check.err));
    EXPECT_EQ(read_file(base + "/lazy/y.npy"), read_file(base + "/eager/y.npy"));
    // The copied rows are x's seeded values (seed 1), not zeros of an ungenerated page.
    const auto y = npy_values(base + "/lazy", "y", DType::FP32, {16, 32});
    const uint64_t key = rt::input_key(1, "x");
    int zeros = 0;
    for (int64_t k = 0; k < 16 * 32; ++k) {
        const double want = round_to(DType::FP32, rt::input_value(DType::FP32, key, n * 32 + k));
        EXPECT_EQ(y[static_cast<size_t>(k)], want) << k;
        zeros += y[static_cast<size_t>(k)] == 0;
    }
    EXPECT_LT(zeros, 4);
}

// Sparse outputs (docs/DECISIONS.md, "Sparse outputs"): a 2 MiB Out scratch, a 4 MiB Out result and a 4 MiB InOut
// accumulator, written in a few rows (one window across a page boundary), come back from each schedule as the
// pages written on their generator; the race of --v2c off (a RAW and the mismatch it causes), the clean verdict
// of --v2c fence, every report line and every .npy file are the same as with the outputs flat.
TEST(SparseOutputs, BigOutAndInOutTensorsGiveTheSameVerdictsReportsAndNpyFilesAsFlatOnes) {
    const std::string base = ::testing::TempDir() + "/sparse_outputs";
    for (const std::string v2c : {"off", "fence"}) {
        SCOPED_TRACE(v2c);
        Runs r[2];
        for (int lazy = 0; lazy < 2; ++lazy) {
            if (lazy)
                unsetenv("CVSIM_LAZY_INPUT_BYTES");
            else
                setenv("CVSIM_LAZY_INPUT_BYTES", "off", 1);
            const std::string dir = base + "/" + v2c + (lazy ? "/lazy" : "/flat");
            std::filesystem::create_directories(dir);
            r[lazy].run = run_cvsim({"run", kernel("big_outputs_v2c.py"), "--v2c", v2c, "--schedule", "random",
                                     "--seed", "3", "--output-dir", dir});
            r[lazy].check = run_cvsim({"check", kernel("big_outputs_v2c.py"), "--v2c", v2c, "--schedules", "12",
                                       "--jobs", "2", "--no-progress"});
            unsetenv("CVSIM_LAZY_INPUT_BYTES");
        }
        const int want = v2c == "off" ? 1 : 0;
        EXPECT_EQ(r[1].check.exit_code, want) << r[1].check.out << r[1].check.err;
        EXPECT_EQ(r[0].check.exit_code, want) << r[0].check.out << r[0].check.err;
        EXPECT_EQ(r[1].run.exit_code, r[0].run.exit_code) << r[1].run.out << r[0].run.out;
        if (v2c == "off") {
            const std::string out = unwrapped(r[1].check.out);
            EXPECT_NE(out.find("error[E-RACE-RAW]: RAW on GM scratch[504:520, 0:64]"), std::string::npos) << out;
            EXPECT_NE(out.find("error[E-MISMATCH]: output out: 1024 of 1048576 elements differ"), std::string::npos)
                << out;
        }
        EXPECT_EQ(stable_lines(r[1].run.out), stable_lines(r[0].run.out));
        EXPECT_EQ(stable_lines(r[1].check.out), stable_lines(r[0].check.out));
        EXPECT_EQ(stable_lines(r[1].check.err), stable_lines(r[0].check.err));
        for (const char* t : {"scratch", "acc", "out"}) {
            const std::string a = read_file(base + "/" + v2c + "/lazy/" + t + ".npy");
            EXPECT_GT(a.size(), size_t{2} << 20) << t;
            EXPECT_EQ(a, read_file(base + "/" + v2c + "/flat/" + t + ".npy")) << t;
        }
    }
}
