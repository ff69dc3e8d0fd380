// Tests of models/layout: SPEC 4.2 offsets, padding, exact round trips, repacks and layout-mistake scrambles.
#include "core/layout.h"
#include "core/datapath.h"
#include "core/layout_assemble.h"
#include "core/layout_window.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <cstring>
#include <set>

namespace cvsim {
namespace {

constexpr DType kTileDtypes[] = {DType::FP32,  DType::FP16,  DType::BF16, DType::INT8,
                                 DType::INT16, DType::INT32, DType::UINT8};
constexpr Layout kLayouts[] = {Layout::ND, Layout::DN, Layout::NZ, Layout::ZN};
using Shape = std::pair<int64_t, int64_t>;

// Bit-identical, except that any NaN equals any NaN (payloads are not promised through a double).
bool same_value(double a, double b) {
    return (std::isnan(a) && std::isnan(b)) || std::memcmp(&a, &b, 8) == 0;
}

::testing::AssertionResult same_matrix(const Matrix& a, const Matrix& b) {
    if (a.rows() != b.rows() || a.cols() != b.cols())
        return ::testing::AssertionFailure()
               << "shape " << a.rows() << "x" << a.cols() << " vs " << b.rows() << "x" << b.cols();
    for (Eigen::Index r = 0; r < a.rows(); ++r)
        for (Eigen::Index c = 0; c < a.cols(); ++c)
            if (!same_value(a(r, c), b(r, c)))
                return ::testing::AssertionFailure() << "(" << r << ", " << c << "): " << a(r, c) << " vs " << b(r, c);
    return ::testing::AssertionSuccess();
}

// Distinct, recognisable values: element (r, c) = r * cols + c, exact in every dtype used with small tiles.
Matrix iota(int64_t rows, int64_t cols) {
    Matrix m(rows, cols);
    for (int64_t i = 0; i < rows * cols; ++i) m.data()[i] = static_cast<double>(i);
    return m;
}

// A matrix of arbitrary bit patterns of `t` (so every representable value, incl. inf, -0, subnormals, NaN).
rc::Gen<Matrix> gen_matrix(DType t, int64_t rows, int64_t cols) {
    return rc::gen::map(
        rc::gen::container<std::vector<uint64_t>>(static_cast<size_t>(rows * cols), rc::gen::arbitrary<uint64_t>()),
        [t, rows, cols](const std::vector<uint64_t>& bits) {
            Matrix m(rows, cols);
            for (size_t i = 0; i < bits.size(); ++i) {
                uint8_t raw[8];
                std::memcpy(raw, &bits[i], 8);
                m.data()[i] = decode_element(t, raw);
            }
            return m;
        });
}

TEST(LayoutTest, BoxShapesFollowThe32ByteRowRule) {
    EXPECT_EQ(box_shape(Layout::NZ, DType::FP16, false).c0, 16);
    EXPECT_EQ(box_shape(Layout::NZ, DType::BF16, false).r0, 16);
    EXPECT_EQ(box_shape(Layout::NZ, DType::FP32, false).c0, 8);
    EXPECT_EQ(box_shape(Layout::NZ, DType::INT8, false).c0, 32);
    // ZN transposes the box.
    EXPECT_EQ(box_shape(Layout::ZN, DType::FP32, false).r0, 8);
    EXPECT_EQ(box_shape(Layout::ZN, DType::FP32, false).c0, 16);
    EXPECT_EQ(box_shape(Layout::ZN, DType::INT8, false).r0, 32);
    // The accumulator uses 16x16 boxes of 4-byte elements (1024 bytes).
    EXPECT_EQ(box_shape(Layout::NZ, DType::FP32, true).c0, 16);
    EXPECT_EQ(box_shape(Layout::NZ, DType::INT32, true).r0, 16);
    EXPECT_EQ(box_shape(Layout::ND, DType::FP16, false).r0, 1);
    EXPECT_EQ(box_shape(Layout::DN, DType::INT8, true).c0, 1);
}

TEST(LayoutTest, PhysicalShapesPadToWholeBoxesOnlyForFractalLayouts) {
    EXPECT_EQ(physical_shape(Layout::NZ, DType::INT8, false, 17, 5), Shape(32, 32));
    EXPECT_EQ(physical_bytes(Layout::NZ, DType::INT8, false, 17, 5), 1024u);
    EXPECT_EQ(physical_shape(Layout::NZ, DType::FP32, false, 20, 20), Shape(32, 24));
    EXPECT_EQ(physical_shape(Layout::NZ, DType::FP32, true, 20, 20), Shape(32, 32));
    EXPECT_EQ(physical_shape(Layout::ZN, DType::FP32, false, 20, 20), Shape(24, 32));
    EXPECT_EQ(physical_shape(Layout::ND, DType::INT8, false, 17, 5), Shape(17, 5));
    EXPECT_EQ(physical_bytes(Layout::DN, DType::FP32, false, 17, 5), 17u * 5u * 4u);
    EXPECT_EQ(physical_bytes(Layout::NZ, DType::FP16, false, 16, 16), 512u);  // one 512-byte fractal
}

TEST(LayoutTest, ElementOffsetsMatchHandComputedSpecFormulas) {
    const BoxShape fp16_nz = box_shape(Layout::NZ, DType::FP16, false);  // 16 x 16
    // (3/16)*(32*16) + (17/16)*256 + (17%16)*16 + 3 = 0 + 256 + 16 + 3
    EXPECT_EQ(element_offset(Layout::NZ, 32, 32, fp16_nz, 17, 3), 275);
    // (20/16)*512 + 0 + 5*16 + 4: the second box column starts after the whole first column of boxes
    EXPECT_EQ(element_offset(Layout::NZ, 32, 32, fp16_nz, 5, 20), 596);
    const BoxShape fp16_zn = box_shape(Layout::ZN, DType::FP16, false);
    // (17/16)*(32*16) + 0 + (3%16)*16 + 1
    EXPECT_EQ(element_offset(Layout::ZN, 32, 32, fp16_zn, 17, 3), 561);
    const BoxShape fp32_nz = box_shape(Layout::NZ, DType::FP32, false);  // 16 x 8
    EXPECT_EQ(element_offset(Layout::NZ, 32, 32, fp32_nz, 17, 3), 139);  // 0 + 128 + 8 + 3
    EXPECT_EQ(element_offset(Layout::NZ, 32, 32, fp32_nz, 5, 20), 556);  // 2*256 + 0 + 40 + 4
    const BoxShape acc_nz = box_shape(Layout::NZ, DType::FP32, true);    // 16 x 16
    EXPECT_EQ(element_offset(Layout::NZ, 32, 32, acc_nz, 5, 20), 596);
    EXPECT_EQ(element_offset(Layout::ND, 3, 5, {}, 2, 4), 14);
    EXPECT_EQ(element_offset(Layout::DN, 3, 5, {}, 2, 4), 14);  // 4*3 + 2
    EXPECT_EQ(element_offset(Layout::DN, 3, 5, {}, 1, 0), 1);
}

TEST(LayoutTest, EncodePlacesElementsAtTheirNzOffsetAndZeroesThePadding) {
    const Matrix m = Matrix::Constant(17, 5, 7.0);
    const std::vector<uint8_t> bytes = encode(m, DType::INT8, Layout::NZ, false);
    ASSERT_EQ(bytes.size(), 1024u);
    // Row 16 lives in the second box of the first box column: offset 16*32 = 512.
    EXPECT_EQ(bytes[512], 7);
    EXPECT_EQ(bytes[512 + 5], 0);  // column 5 is padding
    EXPECT_EQ(bytes[17 * 32], 0);  // row 17 is padding
    int nonzero = 0;
    for (uint8_t b : bytes) nonzero += b != 0;
    EXPECT_EQ(nonzero, 17 * 5);
}

TEST(LayoutTest, EncodeRoundsValuesToTheDtype) {
    Matrix m(1, 2);
    m << 0.1, 300.0;
    const std::vector<uint8_t> fp16 = encode(m, DType::FP16, Layout::ND, false);
    EXPECT_EQ(decode(fp16.data(), fp16.size(), DType::FP16, Layout::ND, false, 1, 2)(0, 0), 0.0999755859375);
    const std::vector<uint8_t> i8 = encode(m, DType::INT8, Layout::ND, false);
    EXPECT_EQ(decode(i8.data(), i8.size(), DType::INT8, Layout::ND, false, 1, 2)(0, 1), 127.0);  // saturates
}

TEST(LayoutTest, NdReadAsNzIsIdenticalForASingleFp16Box) {
    // A 16x16 fp16 tile is one box whose rows are 32 contiguous bytes, so NZ and ND coincide: an ND/NZ mix-up
    // cannot corrupt it. (Only multi-box tiles show the scramble.)
    const Matrix m = iota(16, 16);
    EXPECT_TRUE(same_matrix(reinterpret(m, DType::FP16, Layout::ND, false, Layout::NZ, false), m));
}

TEST(LayoutTest, NdReadAsNzScramblesAMultiBoxFp16Tile) {
    const Matrix m = iota(16, 32);
    const Matrix seen = reinterpret(m, DType::FP16, Layout::ND, false, Layout::NZ, false);
    EXPECT_FALSE(same_matrix(seen, m));
    // NZ (0, 16) is element 256 of the buffer, which the ND writer filled with logical (8, 0).
    EXPECT_EQ(seen(0, 16), m(8, 0));
    EXPECT_EQ(seen(1, 0), m(0, 16));  // NZ (1, 0) = element 16 = ND (0, 16)
    // Writing and reading NZ is faithful.
    EXPECT_TRUE(same_matrix(reinterpret(m, DType::FP16, Layout::NZ, false, Layout::NZ, false), m));
}

TEST(LayoutTest, NdReadAsZnTransposesASingleFp16Box) {
    const Matrix m = iota(16, 16);
    const Matrix seen = reinterpret(m, DType::FP16, Layout::ND, false, Layout::ZN, false);
    EXPECT_TRUE(same_matrix(seen, Matrix(m.transpose())));
}

TEST(LayoutTest, AccumulatorBoxesDifferFromL1BoxesForFp32) {
    // L1 NZ (16x8 boxes) and L0C NZ (16x16 boxes) disagree for fp32: reading one as the other scrambles.
    const Matrix m = iota(16, 16);
    const Matrix seen = reinterpret(m, DType::FP32, Layout::NZ, false, Layout::NZ, true);
    EXPECT_FALSE(same_matrix(seen, m));
    // Acc (0, 8) is element 8 of the buffer; the 16x8-box writer put logical (1, 0) there.
    EXPECT_EQ(seen(0, 8), m(1, 0));
}

TEST(LayoutTest, DecodeOfAShortBufferReadsZerosInsteadOfOverrunning) {
    const Matrix m = iota(32, 32);
    std::vector<uint8_t> bytes = encode(m, DType::FP16, Layout::NZ, false);
    bytes.resize(513);  // the first box plus one byte of the second
    const Matrix seen = decode(bytes.data(), bytes.size(), DType::FP16, Layout::NZ, false, 32, 32);
    EXPECT_EQ(seen(15, 15), m(15, 15));  // last element of the first box is intact
    // Element 256 (row 16, col 0) has only its low byte present (0x00 of 512.0 in fp16 = 0x6000).
    EXPECT_EQ(seen(16, 0), 0.0);
    EXPECT_EQ(seen(31, 31), 0.0);
    const Matrix none = decode(nullptr, 0, DType::FP32, Layout::ZN, false, 3, 3);
    EXPECT_TRUE(same_matrix(none, Matrix::Zero(3, 3)));
}

TEST(LayoutTest, RepackNdToNzKeepsPoisonBytes) {
    // GM->L1 repack moves bytes, so an uninitialised (poisoned) GM element is still detectable in L1.
    const Matrix m = iota(20, 40);
    std::vector<uint8_t> nd = encode(m, DType::FP16, Layout::ND, false);
    write_poison(DType::FP16, nd.data() + (17 * 40 + 33) * 2);
    const std::vector<uint8_t> nz =
        repack(nd.data(), nd.size(), DType::FP16, Layout::ND, false, Layout::NZ, false, 20, 40);
    const auto [R, C] = physical_shape(Layout::NZ, DType::FP16, false, 20, 40);
    const int64_t at = element_offset(Layout::NZ, R, C, box_shape(Layout::NZ, DType::FP16, false), 17, 33);
    EXPECT_TRUE(is_poison(DType::FP16, nz.data() + at * 2));
    const Matrix seen = decode(nz.data(), nz.size(), DType::FP16, Layout::NZ, false, 20, 40);
    EXPECT_EQ(seen(17, 32), m(17, 32));
}

TEST(LayoutTest, RoundTripIsExactAcrossBoxBoundariesForEveryDtypeAndLayout) {
    // Deterministic sweep of the sizes where padding appears or vanishes, next to the random property below.
    const int64_t sizes[] = {1, 7, 8, 9, 15, 16, 17, 31, 32, 33, 48, 63, 64, 65, 70};
    for (DType t : kTileDtypes)
        for (Layout l : kLayouts)
            for (bool acc : {false, true}) {
                if (acc && dtype_bytes(t) != 4) continue;
                for (int64_t rows : sizes)
                    for (int64_t cols : sizes) {
                        Matrix m(rows, cols);
                        for (int64_t i = 0; i < rows * cols; ++i) m.data()[i] = round_to(t, (i % 251) - 100.5);
                        const std::vector<uint8_t> bytes = encode(m, t, l, acc);
                        ASSERT_TRUE(same_matrix(decode(bytes.data(), bytes.size(), t, l, acc, rows, cols), m))
                            << dtype_name(t) << " " << layout_name(l) << (acc ? " acc " : " ") << rows << "x" << cols;
                    }
            }
}

RC_GTEST_PROP(LayoutProperty, EncodeDecodeRoundTripIsExactForEveryDtypeLayoutAndShape, ()) {
    const DType t = *rc::gen::elementOf(std::vector<DType>(std::begin(kTileDtypes), std::end(kTileDtypes)));
    const Layout l = *rc::gen::elementOf(std::vector<Layout>(std::begin(kLayouts), std::end(kLayouts)));
    const bool acc = dtype_bytes(t) == 4 && *rc::gen::arbitrary<bool>();
    // Half the shapes are whole boxes, half arbitrary.
    const BoxShape b = box_shape(l, t, acc);
    const bool whole = *rc::gen::arbitrary<bool>();
    const int64_t rows =
        whole ? b.r0 * *rc::gen::inRange<int64_t>(1, 70 / b.r0 + 1) : *rc::gen::inRange<int64_t>(1, 71);
    const int64_t cols =
        whole ? b.c0 * *rc::gen::inRange<int64_t>(1, 70 / b.c0 + 1) : *rc::gen::inRange<int64_t>(1, 71);
    const Matrix m = *gen_matrix(t, rows, cols);

    const std::vector<uint8_t> bytes = encode(m, t, l, acc);
    RC_ASSERT(bytes.size() == physical_bytes(l, t, acc, rows, cols));
    RC_ASSERT(same_matrix(decode(bytes.data(), bytes.size(), t, l, acc, rows, cols), m));
}

RC_GTEST_PROP(LayoutProperty, OffsetsAreABijectionAndPaddingIsZero, ()) {
    const DType t = *rc::gen::elementOf(std::vector<DType>(std::begin(kTileDtypes), std::end(kTileDtypes)));
    const Layout l = *rc::gen::elementOf(std::vector<Layout>(std::begin(kLayouts), std::end(kLayouts)));
    const bool acc = dtype_bytes(t) == 4 && *rc::gen::arbitrary<bool>();
    const int64_t rows = *rc::gen::inRange<int64_t>(1, 71), cols = *rc::gen::inRange<int64_t>(1, 71);
    const auto [R, C] = physical_shape(l, t, acc, rows, cols);
    const BoxShape b = box_shape(l, t, acc);
    // Over the whole physical tile the offsets cover [0, R*C) exactly once.
    std::vector<int> hits(static_cast<size_t>(R * C), 0);
    for (int64_t r = 0; r < R; ++r)
        for (int64_t c = 0; c < C; ++c) {
            const int64_t off = element_offset(l, R, C, b, r, c);
            RC_ASSERT(off >= 0 && off < R * C);
            // Separable into row and column parts (what the encode/decode tables rely on).
            RC_ASSERT(off == element_offset(l, R, C, b, r, 0) + element_offset(l, R, C, b, 0, c));
            ++hits[static_cast<size_t>(off)];
        }
    for (int h : hits) RC_ASSERT(h == 1);
    // Encoding a tile of non-zero values leaves exactly the padding zero.
    const std::vector<uint8_t> bytes = encode(Matrix::Constant(rows, cols, 1.0), t, l, acc);
    const size_t eb = dtype_bytes(t);
    size_t nonzero_elements = 0;
    for (size_t i = 0; i < bytes.size(); i += eb) {
        bool any = false;
        for (size_t k = 0; k < eb; ++k) any |= bytes[i + k] != 0;
        nonzero_elements += any;
    }
    RC_ASSERT(nonzero_elements == static_cast<size_t>(rows * cols));
}

RC_GTEST_PROP(LayoutProperty, RepackEqualsEncodingInTheTargetLayout, ()) {
    const DType t = *rc::gen::elementOf(std::vector<DType>(std::begin(kTileDtypes), std::end(kTileDtypes)));
    const Layout from = *rc::gen::elementOf(std::vector<Layout>(std::begin(kLayouts), std::end(kLayouts)));
    const Layout to = *rc::gen::elementOf(std::vector<Layout>(std::begin(kLayouts), std::end(kLayouts)));
    const bool from_acc = dtype_bytes(t) == 4 && *rc::gen::arbitrary<bool>();
    const bool to_acc = dtype_bytes(t) == 4 && *rc::gen::arbitrary<bool>();
    const int64_t rows = *rc::gen::inRange<int64_t>(1, 71), cols = *rc::gen::inRange<int64_t>(1, 71);
    const Matrix m = *gen_matrix(t, rows, cols);
    const std::vector<uint8_t> src = encode(m, t, from, from_acc);
    const std::vector<uint8_t> moved = repack(src.data(), src.size(), t, from, from_acc, to, to_acc, rows, cols);
    RC_ASSERT(moved == encode(m, t, to, to_acc));
}

RC_GTEST_PROP(LayoutProperty, EncodeRoundsExactlyLikeEncodeElement, ()) {
    // encode has typed fast paths; for any double (unrepresentable, out of range, NaN, -0) the bytes must be
    // those encode_element writes, so tiles and scalar GM accesses agree.
    const DType t = *rc::gen::elementOf(std::vector<DType>(std::begin(kTileDtypes), std::end(kTileDtypes)));
    const auto values = *rc::gen::container<std::vector<double>>(rc::gen::oneOf(
        rc::gen::arbitrary<double>(), rc::gen::map(rc::gen::arbitrary<int>(), [](int i) { return i / 8.0; }),
        rc::gen::map(rc::gen::arbitrary<uint64_t>(), [](uint64_t b) {
            double d;
            std::memcpy(&d, &b, 8);
            return d;
        })));
    RC_PRE(!values.empty());
    Matrix m(1, static_cast<Eigen::Index>(values.size()));
    for (size_t i = 0; i < values.size(); ++i) m(0, static_cast<Eigen::Index>(i)) = values[i];
    const std::vector<uint8_t> bytes = encode(m, t, Layout::ND, false);
    const size_t eb = dtype_bytes(t);
    for (size_t i = 0; i < values.size(); ++i) {
        uint8_t want[8] = {};
        encode_element(t, values[i], want);
        if (dtype_is_float(t) && std::isnan(values[i])) {
            RC_ASSERT(std::isnan(decode_element(t, bytes.data() + i * eb)));
        } else {
            RC_ASSERT(std::memcmp(bytes.data() + i * eb, want, eb) == 0);
        }
    }
}

RC_GTEST_PROP(LayoutProperty, TruncatedBuffersNeverCrashAndKeepWholeElements, ()) {
    const DType t = *rc::gen::elementOf(std::vector<DType>(std::begin(kTileDtypes), std::end(kTileDtypes)));
    const Layout l = *rc::gen::elementOf(std::vector<Layout>(std::begin(kLayouts), std::end(kLayouts)));
    const int64_t rows = *rc::gen::inRange<int64_t>(1, 40), cols = *rc::gen::inRange<int64_t>(1, 40);
    const Matrix m = *gen_matrix(t, rows, cols);
    const std::vector<uint8_t> full = encode(m, t, l, false);
    const size_t keep = *rc::gen::inRange<size_t>(0, full.size() + 1);
    // An exactly-sized heap copy, so AddressSanitizer catches any read past `keep`.
    std::vector<uint8_t> cut(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(keep));
    const Matrix seen = decode(cut.data(), cut.size(), t, l, false, rows, cols);
    const auto [R, C] = physical_shape(l, t, false, rows, cols);
    const BoxShape b = box_shape(l, t, false);
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < cols; ++c) {
            const size_t end = static_cast<size_t>(element_offset(l, R, C, b, r, c) + 1) * dtype_bytes(t);
            if (end <= keep) RC_ASSERT(same_value(seen(r, c), m(r, c)));
        }
}

// The data engine's in-place assemble (core/layout_assemble.h) gives the bytes of the general path, encode(assemble(
// decode(bytes))), for every tile dtype, layout and box kind and arbitrary non-NaN bit patterns, including values
// the source must round; it declines (false, bytes untouched) where that is not certain.
TEST(LayoutTest, AssembleInPlaceGivesTheBytesOfDecodeAssembleEncode) {
    uint32_t state = 12345;
    auto next = [&] { return state = state * 1664525u + 1013904223u; };
    for (DType t : kTileDtypes)
        for (Layout l : kLayouts)
            for (bool acc : {false, true}) {
                if (acc && dtype_bytes(t) != 4) continue;  // an Acc tile holds 4-byte elements
                const int64_t rows = 32, cols = 64;        // whole boxes of every kind: no padding
                std::vector<uint8_t> bytes(physical_bytes(l, t, acc, rows, cols));
                for (auto& b : bytes) b = static_cast<uint8_t>(next() >> 24);
                // No NaN patterns (those are declined, below): clear one exponent bit of each float element.
                const size_t eb = dtype_bytes(t);
                if (t == DType::FP32 || t == DType::FP16 || t == DType::BF16)
                    for (size_t i = eb - 1; i < bytes.size(); i += eb) bytes[i] &= 0xBF;
                Matrix src(3, 5);
                for (int64_t i = 0; i < src.size(); ++i)
                    src.data()[i] = (static_cast<double>(next() % 2001) - 1000) / 3;
                const TileData target{t, decode(bytes.data(), bytes.size(), t, l, acc, rows, cols)};
                const std::vector<uint8_t> want = encode(assemble(target, TileData{t, src}, 7, 50).m, t, l, acc);
                std::vector<uint8_t> got = bytes;
                ASSERT_TRUE(assemble_encoded(got, t, l, acc, rows, cols, src, 7, 50))
                    << dtype_name(t) << " layout " << static_cast<int>(l) << " acc " << acc;
                EXPECT_TRUE(got == want) << dtype_name(t) << " layout " << static_cast<int>(l) << " acc " << acc;
                EXPECT_FALSE(got == bytes);  // the source was written
            }
}

TEST(LayoutTest, AssembleInPlaceDeclinesNanPaddingAndRegionsOutsideTheTile) {
    const Matrix src = Matrix::Constant(2, 2, 1.5);
    // A signalling BF16 NaN (0x7F81) in the target: a decode and encode need not keep its payload.
    std::vector<uint8_t> nan = encode(Matrix::Zero(16, 16), DType::BF16, Layout::ND, false);
    nan[10] = 0x81;
    nan[11] = 0x7F;
    const std::vector<uint8_t> before = nan;
    EXPECT_FALSE(assemble_encoded(nan, DType::BF16, Layout::ND, false, 16, 16, src, 0, 0));
    EXPECT_TRUE(nan == before);
    // NZ with box padding (20 rows of FP16 pad to 32): declined; ND of the same shape has none.
    std::vector<uint8_t> nz = encode(Matrix::Zero(20, 16), DType::FP16, Layout::NZ, false);
    EXPECT_FALSE(assemble_encoded(nz, DType::FP16, Layout::NZ, false, 20, 16, src, 0, 0));
    std::vector<uint8_t> nd = encode(Matrix::Zero(20, 16), DType::FP16, Layout::ND, false);
    EXPECT_TRUE(assemble_encoded(nd, DType::FP16, Layout::ND, false, 20, 16, src, 18, 14));
    EXPECT_FALSE(assemble_encoded(nd, DType::FP16, Layout::ND, false, 20, 16, src, 19, 0));  // past the last row
    EXPECT_FALSE(assemble_encoded(nd, DType::FP16, Layout::ND, false, 20, 16, src, 0, -1));  // before column 0
    std::vector<uint8_t> short_buf(10);
    EXPECT_FALSE(assemble_encoded(short_buf, DType::FP16, Layout::ND, false, 20, 16, src, 0, 0));
}

// Bit-identical doubles (a NaN's payload included).
::testing::AssertionResult same_bits(const Matrix& a, const Matrix& b) {
    if (a.rows() != b.rows() || a.cols() != b.cols())
        return ::testing::AssertionFailure()
               << "shape " << a.rows() << "x" << a.cols() << " vs " << b.rows() << "x" << b.cols();
    for (Eigen::Index r = 0; r < a.rows(); ++r)
        for (Eigen::Index c = 0; c < a.cols(); ++c)
            if (std::memcmp(&a(r, c), &b(r, c), 8) != 0)
                return ::testing::AssertionFailure() << "(" << r << ", " << c << "): " << a(r, c) << " vs " << b(r, c);
    return ::testing::AssertionSuccess();
}

// The data engine's window decode (tile.extract, slices, tile.read, stores; core/layout_window.h) gives exactly the
// values of the old path, datapath's window() of the whole decoded tile, for every dtype (the packed 4-bit ones and
// those without a typed codec too), layout and box kind, on random bit patterns (NaN payloads, infinities, box
// padding included), for windows inside the tile, across and past its edges, empty ones, and short buffers.
TEST(LayoutTest, DecodeWindowEqualsTheWindowOfTheWholeDecode) {
    uint32_t state = 777;
    auto next = [&] { return state = state * 1664525u + 1013904223u; };
    struct Win {
        int64_t r0, c0, wr, wc;
    };
    const Win wins[] = {{0, 0, 20, 70},  {3, 5, 8, 17},    {16, 64, 4, 6}, {-2, 60, 5, 20},
                        {18, -3, 4, 10}, {25, 0, 3, 3},    {0, 75, 2, 2},  {0, 0, 0, 5},
                        {19, 69, 1, 1},  {-4, -4, 30, 80}, {7, 33, 1, 37}, {0, 0, 20, 1}};
    int compared = 0;
    for (int ti = 0; ti < kNumDTypes; ++ti) {
        const DType t = static_cast<DType>(ti);
        if (dtype_bits(t) == 0) continue;
        for (Layout l : kLayouts)
            for (bool acc : {false, true}) {
                const int64_t rows = 20, cols = 70;  // NZ/ZN pad both dimensions for every box kind
                std::vector<uint8_t> bytes(physical_bytes(l, t, acc, rows, cols));
                for (auto& b : bytes) b = static_cast<uint8_t>(next() >> 24);
                for (size_t keep : {bytes.size(), bytes.size() / 2 + 1, size_t{0}}) {
                    const std::vector<uint8_t> cut(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(keep));
                    const TileData whole{t, decode(cut.data(), cut.size(), t, l, acc, rows, cols)};
                    for (const Win& w : wins) {
                        const Matrix want = window(whole, w.r0, w.c0, w.wr, w.wc).m;
                        const Matrix got =
                            decode_window(cut.data(), cut.size(), t, l, acc, rows, cols, w.r0, w.c0, w.wr, w.wc);
                        ASSERT_TRUE(same_bits(got, want))
                            << dtype_name(t) << " layout " << static_cast<int>(l) << " acc " << acc << " keep " << keep
                            << " window " << w.r0 << "," << w.c0 << " " << w.wr << "x" << w.wc;
                        ++compared;
                    }
                }
            }
    }
    EXPECT_GT(compared, 1000);
}

RC_GTEST_PROP(LayoutProperty, DecodeWindowEqualsTheWindowOfTheWholeDecode, ()) {
    const DType t = *rc::gen::elementOf(std::vector<DType>(std::begin(kTileDtypes), std::end(kTileDtypes)));
    const Layout l = *rc::gen::elementOf(std::vector<Layout>(std::begin(kLayouts), std::end(kLayouts)));
    const bool acc = *rc::gen::arbitrary<bool>();
    const int64_t rows = *rc::gen::inRange<int64_t>(0, 40), cols = *rc::gen::inRange<int64_t>(0, 40);
    std::vector<uint8_t> bytes =
        *rc::gen::container<std::vector<uint8_t>>(physical_bytes(l, t, acc, rows, cols), rc::gen::arbitrary<uint8_t>());
    bytes.resize(*rc::gen::inRange<size_t>(0, bytes.size() + 1));
    const int64_t r0 = *rc::gen::inRange<int64_t>(-8, 48), c0 = *rc::gen::inRange<int64_t>(-8, 48);
    const int64_t wr = *rc::gen::inRange<int64_t>(0, 48), wc = *rc::gen::inRange<int64_t>(0, 48);
    const TileData whole{t, decode(bytes.data(), bytes.size(), t, l, acc, rows, cols)};
    RC_ASSERT(same_bits(decode_window(bytes.data(), bytes.size(), t, l, acc, rows, cols, r0, c0, wr, wc),
                        window(whole, r0, c0, wr, wc).m));
}

}  // namespace
}  // namespace cvsim
