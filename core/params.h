// Self-describing hardware parameters: one struct per model, one table of key/defaults/unit/doc/source.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace cvsim {

// The chip generation being simulated; selects the preset and the target-specific behaviour.
enum class Target : uint8_t { A2A3, A5 };
std::string_view target_name(Target t);                         // "a2a3", "a5"
std::optional<Target> target_from_name(std::string_view name);  // accepts "a2a3", "a5" (case-insensitive)

// The members below hold no defaults of their own: every value comes from the table in params.cpp
// (`preset(t)`), so a default is written exactly once. The comment names the key and what it models.

// Vector cores (AIV lanes) per cluster. Not a parameter: the machine is elaborated as AIC + 2 AIV per cluster
// on both targets (HARDWARE.md), and no other count could be simulated.
constexpr uint64_t kAivsPerCluster = 2;

// Chip geometry and per-core buffer capacities.
struct ChipParams {
    uint64_t clusters = 0;          // chip.clusters: clusters (= AICs) on the chip; hard syncall waits
    double clock_ghz = 0;           // chip.clock_ghz: core clock, converts cycles to time in reports
    uint64_t l1_bytes = 0;          // chip.l1_bytes: AIC L1 (Mat) capacity
    uint64_t l0a_bytes = 0;         // chip.l0a_bytes: AIC L0A (Left) capacity
    uint64_t l0b_bytes = 0;         // chip.l0b_bytes: AIC L0B (Right) capacity
    uint64_t l0c_bytes = 0;         // chip.l0c_bytes: AIC L0C (Acc) capacity
    uint64_t ub_bytes = 0;          // chip.ub_bytes: AIV unified buffer (Vec), physical size
    uint64_t ub_usable_bytes = 0;   // chip.ub_usable_bytes: part of UB available to tiles (capacity check)
    uint64_t bias_bytes = 0;        // chip.bias_bytes: AIC bias table capacity
    uint64_t flag_counters = 0;     // chip.flag_counters: cross-core flag counters per cluster
    uint64_t flag_counter_max = 0;  // chip.flag_counter_max: pending sets a counter holds (more: overflow)
    bool operator==(const ChipParams&) const = default;
};

// The cube unit (MAD): fixed head plus cycles per 16 x k0 x 16 fractal step.
struct CubeParams {
    uint64_t mad_head = 0;                // cube.mad_head: fixed start cost of one matmul
    uint64_t cycles_per_fractal_b8 = 0;   // cube.cycles_per_fractal_b8: 1-byte lhs (int8) fractal cost
    uint64_t cycles_per_fractal_b16 = 0;  // cube.cycles_per_fractal_b16: 2-byte lhs (fp16/bf16) fractal cost
    uint64_t cycles_per_fractal_b32 = 0;  // cube.cycles_per_fractal_b32: 4-byte lhs (fp32) fractal cost
    bool operator==(const CubeParams&) const = default;
};

// Data-movement engines (MTE1/2/3, FIXP, vector copies): per-core bandwidth of each path.
struct MteParams {
    double gm_to_ub_bw = 0;          // mte.gm_to_ub_bw: MTE2 GM -> UB (Vec)
    double gm_to_l1_bw = 0;          // mte.gm_to_l1_bw: MTE2 GM -> L1 (Mat) with ND->NZ repack
    double ub_to_gm_bw = 0;          // mte.ub_to_gm_bw: MTE3 UB -> GM
    double l1_to_l0a_bw = 0;         // mte.l1_to_l0a_bw: MTE1 L1 -> L0A (Left)
    double l1_to_l0b_bw = 0;         // mte.l1_to_l0b_bw: MTE1 L1 -> L0B (Right), NZ->ZN
    double l1_to_bias_bw = 0;        // mte.l1_to_bias_bw: MTE1 L1 -> Bias table
    double ub_to_ub_bw = 0;          // mte.ub_to_ub_bw: VECTOR UB -> UB copy (incl. the NZ adapter)
    double l0c_to_l1_bw = 0;         // mte.l0c_to_l1_bw: FIXP L0C (Acc) -> L1
    double l0c_to_ub_bw = 0;         // mte.l0c_to_ub_bw: FIXP L0C -> UB (a5 only path)
    uint64_t fixp_head = 0;          // mte.fixp_head: fixed cost of one L0C -> GM drain
    double fixp_min_row_cycles = 0;  // mte.fixp_min_row_cycles: floor of the per-row drain cost
    double fixp_row_bw = 0;          // mte.fixp_row_bw: per-row drain bandwidth (bytes_out * N / this)
    bool operator==(const MteParams&) const = default;
};

