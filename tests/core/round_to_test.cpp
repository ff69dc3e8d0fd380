// round_to's shortcut for values already in the format (FP16, BF16): it returns, bit for bit, what the conversion
// round trip through Eigen::half / Eigen::bfloat16 gives, for floats of every exponent and sign and fraction bit
// patterns around the format's precision (exact values, one bit beyond, ties, subnormals, the range's edges).
#include <gtest/gtest.h>

#include <Eigen/Core>
#include <bit>
#include <cstdint>
#include <random>
#include <vector>

#include "core/dtype.h"

namespace cvsim {
namespace {

uint64_t bits(double v) {
    return std::bit_cast<uint64_t>(v);
}

// The conversion round trip round_to took for every float-exact value before the shortcut.
double round_trip(DType t, float f) {
    return t == DType::FP16 ? static_cast<double>(static_cast<float>(Eigen::half(f)))
                            : static_cast<double>(static_cast<float>(Eigen::bfloat16(f)));
}

TEST(RoundToTest, FloatExactValuesMatchTheConversionRoundTrip) {
    std::mt19937 gen(11);
    std::vector<uint32_t> lows = {0x0000, 0x0001, 0x0fff, 0x1000, 0x1fff, 0x2000, 0x3000, 0x7fff, 0x8000, 0xffff};
    int64_t shortcut = 0, n = 0;
    for (DType t : {DType::FP16, DType::BF16})
        for (uint32_t hi = 0; hi < 0x10000; ++hi) {
            std::vector<uint32_t> ls = lows;
            ls.push_back(gen() & 0xffffu);
            for (uint32_t lo : ls) {
                const float f = std::bit_cast<float>((hi << 16) | lo);
                if (f != f) continue;  // NaN is not float-exact: another path
                const double got = round_to(t, f), want = round_trip(t, f);
                ASSERT_EQ(bits(got), bits(want)) << dtype_name(t) << " " << std::hexfloat << f;
                shortcut += got == f;
                ++n;
            }
        }
    // Most of the values that are already in the format took it (a sanity check that the test reaches it).
    EXPECT_GT(shortcut, n / 20);
}

TEST(RoundToTest, ValuesAlreadyInTheFormatAreKept) {
    for (double v : {0.0, -0.0, 1.0, -2.5, 65504.0, -65504.0, 0x1p-14, 0x1.ffcp-1, 1024.0 + 1.0})
        EXPECT_EQ(bits(round_to(DType::FP16, v)), bits(v)) << v;
    for (double v : {0.0, -0.0, 1.0, -3.0, 0x1.fep127, 0x1p-126, 0x1p-133, 256.0 + 2.0})
        EXPECT_EQ(bits(round_to(DType::BF16, v)), bits(v)) << v;
    // One bit finer than the format: rounded (to nearest even).
    EXPECT_EQ(round_to(DType::FP16, 1.0 + 0x1p-11), 1.0);
    EXPECT_EQ(round_to(DType::FP16, 1.0 + 0x1p-11 + 0x1p-12), 1.0 + 0x1p-10);
    EXPECT_EQ(round_to(DType::BF16, 1.0 + 0x1p-8), 1.0);
    EXPECT_EQ(round_to(DType::BF16, 3.0 + 0x1p-7), 3.0);                    // a tie: to the even one
    EXPECT_EQ(round_to(DType::BF16, 3.0 + 0x1p-6 + 0x1p-7), 3.0 + 0x1p-5);  // a tie: to the even one
}

}  // namespace
}  // namespace cvsim
