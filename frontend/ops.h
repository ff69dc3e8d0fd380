// The op catalogue of OPS.md: spellings, parameters, type rules, expander sides and executing pipes.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

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
};

// Which lane the expander puts a statement on (OPS.md side rules).
enum class Side : uint8_t { Shared, Cube, Vector, Mixed, BoundaryC2V, BoundaryV2C };
std::string_view side_name(Side s);

// Hardware pipe that executes an instruction (SPEC 4.1).
enum class Pipe : uint8_t { Scalar, Mte1, Mte2, Mte3, Cube, Fixp, Vector };
constexpr int kNumPipes = 7;
std::string_view pipe_name(Pipe p);  // "SCALAR", "MTE2", ...

struct ParamSpec {
    std::string name;
    bool required = false;   // must be given
    bool positional = true;  // printed positionally (else always as keyword)
};

struct OpDef {
    OpCode code;
    std::string ns;          // "tile", "system" or "tensor"
    std::string short_name;  // "load"
    std::vector<ParamSpec> params;
    std::string qname;  // canonical "tile.load" (stable storage: events keep views of it)
    const std::string& name() const { return qname; }
};

// Every op, in catalogue order.
const std::vector<OpDef>& all_ops();
const OpDef& op_def(OpCode code);
// Resolve a dotted spelling after "pl." ("load", "tile.load", "system.syncall") to candidates. Unified ops
// ("add", "mul", ...) return both the tile-tile and the tile-scalar form; sema picks by operand kind.
std::vector<const OpDef*> lookup_ops(std::string_view spelling);

// Helpers over a resolved Call expression.
const ExprPtr& arg(const Expr& call, const std::string& name);  // nullptr when absent
bool is_cross_core(OpCode c);    // tpush/tpop/tfree/initialize_pipe/shard/gather
bool is_tile_compute(OpCode c);  // vector compute ops (Add..RowExpandSub)
bool is_matmul(OpCode c);        // matmul/gemv family
// A tile.store with atomic=pl.AtomicType.Add (sema admits only None_ = 0 and Add = 1).
bool is_atomic_add_store(const Expr& call);

// The side of one call (OPS.md side rules 1-6).
Side call_side(const Expr& call);
// The pipe that executes a call on its core. Moves depend on source/destination memory.
Pipe call_pipe(const Expr& call);

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
