// The hardware parameter table and everything it drives: presets, TOML/CLI overrides, validation, listing.
//
// Each parameter is declared exactly once, in `kTable` below: dotted key, the field it binds (a pair of
// member pointers turned into get/put functions), both presets, unit, confidence per target, doc, source
// and allowed range. Everything else (preset(), TOML loading, set_param, validate, the listing, the
// configs/*.toml files) iterates that table, so adding a parameter is one entry.
#include "core/params.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>
#include <type_traits>
#include <utility>

#include <fmt/format.h>
#include <toml++/toml.h>

namespace cvsim {

std::string_view target_name(Target t) {
    return t == Target::A2A3 ? "a2a3" : "a5";
}

std::optional<Target> target_from_name(std::string_view name) {
    std::string lower(name);
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (lower == "a2a3") return Target::A2A3;
    if (lower == "a5") return Target::A5;
    return std::nullopt;
}

namespace {

constexpr int64_t kMaxExact = int64_t{1} << 53;  // largest integer a double holds exactly (ParamInfo::max default)

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

const std::vector<ParamInfo>& table() {
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

bool is_power_of_two(double v) {
    if (v < 1 || v != std::floor(v)) return false;
    const auto u = static_cast<uint64_t>(v);
    return (u & (u - 1)) == 0;
}

// Shortest text that reads back as the same value; reals always carry a '.' so TOML keeps them floats.
std::string format_value(const ParamInfo& info, double v) {
    if (info.kind == ParamKind::Integer) return fmt::format("{}", static_cast<uint64_t>(v));
    std::string s = fmt::format("{}", v);
    if (s.find_first_of(".eEn") == std::string::npos) s += ".0";
    return s;
}

std::string format_bound(const ParamInfo& info, double v) {
    return info.kind == ParamKind::Integer ? fmt::format("{}", v) : format_value(info, v);
}

// Why `v` is not allowed for `info`, or empty if it is.
std::string range_problem(const ParamInfo& info, double v) {
    if (!std::isfinite(v)) return "must be a finite number";
    if (info.kind == ParamKind::Integer && v != std::floor(v)) return "must be a whole number";
    const bool too_low = info.min_exclusive ? !(v > info.min) : v < info.min;
    if (too_low || v > info.max) {
        const std::string lo = format_bound(info, info.min);
        const std::string hi = format_bound(info, info.max);
        const char* op = info.min_exclusive ? ">" : ">=";
        if (info.max >= static_cast<double>(kMaxExact)) return fmt::format("must be {} {}", op, lo);
        return fmt::format("must be {} {} and <= {}", op, lo, hi);
    }
    if (info.power_of_two && !is_power_of_two(v)) return "must be a power of two";
    return {};
}

size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<size_t> row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            const size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diag = up;
        }
    }
    return row[b.size()];
}

std::string_view last_component(std::string_view key) {
    const size_t dot = key.rfind('.');
    return dot == std::string_view::npos ? key : key.substr(dot + 1);
}

// True if `name` is a group prefix ("gm", "l2", ...) of some key.
bool is_group(std::string_view name) {
    for (const ParamInfo& info : table()) {
        if (info.key.size() > name.size() && info.key.starts_with(name) && info.key[name.size()] == '.') return true;
    }
    return false;
}

std::string unknown_key_message(std::string_view key) {
    const std::string suggestion = suggest_param(key);
    if (suggestion.empty()) return fmt::format("unknown parameter '{}' (`cvsim params` lists them)", key);
    return fmt::format("unknown parameter '{}' (did you mean '{}'?)", key, suggestion);
}

std::string kind_text(const ParamInfo& info) {
    return fmt::format("{} ({})", info.kind == ParamKind::Integer ? "an integer" : "a number", info.unit);
}

// Checks `v` for `info` and stores it, or throws with `where` ("FILE:L:C" or "--set") in front.
void check_and_put(HwParams& p, const ParamInfo& info, double v, std::string_view shown, const std::string& where) {
    const std::string problem = range_problem(info, v);
    if (!problem.empty())
        throw ParamError(fmt::format("{}: parameter '{}' = {} is out of range: {}", where, info.key, shown, problem));
    info.put(p, v);
}

std::string location(const std::string& source_name, const toml::source_region& region) {
    if (region.begin.line == 0) return source_name;
    return fmt::format("{}:{}:{}", source_name, region.begin.line, region.begin.column);
}

std::string_view node_type_name(const toml::node& node) {
    switch (node.type()) {
        case toml::node_type::string:
            return "a string";
        case toml::node_type::boolean:
            return "a boolean";
        case toml::node_type::array:
            return "an array";
        case toml::node_type::table:
            return "a table";
        case toml::node_type::floating_point:
            return "a float";
        case toml::node_type::integer:
            return "an integer";
        case toml::node_type::date:
            return "a date";
        case toml::node_type::time:
            return "a time";
        case toml::node_type::date_time:
            return "a date-time";
        default:
            return "nothing";
    }
}

