// Cost formulas of the AI-core pipes: pure functions of the hardware parameters, returning whole cycles.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "core/dtype.h"
#include "core/params.h"

namespace cvsim {

// Fractal geometry of the cube (architectural constants, also used by the layouts): a fractal is
// 16 rows x 32 bytes of lhs, so k0 = 32 / bytes(lhs dtype).
inline constexpr uint64_t kCubeFractalRows = 16;    // M and N extent of one fractal step
inline constexpr uint64_t kCubeFractalKBytes = 32;  // K extent of one fractal step, in lhs bytes

// Data paths with a bandwidth parameter (the pipe that runs each one is in SPEC 4.1).
enum class DmaPath : uint8_t {
    GmToUb,    // MTE2, mte.gm_to_ub_bw
    GmToL1,    // MTE2 with ND->NZ repack, mte.gm_to_l1_bw
    UbToGm,    // MTE3, mte.ub_to_gm_bw
    L1ToL0A,   // MTE1, mte.l1_to_l0a_bw
    L1ToL0B,   // MTE1, mte.l1_to_l0b_bw
    L1ToBias,  // MTE1, mte.l1_to_bias_bw
    UbToUb,    // VECTOR, mte.ub_to_ub_bw
    L0cToL1,   // FIXP, mte.l0c_to_l1_bw
    L0cToUb,   // FIXP (a5), mte.l0c_to_ub_bw
};
std::string_view dma_path_name(DmaPath path);  // "GM->UB", ...
double path_bandwidth(const MteParams& mte, DmaPath path);
// True for paths with a GM end: they pay the start latency and the access-granule rounding.
bool path_touches_gm(DmaPath path);

// Cube MAD: mad_head + cpr * ceil(M/16) * ceil(K/k0) * ceil(N/16).
uint64_t fractal_k(DType lhs);  // k0 = 32 / bytes(lhs): 16 fp16/bf16, 8 fp32, 32 int8
uint64_t cycles_per_fractal(const CubeParams& cube, DType lhs);
uint64_t mad_cycles(const CubeParams& cube, DType lhs, uint64_t m, uint64_t k, uint64_t n);

// GM-side bytes a transfer of `rows` contiguous runs of `row_bytes` costs: a run shorter than the access
// granule is charged up to a whole granule (gm.short_row_fraction of the unused part). Callers merge rows
// that are contiguous in GM into one run (a full-width window is one run of rows * row_bytes).
double charged_bytes(const GmParams& gm, uint64_t rows, uint64_t row_bytes);
// Start latency of one GM DMA given how many of its L2 lines hit and missed.
uint64_t dma_start_latency(const GmParams& gm, uint64_t lines_hit, uint64_t lines_missed);
// Whole DMA on `path`: start latency (GM paths) + charged bytes / path bandwidth, rounded up. Zero bytes
// cost nothing (the replay lane's zero-size handshakes). On-chip paths ignore the line counts.
uint64_t dma_cycles(const HwParams& hw, DmaPath path, uint64_t rows, uint64_t row_bytes, uint64_t lines_hit,
                    uint64_t lines_missed);

// FIXP L0C -> GM drain of an M x N tile: fixp_head + M * max(fixp_min_row_cycles, bytes_out * N /
// fixp_row_bw).
uint64_t fixp_to_gm_cycles(const MteParams& mte, uint64_t m, uint64_t n, DType out);

// Vector instruction classes with their own cycles per repeat.
enum class VectorOp : uint8_t { Unary, TileScalar, Binary, Exp };
uint64_t vector_cycles_per_repeat(const VectorParams& vec, VectorOp op);
uint64_t vector_repeats(const VectorParams& vec, uint64_t bytes);  // ceil(bytes / repeat_bytes)
// head + repeats * cycles_per_repeat + tail, `bytes` = bytes of the destination tile.
uint64_t vector_op_cycles(const VectorParams& vec, VectorOp op, uint64_t bytes);
// row_sum / row_max over `bytes` of input, reducing rows of `n` elements:
// head + ceil(bytes/repeat_bytes) * reduce_cycles_per_repeat + ceil(log2(n)) + tail.
uint64_t vector_reduce_cycles(const VectorParams& vec, uint64_t bytes, uint64_t n);

// The cost entry of an op (frontend/ops.cpp): which formula prices it. Each has its formula text, source and
// confidence (listed by `cvsim params` after the parameters, and in docs/OPS_TABLE.md).
enum class OpCost : uint8_t {
    None,           // views: no data moves (0 cycles)
    Scalar,         // scalar-unit instruction: sync.issue_cost
    GmDma,          // load/store: dma_cycles on GM->UB / GM->L1 / UB->GM (+ fixp_to_gm_cycles from L0C)
    OnChipDma,      // move: dma_cycles on the on-chip path
    Mad,            // matmul family: mad_cycles
    VecUnary,       // vector_op_cycles(Unary)
    VecTileScalar,  // vector_op_cycles(TileScalar)
    VecBinary,      // vector_op_cycles(Binary)
    VecExp,         // vector_op_cycles(Exp)
    VecReduce,      // vector_reduce_cycles
    Transport,      // tpush/tpop: ring slot DMA (sim/data_sync.cpp: DataEngine push / pop copy)
    VecSort,        // sort32 (VBS32 on the SFU): 5 compare-exchange rounds per repeat
    VecMerge,       // mrgsort (vmrgsort4): 2 steps per repeat of the output
    VecGather,      // gather / scatter by index: address generation + element move per repeat
    GmIndexed,      // mgather / mscatter: one GM DMA run per indexed row (row mode) or element (elem mode)
    Assemble,       // tile.assemble: vec_unary into UB; L0C->L1 on_chip_dma into L1; 0 for L1->L1 (in place)
};
struct OpCostInfo {
    OpCost kind;
    std::string_view name;     // "vec_binary"
    std::string_view formula;  // in terms of the parameters
    std::string_view source;
    char confidence;  // H, M or L
};
std::span<const OpCostInfo> op_cost_table();
const OpCostInfo& op_cost_info(OpCost kind);
// The cycles of a vector-kind cost: `bytes` = the largest operand or result tile in bytes, `reduce_n` = the
// reduced extent for VecReduce (then `bytes` is the input's).
uint64_t vector_kind_cycles(const VectorParams& vec, OpCost kind, uint64_t bytes, uint64_t reduce_n);

// Round a cost in (fractional) cycles up to whole cycles, forgiving floating-point noise below 1e-9.
uint64_t ceil_cycles(double cycles);

}  // namespace cvsim
