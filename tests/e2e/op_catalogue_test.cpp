// The catalogue ops of issue 12 end to end: a mixed kernel using them expands, runs and equals the reference.
#include <gtest/gtest.h>

#include <bit>
#include <cstring>
#include <filesystem>

#include "frontend/runtime.h"
#include "test_support.h"

using namespace cvsim;
using namespace cvsim::test;

namespace {

std::string kernel(const std::string& name) {
    return source_dir() + "/tests/e2e/kernels/" + name;
}

std::vector<double> read_out(const std::string& dir, const std::string& name, DType t, std::vector<int64_t> shape) {
    rt::TensorBuffer b;
    b.name = name;
    b.dtype = t;
    b.shape = std::move(shape);
    rt::read_npy(b, dir + "/" + name + ".npy");
    std::vector<double> v(static_cast<size_t>(b.numel()));
    for (size_t i = 0; i < v.size(); ++i) v[i] = decode_element(t, b.bytes.data() + i * dtype_bytes(t));
    return v;
}

}  // namespace

// part_*, reinterpret_view, gatherb, scatter_update, the 4-list mrgsort, get_block_num and pl.tile.max in a mixed
// kernel over 2 blocks: expand -> run on both targets -> outputs equal the reference; the outputs' relations are
// checked by hand (gatherb's blocks are the product's bytes in reverse block order, read back through
// reinterpret_view's INT16 halves; scatter_update's rows are part's rows + get_block_num; the merge is sorted).
TEST(OpCatalogue, TheLastTileOpsExpandRunOnBothTargetsAndEqualTheReference) {
    RunResult e = run_cvsim({"expand", kernel("op_catalogue_more.py")});
    ASSERT_EQ(e.exit_code, 0) << e.err;
    for (const char* op :
         {"tile.part_add", "tile.part_mul", "tile.part_max", "tile.part_min", "tile.reinterpret_view", "tile.gatherb",
          "tile.scatter_update", "tile.mrgsort", "tile.get_block_num", "tile.col_expand_expdif", "tile.col_expand_div"})
        EXPECT_NE(e.out.find(op), std::string::npos) << op << " missing from the expanded program";
    for (const char* target : {"a2a3", "a5"}) {
        SCOPED_TRACE(target);
        const std::string dir = ::testing::TempDir() + "/op_more_" + target;
        std::filesystem::create_directories(dir);
        RunResult r = run_cvsim(
            {"run", kernel("op_catalogue_more.py"), "--target", target, "--blocks", "2", "--output-dir", dir});
        ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
        EXPECT_NE(unwrapped(r.out).find("outputs: equal to the reference (6 tensors, bit-exact)"), std::string::npos)
            << r.out;
        const auto bits = read_out(dir, "bits", DType::INT16, {32, 128});
        const auto blocks = read_out(dir, "blocks", DType::FP32, {32, 64});
        const auto part = read_out(dir, "part", DType::FP32, {32, 64});
        const auto rows = read_out(dir, "rows", DType::FP32, {32, 64});
        const auto merged = read_out(dir, "merged", DType::FP32, {2, 256});
        for (int b = 0; b < 2; ++b) {
            for (int r = 0; r < 16; ++r)
                for (int k = 0; k < 8; ++k)
                    for (int x = 0; x < 8; ++x) {
                        const int flat = (127 - (r * 8 + k)) * 8 + x, zi = flat / 64, zj = flat % 64;
                        const auto lo =
                            static_cast<uint32_t>(static_cast<uint16_t>(bits[(b * 16 + zi) * 128 + 2 * zj]));
                        const auto hi =
                            static_cast<uint32_t>(static_cast<uint16_t>(bits[(b * 16 + zi) * 128 + 2 * zj + 1]));
                        ASSERT_EQ(blocks[(b * 16 + r) * 64 + k * 8 + x],
                                  static_cast<double>(std::bit_cast<float>(lo | hi << 16)))
                            << b << r << k << x;
                    }
            for (int t = 0; t < 8; ++t)
                for (int c = 0; c < 64; ++c)
                    EXPECT_EQ(rows[(b * 16 + 15 - t) * 64 + c],
                              static_cast<double>(static_cast<float>(part[(b * 16 + t) * 64 + c]) + 2.0f))
                        << t << "," << c;
            for (int k = 1; k < 128; ++k)
                EXPECT_GE(merged[b * 256 + 2 * (k - 1)], merged[b * 256 + 2 * k]) << "merge not descending at " << k;
        }
    }
    RunResult c =
        run_cvsim({"check", kernel("op_catalogue_more.py"), "--blocks", "2", "--schedules", "10", "--jobs", "1"});
    EXPECT_EQ(c.exit_code, 0) << c.out << c.err;
}

TEST(OpCatalogue, MixedKernelOverTheIssueOpsExpandsRunsAndEqualsTheReference) {
    RunResult e = run_cvsim({"expand", kernel("op_catalogue_mixed.py")});
    ASSERT_EQ(e.exit_code, 0) << e.err;
    for (const char* op :
         {"tile.extract", "tile.row_expand_expdif", "tile.col_expand_sub", "tile.fillpad_expand", "tile.ci",
          "tile.concat", "tile.read", "tile.write", "tile.assemble", "tile.maximums", "tile.minimums"})
        EXPECT_NE(e.out.find(op), std::string::npos) << op << " missing from the expanded program";
    for (const char* target : {"a2a3", "a5"}) {
        RunResult r = run_cvsim({"run", kernel("op_catalogue_mixed.py"), "--target", target});
        EXPECT_EQ(r.exit_code, 0) << target << "\n" << r.out << r.err;
        EXPECT_NE(unwrapped(r.out).find("equal to the reference"), std::string::npos) << target << "\n" << r.out;
    }
    RunResult c = run_cvsim({"check", kernel("op_catalogue_mixed.py"), "--schedules", "20", "--jobs", "1"});
    EXPECT_EQ(c.exit_code, 0) << c.out << c.err;
}

TEST(OpCatalogue, MisusedCatalogueOpsAreExit2DiagnosticsWithACaret) {
    struct Bad {
        std::string from, to, code, text;
    };
    const Bad cases[] = {
        {"pl.tile.col_expand_sub(p, cmax)", "pl.tile.col_expand_sub(p, rmax)", "E-TYPE",
         "column vector must be [1, 32]"},
        {"pl.tile.maximums(q, -0.5)", "pl.tile.maximums(q, p)", "E-TYPE", "'rhs' must be a scalar"},
        {"pad_value=pl.PadValue.zero", "pad_value=pl.PadValue.null", "E-TYPE", "pad_value must be"},
        {"pl.tile.ci(0, [1, N], dtype=pl.INT32)", "pl.tile.ci(0, [1, N], dtype=pl.FP32)", "E-TYPE",
         "dtype must be INT16, INT32"},
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