void apply_table(HwParams& p, const toml::table& tbl, const std::string& prefix, const std::string& source) {
    for (auto&& [k, node] : tbl) {
        const std::string key = prefix.empty() ? std::string(k.str()) : prefix + "." + std::string(k.str());
        const std::string key_where = location(source, k.source());
        const std::string where = location(source, node.source());
        if (prefix.empty() && key == "target") {
            const auto* name = node.as_string();
            const auto t = name ? target_from_name(name->get()) : std::nullopt;
            if (!t) throw ParamError(fmt::format("{}: 'target' must be \"a2a3\" or \"a5\"", where));
            if (*t != p.target) {
                throw ParamError(fmt::format("{}: this file describes target '{}' but the target is '{}'", where,
                                             target_name(*t), target_name(p.target)));
            }
            continue;
        }
        const ParamInfo* info = find_param(key);
        if (const auto* sub = node.as_table()) {
            if (info)
                throw ParamError(
                    fmt::format("{}: parameter '{}' expects {}, got a table", where, key, kind_text(*info)));
            apply_table(p, *sub, key, source);
            continue;
        }
        if (!info) {
            if (is_group(key)) {
                throw ParamError(
                    fmt::format("{}: '{}' is a parameter group, not a parameter; write [{}]", key_where, key, key));
            }
            throw ParamError(fmt::format("{}: {}", key_where, unknown_key_message(key)));
        }
        if (const auto* i = node.as_integer()) {
            // Above 2^53 a double would round onto an allowed value; make sure it is rejected instead.
            const int64_t v = i->get();
            const double dv = v > kMaxExact ? std::numeric_limits<double>::max() : static_cast<double>(v);
            check_and_put(p, *info, dv, fmt::format("{}", v), where);
        } else if (const auto* f = node.as_floating_point(); f && info->kind == ParamKind::Real) {
            check_and_put(p, *info, f->get(), fmt::format("{}", f->get()), where);
        } else {
            throw ParamError(fmt::format("{}: parameter '{}' expects {}, got {}", where, info->key, kind_text(*info),
                                         node_type_name(node)));
        }
    }
}

}  // namespace

std::span<const ParamInfo> param_table() {
    return table();
}

const ParamInfo* find_param(std::string_view key) {
    for (const ParamInfo& info : table()) {
        if (info.key == key) return &info;
    }
    return nullptr;
}

std::string suggest_param(std::string_view key) {
    const ParamInfo* best = nullptr;
    size_t best_distance = std::max<size_t>(2, key.size() / 4) + 1;
    for (const ParamInfo& info : table()) {
        const size_t d = edit_distance(key, info.key);
        if (d < best_distance) {
            best_distance = d;
            best = &info;
        }
    }
    if (best) return std::string(best->key);
    // Right name, wrong group ("gm.line_bytes" -> "l2.line_bytes").
    for (const ParamInfo& info : table()) {
        if (last_component(info.key) == last_component(key)) return std::string(info.key);
    }
    return {};
}

HwParams preset(Target t) {
    HwParams p;
    p.target = t;
    for (const ParamInfo& info : table()) info.put(p, info.preset_value(t));
    return p;
}

void apply_toml_string(HwParams& p, std::string_view text, const std::string& source_name) {
#if TOML_EXCEPTIONS
    toml::table tbl;
    try {
        tbl = toml::parse(text, source_name);
    } catch (const toml::parse_error& e) {
        throw ParamError(fmt::format("{}: TOML syntax error: {}", location(source_name, e.source()), e.description()));
    }
#else
    toml::parse_result result = toml::parse(text, source_name);
    if (!result) {
        const toml::parse_error& e = result.error();
        throw ParamError(fmt::format("{}: TOML syntax error: {}", location(source_name, e.source()), e.description()));
    }
    toml::table tbl = std::move(result).table();
#endif
    apply_table(p, tbl, "", source_name);
}

void apply_toml_file(HwParams& p, const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw ParamError(fmt::format("{}: cannot open parameter file", path));
    std::ostringstream text;
    text << in.rdbuf();
    apply_toml_string(p, text.str(), path);
}

void set_param(HwParams& p, std::string_view key, std::string_view value, const std::string& source_name) {
    const ParamInfo* info = find_param(key);
    if (!info) throw ParamError(fmt::format("{}: {}", source_name, unknown_key_message(key)));
    double v = 0;
    bool ok = false;
    const char* end = value.data() + value.size();
    if (info->kind == ParamKind::Integer) {
        int64_t i = 0;
        const auto r = std::from_chars(value.data(), end, i);
        ok = r.ec == std::errc() && r.ptr == end;
        v = static_cast<double>(i);
    } else {
        const auto r = std::from_chars(value.data(), end, v);
        ok = r.ec == std::errc() && r.ptr == end;
    }
    if (!ok) {
        throw ParamError(
            fmt::format("{}: parameter '{}' expects {}, got '{}'", source_name, key, kind_text(*info), value));
    }
    check_and_put(p, *info, v, value, source_name);
}

