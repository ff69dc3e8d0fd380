// The sort / gather family end to end (tests/e2e/kernels/topk_sort.py): parse -> run on the simulator -> outputs
// bit-exact to the reference interpreter, on hand-made inputs whose expected outputs are checked here, and on
// random inputs of several seeds; plus the FP8 dtypes through load / cast / store.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <numeric>

#include "frontend/runtime.h"
#include "test_support.h"

using namespace cvsim;
using namespace cvsim::test;

namespace {

std::string kernel(const std::string& name) {
    return source_dir() + "/tests/e2e/kernels/" + name;
}
bool has(const RunResult& r, const std::string& s) {
    return r.out.find(s) != std::string::npos || r.err.find(s) != std::string::npos;
}

rt::TensorBuffer buffer(const std::string& name, DType t, std::vector<int64_t> shape, const std::vector<double>& v) {
    rt::TensorBuffer b;
    b.name = name;
    b.dtype = t;
    b.shape = std::move(shape);
    b.bytes.assign(v.size() * dtype_bytes(t), 0);
    for (size_t i = 0; i < v.size(); ++i) encode_element(t, v[i], b.bytes.data() + i * dtype_bytes(t));
    return b;
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

TEST(SortOps, TopkKernelEqualsTheReferenceAndTheHandComputedOrder) {
    const std::string dir = ::testing::TempDir() + "/sort_ops_topk";
    std::filesystem::create_directories(dir);
    std::vector<double> x(128), idx(128), y(64);
    for (int c = 0; c < 128; ++c) x[c] = (c * 37) % 50 - 10, idx[c] = c;  // duplicates across the 4 runs
    for (int c = 0; c < 64; ++c) y[c] = ((c * 13) % 29) * 0.5;
    rt::write_npy(buffer("x", DType::FP32, {1, 128}, x), dir + "/x.npy");
    rt::write_npy(buffer("idx", DType::UINT32, {1, 128}, idx), dir + "/idx.npy");
    rt::write_npy(buffer("y", DType::FP32, {2, 32}, y), dir + "/y.npy");
    RunResult r = run_cvsim({"run", kernel("topk_sort.py"), "--input", "x=" + dir + "/x.npy", "--input",
                             "idx=" + dir + "/idx.npy", "--input", "y=" + dir + "/y.npy", "--output-dir", dir});
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_TRUE(has(r, "outputs: equal to the reference (6 tensors, bit-exact)")) << r.out;
    // vals: x sorted descending; perm: the stable permutation (equal values by ascending index).
    std::vector<int> order(128);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return x[a] > x[b]; });
    const auto vals = read_out(dir, "vals", DType::FP32, {1, 128});
    const auto perm = read_out(dir, "perm", DType::INT32, {1, 128});
    const auto re = read_out(dir, "regathered", DType::FP32, {1, 128});
    for (int k = 0; k < 128; ++k) {
        EXPECT_EQ(perm[k], order[k]) << k;
        EXPECT_EQ(vals[k], x[order[k]]) << k;
        EXPECT_EQ(re[k], vals[k]) << k;  // gather(x, perm) re-reads the sorted values
    }
    // merged: the two sorted 32-element rows of y merged (64 tuples: [value, index bits]); ties -> row 0 first.
    const auto merged = read_out(dir, "merged", DType::FP32, {1, 128});
    std::vector<std::pair<double, int>> want;
    for (int row = 0; row < 2; ++row) {
        std::vector<int> o(32);
        std::iota(o.begin(), o.end(), 0);
        std::stable_sort(o.begin(), o.end(), [&](int a, int b) { return y[row * 32 + a] > y[row * 32 + b]; });
        for (int k : o) want.emplace_back(y[row * 32 + k], row * 100 + k);
    }
    std::stable_sort(want.begin(), want.end(), [](auto& a, auto& b) { return a.first > b.first; });
    for (int k = 0; k < 64; ++k) {
        EXPECT_EQ(merged[2 * k], want[k].first) << k;
        float f = static_cast<float>(merged[2 * k + 1]);
        uint32_t bits = 0;
        std::memcpy(&bits, &f, 4);
        EXPECT_EQ(static_cast<int>(bits), want[k].second % 100) << k;  // the index both rows were sorted with
    }
    const auto amax = read_out(dir, "amax", DType::INT32, {2, 1});
    const auto amin = read_out(dir, "amin", DType::INT32, {1, 32});
    for (int row = 0; row < 2; ++row)
        EXPECT_EQ(amax[row],
                  std::max_element(y.begin() + row * 32, y.begin() + row * 32 + 32) - (y.begin() + row * 32));
    for (int c = 0; c < 32; ++c) EXPECT_EQ(amin[c], y[32 + c] < y[c] ? 1 : 0) << c;
}

TEST(SortOps, TopkKernelIsBitExactOnRandomInputsOnBothTargets) {
    for (const char* target : {"a2a3", "a5"})
        for (const char* seed : {"1", "2", "3"}) {
            RunResult r = run_cvsim({"run", kernel("topk_sort.py"), "--seed", seed, "--target", target});
            EXPECT_EQ(r.exit_code, 0) << target << " " << seed << r.out << r.err;
            EXPECT_TRUE(has(r, "outputs: equal to the reference (6 tensors, bit-exact)"))
                << target << " " << seed << r.out;
        }
    RunResult e = run_cvsim({"expand", kernel("topk_sort.py")});
    EXPECT_EQ(e.exit_code, 0) << e.err;
}

TEST(SortOps, Fp8TensorsLoadCastAndStore) {
    RunResult r = run_cvsim({"run", kernel("fp8_cast.py")});
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_TRUE(has(r, "outputs: equal to the reference (4 tensors, bit-exact)")) << r.out;
}

}  // namespace

// The printed forms PyPTO emits for row reductions and transpose (a scratch tmp_tile, negative axes) are read
// and compute what the plain forms do (real dumps were rejected: "row_sum takes 1 argument").
TEST(PrintedForms, ScratchOperandsAndNegativeAxesComputeLikeThePlainForms) {
    const std::string dir = ::testing::TempDir() + "/printed_scratch";
    std::filesystem::create_directories(dir);
    std::vector<double> x(16 * 32);
    for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<double>((i * 7) % 23) - 11.0;
    rt::write_npy(buffer("x", DType::FP32, {16, 32}, x), dir + "/x.npy");
    RunResult r = run_cvsim(
        {"run", kernel("printed_scratch_operands.py"), "--input", "x=" + dir + "/x.npy", "--output-dir", dir});
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_TRUE(has(r, "equal to the reference")) << r.out;
    auto sums = read_out(dir, "sums", DType::FP32, {16, 2});
    auto tr = read_out(dir, "tr", DType::FP32, {32, 16});
    auto diff = read_out(dir, "diff", DType::FP32, {32, 16});
    for (int row = 0; row < 16; ++row) {
        EXPECT_EQ(sums[row * 2 + 0], 0.0) << "row_sum with and without tmp_tile differ at row " << row;
        double mx = x[row * 32];
        for (int c = 0; c < 32; ++c) mx = std::max(mx, x[row * 32 + c]);
        EXPECT_EQ(sums[row * 2 + 1], mx) << row;
    }
    for (int i = 0; i < 32; ++i)
        for (int j = 0; j < 16; ++j) {
            EXPECT_EQ(tr[i * 16 + j], x[j * 32 + i]) << i << "," << j;
            EXPECT_EQ(diff[i * 16 + j], 0.0);
        }
}