// Vector unit: instructions process `repeat_bytes` per repeat.
struct VectorParams {
    uint64_t repeat_bytes = 0;              // vector.repeat_bytes: bytes one repeat processes
    uint64_t unary_cycles = 0;              // vector.unary_cycles: cycles per repeat of a unary op
    uint64_t tile_scalar_cycles = 0;        // vector.tile_scalar_cycles: cycles per repeat, tile-scalar op
    uint64_t binary_cycles = 0;             // vector.binary_cycles: cycles per repeat of a binary op
    uint64_t exp_cycles = 0;                // vector.exp_cycles: cycles per repeat of exp
    uint64_t head = 0;                      // vector.head: issue/start cost of every vector instruction
    uint64_t tail = 0;                      // vector.tail: drain cost of every vector instruction
    uint64_t reduce_cycles_per_repeat = 0;  // vector.reduce_cycles_per_repeat: row_sum/row_max per repeat
    bool operator==(const VectorParams&) const = default;
};

// Global memory as seen by a core: start latencies, access granule, shared bandwidth, tensor placement.
struct GmParams {
    uint64_t latency_hit = 0;         // gm.latency_hit: DMA start latency when its lines hit in L2
    uint64_t latency_miss_extra = 0;  // gm.latency_miss_extra: extra start latency when a line misses
    uint64_t access_granule = 0;      // gm.access_granule: smallest GM transfer; shorter rows cost this much
    double short_row_fraction = 0;    // gm.short_row_fraction: share of the unused granule a short row pays
    double hbm_bandwidth = 0;         // gm.hbm_bandwidth: cap of the shared GM pool (HBM)
    uint64_t visibility_delay = 0;    // gm.visibility_delay: completion -> visible to other cores
    uint64_t tensor_alignment = 0;    // gm.tensor_alignment: start alignment of each tensor's GM region
    uint64_t guard_gap = 0;           // gm.guard_gap: unused bytes between neighbouring tensors
    bool operator==(const GmParams&) const = default;
};

// The shared L2 cache in front of GM.
struct L2Params {
    uint64_t size_bytes = 0;  // l2.size_bytes: total capacity
    uint64_t line_bytes = 0;  // l2.line_bytes: line size (also the start-latency line group)
    uint64_t ways = 0;        // l2.ways: associativity (LRU within a set)
    bool operator==(const L2Params&) const = default;
};

// Cross-core synchronisation: flags, pipe rings, barriers.
struct SyncParams {
    uint64_t flag_latency = 0;          // sync.flag_latency: set on one core -> visible to a wait on another
    uint64_t slot_num_one_dir = 0;      // sync.slot_num_one_dir: default ring slots, one direction
    uint64_t slot_num_both = 0;         // sync.slot_num_both: default ring slots per direction, both
    uint64_t auto_slot_num = 0;         // sync.auto_slot_num: slots of compiler-inserted pipes
    uint64_t hard_syncall_release = 0;  // sync.hard_syncall_release: last arrival -> release, hard syncall
    uint64_t soft_poll_interval = 0;    // sync.soft_poll_interval: GM counter poll period, soft syncall
    uint64_t issue_cost = 0;            // sync.issue_cost: scalar cost of issuing a sync instruction
    bool operator==(const SyncParams&) const = default;
};

// The scalar front end of each core.
struct CoreParams {
    uint64_t scalar_cycles_per_stmt = 0;  // core.scalar_cycles_per_stmt: scalar statement cost
    uint64_t pipe_queue_depth = 0;        // core.pipe_queue_depth: instructions a pipe queue holds
    bool operator==(const CoreParams&) const = default;
};

// All parameters of one simulation. Build with `preset(t)`, then apply overrides, then `validate`.
struct HwParams {
    Target target = Target::A2A3;  // the chip generation the values describe
    ChipParams chip;               // geometry and buffers
    CubeParams cube;               // MAD cost
    MteParams mte;                 // data-movement bandwidths, FIXP drain
    VectorParams vector;           // vector instruction cost
    GmParams gm;                   // GM latency, granule, bandwidth, placement
    L2Params l2;                   // L2 geometry
    SyncParams sync;               // cross-core synchronisation
    CoreParams core;               // scalar unit and pipe queues
    bool operator==(const HwParams&) const = default;
};

