// Run-time data shared by the reference interpreter and the simulator: scalars, GM tensors, windows,
// seeded inputs, scalar expression evaluation and the launch plan of a program.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "frontend/byte_store.h"
#include "frontend/ir/ir.h"

namespace cvsim::rt {

// A scalar value; integers are held exactly (int64), floats as double.
struct Scalar {
    DType dtype = DType::INDEX;
    int64_t i = 0;
    double f = 0;
    bool is_float() const { return dtype_is_float(dtype); }
    double as_double() const { return is_float() ? f : static_cast<double>(i); }
    int64_t as_int() const { return is_float() ? float_to_int(f) : i; }
    // Truncation toward zero, saturated to the int64 range (NaN: 0); never undefined behaviour.
    static int64_t float_to_int(double v) {
        if (!(v == v)) return 0;
        if (v >= 9.2233720368547758e18) return INT64_MAX;
        if (v <= -9.2233720368547758e18) return INT64_MIN;
        return static_cast<int64_t>(v);
    }
    static Scalar of_int(int64_t v, DType d = DType::INDEX) {
        Scalar s;
        s.dtype = d;
        s.i = v;
        return s;
    }
    static Scalar of_float(double v, DType d = DType::FP32) {
        Scalar s;
        s.dtype = d;
        s.f = v;
        return s;
    }
    bool operator==(const Scalar&) const = default;
};

// Run-time error in user code (e.g. a computed GM window outside its tensor); becomes a finding.
struct RuntimeError {
    std::string code;  // "E-OOB", "E-PIPE-...", ...
    std::string message;
    SourceLoc loc;
};

// One GM tensor: row-major (ND) bytes.
struct TensorBuffer {
    std::string name;  // parameter or created-tensor name
    DType dtype = DType::FP32;
    std::vector<int64_t> shape;
    ir::ParamDir dir = ir::ParamDir::In;
    bool hidden = false;           // created by cvsim (ring buffers, soft-syncall workspace), not a kernel output
    ByteStore bytes;               // shape.product() * dtype_bytes (a large input: generated per page on access)
    std::vector<uint8_t> written;  // per element: 1 once a store wrote it (outputs only; filled by the run)
    // Per element: how far two orders of the float atomic adds into it can differ (filled by the reference
    // run; empty when no float atomic add touched the tensor). Output comparison allows this much there.
    std::vector<double> atomic_tol;

    int64_t numel() const;
    bool is_output() const { return !hidden && dir != ir::ParamDir::In; }
    std::vector<int64_t> strides() const;  // in elements
};

// Element i of a GM tensor (a lazy input's from its page alone: the rest stays ungenerated).
inline double tensor_element(const TensorBuffer& t, int64_t i) {
    if (!t.bytes.lazy()) return get_element(t.dtype, t.bytes.data(), i);
    if (is_sub_byte(t.dtype)) return get_element(t.dtype, t.bytes.span(static_cast<size_t>(i / 2), 1), i & 1);
    const size_t eb = dtype_bytes(t.dtype);
    return decode_element(t.dtype, t.bytes.span(static_cast<size_t>(i) * eb, eb));
}

// A window into a GM tensor: full-rank offsets and extents.
struct Window {
    uint32_t tensor = 0;
    std::vector<int64_t> offsets;
    std::vector<int64_t> extents;

