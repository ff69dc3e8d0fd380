// pl.tile.gather_row (frontend/sema_gather_row.cpp: pl.tile.load + pl.tile.assemble in SSA form): a paged gather
// through a GM block table runs bit-exact to the reference on both targets with the hand-computed rows, a
// cross-block read of another block's unsynchronised store is a race, and the forms with no model are
// E-UNSUPPORTED at a caret.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>

#include "npy_support.h"

using namespace cvsim;
using namespace cvsim::test;

namespace {

std::string kernel(const std::string& name) {
    return source_dir() + "/tests/e2e/kernels/" + name;
}

}  // namespace

TEST(GatherRow, PagedGatherEqualsTheReferenceAndTheHandComputedRows) {
    std::vector<double> pool(16 * 32), table = {5, 0, 15, 9, 2, 2, 7, 11};
    for (int r = 0; r < 16; ++r)
        for (int c = 0; c < 32; ++c) pool[static_cast<size_t>(r * 32 + c)] = r * 100 + c;
    RunResult e = run_cvsim({"expand", kernel("gather_row_paged.py")});
    ASSERT_EQ(e.exit_code, 0) << e.err;
    EXPECT_NE(e.out.find("pl.tile.assemble("), std::string::npos) << e.out;  // the SSA form
    for (const char* target : {"a2a3", "a5"}) {
        SCOPED_TRACE(target);
        const std::string dir = ::testing::TempDir() + "/gather_row_" + target;
        std::filesystem::create_directories(dir);
        rt::write_npy(npy_buffer("pool", DType::FP32, {16, 32}, pool), dir + "/pool.npy");
        rt::write_npy(npy_buffer("table", DType::INT32, {2, 4}, table), dir + "/table.npy");
        RunResult r =
            run_cvsim({"run", kernel("gather_row_paged.py"), "--target", target, "--blocks", "2", "--input",
                       "pool=" + dir + "/pool.npy", "--input", "table=" + dir + "/table.npy", "--output-dir", dir});
        ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
        EXPECT_NE(unwrapped(r.out).find("outputs: equal to the reference (1 tensor, bit-exact)"), std::string::npos)
            << r.out;
        const auto out = npy_values(dir, "out", DType::FP32, {8, 32});
        for (int b = 0; b < 2; ++b)
            for (int k = 0; k < 4; ++k)
                for (int c = 0; c < 32; ++c) {
                    const double src = table[static_cast<size_t>(b * 4 + k)] * 100 + (k == 3 ? c - 16 : c);
                    // Row 3 takes 16 elements at column 16 (valid_shape [1, 16]); its first 16 keep the fill -1.
                    const double want = k == 3 && c < 16 ? -1.0 : src;
                    EXPECT_EQ(out[static_cast<size_t>((b * 4 + k) * 32 + c)], want) << b << "," << k << "," << c;
                }
    }
    // The block table must name pool rows: the check runs on the same inputs (generated ones would leave the pool).
    const std::string dir = ::testing::TempDir() + "/gather_row_a5";
    RunResult c = run_cvsim({"check", kernel("gather_row_paged.py"), "--blocks", "2", "--schedules", "5", "--jobs", "1",
                             "--input", "pool=" + dir + "/pool.npy", "--input", "table=" + dir + "/table.npy"});
    EXPECT_EQ(c.exit_code, 0) << c.out << c.err;
}

TEST(GatherRow, ACrossBlockRowGatherOfAnUnorderedStoreIsARace) {
    RunResult c =
        run_cvsim({"check", kernel("gather_row_race.py"), "--blocks", "2", "--schedules", "5", "--jobs", "1"});
    EXPECT_NE(c.exit_code, 0) << c.out;
    const std::string out = unwrapped(c.out);
    // The other block's store and this block's row gather (line 15) touch scratch row 19 (block 0) unordered: RAW or
    // WAR by which comes first in the schedule.
    EXPECT_TRUE(out.find("error[E-RACE-RAW]") != std::string::npos ||
                out.find("error[E-RACE-WAR]") != std::string::npos)
        << out;
    EXPECT_NE(out.find("gather_row_race.py:15"), std::string::npos) << out;
}

TEST(GatherRow, FormsWithoutAModelAreUnsupportedAtACaret) {
    struct Bad {
        std::string from, to, code, text;
    };
    const Bad cases[] = {
        {"[1, 32], transpose=False)", "[1, 32], transpose=True)", "E-UNSUPPORTED", "transpose=True"},
        // (A run-time valid_shape is modelled since issue 11: tests/frontend/pypto_lib_forms_test.cpp, GatherRowL1.)
        {"valid_shape=[1, 16])", "valid_shape=[1, 48])", "E-TYPE", "larger than shapes"},
        {"pl.tile.gather_row(acc0, pool,", "pl.tile.gather_row(acc0, table,", "E-TYPE", "share a dtype"},
        {"[3, 16], [b3, 0]", "[3, 20], [b3, 0]", "E-OOB", "leaves the tile"},
    };
    const std::string src = read_file(kernel("gather_row_paged.py"));
    int i = 0;
    for (const Bad& b : cases) {
        std::string text = src;
        const size_t p = text.find(b.from);
        ASSERT_NE(p, std::string::npos) << b.from;
        text.replace(p, b.from.size(), b.to);
        const std::string path = ::testing::TempDir() + "/gather_row_bad" + std::to_string(i++) + ".py";
        FILE* f = std::fopen(path.c_str(), "w");
        std::fputs(text.c_str(), f);
        std::fclose(f);
        RunResult r = run_cvsim({"expand", path});
        EXPECT_EQ(r.exit_code, 2) << b.to << "\n" << r.err;
        EXPECT_NE(r.err.find("error[" + b.code + "]"), std::string::npos) << b.to << "\n" << r.err;
        EXPECT_NE(r.err.find(b.text), std::string::npos) << b.to << "\n" << r.err;
        EXPECT_NE(r.err.find("^"), std::string::npos) << "no caret: " << r.err;
    }
}
