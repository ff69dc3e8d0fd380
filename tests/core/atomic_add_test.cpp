// One element of an atomic add (shared by the reference and the simulator): the exact sum rounded once to
// the tensor dtype for floats, two's-complement wrap for integers, and an unwritten destination as 0.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "core/dtype.h"

using namespace cvsim;

namespace {

double add(DType t, double dst, double x, bool zero = false) {
    uint8_t d[8] = {}, a[8] = {};
    encode_element(t, dst, d);
    encode_element(t, x, a);
    atomic_add_element(t, d, a, zero);
    return decode_element(t, d);
}

TEST(AtomicAdd, FloatsRoundTheExactSumOnceToNearestEven) {
    EXPECT_EQ(add(DType::FP16, 1.0, std::ldexp(1.0, -11)), 1.0);  // tie -> even
    EXPECT_EQ(add(DType::FP16, 1.0 + std::ldexp(1.0, -10), std::ldexp(1.0, -11)),
              1.0 + std::ldexp(1.0, -9));  // tie -> even (up)
    EXPECT_EQ(add(DType::BF16, 1.0, std::ldexp(1.0, -8)), 1.0);
    EXPECT_EQ(add(DType::FP32, 1.0, std::ldexp(1.0, -24)), 1.0);
    EXPECT_EQ(add(DType::FP32, 1.5, 0.25), 1.75);
    EXPECT_TRUE(std::isinf(add(DType::FP16, 65504.0, 65504.0)));
}

TEST(AtomicAdd, IntegersWrapSoEveryOrderGivesTheSameBits) {
    EXPECT_EQ(add(DType::INT8, 127, 1), -128);
    EXPECT_EQ(add(DType::INT16, -32768, -1), 32767);
    EXPECT_EQ(add(DType::INT32, 2147483647.0, 1), -2147483648.0);
    // (a + b) + c == (a + c) + b even across the wrap.
    EXPECT_EQ(add(DType::INT8, add(DType::INT8, 100, 100), -60), add(DType::INT8, add(DType::INT8, 100, -60), 100));
}

TEST(AtomicAdd, AnUnwrittenDestinationCountsAsZero) {
    uint8_t d[4], a[4];
    write_poison(DType::FP32, d);
    encode_element(DType::FP32, 2.5, a);
    atomic_add_element(DType::FP32, d, a, /*dst_zero=*/true);
    EXPECT_EQ(decode_element(DType::FP32, d), 2.5);
    EXPECT_TRUE(atomic_add_dtype(DType::BF16));
    EXPECT_FALSE(atomic_add_dtype(DType::INT64));
    EXPECT_FALSE(atomic_add_dtype(DType::UINT8));
}

}  // namespace
