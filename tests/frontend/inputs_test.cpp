// Tests of the seeded inputs (frontend/runtime.h: fill_inputs, generate_inputs): the fast per-dtype encodings
// write exactly put_element's bytes, element i depends only on (seed, name, i), and the documented distribution.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <vector>

#include "core/dtype.h"
#include "frontend/runtime.h"

namespace cvsim {
namespace {

constexpr DType kGmTypes[] = {DType::FP32,    DType::FP16,   DType::BF16,   DType::INT8,      DType::INT16,
                              DType::INT32,   DType::INT64,  DType::UINT8,  DType::BOOL,      DType::INDEX,
                              DType::UINT16,  DType::UINT32, DType::UINT64, DType::FP8E4M3FN, DType::FP8E5M2,
                              DType::FP8E8M0, DType::HF8,    DType::INT4,   DType::UINT4,     DType::FP4};

std::vector<uint8_t> generic(DType t, uint64_t key, int64_t first, int64_t n) {
    std::vector<uint8_t> b(storage_bytes(t, n), 0);
    for (int64_t j = 0; j < n; ++j) put_element(t, rt::input_value(t, key, first + j), b.data(), j);
    return b;
}

std::vector<uint8_t> fast(DType t, uint64_t key, int64_t first, int64_t n) {
    std::vector<uint8_t> b(storage_bytes(t, n), 0xA5);  // not zeroed: every byte must be written
    rt::generate_inputs(t, key, first, n, b.data());
    return b;
}

TEST(InputsTest, FastEncodingsEqualPutElement) {
    const uint64_t key = rt::input_key(42, "w");
    for (DType t : kGmTypes) {
        // FP16's subnormal inputs (|v| < 2^-14, one in 2^14) take the generic encoding: enough elements to meet some.
        const int64_t n = 300000;
        EXPECT_EQ(fast(t, key, 0, n), generic(t, key, 0, n)) << dtype_name(t);
    }
    int64_t subnormal = 0;
    for (int64_t i = 0; i < 300000; ++i) subnormal += std::fabs(rt::input_value(DType::FP16, key, i)) < 0x1p-14;
    EXPECT_GT(subnormal, 0);
}

TEST(InputsTest, ElementDependsOnlyOnSeedNameAndIndex) {
    const uint64_t key = rt::input_key(1, "x");
    for (DType t : kGmTypes) {
        const auto whole = fast(t, key, 0, 4096);
        // Any window (an even start for the 4-bit types) is the same bytes as that part of the whole.
        for (int64_t first : {0, 2, 100, 1000, 4000}) {
            const int64_t n = 4096 - first;
            const auto part = fast(t, key, first, n);
            const size_t off = storage_bytes(t, first);
            EXPECT_TRUE(std::equal(part.begin(), part.end(), whole.begin() + static_cast<ptrdiff_t>(off)))
                << dtype_name(t) << " from " << first;
        }
    }
    EXPECT_NE(rt::input_key(1, "x"), rt::input_key(2, "x"));
    EXPECT_NE(rt::input_key(1, "x"), rt::input_key(1, "y"));
    EXPECT_NE(fast(DType::FP32, rt::input_key(1, "x"), 0, 64), fast(DType::FP32, rt::input_key(1, "y"), 0, 64));
}

TEST(InputsTest, Distribution) {
    const uint64_t key = rt::input_key(5, "t");
    const int64_t n = 100000;
    double lo = 1, hi = -1, sum = 0;
    for (int64_t i = 0; i < n; ++i) {
        const double v = rt::input_value(DType::FP32, key, i);
        lo = std::min(lo, v);
        hi = std::max(hi, v);
        sum += v;
    }
    EXPECT_GE(lo, -1.0);
    EXPECT_LT(lo, -0.999);
    EXPECT_LT(hi, 1.0);
    EXPECT_GT(hi, 0.999);
    EXPECT_LT(std::fabs(sum / n), 0.01);  // mean ~0 (standard error ~0.002)
    std::set<double> ints, uints;
    for (int64_t i = 0; i < n; ++i) {
        ints.insert(rt::input_value(DType::INT32, key, i));
        uints.insert(rt::input_value(DType::UINT8, key, i));
    }
    EXPECT_EQ(ints.size(), 17u);
    EXPECT_EQ(*ints.begin(), -8);
    EXPECT_EQ(*ints.rbegin(), 8);
    EXPECT_EQ(uints.size(), 9u);  // magnitudes 0..8
    EXPECT_EQ(*uints.begin(), 0);
    double fp4_max = 0, e8m0_min = 1;
    for (int64_t i = 0; i < n; ++i) {
        fp4_max = std::max(fp4_max, std::fabs(rt::input_value(DType::FP4, key, i)));
        e8m0_min = std::min(e8m0_min, rt::input_value(DType::FP8E8M0, key, i));
    }
    EXPECT_GT(fp4_max, 5.9);  // x 6
    EXPECT_LE(fp4_max, 6.0);
    EXPECT_GE(e8m0_min, 0.0);  // magnitudes
}

TEST(InputsTest, FillInputsFillsInputsOnly) {
    rt::TensorStore s;
    rt::TensorBuffer in, out, inout;
    in.name = "a";
    in.dtype = DType::BF16;
    in.shape = {33, 70};
    out.name = "o";
    out.shape = {4};
    out.dir = ir::ParamDir::Out;
    inout.name = "io";
    inout.dtype = DType::INT4;
    inout.shape = {5, 6};
    inout.dir = ir::ParamDir::InOut;
    s.add(in);
    s.add(out);
    s.add(inout);
    rt::fill_inputs(s, 9);
    EXPECT_EQ(s.tensors[0].bytes, generic(DType::BF16, rt::input_key(9, "a"), 0, 33 * 70));
    EXPECT_TRUE(s.tensors[1].bytes.empty());
    EXPECT_EQ(s.tensors[2].bytes, generic(DType::INT4, rt::input_key(9, "io"), 0, 30));
}

}  // namespace
}  // namespace cvsim
