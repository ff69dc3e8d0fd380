// Cost formulas of the AI-core pipes (HARDWARE.md), one function per formula, with source and confidence.
#include "core/cost_model.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace cvsim {

namespace {

uint64_t ceil_div(uint64_t a, uint64_t b) {
    return (a + b - 1) / b;
}

}  // namespace

uint64_t ceil_cycles(double cycles) {
    if (!(cycles > 0)) return 0;
    return static_cast<uint64_t>(std::ceil(cycles - 1e-9));
}

std::string_view dma_path_name(DmaPath path) {
    switch (path) {
        case DmaPath::GmToUb:
            return "GM->UB";
        case DmaPath::GmToL1:
            return "GM->L1";
        case DmaPath::UbToGm:
            return "UB->GM";
        case DmaPath::L1ToL0A:
            return "L1->L0A";
        case DmaPath::L1ToL0B:
            return "L1->L0B";
        case DmaPath::L1ToBias:
            return "L1->Bias";
        case DmaPath::UbToUb:
            return "UB->UB";
        case DmaPath::L0cToL1:
            return "L0C->L1";
        case DmaPath::L0cToUb:
            return "L0C->UB";
    }
    return "?";
}

double path_bandwidth(const MteParams& mte, DmaPath path) {
    switch (path) {
        case DmaPath::GmToUb:
            return mte.gm_to_ub_bw;
        case DmaPath::GmToL1:
            return mte.gm_to_l1_bw;
        case DmaPath::UbToGm:
            return mte.ub_to_gm_bw;
        case DmaPath::L1ToL0A:
            return mte.l1_to_l0a_bw;
        case DmaPath::L1ToL0B:
            return mte.l1_to_l0b_bw;
        case DmaPath::L1ToBias:
            return mte.l1_to_bias_bw;
        case DmaPath::UbToUb:
            return mte.ub_to_ub_bw;
        case DmaPath::L0cToL1:
            return mte.l0c_to_l1_bw;
        case DmaPath::L0cToUb:
            return mte.l0c_to_ub_bw;
    }
    return 1;
}

bool path_touches_gm(DmaPath path) {
    return path == DmaPath::GmToUb || path == DmaPath::GmToL1 || path == DmaPath::UbToGm;
}

// ---- Cube (HARDWARE.md "Cube"; M-H: PyPTO L0 cost model, pto-isa cube cost model, HotChips 2019) ----
// One MAD walks the fractal grid ceil(M/16) x ceil(K/k0) x ceil(N/16), `cpr` cycles per fractal step
// (1 for 1-2-byte lhs, 2 on a2a3 / 8 on a5 for fp32), after a fixed head of 21 (a2a3, device-confirmed)
// or 25 (a5) cycles. fp16 peak: 16*16*16 = 4096 MAC per cycle.

uint64_t fractal_k(DType lhs) {
    return kCubeFractalKBytes / std::max<uint64_t>(1, dtype_bytes(lhs));
}

uint64_t cycles_per_fractal(const CubeParams& cube, DType lhs) {
    const size_t b = dtype_bytes(lhs);
    if (b <= 1) return cube.cycles_per_fractal_b8;
    if (b == 2) return cube.cycles_per_fractal_b16;
    return cube.cycles_per_fractal_b32;
}

uint64_t mad_cycles(const CubeParams& cube, DType lhs, uint64_t m, uint64_t k, uint64_t n) {
    const uint64_t fractals =
        ceil_div(m, kCubeFractalRows) * ceil_div(k, fractal_k(lhs)) * ceil_div(n, kCubeFractalRows);
    return cube.mad_head + cycles_per_fractal(cube, lhs) * fractals;
}

// ---- DMA (HARDWARE.md "Data movement"; bandwidths M, latencies L) ----
// time = start latency + charged bytes / path bandwidth.
// * Start latency (L, pto-isa perf simulator placeholder): paid once per DMA, gm.latency_hit, plus
//   gm.latency_miss_extra if any of the 512-byte lines the DMA touches missed in L2. The lines stream
//   after the first one, so their latencies overlap; charging every line would cap a DMA at 10 B/cycle.
// * Charged bytes (H for the rule, granule 512 B a2a3 / 128 B a5): a row shorter than the GM access
//   granule transfers a whole granule; gm.short_row_fraction (default 1) scales the unused part so the
//   16-25 % narrow-row anchor can be calibrated without a code change.
// Sharing GM bandwidth between cores is the GM model's job; this is the cost of one core alone.

double charged_bytes(const GmParams& gm, uint64_t rows, uint64_t row_bytes) {
    double per_row = static_cast<double>(row_bytes);
    if (row_bytes > 0 && row_bytes < gm.access_granule) {
        per_row += gm.short_row_fraction * static_cast<double>(gm.access_granule - row_bytes);
    }
    return static_cast<double>(rows) * per_row;
}

