// The hardware parameter table: each parameter declared once (key, bound field, presets, unit, confidence,
// doc, source, range). core/params.cpp iterates it for presets, TOML/CLI overrides, validation and listing.
#include <cstdint>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/params.h"
#include "core/params_internal.h"

namespace cvsim::detail {

namespace {

// Binds a table row to the field `(HwParams.*Group).*Member`.
template <auto Group, auto Member>
using FieldType = std::remove_cvref_t<decltype(std::declval<HwParams&>().*Group.*Member)>;

template <auto Group, auto Member>
double get_field(const HwParams& p) {
    return static_cast<double>(p.*Group.*Member);
}

template <auto Group, auto Member>
void put_field(HwParams& p, double v) {
    p.*Group.*Member = static_cast<FieldType<Group, Member>>(v);
}

template <auto Group, auto Member>
ParamInfo field(ParamInfo info) {
    using T = FieldType<Group, Member>;
    static_assert(std::is_same_v<T, uint64_t> || std::is_same_v<T, double>, "parameters are uint64_t or double");
    info.kind = std::is_same_v<T, double> ? ParamKind::Real : ParamKind::Integer;
    info.get = &get_field<Group, Member>;
    info.put = &put_field<Group, Member>;
    return info;
}

constexpr std::string_view kGeom = "HARDWARE.md Geometry: PyPTO SoC models, pto-isa buffer limits";
constexpr std::string_view kCube = "HARDWARE.md Cube: PyPTO L0 cost model, pto-isa cube cost model, HotChips 2019";
constexpr std::string_view kMove = "HARDWARE.md Data movement: PyPTO/pto-isa cost models (a2a3 table)";
constexpr std::string_view kMoveA5 =
    "HARDWARE.md Data movement (a2a3 table; a5 has no figure, reuses a2a3 as a placeholder)";
constexpr std::string_view kFixp = "HARDWARE.md Data movement: FIXP drain formula (L0C->GM)";
constexpr std::string_view kVec = "HARDWARE.md Vector: pto-isa vector cost model (a5 reuses a2a3)";
constexpr std::string_view kGm = "HARDWARE.md Data movement: pto-isa perf simulator placeholder; calibrate";
constexpr std::string_view kSync = "HARDWARE.md Cross-core";
constexpr std::string_view kPlace = "placeholder (no hardware figure); cvsim GM placement, SPEC 4.5";

}  // namespace

const std::vector<ParamInfo>& param_table_rows() {
    // clang-format off
    static const std::vector<ParamInfo> kTable = {
        // ---- chip: geometry and buffers ----
        field<&HwParams::chip, &ChipParams::clusters>({.key = "chip.clusters", .a2a3 = 24, .a5 = 36,
            .unit = "count", .conf_a2a3 = 'H', .conf_a5 = 'M',
            .doc = "clusters (AIC + 2 AIV) on the chip; a hard syncall waits for all of them",
            .source = "HARDWARE.md Geometry: PyPTO SoC models; CANN platform config", .min = 1, .max = 4096}),
        field<&HwParams::chip, &ChipParams::clock_ghz>({.key = "chip.clock_ghz", .a2a3 = 1.85, .a5 = 1.85,
            .unit = "GHz", .conf_a2a3 = 'M', .conf_a5 = 'L',
            .doc = "core clock; converts cycles to time (a5 value assumed)",
            .source = "HARDWARE.md Geometry: pto-isa cost-model arch config", .min = 0, .min_exclusive = true,
            .max = 100}),
        field<&HwParams::chip, &ChipParams::l1_bytes>({.key = "chip.l1_bytes", .a2a3 = 524288, .a5 = 524288,
            .unit = "bytes", .conf_a2a3 = 'H', .conf_a5 = 'H',
            .doc = "AIC L1 (Mat) capacity", .source = kGeom, .min = 1}),
        field<&HwParams::chip, &ChipParams::l0a_bytes>({.key = "chip.l0a_bytes", .a2a3 = 65536, .a5 = 65536,
            .unit = "bytes", .conf_a2a3 = 'H', .conf_a5 = 'H',
            .doc = "AIC L0A (Left) capacity", .source = kGeom, .min = 1}),
        field<&HwParams::chip, &ChipParams::l0b_bytes>({.key = "chip.l0b_bytes", .a2a3 = 65536, .a5 = 65536,
            .unit = "bytes", .conf_a2a3 = 'H', .conf_a5 = 'H',
            .doc = "AIC L0B (Right) capacity", .source = kGeom, .min = 1}),
        field<&HwParams::chip, &ChipParams::l0c_bytes>({.key = "chip.l0c_bytes", .a2a3 = 131072, .a5 = 262144,
            .unit = "bytes", .conf_a2a3 = 'H', .conf_a5 = 'H',
            .doc = "AIC L0C (Acc) capacity", .source = kGeom, .min = 1}),
        field<&HwParams::chip, &ChipParams::ub_bytes>({.key = "chip.ub_bytes", .a2a3 = 196608, .a5 = 253952,
            .unit = "bytes", .conf_a2a3 = 'H', .conf_a5 = 'M',
            .doc = "AIV unified buffer (Vec), physical size (a5 sources disagree: 248 vs 256 KiB)",
            .source = kGeom, .min = 1}),
        field<&HwParams::chip, &ChipParams::ub_usable_bytes>({.key = "chip.ub_usable_bytes", .a2a3 = 188416,
            .a5 = 253952, .unit = "bytes", .conf_a2a3 = 'H', .conf_a5 = 'M',
            .doc = "part of UB available to tiles; the E-CAPACITY limit for Vec", .source = kGeom, .min = 1}),
        field<&HwParams::chip, &ChipParams::bias_bytes>({.key = "chip.bias_bytes", .a2a3 = 1024, .a5 = 4096,
            .unit = "bytes", .conf_a2a3 = 'H', .conf_a5 = 'H',
            .doc = "AIC bias table capacity", .source = kGeom, .min = 1}),
        field<&HwParams::chip, &ChipParams::flag_counters>({.key = "chip.flag_counters", .a2a3 = 16, .a5 = 32,
            .unit = "count", .conf_a2a3 = 'H', .conf_a5 = 'H',
            .doc = "cross-core flag counters per cluster: sync_set/sync_wait ids below it (a5: 1:1, one half per AIV)",
            .source = "HARDWARE.md Geometry: pto-isa sync docs", .min = 1, .max = 4096}),
        field<&HwParams::chip, &ChipParams::flag_counter_max>({.key = "chip.flag_counter_max", .a2a3 = 15, .a5 = 15,
            .unit = "count", .conf_a2a3 = 'H', .conf_a5 = 'L',
            .doc = "pending sets one flag counter holds (4-bit); one more is E-FLAG-OVERFLOW (a5 width assumed)",
            .source = "HARDWARE.md Geometry (16, 4-bit); SPEC 4.4", .min = 1, .max = 65535}),

        // ---- cube: MAD = mad_head + cpr * ceil(M/16) * ceil(K/k0) * ceil(N/16) ----
        field<&HwParams::cube, &CubeParams::mad_head>({.key = "cube.mad_head", .a2a3 = 21, .a5 = 25,
            .unit = "cycles", .conf_a2a3 = 'H', .conf_a5 = 'M',
            .doc = "fixed start cost of one matmul (a2a3 device-confirmed)", .source = kCube, .max = 1e6}),
        field<&HwParams::cube, &CubeParams::cycles_per_fractal_b8>({.key = "cube.cycles_per_fractal_b8",
            .a2a3 = 1, .a5 = 1, .unit = "cycles/fractal", .conf_a2a3 = 'M', .conf_a5 = 'M',
            .doc = "cycles per 16x32x16 fractal step, 1-byte lhs (int8)", .source = kCube, .min = 1, .max = 1024}),
        field<&HwParams::cube, &CubeParams::cycles_per_fractal_b16>({.key = "cube.cycles_per_fractal_b16",
            .a2a3 = 1, .a5 = 1, .unit = "cycles/fractal", .conf_a2a3 = 'M', .conf_a5 = 'M',
            .doc = "cycles per 16x16x16 fractal step, 2-byte lhs (fp16/bf16); 4096 MAC/cycle",
            .source = kCube, .min = 1, .max = 1024}),
        field<&HwParams::cube, &CubeParams::cycles_per_fractal_b32>({.key = "cube.cycles_per_fractal_b32",
            .a2a3 = 2, .a5 = 8, .unit = "cycles/fractal", .conf_a2a3 = 'M', .conf_a5 = 'M',
            .doc = "cycles per 16x8x16 fractal step, 4-byte lhs (fp32)", .source = kCube, .min = 1, .max = 1024}),

        // ---- mte: per-core bandwidth of each data path; FIXP drain formula ----
        field<&HwParams::mte, &MteParams::gm_to_ub_bw>({.key = "mte.gm_to_ub_bw", .a2a3 = 59, .a5 = 59,
            .unit = "B/cycle", .conf_a2a3 = 'M', .conf_a5 = 'L',
            .doc = "MTE2 GM -> UB (Vec) load bandwidth", .source = kMoveA5, .min = 0, .min_exclusive = true}),
        field<&HwParams::mte, &MteParams::gm_to_l1_bw>({.key = "mte.gm_to_l1_bw", .a2a3 = 78, .a5 = 78,
            .unit = "B/cycle", .conf_a2a3 = 'M', .conf_a5 = 'L',
            .doc = "MTE2 GM -> L1 (Mat) load bandwidth, ND->NZ repack included", .source = kMoveA5, .min = 0,
            .min_exclusive = true}),
        field<&HwParams::mte, &MteParams::ub_to_gm_bw>({.key = "mte.ub_to_gm_bw", .a2a3 = 109, .a5 = 109,
            .unit = "B/cycle", .conf_a2a3 = 'M', .conf_a5 = 'L',
            .doc = "MTE3 UB -> GM store bandwidth", .source = kMoveA5, .min = 0, .min_exclusive = true}),
        field<&HwParams::mte, &MteParams::l1_to_l0a_bw>({.key = "mte.l1_to_l0a_bw", .a2a3 = 130, .a5 = 206,
            .unit = "B/cycle", .conf_a2a3 = 'M', .conf_a5 = 'M',
            .doc = "MTE1 L1 -> L0A (Left) bandwidth (device-calibrated)", .source = kMove, .min = 0,
            .min_exclusive = true}),
        field<&HwParams::mte, &MteParams::l1_to_l0b_bw>({.key = "mte.l1_to_l0b_bw", .a2a3 = 85, .a5 = 224,
            .unit = "B/cycle", .conf_a2a3 = 'M', .conf_a5 = 'M',
            .doc = "MTE1 L1 -> L0B (Right) bandwidth, NZ->ZN (device-calibrated)", .source = kMove, .min = 0,
            .min_exclusive = true}),
        field<&HwParams::mte, &MteParams::l1_to_bias_bw>({.key = "mte.l1_to_bias_bw", .a2a3 = 130, .a5 = 206,
            .unit = "B/cycle", .conf_a2a3 = 'L', .conf_a5 = 'L',
            .doc = "MTE1 L1 -> Bias table bandwidth (placeholder: same as L1 -> L0A)",
            .source = "placeholder (no figure in HARDWARE.md)", .min = 0, .min_exclusive = true}),
        field<&HwParams::mte, &MteParams::ub_to_ub_bw>({.key = "mte.ub_to_ub_bw", .a2a3 = 594, .a5 = 594,
            .unit = "B/cycle", .conf_a2a3 = 'M', .conf_a5 = 'L',
            .doc = "VECTOR UB -> UB copy bandwidth (moves, NZ adapter)", .source = kMoveA5, .min = 0,
            .min_exclusive = true}),
        field<&HwParams::mte, &MteParams::l0c_to_l1_bw>({.key = "mte.l0c_to_l1_bw", .a2a3 = 74, .a5 = 74,
            .unit = "B/cycle", .conf_a2a3 = 'M', .conf_a5 = 'L',
            .doc = "FIXP L0C (Acc) -> L1 bandwidth", .source = kMoveA5, .min = 0, .min_exclusive = true}),
        field<&HwParams::mte, &MteParams::l0c_to_ub_bw>({.key = "mte.l0c_to_ub_bw", .a2a3 = 74, .a5 = 74,
            .unit = "B/cycle", .conf_a2a3 = 'L', .conf_a5 = 'L',
            .doc = "FIXP L0C -> UB bandwidth, a5 only (placeholder: same as L0C -> L1)",
            .source = "placeholder (no figure in HARDWARE.md)", .min = 0, .min_exclusive = true}),
        field<&HwParams::mte, &MteParams::fixp_head>({.key = "mte.fixp_head", .a2a3 = 164, .a5 = 343,
            .unit = "cycles", .conf_a2a3 = 'M', .conf_a5 = 'M',
            .doc = "L0C -> GM drain: fixed cost per tile (head + M * max(min_row, bytes_out*N/row_bw))",
            .source = kFixp, .max = 1e6}),
        field<&HwParams::mte, &MteParams::fixp_min_row_cycles>({.key = "mte.fixp_min_row_cycles", .a2a3 = 4.45,
            .a5 = 4.59, .unit = "cycles/row", .conf_a2a3 = 'M', .conf_a5 = 'M',
            .doc = "L0C -> GM drain: least cycles per output row", .source = kFixp, .max = 1e6}),
        field<&HwParams::mte, &MteParams::fixp_row_bw>({.key = "mte.fixp_row_bw", .a2a3 = 118, .a5 = 30,
            .unit = "B/cycle", .conf_a2a3 = 'M', .conf_a5 = 'M',
            .doc = "L0C -> GM drain: bandwidth of one output row (bytes_out * N / this)", .source = kFixp,
            .min = 0, .min_exclusive = true}),

        // ---- vector: head + ceil(bytes/repeat_bytes) * cycles + tail ----
        field<&HwParams::vector, &VectorParams::repeat_bytes>({.key = "vector.repeat_bytes", .a2a3 = 256,
            .a5 = 256, .unit = "bytes", .conf_a2a3 = 'M', .conf_a5 = 'M',
            .doc = "bytes one vector repeat processes", .source = kVec, .min = 1, .max = 65536,
            .power_of_two = true}),
        field<&HwParams::vector, &VectorParams::unary_cycles>({.key = "vector.unary_cycles", .a2a3 = 1, .a5 = 1,
            .unit = "cycles/repeat", .conf_a2a3 = 'M', .conf_a5 = 'L',
            .doc = "cycles per repeat of a unary op", .source = kVec, .max = 1e6}),
        field<&HwParams::vector, &VectorParams::tile_scalar_cycles>({.key = "vector.tile_scalar_cycles",
            .a2a3 = 1, .a5 = 1, .unit = "cycles/repeat", .conf_a2a3 = 'M', .conf_a5 = 'L',
            .doc = "cycles per repeat of a tile-scalar op", .source = kVec, .max = 1e6}),
        field<&HwParams::vector, &VectorParams::binary_cycles>({.key = "vector.binary_cycles", .a2a3 = 2, .a5 = 2,
            .unit = "cycles/repeat", .conf_a2a3 = 'M', .conf_a5 = 'L',
            .doc = "cycles per repeat of a binary (tile-tile) op", .source = kVec, .max = 1e6}),
        field<&HwParams::vector, &VectorParams::exp_cycles>({.key = "vector.exp_cycles", .a2a3 = 2, .a5 = 2,
            .unit = "cycles/repeat", .conf_a2a3 = 'M', .conf_a5 = 'L',
            .doc = "cycles per repeat of exp", .source = kVec, .max = 1e6}),
        field<&HwParams::vector, &VectorParams::head>({.key = "vector.head", .a2a3 = 12, .a5 = 12,
            .unit = "cycles", .conf_a2a3 = 'M', .conf_a5 = 'L',
            .doc = "start cost added to every vector instruction", .source = kVec, .max = 1e6}),
        field<&HwParams::vector, &VectorParams::tail>({.key = "vector.tail", .a2a3 = 14, .a5 = 14,
            .unit = "cycles", .conf_a2a3 = 'M', .conf_a5 = 'L',
            .doc = "drain cost added to every vector instruction", .source = kVec, .max = 1e6}),
        field<&HwParams::vector, &VectorParams::reduce_cycles_per_repeat>({.key = "vector.reduce_cycles_per_repeat",
            .a2a3 = 2, .a5 = 2, .unit = "cycles/repeat", .conf_a2a3 = 'L', .conf_a5 = 'L',
            .doc = "row_sum/row_max: cycles per repeat (plus log2(N) combine steps)",
            .source = "HARDWARE.md Vector (reduction formula)", .max = 1e6}),

        // ---- gm: latencies, access granule, shared bandwidth, placement ----
        field<&HwParams::gm, &GmParams::latency_hit>({.key = "gm.latency_hit", .a2a3 = 50, .a5 = 50,
            .unit = "cycles", .conf_a2a3 = 'L', .conf_a5 = 'L',
            .doc = "DMA start latency when every line it touches hits in L2", .source = kGm, .max = 1e6}),
        field<&HwParams::gm, &GmParams::latency_miss_extra>({.key = "gm.latency_miss_extra", .a2a3 = 150,
            .a5 = 150, .unit = "cycles", .conf_a2a3 = 'L', .conf_a5 = 'L',
            .doc = "extra DMA start latency when a line it touches misses in L2", .source = kGm, .max = 1e6}),
        field<&HwParams::gm, &GmParams::access_granule>({.key = "gm.access_granule", .a2a3 = 512, .a5 = 128,
            .unit = "bytes", .conf_a2a3 = 'H', .conf_a5 = 'H',
            .doc = "smallest GM transfer; a shorter row transfers a whole granule",
            .source = "HARDWARE.md Geometry: PyPTO backend handlers", .min = 1, .max = 1 << 20,
            .power_of_two = true}),
        field<&HwParams::gm, &GmParams::short_row_fraction>({.key = "gm.short_row_fraction", .a2a3 = 0.2, .a5 = 0.2,
            .unit = "fraction", .conf_a2a3 = 'M', .conf_a5 = 'L',
            .doc = "share of the unused part of a granule a short row pays for (1 = a whole granule)",
            .source = "fitted: l2_rows_narrow/wide.py on a2a3 give 1.21x, device measured 1.16-1.25x (PyPTO perf guide)",
            .min = 0, .max = 1}),
        field<&HwParams::gm, &GmParams::hbm_bandwidth>({.key = "gm.hbm_bandwidth", .a2a3 = 864.86, .a5 = 864.86,
            .unit = "B/cycle", .conf_a2a3 = 'L', .conf_a5 = 'L',
            .doc = "GM bandwidth shared by every transfer in flight (each gets at most its path's bandwidth and "
                   "an equal share of this): 1.6 TB/s at 1.85 GHz (a5 reuses a2a3)",
            .source = "HARDWARE.md Data movement (HBM figure)", .min = 0, .min_exclusive = true}),
        field<&HwParams::gm, &GmParams::visibility_delay>({.key = "gm.visibility_delay", .a2a3 = 0, .a5 = 0,
            .unit = "cycles", .conf_a2a3 = 'L', .conf_a5 = 'L',
            .doc = "cycles from a GM write's completion until other cores see it (model knob; --visibility-delay sets it)",
            .source = "SPEC 4.5 (default 0: visible on completion)", .max = 1e9}),
        field<&HwParams::gm, &GmParams::tensor_alignment>({.key = "gm.tensor_alignment", .a2a3 = 512, .a5 = 512,
            .unit = "bytes", .conf_a2a3 = 'L', .conf_a5 = 'L',
            .doc = "alignment of each tensor's GM region (one L2 line: tensors never share a line)",
            .source = kPlace, .min = 1, .max = 1 << 30, .power_of_two = true}),
        field<&HwParams::gm, &GmParams::guard_gap>({.key = "gm.guard_gap", .a2a3 = 512, .a5 = 512,
            .unit = "bytes", .conf_a2a3 = 'L', .conf_a5 = 'L',
            .doc = "unused bytes between neighbouring tensors in GM", .source = kPlace, .max = 1 << 30}),

        // ---- l2: shared set-associative LRU cache ----
        field<&HwParams::l2, &L2Params::size_bytes>({.key = "l2.size_bytes", .a2a3 = 201326592, .a5 = 201326592,
            .unit = "bytes", .conf_a2a3 = 'L', .conf_a5 = 'L',
            .doc = "L2 capacity (192 MiB)", .source = "HARDWARE.md Geometry: commonly quoted", .min = 1,
            .max = 1ull << 40}),
        field<&HwParams::l2, &L2Params::line_bytes>({.key = "l2.line_bytes", .a2a3 = 512, .a5 = 512,
            .unit = "bytes", .conf_a2a3 = 'H', .conf_a5 = 'H',
            .doc = "L2 line size; also the line group of the DMA start latency",
            .source = "HARDWARE.md Geometry: PyPTO backend handlers", .min = 1, .max = 1 << 20,
            .power_of_two = true}),
        field<&HwParams::l2, &L2Params::ways>({.key = "l2.ways", .a2a3 = 16, .a5 = 16,
            .unit = "count", .conf_a2a3 = 'L', .conf_a5 = 'L',
            .doc = "L2 associativity, LRU within a set", .source = "placeholder (no figure in HARDWARE.md)",
            .min = 1, .max = 256}),

        // ---- sync: flags, rings, barriers ----
        field<&HwParams::sync, &SyncParams::flag_latency>({.key = "sync.flag_latency", .a2a3 = 10, .a5 = 10,
            .unit = "cycles", .conf_a2a3 = 'L', .conf_a5 = 'L',
            .doc = "flag set on one core -> a wait on another core sees it (no public figure)",
            .source = kSync, .max = 1e6}),
        field<&HwParams::sync, &SyncParams::slot_num_one_dir>({.key = "sync.slot_num_one_dir", .a2a3 = 8, .a5 = 8,
            .unit = "count", .conf_a2a3 = 'H', .conf_a5 = 'H',
            .doc = "ring slots when initialize_pipe has no slot_num and one direction is active",
            .source = kSync, .min = 1, .max = 1024}),
        field<&HwParams::sync, &SyncParams::slot_num_both>({.key = "sync.slot_num_both", .a2a3 = 4, .a5 = 4,
            .unit = "count", .conf_a2a3 = 'H', .conf_a5 = 'H',
            .doc = "ring slots per direction when initialize_pipe has no slot_num and both are active",
            .source = kSync, .min = 1, .max = 1024}),
        field<&HwParams::sync, &SyncParams::auto_slot_num>({.key = "sync.auto_slot_num", .a2a3 = 2, .a5 = 2,
            .unit = "count", .conf_a2a3 = 'H', .conf_a5 = 'H',
            .doc = "ring slots of pipes the compiler inserts automatically", .source = kSync, .min = 1,
            .max = 1024}),
        field<&HwParams::sync, &SyncParams::hard_syncall_release>({.key = "sync.hard_syncall_release",
            .a2a3 = 100, .a5 = 100, .unit = "cycles", .conf_a2a3 = 'L', .conf_a5 = 'L',
            .doc = "hard syncall: last core arrives -> all released (pipes drained before arrival)",
            .source = kSync, .max = 1e6}),
        field<&HwParams::sync, &SyncParams::soft_poll_interval>({.key = "sync.soft_poll_interval", .a2a3 = 200,
            .a5 = 200, .unit = "cycles", .conf_a2a3 = 'L', .conf_a5 = 'L',
            .doc = "soft syncall: period of polling the GM arrival counter", .source = kSync, .min = 1,
            .max = 1e6}),
        field<&HwParams::sync, &SyncParams::issue_cost>({.key = "sync.issue_cost", .a2a3 = 1, .a5 = 1,
            .unit = "cycles", .conf_a2a3 = 'M', .conf_a5 = 'M',
            .doc = "scalar cost of issuing a sync instruction (set/wait flag, tpush/tpop bookkeeping)",
            .source = kSync, .max = 1e6}),

        // ---- core: scalar front end and pipe queues ----
        field<&HwParams::core, &CoreParams::scalar_cycles_per_stmt>({.key = "core.scalar_cycles_per_stmt",
            .a2a3 = 1, .a5 = 1, .unit = "cycles", .conf_a2a3 = 'L', .conf_a5 = 'L',
            .doc = "scalar unit cost of one statement (control flow, scalar arithmetic, issue)",
            .source = "SPEC 4.1 default", .max = 1e6}),
        field<&HwParams::core, &CoreParams::pipe_queue_depth>({.key = "core.pipe_queue_depth", .a2a3 = 16,
            .a5 = 16, .unit = "count", .conf_a2a3 = 'L', .conf_a5 = 'L',
            .doc = "instructions one pipe queue holds; the scalar unit stalls when it is full",
            .source = "placeholder (SPEC 4.1: queue depth is a parameter)", .min = 1, .max = 65536}),
    };
    // clang-format on
    return kTable;
}

}  // namespace cvsim::detail