// A user-caused parameter error (bad key, type, range, syntax). The message starts with the location,
// "FILE:LINE:COL: " for TOML input or "SOURCE: " for command-line overrides.
class ParamError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// Whether a parameter holds a whole number (TOML integer) or a real (TOML integer or float).
enum class ParamKind : uint8_t { Integer, Real };

// One row of the static parameter table. Values travel as double (integers are exact up to 2^53).
struct ParamInfo {
    std::string_view key;                      // dotted key, "<group>.<name>"; TOML table = group
    ParamKind kind = ParamKind::Integer;       // integer or real
    double (*get)(const HwParams&) = nullptr;  // reads the field
    void (*put)(HwParams&, double) = nullptr;  // writes the field (value already checked)
    double a2a3 = 0;                           // preset value for Target::A2A3
    double a5 = 0;                             // preset value for Target::A5
    std::string_view unit;                     // "cycles", "bytes", "B/cycle", "GHz", "count", ...
    char conf_a2a3 = 'L';                      // confidence of the a2a3 value: 'H', 'M' or 'L' (HARDWARE.md)
    char conf_a5 = 'L';                        // confidence of the a5 value
    std::string_view doc;                      // one line: what the parameter models
    std::string_view source;                   // where the number comes from
    double min = 0;                            // smallest allowed value (inclusive unless min_exclusive)
    bool min_exclusive = false;                // true: the value must be strictly greater than min
    double max = 9007199254740992.0;           // largest allowed value (inclusive); 2^53 keeps doubles exact
    bool power_of_two = false;                 // the value must be a power of two

    double preset_value(Target t) const { return t == Target::A2A3 ? a2a3 : a5; }
    char confidence(Target t) const { return t == Target::A2A3 ? conf_a2a3 : conf_a5; }
};

// The table, in listing order (grouped by prefix).
std::span<const ParamInfo> param_table();
// nullptr if `key` is not a parameter.
const ParamInfo* find_param(std::string_view key);
// The closest known key to a misspelled one, or empty if none is close.
std::string suggest_param(std::string_view key);

// Every parameter at its preset value for `t`.
HwParams preset(Target t);

// Overrides. Each value is checked on its own (type, range, power of two) as it is applied; relations
// between parameters are checked by `validate`, which the caller runs once after all overrides.
//
// TOML: tables map to key prefixes (`[gm]` + `latency_hit = 60` is `gm.latency_hit`); an optional
// top-level `target = "a5"` must match `p.target`. Errors name FILE:LINE:COL.
void apply_toml_file(HwParams& p, const std::string& path);
void apply_toml_string(HwParams& p, std::string_view text, const std::string& source_name);
// Command-line override: `value` is a plain decimal number ("60", "1.5"); integer parameters reject
// fractions. `source_name` prefixes error messages (e.g. "--set").
void set_param(HwParams& p, std::string_view key, std::string_view value, const std::string& source_name = "--set");
// "key=value" form of set_param.
void set_param_assignment(HwParams& p, std::string_view assignment, const std::string& source_name = "--set");
// The current value of `key`; throws ParamError for an unknown key.
double get_param(const HwParams& p, std::string_view key);

// Checks every field against its table range and the relations between fields (UB usable <= UB,
// L2 size a multiple of line * ways, ...). Throws ParamError naming the key(s).
void validate(const HwParams& p);

// preset(t) + each TOML file in order + each "key=value" assignment in order + validate.
HwParams load_params(Target t, std::span<const std::string> toml_files, std::span<const std::string> assignments);

// `cvsim params --target T`: one row per parameter, in table order.
struct ParamRow {
    std::string name;    // dotted key
    std::string value;   // current value, as it would be written in TOML
    std::string unit;    // unit of the value
    char confidence;     // H, M or L for the current target
    std::string doc;     // one-line doc, ending in the confidence, e.g. "... (conf L)"
    std::string source;  // where the number comes from
};
std::vector<ParamRow> param_rows(const HwParams& p);
// Aligned text table (header + one line per row).
std::string format_param_table(const std::vector<ParamRow>& rows);
// A complete TOML file holding every parameter of `p`, one comment per key (configs/*.toml are this).
std::string format_param_toml(const HwParams& p);

}  // namespace cvsim