uint64_t dma_start_latency(const GmParams& gm, uint64_t lines_hit, uint64_t lines_missed) {
    if (lines_hit + lines_missed == 0) return 0;
    return gm.latency_hit + (lines_missed > 0 ? gm.latency_miss_extra : 0);
}

uint64_t dma_cycles(const HwParams& hw, DmaPath path, uint64_t rows, uint64_t row_bytes, uint64_t lines_hit,
                    uint64_t lines_missed) {
    if (rows == 0 || row_bytes == 0) return 0;
    const double bw = path_bandwidth(hw.mte, path);
    if (!path_touches_gm(path)) return ceil_cycles(static_cast<double>(rows * row_bytes) / bw);
    const uint64_t start = dma_start_latency(hw.gm, lines_hit, lines_missed);
    return start + ceil_cycles(charged_bytes(hw.gm, rows, row_bytes) / bw);
}

// ---- FIXP L0C -> GM (HARDWARE.md "Data movement", M: fitted drain model) ----
// a2a3: 164 + M * max(4.45, bytes_out * N / 118); a5: 343 + M * max(4.59, bytes_out * N / 30).
// Each output row costs at least the floor, wider rows cost their bytes at the row bandwidth.
uint64_t fixp_to_gm_cycles(const MteParams& mte, uint64_t m, uint64_t n, DType out) {
    const double row_cycles = static_cast<double>(dtype_bytes(out) * n) / mte.fixp_row_bw;
    const double rows = static_cast<double>(m) * std::max(mte.fixp_min_row_cycles, row_cycles);
    return ceil_cycles(static_cast<double>(mte.fixp_head) + rows);
}

// ---- Vector (HARDWARE.md "Vector", M: pto-isa vector cost model; reductions L) ----
// One repeat processes 256 bytes; unary and tile-scalar ops take 1 cycle per repeat, binary and exp 2;
// every instruction adds a head (12) and a tail (14). Reductions: ceil(bytes/256)*2 + log2(N) combine
// steps (N rounded up to a power of two), plus head and tail like every vector instruction.

uint64_t vector_cycles_per_repeat(const VectorParams& vec, VectorOp op) {
    switch (op) {
        case VectorOp::Unary:
            return vec.unary_cycles;
        case VectorOp::TileScalar:
            return vec.tile_scalar_cycles;
        case VectorOp::Binary:
            return vec.binary_cycles;
        case VectorOp::Exp:
            return vec.exp_cycles;
    }
    return vec.binary_cycles;
}

uint64_t vector_repeats(const VectorParams& vec, uint64_t bytes) {
    return ceil_div(bytes, vec.repeat_bytes);
}

uint64_t vector_op_cycles(const VectorParams& vec, VectorOp op, uint64_t bytes) {
    return vec.head + vector_repeats(vec, bytes) * vector_cycles_per_repeat(vec, op) + vec.tail;
}

uint64_t vector_reduce_cycles(const VectorParams& vec, uint64_t bytes, uint64_t n) {
    const uint64_t combine = n <= 1 ? 0 : static_cast<uint64_t>(std::bit_width(n - 1));  // ceil(log2(n))
    return vec.head + vector_repeats(vec, bytes) * vec.reduce_cycles_per_repeat + combine + vec.tail;
}

// ---- Op cost entries (the op registry's cost column) ----

