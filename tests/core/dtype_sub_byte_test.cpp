// The 4-bit dtypes (models/dtype_sub_byte.cpp): hand-computed conversions (FP4 = OCP MX E2M1 with round to
// nearest even and saturation; INT4 / UINT4 saturating), the packed representation (element 2k in the low
// nibble of byte k), and the layout / cast paths that the reference and the simulator share.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "core/datapath.h"
#include "core/dtype.h"
#include "core/layout.h"

namespace cvsim {
namespace {

TEST(SubByteDtype, NamesBitsAndStorage) {
    for (DType t : {DType::INT4, DType::UINT4, DType::FP4}) {
        EXPECT_EQ(dtype_bits(t), 4) << dtype_name(t);
        EXPECT_EQ(dtype_bytes(t), 1u);  // PyPTO's GetByte: ceil(4 / 8)
        EXPECT_TRUE(is_sub_byte(t));
        EXPECT_EQ(storage_bytes(t, 32), 16u);
        EXPECT_EQ(storage_bytes(t, 3), 2u);
        EXPECT_EQ(dtype_from_name(dtype_name(t)), t);
    }
    EXPECT_EQ(dtype_name(DType::FP4), "FP4");
    EXPECT_EQ(dtype_bits(DType::BF16), 16);
    EXPECT_FALSE(is_sub_byte(DType::INT8));
    EXPECT_EQ(storage_bytes(DType::FP32, 3), 12u);
    EXPECT_FALSE(dtype_from_name("HF4").has_value());  // not modelled: its encoding is not published
    EXPECT_TRUE(dtype_is_float(DType::FP4));
    EXPECT_TRUE(dtype_is_int(DType::INT4));
}

TEST(SubByteDtype, Fp4DecodesTheE2M1Grid) {
    // S EE M, bias 1: 0x1 is the subnormal 0.5, 0x7 = 2^(3-1) * 1.5 = 6; the sign bit negates (0x8 = -0).
    const double want[16] = {0, 0.5, 1, 1.5, 2, 3, 4, 6, -0.0, -0.5, -1, -1.5, -2, -3, -4, -6};
    for (uint8_t c = 0; c < 16; ++c) {
        EXPECT_EQ(sub_byte_decode(DType::FP4, c), want[c]) << int(c);
        EXPECT_EQ(sub_byte_encode(DType::FP4, want[c]), c) << int(c);  // every code round-trips (no NaN codes)
    }
    EXPECT_TRUE(std::signbit(sub_byte_decode(DType::FP4, 0x8)));
}

TEST(SubByteDtype, Fp4RoundsToNearestEvenAndSaturates) {
    struct Case {
        double in, out;
    };
    const Case cases[] = {
        {0.2, 0},   {0.25, 0},  // tie 0 (code 0) / 0.5 (code 1): the even code
        {0.3, 0.5}, {0.75, 1},  // tie 0.5 (1) / 1 (2)
        {1.25, 1},  {1.75, 2},  // ties 1 (2) / 1.5 (3) and 1.5 (3) / 2 (4)
        {2.5, 2},   {3.5, 4},   // ties 2 (4) / 3 (5) and 3 (5) / 4 (6)
        {5, 4},     {5.01, 6},  // tie 4 (6) / 6 (7); just past it
        {7, 6},     {1e30, 6},  // saturation at the largest finite value
        {-2.5, -2}, {-5.5, -6}, {-0.1, -0.0},
    };
    for (const Case& c : cases) {
        EXPECT_EQ(round_to(DType::FP4, c.in), c.out) << c.in;
        EXPECT_EQ(std::signbit(round_to(DType::FP4, c.in)), std::signbit(c.out)) << c.in;
    }
    const double inf = std::numeric_limits<double>::infinity();
    EXPECT_EQ(round_to(DType::FP4, inf), 6.0);
    EXPECT_EQ(round_to(DType::FP4, -inf), -6.0);
    EXPECT_EQ(round_to(DType::FP4, std::nan("")), 0.0);  // no NaN in E2M1: +0 (documented)
    EXPECT_FALSE(std::signbit(round_to(DType::FP4, std::nan(""))));
    EXPECT_EQ(unit_roundoff(DType::FP4), 0.25);
}

TEST(SubByteDtype, Int4AndUint4SaturateAfterRoundingToNearestEven) {
    EXPECT_EQ(round_to(DType::INT4, 2.5), 2);
    EXPECT_EQ(round_to(DType::INT4, 3.5), 4);
    EXPECT_EQ(round_to(DType::INT4, 7.4), 7);
    EXPECT_EQ(round_to(DType::INT4, 9), 7);
    EXPECT_EQ(round_to(DType::INT4, -8.5), -8);
    EXPECT_EQ(round_to(DType::INT4, -100), -8);
    EXPECT_EQ(round_to(DType::INT4, std::nan("")), 0);
    EXPECT_EQ(round_to(DType::UINT4, -1), 0);
    EXPECT_EQ(round_to(DType::UINT4, 15.5), 15);
    EXPECT_EQ(round_to(DType::UINT4, 14.5), 14);
    // Two's complement nibbles: -1 = 0xF, -8 = 0x8, 7 = 0x7.
    EXPECT_EQ(sub_byte_encode(DType::INT4, -1), 0xF);
    EXPECT_EQ(sub_byte_encode(DType::INT4, -8), 0x8);
    EXPECT_EQ(sub_byte_decode(DType::INT4, 0xF), -1);
    EXPECT_EQ(sub_byte_decode(DType::UINT4, 0xF), 15);
}

TEST(SubByteDtype, ElementsPackLowNibbleFirst) {
    uint8_t b[2] = {0, 0};
    put_element(DType::INT4, 1, b, 0);   // low nibble of byte 0
    put_element(DType::INT4, -1, b, 1);  // high nibble of byte 0
    put_element(DType::FP4, -6, b, 2);   // 0xF in the low nibble of byte 1
    put_element(DType::FP4, 0.5, b, 3);  // 0x1 in the high nibble
    EXPECT_EQ(b[0], 0xF1);
    EXPECT_EQ(b[1], 0x1F);
    EXPECT_EQ(get_element(DType::INT4, b, 0), 1);
    EXPECT_EQ(get_element(DType::INT4, b, 1), -1);
    EXPECT_EQ(get_element(DType::FP4, b, 2), -6);
    EXPECT_EQ(get_element(DType::FP4, b, 3), 0.5);
    EXPECT_EQ(element_bits(DType::UINT4, b, 1), 0xFu);
    put_element(DType::UINT4, 3, b, 1);  // rewrites one nibble, keeps the other
    EXPECT_EQ(b[0], 0x31);
    uint8_t p[3] = {1, 2, 3};
    poison_fill(DType::FP4, p, 5);  // 3 bytes of 0x88 (code 0x8 in every nibble)
    EXPECT_EQ(p[0], 0x88);
    EXPECT_EQ(p[2], 0x88);
    EXPECT_TRUE(is_poison_element(DType::FP4, p, 4));
    // The 8-bit-and-wider dtypes keep their byte addressing.
    uint8_t f[8] = {};
    put_element(DType::FP32, 1.5, f, 1);
    EXPECT_EQ(get_element(DType::FP32, f, 1), 1.5);
}

TEST(SubByteDtype, NdTilesArePackedAndNzBoxesHold64Elements) {
    Matrix m(2, 4);
    m << 0.5, 1, -2, 6, 3, -0.5, 1.5, 4;
    const std::vector<uint8_t> bytes = encode(m, DType::FP4, Layout::ND, false);
    ASSERT_EQ(bytes.size(), 4u);  // 8 elements, two per byte
    EXPECT_EQ(bytes[0], 0x21);    // 0.5 (0x1) low, 1 (0x2) high
    EXPECT_EQ(bytes[1], 0x7C);    // -2 (0xC) low, 6 (0x7) high
    EXPECT_EQ(bytes[2], 0x95);    // 3 (0x5), -0.5 (0x9)
    EXPECT_EQ(bytes[3], 0x63);    // 1.5 (0x3), 4 (0x6)
    EXPECT_EQ(decode(bytes.data(), bytes.size(), DType::FP4, Layout::ND, false, 2, 4), m);
    EXPECT_EQ(box_shape(Layout::NZ, DType::FP4, false).c0, 64);  // 32 bytes of nibbles
    EXPECT_EQ(physical_bytes(Layout::ND, DType::INT4, false, 16, 32), 256u);
    EXPECT_EQ(physical_bytes(Layout::NZ, DType::INT4, false, 2, 4), 16u * 64 / 2);
    const std::vector<uint8_t> nz =
        repack(bytes.data(), bytes.size(), DType::FP4, Layout::ND, false, Layout::NZ, false, 2, 4);
    EXPECT_EQ(decode(nz.data(), nz.size(), DType::FP4, Layout::NZ, false, 2, 4), m);
}

TEST(SubByteDtype, CastsRoundThroughTheSharedDatapath) {
    TileData x{DType::FP32, Matrix(1, 6)};
    x.m << 0.75, 2.5, 5, 100, -0.2, 3.4;
    const TileData f4 = cast(x, DType::FP4);
    const double want[6] = {1, 2, 4, 6, -0.0, 3};
    for (int i = 0; i < 6; ++i) EXPECT_EQ(f4.m(0, i), want[i]) << i;
    const TileData i4 = cast(x, DType::INT4, CastMode::Floor);  // floor, then saturate
    const double wi[6] = {0, 2, 5, 7, -1, 3};
    for (int i = 0; i < 6; ++i) EXPECT_EQ(i4.m(0, i), wi[i]) << i;
    // FP4 widens exactly.
    const TileData back = cast(f4, DType::FP16);
    for (int i = 0; i < 6; ++i) EXPECT_EQ(back.m(0, i), want[i]) << i;
}

// poison_fill doubles one poisoned element over the buffer: every element of every dtype must be exactly what
// write_poison gives it alone, at odd counts too, and no byte past the n elements is touched.
TEST(PoisonFill, EveryElementOfEveryDtypeIsTheSinglePoisonPattern) {
    for (int d = 0; d < kNumDTypes; ++d) {
        const auto t = static_cast<DType>(d);
        for (int64_t n : {1, 2, 3, 7, 1000, 4097}) {
            const size_t bytes = storage_bytes(t, n);
            std::vector<uint8_t> got(bytes + 8, 0x5A);
            poison_fill(t, got.data(), n);
            std::vector<uint8_t> want(bytes + 8, 0x5A);
            if (is_sub_byte(t))
                std::fill_n(want.begin(), bytes, uint8_t{0x88});
            else
                for (int64_t i = 0; i < n; ++i) write_poison(t, want.data() + static_cast<size_t>(i) * dtype_bytes(t));
            EXPECT_EQ(got, want) << dtype_name(t) << " n=" << n;
            for (int64_t i = 0; i < n; ++i)
                ASSERT_TRUE(is_poison_element(t, got.data(), i)) << dtype_name(t) << " " << i;
        }
    }
}

}  // namespace
}  // namespace cvsim
