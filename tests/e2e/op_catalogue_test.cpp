// The catalogue ops of issue 12 end to end: a mixed kernel using them expands, runs and equals the reference.
#include <gtest/gtest.h>

#include "test_support.h"

using namespace cvsim::test;

namespace {

std::string kernel(const std::string& name) { return source_dir() + "/tests/e2e/kernels/" + name; }

}  // namespace

TEST(OpCatalogue, MixedKernelOverTheIssueOpsExpandsRunsAndEqualsTheReference) {
    RunResult e = run_cvsim({"expand", kernel("op_catalogue_mixed.py")});
    ASSERT_EQ(e.exit_code, 0) << e.err;
    for (const char* op : {"tile.extract", "tile.row_expand_expdif", "tile.col_expand_sub", "tile.fillpad_expand", "tile.ci", "tile.concat",
                           "tile.read", "tile.write", "tile.assemble", "tile.maximums", "tile.minimums"})
        EXPECT_NE(e.out.find(op), std::string::npos) << op << " missing from the expanded program";
    for (const char* target : {"a2a3", "a5"}) {
        RunResult r = run_cvsim({"run", kernel("op_catalogue_mixed.py"), "--target", target});
        EXPECT_EQ(r.exit_code, 0) << target << "\n" << r.out << r.err;
        EXPECT_NE(r.out.find("equal to the reference"), std::string::npos) << target << "\n" << r.out;
    }
    RunResult c = run_cvsim({"check", kernel("op_catalogue_mixed.py"), "--schedules", "20", "--jobs", "1"});
    EXPECT_EQ(c.exit_code, 0) << c.out << c.err;
}

TEST(OpCatalogue, MisusedCatalogueOpsAreExit2DiagnosticsWithACaret) {
    struct Bad {
        std::string from, to, code, text;
    };
    const Bad cases[] = {
        {"pl.tile.col_expand_sub(p, cmax)", "pl.tile.col_expand_sub(p, rmax)", "E-TYPE", "column vector must be [1, 32]"},
        {"pl.tile.maximums(q, -0.5)", "pl.tile.maximums(q, p)", "E-TYPE", "'rhs' must be a scalar"},
        {"pad_value=pl.PadValue.zero", "pad_value=pl.PadValue.null", "E-TYPE", "pad_value must be"},
        {"pl.tile.ci(0, [1, N], dtype=pl.INT32)", "pl.tile.ci(0, [1, N], dtype=pl.FP32)", "E-TYPE", "dtype must be INT16, INT32"},
        {"pl.tile.concat(left, right)", "pl.tile.concat(left, idx)", "E-TYPE", "operand dtypes differ"},
        {"pl.tile.read(mix, [1, 2])", "pl.tile.read(mix, [1, 40])", "E-OOB", "leaves the tile"},
        {"target_memory=pl.MemorySpace.Left)", "target_memory=pl.MemorySpace.Acc)", "E-TYPE", "cannot extract from"},
        {"pl.tile.row_min(q, zv)", "pl.tile.row_min(q)", "E-TYPE", "missing required argument 'tmp_tile'"},
    };
    const std::string src = read_file(kernel("op_catalogue_mixed.py"));
    int i = 0;
    for (const Bad& b : cases) {
        std::string text = src;
        size_t p = text.find(b.from);
        ASSERT_NE(p, std::string::npos) << b.from;
        text.replace(p, b.from.size(), b.to);
        std::string path = ::testing::TempDir() + "/op_catalogue_bad" + std::to_string(i++) + ".py";
        {
            FILE* f = std::fopen(path.c_str(), "w");
            std::fputs(text.c_str(), f);
            std::fclose(f);
        }
        RunResult r = run_cvsim({"expand", path});
        EXPECT_EQ(r.exit_code, 2) << b.to << "\n" << r.err;
        EXPECT_NE(r.err.find("error[" + b.code + "]"), std::string::npos) << b.to << "\n" << r.err;
        EXPECT_NE(r.err.find(b.text), std::string::npos) << b.to << "\n" << r.err;
        EXPECT_NE(r.err.find("^"), std::string::npos) << "no caret: " << r.err;
    }
}