void set_param_assignment(HwParams& p, std::string_view assignment, const std::string& source_name) {
    const size_t eq = assignment.find('=');
    if (eq == std::string_view::npos) {
        throw ParamError(fmt::format("{}: expected KEY=VALUE, got '{}'", source_name, assignment));
    }
    auto trim = [](std::string_view s) {
        while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
        while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
        return s;
    };
    set_param(p, trim(assignment.substr(0, eq)), trim(assignment.substr(eq + 1)), source_name);
}

double get_param(const HwParams& p, std::string_view key) {
    const ParamInfo* info = find_param(key);
    if (!info) throw ParamError(unknown_key_message(key));
    return info->get(p);
}

void validate(const HwParams& p) {
    for (const ParamInfo& info : table()) {
        const double v = info.get(p);
        const std::string problem = range_problem(info, v);
        if (!problem.empty()) {
            throw ParamError(
                fmt::format("parameters: '{}' = {} is out of range: {}", info.key, format_value(info, v), problem));
        }
    }
    if (p.target == Target::A5 && p.chip.flag_counters % kAivsPerCluster != 0) {
        throw ParamError(fmt::format(
            "parameters: chip.flag_counters ({}) must split evenly over the {} AIVs of an a5 cluster (1:1 flags)",
            p.chip.flag_counters, kAivsPerCluster));
    }
    if (p.chip.ub_usable_bytes > p.chip.ub_bytes) {
        throw ParamError(fmt::format("parameters: chip.ub_usable_bytes ({}) exceeds chip.ub_bytes ({})",
                                     p.chip.ub_usable_bytes, p.chip.ub_bytes));
    }
    if (p.l2.size_bytes % (p.l2.line_bytes * p.l2.ways) != 0) {
        throw ParamError(
            fmt::format("parameters: l2.size_bytes ({}) is not a multiple of l2.line_bytes * l2.ways ({} * {} = {})",
                        p.l2.size_bytes, p.l2.line_bytes, p.l2.ways, p.l2.line_bytes * p.l2.ways));
    }
}

HwParams load_params(Target t, std::span<const std::string> toml_files, std::span<const std::string> assignments) {
    HwParams p = preset(t);
    for (const std::string& f : toml_files) apply_toml_file(p, f);
    for (const std::string& a : assignments) set_param_assignment(p, a);
    validate(p);
    return p;
}

std::vector<ParamRow> param_rows(const HwParams& p) {
    std::vector<ParamRow> rows;
    rows.reserve(table().size());
    for (const ParamInfo& info : table()) {
        const char conf = info.confidence(p.target);
        rows.push_back(ParamRow{.name = std::string(info.key),
                                .value = format_value(info, info.get(p)),
                                .unit = std::string(info.unit),
                                .confidence = conf,
                                .doc = fmt::format("{} (conf {})", info.doc, conf),
                                .source = std::string(info.source)});
    }
    return rows;
}

std::string format_param_table(const std::vector<ParamRow>& rows) {
    size_t w_name = 9, w_value = 5, w_unit = 4, w_doc = 3;  // header widths
    for (const ParamRow& r : rows) {
        w_name = std::max(w_name, r.name.size());
        w_value = std::max(w_value, r.value.size());
        w_unit = std::max(w_unit, r.unit.size());
        w_doc = std::max(w_doc, r.doc.size());
    }
    std::string out = fmt::format("{:<{}}  {:>{}}  {:<{}}  {:<{}}  {}\n", "parameter", w_name, "value", w_value, "unit",
                                  w_unit, "doc", w_doc, "source");
    for (const ParamRow& r : rows) {
        out += fmt::format("{:<{}}  {:>{}}  {:<{}}  {:<{}}  {}\n", r.name, w_name, r.value, w_value, r.unit, w_unit,
                           r.doc, w_doc, r.source);
    }
    return out;
}

std::string format_param_toml(const HwParams& p) {
    const std::string_view t = target_name(p.target);
    std::string out = fmt::format(
        "# cvsim hardware parameters, target {0}: every key, one comment each.\n"
        "# Generated from the table in models/params.cpp (`cvsim params --target {0}` lists the same rows).\n"
        "# Confidence: H two independent sources or a code constant; M one source or a fitted model;\n"
        "# L press figure or placeholder. Copy a key into your own file to override it.\n"
        "target = \"{0}\"\n",
        t);
    std::string_view group;
    for (const ParamInfo& info : table()) {
        const size_t dot = info.key.find('.');
        const std::string_view g = info.key.substr(0, dot);
        if (g != group) {
            out += fmt::format("\n[{}]\n", g);
            group = g;
        }
        out += fmt::format("# {} (conf {})\n# unit: {}; source: {}\n{} = {}\n", info.doc, info.confidence(p.target),
                           info.unit, info.source, info.key.substr(dot + 1), format_value(info, info.get(p)));
    }
    return out;
}

}  // namespace cvsim
