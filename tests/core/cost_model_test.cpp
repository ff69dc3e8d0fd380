// Tests of the cost formulas: exact cycle counts a user would see in a trace, for both presets.
#include "core/cost_model.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

namespace cvsim {
namespace {

const HwParams kA2 = preset(Target::A2A3);
const HwParams kA5 = preset(Target::A5);

TEST(Mad, FractalK) {
    EXPECT_EQ(fractal_k(DType::FP16), 16u);
    EXPECT_EQ(fractal_k(DType::BF16), 16u);
    EXPECT_EQ(fractal_k(DType::FP32), 8u);
    EXPECT_EQ(fractal_k(DType::INT8), 32u);
}

TEST(Mad, A2a3Shapes) {
    // 21 + cpr * ceil(M/16) * ceil(K/k0) * ceil(N/16)
    EXPECT_EQ(mad_cycles(kA2.cube, DType::FP16, 16, 16, 16), 21u + 1);
    EXPECT_EQ(mad_cycles(kA2.cube, DType::FP16, 128, 128, 128), 21u + 8 * 8 * 8);
    EXPECT_EQ(mad_cycles(kA2.cube, DType::BF16, 16, 512, 64), 21u + 1 * 32 * 4);    // kernels/l2_rows_narrow.py
    EXPECT_EQ(mad_cycles(kA2.cube, DType::FP16, 17, 17, 17), 21u + 2 * 2 * 2);      // partial fractals round up
    EXPECT_EQ(mad_cycles(kA2.cube, DType::FP32, 16, 16, 16), 21u + 2 * 1 * 2 * 1);  // k0 = 8, cpr = 2
    EXPECT_EQ(mad_cycles(kA2.cube, DType::FP32, 64, 64, 64), 21u + 2 * 4 * 8 * 4);
    EXPECT_EQ(mad_cycles(kA2.cube, DType::INT8, 32, 64, 32), 21u + 1 * 2 * 2 * 2);  // k0 = 32
}

TEST(Mad, A5Shapes) {
    EXPECT_EQ(mad_cycles(kA5.cube, DType::FP16, 16, 16, 16), 25u + 1);
    EXPECT_EQ(mad_cycles(kA5.cube, DType::BF16, 64, 256, 128), 25u + 4 * 16 * 8);
    EXPECT_EQ(mad_cycles(kA5.cube, DType::FP32, 16, 16, 16), 25u + 8 * 2);  // cpr = 8 for fp32 on a5
    EXPECT_EQ(mad_cycles(kA5.cube, DType::FP32, 64, 64, 64), 25u + 8 * 4 * 8 * 4);
    EXPECT_EQ(mad_cycles(kA5.cube, DType::INT8, 128, 128, 128), 25u + 8 * 4 * 8);
}

TEST(Dma, GmLoadPaysLatencyAndBandwidth) {
    // 64 KiB of 512-byte rows GM -> L1 on a2a3: 128 lines; 65536 / 78 = 840.2 -> 841 cycles of transfer.
    EXPECT_EQ(dma_cycles(kA2, DmaPath::GmToL1, 128, 512, 0, 128), 50u + 150 + 841);  // cold: any miss
    EXPECT_EQ(dma_cycles(kA2, DmaPath::GmToL1, 128, 512, 128, 0), 50u + 841);        // warm: all hit
    EXPECT_EQ(dma_cycles(kA2, DmaPath::GmToL1, 128, 512, 127, 1), 50u + 150 + 841);  // one miss is enough
    // GM -> UB at 59 B/cycle, one contiguous 16 KiB run.
    EXPECT_EQ(dma_cycles(kA2, DmaPath::GmToUb, 1, 16384, 32, 0), 50u + 278);  // 16384 / 59 = 277.7
    // UB -> GM at 109 B/cycle.
    EXPECT_EQ(dma_cycles(kA2, DmaPath::UbToGm, 16, 1024, 32, 0), 50u + 151);  // 16384 / 109 = 150.3
    EXPECT_EQ(dma_cycles(kA2, DmaPath::GmToL1, 0, 512, 0, 0), 0u);            // zero-size replay transfer
}

TEST(Dma, NarrowRowsCostMoreThanWideRowsForTheSameBytes) {
    // The calibration pair kernels/l2_rows_{narrow,wide}.py: 64 KiB weight, 128-byte vs 512-byte rows.
    // With the literal HARDWARE.md rule (a short row costs a whole granule).
    HwParams whole = kA2;
    whole.gm.short_row_fraction = 1.0;
    const uint64_t wide = dma_cycles(whole, DmaPath::GmToL1, 128, 512, 0, 128);
    const uint64_t narrow = dma_cycles(whole, DmaPath::GmToL1, 512, 128, 0, 128);
    EXPECT_EQ(wide, 1041u);
    EXPECT_EQ(narrow, 200u + 3361u);  // each 128-byte row is charged a 512-byte granule: 262144 / 78
    EXPECT_GT(narrow, wide);
    EXPECT_EQ(charged_bytes(whole.gm, 512, 128), 262144.0);
    EXPECT_EQ(charged_bytes(whole.gm, 128, 512), 65536.0);
    EXPECT_EQ(charged_bytes(whole.gm, 4, 1000), 4000.0);  // rows at least a granule are charged as they are

    // The a2a3 preset is fitted to the device figure (tests/models/calibration_test.cpp): 20% of the unused
    // granule, so the narrow load costs 512 * (128 + 0.2 * 384) / 78 cycles.
    EXPECT_DOUBLE_EQ(kA2.gm.short_row_fraction, 0.2);
    EXPECT_EQ(dma_cycles(kA2, DmaPath::GmToL1, 512, 128, 0, 128), 200u + 1345u);

    // a5's granule is 128 bytes: no penalty for the same shape.
    EXPECT_EQ(dma_cycles(kA5, DmaPath::GmToL1, 512, 128, 0, 128), dma_cycles(kA5, DmaPath::GmToL1, 128, 512, 0, 128));

    // The calibration knob scales the wasted part of the granule.
    HwParams p = kA2;
    p.gm.short_row_fraction = 0.25;
    EXPECT_EQ(charged_bytes(p.gm, 512, 128), 512.0 * (128 + 96));
    EXPECT_EQ(dma_cycles(p, DmaPath::GmToL1, 512, 128, 0, 128), 200u + 1471u);  // 114688 / 78 = 1470.4
}

TEST(Dma, OnChipPathsPayOnlyBandwidth) {
    EXPECT_EQ(dma_cycles(kA2, DmaPath::L1ToL0B, 1, 65536, 0, 99), 772u);  // 65536 / 85 = 771.01
    EXPECT_EQ(dma_cycles(kA5, DmaPath::L1ToL0B, 1, 65536, 0, 0), 293u);   // 65536 / 224 = 292.57
    EXPECT_EQ(dma_cycles(kA2, DmaPath::L1ToL0A, 1, 16384, 0, 0), 127u);   // 16384 / 130 = 126.03
    EXPECT_EQ(dma_cycles(kA5, DmaPath::L1ToL0A, 1, 16384, 0, 0), 80u);    // 16384 / 206 = 79.53
    EXPECT_EQ(dma_cycles(kA2, DmaPath::UbToUb, 1, 8192, 0, 0), 14u);      // 8192 / 594 = 13.79
    EXPECT_EQ(dma_cycles(kA2, DmaPath::L0cToL1, 1, 4096, 0, 0), 56u);     // 16x64 fp32: 4096 / 74 = 55.35
    // Short rows on chip are not rounded to the GM granule.
    EXPECT_EQ(dma_cycles(kA2, DmaPath::UbToUb, 64, 128, 0, 0), 14u);
    EXPECT_FALSE(path_touches_gm(DmaPath::L0cToL1));
    EXPECT_TRUE(path_touches_gm(DmaPath::UbToGm));
    EXPECT_EQ(dma_path_name(DmaPath::GmToL1), "GM->L1");
}

TEST(Fixp, DrainFormulaBothTargets) {
    // a2a3: 164 + M * max(4.45, bytes_out * N / 118)
    EXPECT_EQ(fixp_to_gm_cycles(kA2.mte, 16, 64, DType::FP32), 236u);    // 164 + 16 * 4.45 = 235.2
    EXPECT_EQ(fixp_to_gm_cycles(kA2.mte, 16, 256, DType::FP32), 303u);   // 164 + 16 * 1024/118 = 302.85
    EXPECT_EQ(fixp_to_gm_cycles(kA2.mte, 16, 256, DType::FP16), 236u);   // 512/118 = 4.34 < 4.45
    EXPECT_EQ(fixp_to_gm_cycles(kA2.mte, 128, 128, DType::FP32), 734u);  // 164 + 128 * 4.45 = 733.6
    EXPECT_EQ(fixp_to_gm_cycles(kA2.mte, 20, 16, DType::FP32), 253u);    // 164 + 89 exactly: no spurious +1
    // a5: 343 + M * max(4.59, bytes_out * N / 30)
    EXPECT_EQ(fixp_to_gm_cycles(kA5.mte, 16, 64, DType::FP32), 480u);  // 343 + 16 * 8.533 = 479.53
    EXPECT_EQ(fixp_to_gm_cycles(kA5.mte, 16, 16, DType::FP16), 417u);  // 32/30 < 4.59: 343 + 73.44
}

TEST(Vector, HeadRepeatsTail) {
    const VectorParams& v = kA2.vector;
    EXPECT_EQ(vector_op_cycles(v, VectorOp::Unary, 256), 12u + 1 + 14);
    EXPECT_EQ(vector_op_cycles(v, VectorOp::Unary, 0), 12u + 14);
    EXPECT_EQ(vector_op_cycles(v, VectorOp::TileScalar, 257), 12u + 2 + 14);  // repeats round up
    EXPECT_EQ(vector_op_cycles(v, VectorOp::Binary, 16384), 12u + 64 * 2 + 14);
    EXPECT_EQ(vector_op_cycles(v, VectorOp::Exp, 16384), 12u + 64 * 2 + 14);
    EXPECT_EQ(vector_repeats(v, 512), 2u);

    HwParams p = kA2;
    set_param(p, "vector.head", "0");
    set_param(p, "vector.tail", "0");
    EXPECT_EQ(vector_op_cycles(p.vector, VectorOp::Binary, 1024), 8u);
}

TEST(Vector, Reductions) {
    const VectorParams& v = kA2.vector;
    // 16 rows x 64 fp32 = 4096 bytes, reducing 64 elements per row: 16 repeats * 2 + log2(64).
    EXPECT_EQ(vector_reduce_cycles(v, 4096, 64), 12u + 32 + 6 + 14);
    EXPECT_EQ(vector_reduce_cycles(v, 4096, 48), 12u + 32 + 6 + 14);  // log2 rounded up
    EXPECT_EQ(vector_reduce_cycles(v, 256, 1), 12u + 2 + 14);
}

TEST(CeilCycles, RoundsUpButForgivesFloatingNoise) {
    EXPECT_EQ(ceil_cycles(3.0), 3u);
    EXPECT_EQ(ceil_cycles(3.0 + 1e-12), 3u);
    EXPECT_EQ(ceil_cycles(3.01), 4u);
    EXPECT_EQ(ceil_cycles(0.0), 0u);
    EXPECT_EQ(ceil_cycles(-2.0), 0u);
}

RC_GTEST_PROP(CostProperty, MadIsMonotonicInEveryDimension, ()) {
    const HwParams& hw = *rc::gen::element(kA2, kA5);
    const DType t = *rc::gen::element(DType::FP16, DType::BF16, DType::FP32, DType::INT8);
    const uint64_t m = *rc::gen::inRange<uint64_t>(1, 512);
    const uint64_t k = *rc::gen::inRange<uint64_t>(1, 512);
    const uint64_t n = *rc::gen::inRange<uint64_t>(1, 512);
    const uint64_t c = mad_cycles(hw.cube, t, m, k, n);
    RC_ASSERT(c >= hw.cube.mad_head + 1);
    RC_ASSERT(mad_cycles(hw.cube, t, m + 1, k, n) >= c);
    RC_ASSERT(mad_cycles(hw.cube, t, m, k + 1, n) >= c);
    RC_ASSERT(mad_cycles(hw.cube, t, m, k, n + 1) >= c);
}

RC_GTEST_PROP(CostProperty, SplittingAGmTransferIntoNarrowerRowsNeverGetsCheaper, ()) {
    const HwParams& hw = *rc::gen::element(kA2, kA5);
    const DmaPath path = *rc::gen::element(DmaPath::GmToUb, DmaPath::GmToL1, DmaPath::UbToGm);
    const uint64_t row_bytes = *rc::gen::element<uint64_t>(32, 64, 128, 256, 512, 1024, 2048);
    const uint64_t rows = *rc::gen::inRange<uint64_t>(1, 256);
    const uint64_t wide = dma_cycles(hw, path, rows, 2 * row_bytes, 0, 1);
    const uint64_t narrow = dma_cycles(hw, path, 2 * rows, row_bytes, 0, 1);
    RC_ASSERT(narrow >= wide);
}

}  // namespace
}  // namespace cvsim