std::span<const OpCostInfo> op_cost_table() {
    static const OpCostInfo table[] = {
        {OpCost::None, "none", "0 (a view: no data moves)", "definition", 'H'},
        {OpCost::Scalar, "scalar", "sync.issue_cost", "pto-isa perf simulator placeholder", 'L'},
        {OpCost::GmDma, "gm_dma",
         "gm.latency_hit (+latency_miss_extra) + charged_bytes / mte.<path>_bw; from L0C: fixp_head + "
         "M*max(fixp_min_row_cycles, bytes*N/fixp_row_bw)",
         "HARDWARE.md data movement (device-measured anchors)", 'M'},
        {OpCost::OnChipDma, "on_chip_dma", "bytes / mte.<path>_bw (L1->L0A/L0B/Bias, L0C->L1/UB, UB->UB)",
         "HARDWARE.md data movement", 'M'},
        {OpCost::Mad, "mad", "cube.mad_head + cycles_per_fractal * ceil(M/16) * ceil(K/k0) * ceil(N/16)",
         "PyPTO L0 cost model, pto-isa cube cost model", 'M'},
        {OpCost::VecUnary, "vec_unary", "vector.head + ceil(bytes/repeat_bytes) * vector.unary_cycles + vector.tail",
         "pto-isa vector cost model", 'M'},
        {OpCost::VecTileScalar, "vec_tile_scalar",
         "vector.head + ceil(bytes/repeat_bytes) * vector.tile_scalar_cycles + vector.tail",
         "pto-isa vector cost model", 'M'},
        {OpCost::VecBinary, "vec_binary", "vector.head + ceil(bytes/repeat_bytes) * vector.binary_cycles + vector.tail",
         "pto-isa vector cost model", 'M'},
        {OpCost::VecExp, "vec_exp", "vector.head + ceil(bytes/repeat_bytes) * vector.exp_cycles + vector.tail",
         "pto-isa vector cost model", 'M'},
        {OpCost::VecReduce, "vec_reduce",
         "vector.head + ceil(in_bytes/repeat_bytes) * vector.reduce_cycles_per_repeat + ceil(log2(n)) + vector.tail",
         "pto-isa vector cost model (combine steps: estimate)", 'L'},
        {OpCost::Transport, "transport",
         "ring slot copy: fixp_to_gm / dma_cycles on the slot path; pops sync.issue_cost (+ GM->UB/L1 copy on a2a3)",
         "HARDWARE.md cross-core pipes", 'L'},
        {OpCost::VecSort, "vec_sort",
         "vector.head + ceil(bytes/repeat_bytes) * 5 * vector.reduce_cycles_per_repeat + vector.tail (bytes: the "
         "widest operand)",
         "estimate: VBS32 sorts 32 elements in log2(32) = 5 compare-exchange rounds (pto-isa TSORT32; no device "
         "anchor)",
         'L'},
        {OpCost::VecMerge, "vec_merge",
         "vector.head + ceil(bytes/repeat_bytes) * 2 * vector.reduce_cycles_per_repeat + vector.tail (bytes: the "
         "widest operand)",
         "estimate: vmrgsort4 emits one tuple per compare of the list heads (pto-isa TMRGSORT; no device anchor)", 'L'},
        {OpCost::VecGather, "vec_gather",
         "vector.head + ceil(bytes/repeat_bytes) * 2 * vector.binary_cycles + vector.tail (bytes: the widest operand)",
         "estimate: vgather/vscatter = index-to-address pass + element move; gather_compare = vcmpvs compare + "
         "vreducev2 compaction "
         "(pto-isa TGATHER/TSCATTER; no device anchor)",
         'L'},
        {OpCost::GmIndexed, "gm_indexed",
         "gm_dma with one run per transfer: gm.latency_hit (+latency_miss_extra) + runs * charged_bytes(run) / "
         "mte.<path>_bw "
         "(row mode: a run per indexed row; elem mode: a run per element)",
         "pto-isa MGATHER/MSCATTER a2a3 (one DMA per row, one scalar copy per element); a5's SIMT coalescing not "
         "modelled",
         'L'},
        {OpCost::Assemble, "assemble",
         "into UB: vec_unary; into L1 from L0C: bytes / mte.l0c_to_l1_bw (FIXPIPE insert); into L1 from L1: 0 "
         "(a gather_row: its load's DMA wrote the rows in place)",
         "pto-isa TINSERT / TLOAD into a sub-tile; no device anchor", 'L'},
    };
    return table;
}

const OpCostInfo& op_cost_info(OpCost kind) {
    for (const auto& c : op_cost_table())
        if (c.kind == kind) return c;
    return op_cost_table()[0];
}

uint64_t vector_kind_cycles(const VectorParams& vec, OpCost kind, uint64_t bytes, uint64_t reduce_n) {
    switch (kind) {
        case OpCost::VecUnary:
            return vector_op_cycles(vec, VectorOp::Unary, bytes);
        case OpCost::VecTileScalar:
            return vector_op_cycles(vec, VectorOp::TileScalar, bytes);
        case OpCost::VecBinary:
            return vector_op_cycles(vec, VectorOp::Binary, bytes);
        case OpCost::VecExp:
            return vector_op_cycles(vec, VectorOp::Exp, bytes);
        case OpCost::VecReduce:
            return vector_reduce_cycles(vec, bytes, reduce_n);
        case OpCost::VecSort:
            return vec.head + vector_repeats(vec, bytes) * 5 * vec.reduce_cycles_per_repeat + vec.tail;
        case OpCost::VecMerge:
            return vec.head + vector_repeats(vec, bytes) * 2 * vec.reduce_cycles_per_repeat + vec.tail;
        case OpCost::VecGather:
            return vec.head + vector_repeats(vec, bytes) * 2 * vec.binary_cycles + vec.tail;
        default:
            return 0;
    }
}

}  // namespace cvsim