    int64_t rows() const;  // product of all extents but the last
    int64_t cols() const { return extents.empty() ? 1 : extents.back(); }
};

// Saturating int64 addition: a huge computed offset stays huge (out of bounds), never wraps into range.
inline int64_t sat_add(int64_t a, int64_t b) {
    int64_t r;
    if (__builtin_add_overflow(a, b, &r)) return a > 0 ? INT64_MAX : INT64_MIN;
    return r;
}
// [off, off + ext) lies in [0, size), ext > 0; overflow-checked (no off + ext is formed).
inline bool range_inside(int64_t off, int64_t ext, int64_t size) {
    return off >= 0 && ext > 0 && ext <= size && off <= size - ext;
}
// A GM window's extent in one dimension: an empty one (a split lane's part of a valid region that lane 0 holds
// whole, a tail tile of 0 rows) is inside when its offset is in [0, size]; it moves nothing.
inline bool window_inside(int64_t off, int64_t ext, int64_t size) {
    return ext == 0 ? off >= 0 && off <= size : range_inside(off, ext, size);
}

// Windows of one tensor that share an element (windows of different rank are assumed to overlap).
inline bool windows_overlap(const Window& a, const Window& b) {
    if (a.offsets.size() != b.offsets.size()) return true;
    for (size_t d = 0; d < a.offsets.size(); ++d)
        if (sat_add(a.offsets[d], a.extents[d]) <= b.offsets[d] || sat_add(b.offsets[d], b.extents[d]) <= a.offsets[d])
            return false;
    return true;
}

// Every element of `small` is in `big` (never for windows of different rank).
inline bool window_covers(const Window& big, const Window& small) {
    if (big.offsets.size() != small.offsets.size()) return false;
    for (size_t d = 0; d < big.offsets.size(); ++d)
        if (small.offsets[d] < big.offsets[d] ||
            sat_add(small.offsets[d], small.extents[d]) > sat_add(big.offsets[d], big.extents[d]))
            return false;
    return true;
}

// A pl.tile.load's run-time valid_shape against the loaded extents: a message when some extent is negative or
// larger than the load's (the tile has no such rows), else nullopt.
// The rows of a valid region given per window dimension: the product of all extents but the last (1 for a 1-D
// region; a negative extent gives 0 rows, valid_shape_error reports it).
int64_t valid_rows(const std::vector<int64_t>& valid);
// A run-time valid region given per dimension (a tpop's annotated one), as (rows, cols) clamped to a rows x cols
// tile.
std::pair<int64_t, int64_t> clamped_region(const std::vector<int64_t>& valid, int64_t rows, int64_t cols);
std::optional<std::string> valid_shape_error(const std::vector<int64_t>& valid, const std::vector<int64_t>& shape);

// "[0:16, 0:128]"
std::string window_str(const Window& w);
// Row r of the window starts at this element index of the tensor (row-major).
int64_t window_row_start(const TensorBuffer& t, const Window& w, int64_t r);
// Empty when the window lies inside the tensor, else the message of an E-OOB finding.
std::optional<std::string> check_window(const TensorBuffer& t, const Window& w);
// A window of a reshaped view (pl.tensor.view: the tensor's row-major elements under the shape `from`) as a
// box of the tensor's own shape `to`: exact, or nullopt when those elements are not one box whose last extent
// is the window's (their rows would not be the window's rows).
std::optional<Window> reshape_window(const std::vector<int64_t>& from, const Window& w, const std::vector<int64_t>& to);

// A store's `shapes` partition (PyPTO's FlattenTileNdTo2D: leading 1s, then the tile's pre-flatten shape, whose
// leading extent may span several tensor dimensions: a [2, 3, 8] result stored as [1, 6, 8]). Codegen's
// pto.partition_view addresses partition element (i_0, ..., i_n-1) at the tensor's row-major address
// sum((off_d + i_d) * stride_d). When that runs past a tensor dimension but the partition's rows are consecutive
// rows of the tensor (within its last dimension), the same elements in the same row order are one box of the
// tensor: that box (offsets and extents of the tensor's rank); else nullopt. The caller tries it only when the
// plain box does not fit.
std::optional<Window> partition_window(uint32_t tensor, const std::vector<int64_t>& shape,
                                       const std::vector<int64_t>& off, const std::vector<int64_t>& ext);

// mgather / mscatter addressing (pto-isa MGATHER / MSCATTER), shared by the reference interpreter and the
// simulator. A view (the tensor `tensor` seen at `off` with shape `shape`, row-major in `reshape` when that is
// given: pl.tensor.view) is a table of capacity prod(shape) elements (elem mode) or prod(shape[:-1]) rows of
// shape.back() elements (row mode); transfer `k` is that element or row, as a box of the tensor.
int64_t indexed_capacity(const std::vector<int64_t>& shape, bool row);
// Whether a box of `shape` inside a base of shape `base` (a tensor, or the reshape a pl.tensor.view gives it)
// covers consecutive elements of the base: pto-isa's MGATHER elem mode / MSCATTER (and a5's row mode) address
// the view linearly from its first element, which equals cvsim's logical flattening only then.
bool box_contiguous(const std::vector<int64_t>& shape, const std::vector<int64_t>& base);
std::optional<Window> indexed_window(uint32_t tensor, const std::vector<int64_t>& off,
                                     const std::vector<int64_t>& shape, const std::vector<int64_t>& reshape,
                                     const std::vector<int64_t>& tensor_shape, int64_t k, bool row);
// The linear range [lo, lo + len) of a view (row-major from its first element; the caller checks box_contiguous)
// as one box of its tensor, or nullopt: mgather's Mat elem-mode GM scratch, written whole.
std::optional<Window> view_range_window(uint32_t tensor, const std::vector<int64_t>& off,
                                        const std::vector<int64_t>& shape, const std::vector<int64_t>& reshape,
                                        const std::vector<int64_t>& tensor_shape, int64_t lo, int64_t len);
// Element (r, c) of a Mat tile of `rows` rows in NZ order (32-byte column blocks of c0 elements, each block's rows
// contiguous): pto-isa's MGatherGm2L1ElemImpl scratch offset (c / c0) * rows * c0 + r * c0 + c % c0.
inline int64_t nz_offset(int64_t r, int64_t c, int64_t rows, int64_t c0) {
    return (c / c0) * rows * c0 + r * c0 + c % c0;
}
// One index value (an INT32 element, read as pto-isa's kernels do: cast to uint32) against the capacity under
// gather_oob mode 0 undefined / 1 clamp / 2 wrap / 3 zero (mscatter: 0). `zero`: the transfer reads nothing and
// yields 0; `oob`: an out-of-range index under mode 0 (the hardware accesses memory outside the table).
struct IndexPick {
    int64_t index = 0;
    bool zero = false;
    bool oob = false;
};
IndexPick pick_index(double raw, int64_t capacity, int oob_mode);

// Every GM tensor of one run.
struct TensorStore {
    std::vector<TensorBuffer> tensors;
    uint32_t add(TensorBuffer t) {
        tensors.push_back(std::move(t));
        return static_cast<uint32_t>(tensors.size() - 1);
    }
    std::optional<uint32_t> find(const std::string& name) const;
};

// Initial contents: inputs uniform in [-1, 1] (rounded to the dtype; integers in [-8, 8]; unsigned types and E8M0
// their magnitudes; FP4 scaled by 6), element i a function of (seed, tensor name, i) alone (docs/DECISIONS.md,
// "Seeded inputs are a per-element function of (seed, name, index)"); outputs poisoned.
// An In tensor of at least lazy_input_bytes() bytes is a lazy ByteStore (docs/DECISIONS.md, "Lazy GM inputs"):
// what the run touches is generated, the same bytes either way. lazy_input_bytes(): the environment's
// CVSIM_LAZY_INPUT_BYTES (a byte count, or "off"), else 1 MiB.
void fill_inputs(TensorStore& store, uint64_t seed);
size_t lazy_input_bytes();
// The generator behind fill_inputs. input_key: one tensor's key from (seed, name); input_value: element i's value
// before rounding to the dtype; generate_inputs: elements [first, first + n) encoded into `out` (which holds
// element `first` at its start; `first` even for the 4-bit dtypes), the bytes put_element(t, input_value(t, key, i))
// writes into a zeroed buffer, through bit-level fast paths for the common dtypes.
uint64_t input_key(uint64_t seed, const std::string& name);
double input_value(DType t, uint64_t key, int64_t i);
void generate_inputs(DType t, uint64_t key, int64_t first, int64_t n, uint8_t* out);
void poison_outputs(TensorStore& store);
// An output of a run made from `initial` (its tensor in the store the run started from): when that was a lazy
// generator and `t` is flat with a written mask, `t` becomes the generator with the pages where it differs or
// was written (ByteStore::patched; docs/DECISIONS.md, "Sparse outputs"), so comparisons with a run's patched
// outputs look at those pages only. Anything else is left as it is.
void sparsify_output(TensorBuffer& t, const TensorBuffer& initial);
// numpy .npy (version 1.0) for one tensor; throws std::runtime_error on I/O failure.
void write_npy(const TensorBuffer& t, const std::string& path);
// Reads an .npy into `t` (dtype and shape must match); throws std::runtime_error with a reason.
void read_npy(TensorBuffer& t, const std::string& path);
// The shape in an .npy file's header (nullopt: not a readable .npy).
std::optional<std::vector<int64_t>> npy_shape(const std::string& path);

// ---- launch plan: which functions run on which core, with which arguments ----

// Where a lane function's argument comes from.
struct ArgBinding {
    enum class Kind { Tensor, Scalar } kind = Kind::Tensor;
    uint32_t tensor = 0;  // Tensor: index into the TensorStore
    Scalar scalar;        // Scalar: value
    // Tensor: a view of that tensor's bytes when the launch passes a reshape or slice of a tensor another parameter
    // also sees (LaunchPlan::aliases): its origin (in `view_reshape` coordinates when given, else the tensor's),
    // its shape, and the row-major shape of the tensor's bytes it is cut from. view_shape empty: the whole tensor.
    std::vector<int64_t> view_off, view_shape, view_reshape;
};

// Where one argument of a launched function comes from: index >= 0 is the entry function's parameter,
// kConstArg a constant (in `args`), kCreatedArg - k the k-th tensor an Orchestration function created.
constexpr int kConstArg = -1;
constexpr int kCreatedArg = -2;

struct LaneProgram {
    std::shared_ptr<ir::Function> fn;  // the function to run
    std::vector<int> entry_param;      // per parameter: where it comes from (see kConstArg / kCreatedArg)
    std::vector<ArgBinding> args;      // one per parameter (filled by bind_entry)
};

// A GM tensor an Orchestration function creates with pl.create_tensor (internal: zeroed, not compared).
struct CreatedTensor {
    std::string name;
    DType dtype = DType::FP32;
    std::vector<int64_t> shape;
};

// Entry tensor parameters that one launch site binds to the same GM bytes (docs/DECISIONS.md, "Aliasing launch
// arguments share one GM tensor"): one tensor, the root, and each parameter a view of it, as the orchestration
// cut it (pl.tensor.reshape: the root's row-major bytes under another shape; pl.tensor.slice / view: a box of it).
struct ParamView {
    std::string param;             // the entry parameter
    std::vector<int64_t> off;      // its origin, in `reshape` coordinates when given, else the root's
    std::vector<int64_t> shape;    // its shape
    std::vector<int64_t> reshape;  // the root under this row-major shape (empty: the root's own shape)
    // Per dimension, an entry scalar parameter whose value adds to `off` ("" none, or empty: none at all): a slice
    // offset the orchestration computes and also passes to the kernel (bind_entry adds it and checks the box).
    std::vector<std::string> off_param;
};
struct AliasGroup {
    std::string name;  // the root tensor's name: the parameter that is the whole root, else the orchestration's
    DType dtype = DType::FP32;
    std::vector<int64_t> shape;
    ir::ParamDir dir = ir::ParamDir::In;  // In only when every member is In; Out when every member is Out
    std::vector<ParamView> members;
    std::string origin;  // "'o' and 'r' (a pl.tensor.reshape of it) at line N" for notes
};

// The cores of a launch: per cluster one AIC program and one AIV program (run on both AIVs).
struct LaunchPlan {
    std::shared_ptr<ir::Program> program;
    std::shared_ptr<ir::Function> entry;    // the function the user launched (Group, InCore, Spmd, Orchestration)
    std::optional<LaneProgram> aic;         // absent: the AIC idles
    std::optional<LaneProgram> aiv;         // absent: the AIVs idle
    int blocks = 1;                         // clusters launched
    bool aiv_split = false;                 // the AIV function splits work between its two lanes
    bool aiv_lane1_replay = false;          // a2a3 unsplit: lane 1 replays handshakes only
    bool aiv_lane1_launched = true;         // a5 unsplit: lane 1 not launched
    std::shared_ptr<ir::Function> mixed;    // the single-core (sequential) function the reference runs
    std::optional<LaneProgram> mixed_prog;  // its arguments
    std::vector<CreatedTensor> created;     // tensors created by an Orchestration entry
    std::vector<ArgBinding> entry_args;     // the entry function's arguments
    std::vector<uint32_t> created_ids;      // TensorStore index of each created tensor (filled by bind_entry)
    std::vector<AliasGroup> aliases;        // entry parameters one tensor's bytes back (empty: each its own)
};
// The alias group and view of the entry parameter NAME (nullptr: it is a tensor of its own).
const AliasGroup* alias_group(const LaunchPlan& plan, const std::string& name, const ParamView** view = nullptr);

// The GM cvsim simulates per run, all tensors together (kernel tensors, created tensors, ring buffers): a
// run holds several copies (initial, simulated, reference), so a larger kernel is refused with E-CAPACITY
// before anything is allocated, not left to the host's OOM killer.
constexpr int64_t kMaxGmBytes = int64_t{1} << 30;
// Bytes of a tensor of SHAPE and DTYPE, or -1 when the product overflows int64.
int64_t tensor_bytes(const std::vector<int64_t>& shape, DType dtype);
// Adds BYTES for WHAT to USED; raises E-CAPACITY at LOC when the total exceeds kMaxGmBytes.
void charge_gm(int64_t& used, int64_t bytes, const std::string& what, const SourceLoc& loc);

// Creates GM tensors for the entry function's tensor parameters (in parameter order) and the bindings of
// scalar parameters (`scalars` by name, default 0), then binds the lane programs' arguments. Throws
// CompileError when a parameter cannot be bound.
void bind_entry(LaunchPlan& plan, TensorStore& store, const std::map<std::string, Scalar>& scalars);

// ---- scalar expression evaluation (shared by the reference and the lane executor) ----

// `lookup(var)` returns the current value of a scalar variable.
Scalar eval_scalar(const ir::Expr& e, const std::function<Scalar(const ir::Var&)>& lookup);
bool truthy(const Scalar& s);
// Trip values of a loop: start, stop, step evaluated.
struct LoopBounds {
    int64_t start = 0, stop = 0, step = 1;
};

}  // namespace cvsim::rt
