// The op catalogue of OPS.md: spellings, parameters, type rules, expander sides and executing pipes.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/cost_model.h"
#include "core/datapath.h"
#include "core/pipe.h"
#include "frontend/ir/ir.h"

namespace cvsim::ir {

enum class OpCode : uint8_t {
    // memory movement
    Load,
    Store,
    Move,
    Slice,
    Reshape,
    Transpose,
    TransposeView,
    SetValidShape,
    TensorCreate,
    TensorRead,   // pl.tensor.read(tensor, indices) in a kernel: one scalar read from GM
    TensorWrite,  // pl.tensor.write(tensor, indices, value) in a kernel: one scalar write to GM
    TensorView,   // pl.tensor.view(tensor, shape) in a kernel: the same GM bytes under another row-major shape
    // creation and indices
    Create,
    Full,
    GetBlockIdx,
    GetSubblockIdx,
    // cube
    Matmul,
    MatmulAcc,
    MatmulBias,
    Gemv,
    GemvAcc,
    GemvBias,
    // vector
    Add,
    Sub,
    Mul,
    Div,
    Maximum,
    Minimum,
    Adds,
    Subs,
    Muls,
    Divs,
    Exp,
    Log,
    Sqrt,
    Rsqrt,
    Recip,
    Abs,
    Neg,
    Relu,
    Cast,
    RowSum,
    RowMax,
    RowExpandMul,
    RowExpandAdd,
    RowExpandSub,
    // cross-core transport
    TpushToAiv,
    TpushToAic,
    TpopFromAic,
    TpopFromAiv,
    TfreeToAic,
    TfreeToAiv,
    ReserveBuffer,
    ImportPeerBuffer,
    AicInitializePipe,
    AivInitializePipe,
    AivShard,
    AicGather,
    // synchronisation
    Syncall,
    SyncSet,
    SyncWait,
    SetFfts,
    Fence,
    CacheInvalid,
    // asynchronous GM->L2 prefetch (pl.prefetch.*): a cache hint, no tensor value changes
    PrefetchMakeContext,
    PrefetchAsync,
    PrefetchSession,
    PrefetchWait,
    // vector catalogue (issue 12): reductions, broadcasts, tile-scalar, bitwise, ternary, predicates, fills, transforms
    RowMin,
    RowProd,
    ColSum,
    ColMax,
    ColMin,
    ColProd,
    RowExpand,
    RowExpandDiv,
    RowExpandMax,
    RowExpandMin,
    RowExpandExpdif,
    ColExpand,
    ColExpandMul,
    ColExpandDiv,
    ColExpandSub,
    ColExpandAdd,
    ColExpandMax,
    ColExpandMin,
    ColExpandExpdif,
    Expands,
    Maximums,
    Minimums,
    Rem,
    Rems,
    Fmod,
    Fmods,
    And,
    Ands,
    Or,
    Ors,
    Xor,
    Xors,
    Shl,
    Shls,
    Shr,
    Shrs,
    Sin,
    Cos,
    Not,
    Addc,
    Subc,
    Addsc,
    Subsc,
    Prelu,
    Lrelu,
    Cmp,
    Cmps,
    Sel,
    Sels,
    Fillpad,
    FillpadInplace,
    FillpadExpand,
    Ci,
    Tri,
    Concat,
    Extract,
    Read,
    Write,
    Assemble,
    // sort, gather, scatter and index ops (frontend/ops_sort.cpp)
    Sort32,
    MrgSort1,
    MrgSort2,
    Gather,
    GatherMask,
    Scatter,
    ScatterMask,
    RowArgmax,
    RowArgmin,
    ColArgmax,
    ColArgmin,
    // partial-region binaries, views, byte gathers, row scatters, launch queries (frontend/ops_more.cpp)
    PartAdd,
    PartMul,
    PartMax,
    PartMin,
    ReinterpretView,
    Gatherb,
    ScatterUpdate,
    GetBlockNum,
    // GM gather / scatter by a UB index tile (frontend/ops_gm_index.cpp; pto-isa MGATHER / MSCATTER)
    Mgather,
    Mscatter,
    // the two results of pl.tile.gather_compare (pto-isa TGATHER compare form), lowered by sema (frontend/ops_sort.cpp)
    GatherCompareDst,
    GatherCompareCdst,
};

// Which lane the expander puts a statement on (OPS.md side rules).
enum class Side : uint8_t { Shared, Cube, Vector, Mixed, BoundaryC2V, BoundaryV2C };
std::string_view side_name(Side s);

struct ParamSpec {
    std::string name;
    bool required = false;   // must be given
    bool positional = true;  // printed positionally (else always as keyword)
    bool value = false;      // a run-time scalar operand of the numerics (evaluated at issue, in param order)
};

// How an op's side (OPS.md side rules) is decided: a fixed side, or from its operands.
enum class SideRule : uint8_t {
    Fixed,      // OpDef::side
    ResultMem,  // Cube when the result tile is in a cube memory, else Vector (load, create, full)
    TileMem,    // from the memory of argument 'tile' (Shared for a tensor operand)
    Move,       // CUBE/VECTOR or a boundary, from source and destination memories
    Syncall,    // core_type= 'aic_only' / 'aiv_only' / shared
    SyncFlag,   // core_type= 'aic' / 'aiv' / shared
};
// How the executing pipe is decided.
enum class PipeRule : uint8_t {
    Fixed,     // OpDef::pipe
    Store,     // FIXP from L0C, else MTE3
    Move,      // by source and destination memories
    Assemble,  // tile.assemble: Vector into UB; into L1, FIXP from L0C, else MTE2
};
// What an op does to data, i.e. who implements its effect. Compute and View ops have a numerics entry shared
// by the reference interpreter and the simulator; the others are data movement/synchronisation that the two
// implement themselves (GM windows, rings, flags).
enum class Effect : uint8_t { Compute, View, GmLoad, GmStore, Transport, Sync, Scalar };
std::string_view effect_name(Effect e);
// The valid region of a compute/view result (the reference interpreter's rule; the simulator's lane executor
// carries the same through shape-preserving ops).
enum class ValidRule : uint8_t {
    Inherit,    // the first tile operand's valid region
    Full,       // the whole result (or the result type's static valid region)
    Swap,       // the first operand's, transposed
    RowReduce,  // (operand valid rows, 1)
    ColReduce,  // (1, operand valid cols)
    Scalars,    // (scalar operand 0, scalar operand 1) — set_validshape
};

struct OpDef;
// Operand values handed to an op's numerics: tile operands (the arguments whose type is a tile, in parameter
// order), scalar operands (parameters marked `value`, in order), the integer list of `int_list_param` (slice
// offsets, reshape shape) and the result's static type. `call` gives constant attributes (cast mode, ...).
struct OpOperands {
    const OpDef* op = nullptr;
    const Expr* call = nullptr;
    std::vector<TileData> tiles;
    std::vector<double> scalars;
    std::vector<int64_t> ints;
    std::vector<std::pair<int64_t, int64_t>> valid;  // run-time valid (rows, cols) of each tile operand
    DType out_dtype = DType::FP32;
    int64_t out_rows = 0, out_cols = 0;
    bool variant_bits(int bits) const;  // (op->variant & bits) != 0
};
using NumericsFn = TileData (*)(const OpOperands&);

struct OpDef {
    OpCode code = OpCode::Load;
    std::string ns;          // "tile", "system" or "tensor"
    std::string short_name;  // "load"
    std::vector<ParamSpec> params;
    std::string qname;  // canonical "tile.load" (stable storage: events keep views of it)
    // Registry entries (every op has all of them; tests/frontend/ops_registry_test.cpp checks it).
    Side side = Side::Shared;
    SideRule side_rule = SideRule::Fixed;
    Pipe pipe = Pipe::Scalar;
    PipeRule pipe_rule = PipeRule::Fixed;
    Effect effect = Effect::Scalar;
    NumericsFn numerics = nullptr;  // Compute / View ops: one function per op family
    int variant = 0;                // the family's op selector (BinaryOp, UnaryOp, ...)
    ValidRule valid = ValidRule::Inherit;
    const char* int_list_param = nullptr;  // list argument evaluated into OpOperands::ints
    OpCost cost = OpCost::None;
    std::string doc;  // one line
    const std::string& name() const { return qname; }
};

// Ops PyPTO defines that cvsim rejects on purpose: E-UNSUPPORTED naming the op and this reason.
struct UnsupportedOp {
    std::string name;    // "tile.matmul_mx"
    std::string reason;  // one line
};
const std::vector<UnsupportedOp>& unsupported_ops();
const UnsupportedOp* find_unsupported(std::string_view spelling);  // "matmul_mx" or "tile.matmul_mx"
// PyPTO tile-module functions that are scalar IR in cvsim (sema lowers them to scalar expressions, as
// pl.min / pl.max): "tile.max", "tile.min".
struct ScalarFunction {
    std::string name;
    std::string doc;
};
const std::vector<ScalarFunction>& scalar_functions();
// PyPTO tile ops sema rewrites into registry ops (their side, pipe, numerics and cost are those ops'):
// "tile.gather_row" (pl.tile.load + pl.tile.assemble).
struct LoweredOp {
    std::string name;
    std::string doc;
};
const std::vector<LoweredOp>& lowered_ops();
// The generated op table (docs/OPS_TABLE.md, `cvsim ops`).
std::string ops_table_markdown();

// Every op, in catalogue order.
const std::vector<OpDef>& all_ops();
const OpDef& op_def(OpCode code);
// Resolve a dotted spelling after "pl." ("load", "tile.load", "system.syncall") to candidates. Unified ops
// ("add", "mul", ...) return both the tile-tile and the tile-scalar form; sema picks by operand kind.
std::vector<const OpDef*> lookup_ops(std::string_view spelling);

// Helpers over a resolved Call expression.
const ExprPtr& arg(const Expr& call, const std::string& name);  // nullptr when absent
bool is_cross_core(OpCode c);                                   // tpush/tpop/tfree/initialize_pipe/shard/gather
bool is_tile_compute(OpCode c);  // vector compute ops (effect Compute on the vector side)
bool is_matmul(OpCode c);        // matmul/gemv family
// A vector compute op whose result may be written over a dying operand's buffer (PyPTO's MemoryReuse);
// false for the ops PyPTO registers not_inplace_safe (they need distinct source and destination buffers).
bool is_inplace_safe(OpCode c);
// pl.tile.mgather's mode as sema validated it: coalesce 0 = row, 1 = elem; gather_oob 0 = undefined, 1 = clamp,
// 2 = wrap, 3 = zero (PyPTO's integers; the DSL's strings map to them).
int mgather_coalesce(const Expr& call);
int mgather_oob(const Expr& call);
// A GM access whose elements an index tile picks at run time (mgather reads, mscatter writes).
inline bool is_indexed_gm(OpCode c) {
    return c == OpCode::Mgather || c == OpCode::Mscatter;
}
// A tile.store with atomic=pl.AtomicType.Add (sema admits only None_ = 0 and Add = 1).
bool is_atomic_add_store(const Expr& call);

// The side of one call (OPS.md side rules 1-6).
Side call_side(const Expr& call);
// The pipe that executes a call on its core. Moves depend on source/destination memory.
Pipe call_pipe(const Expr& call);

// The scalar operands of a call (parameters marked `value`), in order: what the numerics receive.
std::vector<const ExprPtr*> value_operands(const Expr& call);
// Evaluate an op's numerics (throws std::invalid_argument on a missing entry or shape mismatch).
TileData eval_numerics(const OpOperands& in);

// Constant folding helpers over resolved IR expressions (module constants are already folded).
std::optional<int64_t> const_int(const ExprPtr& e);
std::optional<double> const_number(const ExprPtr& e);
std::optional<std::vector<int64_t>> const_int_list(const ExprPtr& e);  // List/Tuple of constant ints
std::optional<std::string> const_str(const ExprPtr& e);

// Type rule of an op call: checks operands (E-TYPE with expected vs actual, E-OOB for constant windows
// outside a tensor) and returns the result type (Unknown when only an annotation can supply it, e.g. tpop
// without shape=/dtype=). `call` has op and args set; its location is used for diagnostics.
// `region_split` is the split code (0 none, 1 up-down, 2 left-right) of the enclosing pl.split_aiv region,
// -1 outside one: aiv_shard/aic_gather take it instead of their split= argument.
Type infer_call_type(const Expr& call, int region_split = -1);

}  // namespace cvsim::ir
