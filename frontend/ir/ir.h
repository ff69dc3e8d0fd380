// The typed IR: programs, functions, statements and expressions after name resolution and type checking.
//
// Variables are named, typed slots (Python semantics: re-binding a name writes the same slot; one type per
// name per function). Statements keep their source location so findings and traces point at the kernel the
// user wrote, also after expansion. Op calls reference an OpDef from the op registry (frontend/ops.h) and
// keep their arguments in the op's parameter order (nullptr = not given).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/dtype.h"
#include "frontend/diag.h"
#include "frontend/source.h"

namespace cvsim::ir {

struct OpDef;  // frontend/ops.h

enum class FuncType : uint8_t { Opaque, InCore, AIC, AIV, Group, Orchestration, Spmd };
enum class SplitMode : uint8_t { NONE, UP_DOWN, LEFT_RIGHT };
enum class ParamDir : uint8_t { In, Out, InOut };
enum class PipeType : uint8_t { S, V, M, MTE1, MTE2, MTE3, FIX, ALL };

std::string_view func_type_name(FuncType t);
std::string_view split_mode_name(SplitMode m);
std::string_view pipe_type_name(PipeType p);

// The explicit pl.TileView(...) of a tile type. Layout fields are optional: absent = the memory's default.
struct TileView {
    std::optional<TileLayout> blayout;  // block layout
    std::optional<TileLayout> slayout;  // in-box layout
    std::optional<int64_t> fractal;     // fractal size in bytes (recorded, printed back)
    bool written = false;               // a pl.TileView(...) was written (printed back even when empty)
    bool operator==(const TileView&) const = default;
};

// Opaque: a handle type cvsim reads and prints back but never computes with (pld.CommCtxType,
// pld.WindowBufferType, pl.Ptr of PyPTO's distributed programs); `name` is its printed spelling.
enum class TypeKind : uint8_t { Unknown, None, Scalar, Tensor, Tile, Tuple, Opaque };

struct Type {
    TypeKind kind = TypeKind::Unknown;
    DType dtype = DType::FP32;   // Scalar/Tensor/Tile element type
    std::vector<int64_t> shape;  // Tensor/Tile shape (static)
    Mem mem = Mem::DDR;          // Tile memory space (Tensor: DDR)
    TileView view;               // Tile view as written
    std::vector<int64_t> valid;  // Tile valid shape when it differs from shape (static), else empty
    // Tile: the valid region is set at run time (a load's scalar valid_shape, a printed
    // pl.TileView(valid_shape=[rows, 4])): `valid` is empty, the static type is the full shape, and checks that
    // need the region's extents (a store's window) are left to the run time, which knows them.
    bool valid_dynamic = false;
    std::vector<Type> elems;   // Tuple element types
    bool distributed = false;  // Tensor: a pld.DistributedTensor (a window-bound tensor of a distributed program)
    std::string name;          // Opaque: the printed type ("pld.CommCtxType", "pl.Ptr")
    // Tile of rank above 2 (a pl.tile.reshape's result, PyPTO's [128, 32, 2] between two reshapes): its shape as
    // written; `shape` is the merged 2-D [product of all but the last, last] (the same row-major elements). Such a
    // tile may only be reshaped again (sema refuses any other use).
    std::vector<int64_t> nd_shape;

    static Type unknown() { return {}; }
    static Type none() {
        Type t;
        t.kind = TypeKind::None;
        return t;
    }
    static Type scalar(DType d) {
        Type t;
        t.kind = TypeKind::Scalar;
        t.dtype = d;
        return t;
    }
    static Type tensor(std::vector<int64_t> shape, DType d) {
        Type t;
        t.kind = TypeKind::Tensor;
        t.shape = std::move(shape);
        t.dtype = d;
        return t;
    }
    static Type tile(std::vector<int64_t> shape, DType d, Mem m) {
        Type t;
        t.kind = TypeKind::Tile;
        t.shape = std::move(shape);
        t.dtype = d;
        t.mem = m;
        return t;
    }
    static Type tuple(std::vector<Type> elems) {
        Type t;
        t.kind = TypeKind::Tuple;
        t.elems = std::move(elems);
        return t;
    }
    static Type opaque(std::string name) {
        Type t;
        t.kind = TypeKind::Opaque;
        t.name = std::move(name);
        return t;
    }

    bool is_tile() const { return kind == TypeKind::Tile; }
    bool is_tensor() const { return kind == TypeKind::Tensor; }
    bool is_scalar() const { return kind == TypeKind::Scalar; }
    // The physical layout of a tile: from the view when given, else the memory default.
    Layout layout() const;
    int64_t rows() const;  // 2-D view of a tile/tensor shape: leading dims folded into rows
    int64_t cols() const;
    int64_t numel() const;
    int64_t bytes() const { return is_sub_byte(dtype) ? (numel() + 1) / 2 : numel() * int64_t(dtype_bytes(dtype)); }
    bool operator==(const Type&) const = default;
};

// "pl.Tile[[16, 128], pl.FP16, pl.Mem.Vec]" (the printed style). `dynamic_valid`: the printed expression list of a
// run-time valid region (valid_dynamic), printed as the TileView's valid_shape.
std::string type_str(const Type& t, const std::string* dynamic_valid = nullptr);
// Shapes as "[16, 128]".
std::string shape_str(const std::vector<int64_t>& s);

struct Var {
    std::string name;  // source name (unique within its function)
    Type type;         // fixed type of the slot
    uint32_t id = 0;   // index in Function::vars
    SourceLoc loc;     // first binding
};
using VarPtr = std::shared_ptr<Var>;

enum class EnumKind : uint8_t {
    Mem,
    SplitMode,
    TileLayout,
    PipeType,
    FuncType,
    AtomicType,
    Level,
    Role,
    Other
};                                            // Other: an attr value pl.K.M kept verbatim (sval = "K.M")
std::string_view enum_kind_name(EnumKind k);  // "Mem", "SplitMode", ...

enum class ExprKind : uint8_t {
    Int,
    Float,
    Bool,
    Str,
    NoneLit,
    Const,     // pl.const(value, dtype): typed scalar literal; `num` + `dtype`
    DTypeLit,  // pl.FP32 as a value
    Enum,      // pl.Mem.Vec etc.: enum_kind + ival (the enum's integer value) + sval (member name)
    Var,       // variable reference
    List,      // [a, b]
    Tuple,     // (a, b)
    Dict,      // {k: v} (only as attrs): args = keys, args2 = values
    Binary,    // a OP b (scalar arithmetic); op = "+", "-", "*", "//", "/", "%", "<<", ">>", "&", "|", "^", "**"
    Unary,     // -a, not a, ~a
    Compare,   // a OP b; op = "<", "<=", ">", ">=", "==", "!="
    BoolOp,    // a and b / a or b
    Call,      // op call: op + args (parameter order) + attrs (+ args2: a tpop's annotated run-time valid region)
    FuncCall,  // self.f(args): callee + args
    Index,     // tuple element: args[0][ival]
};

struct Expr;
using ExprPtr = std::shared_ptr<Expr>;

struct Expr {
    ExprKind kind = ExprKind::NoneLit;
    SourceLoc loc;
    Type type;
    int64_t ival = 0;           // Int, Bool, Enum value, Index position
    double fval = 0;            // Float, Const value
    std::string sval;           // Str, Enum member name, op spelling (Binary/Unary/Compare/BoolOp), FuncCall callee
    DType dtype = DType::FP32;  // Const / DTypeLit
    EnumKind enum_kind = EnumKind::Mem;  // Enum
    VarPtr var;                          // Var
    const OpDef* op = nullptr;           // Call
    std::vector<ExprPtr> args;           // operands (see ExprKind); Call: one entry per op parameter, nullptr = absent
    // Dict values; FuncCall: device=; Call (pl.tile.tpop_*): the run-time valid region its annotation declares
    // (pl.TileView(valid_shape=[rows, cols]) with scalar extents, as the codegen allocates the popped tile),
    // one expression per dimension: the simulator and the reference bound the popped tile by it.
    std::vector<ExprPtr> args2;
    ExprPtr attrs;  // Call: trailing attrs={...} (a Dict), kept and printed back
};

enum class StmtKind : uint8_t {
    Assign,  // targets = value (one target, or several for tuple unpacking)
    Eval,    // value evaluated for its effect
    Return,  // values
    For,     // loop
    If,      // conditional
    Yield,   // targets = pl.yield_(values): targets are the enclosing For/If's results
    Pass,
};

enum class LoopKind : uint8_t {
    Range,
    Parallel,
    Unroll,
    SplitAiv,
    Spmd,
    Pipeline
};  // Pipeline: pl.pipeline(..., stage=K), run in order

struct Stmt;
using StmtPtr = std::shared_ptr<Stmt>;
using Block = std::vector<StmtPtr>;

struct Stmt {
    StmtKind kind = StmtKind::Pass;
    SourceLoc loc;
    std::vector<VarPtr> targets;  // Assign / Yield targets; For: results after the loop; If: results
    ExprPtr value;                // Assign / Eval value; If condition
    std::vector<ExprPtr> values;  // Return / Yield values
    bool annotated = false;       // Assign: the source had an annotation (always printed anyway)

    // For
    LoopKind loop_kind = LoopKind::Range;
    VarPtr loop_var;                // the induction variable (aiv_id for split_aiv, block for spmd)
    ExprPtr start, stop, step;      // range bounds (start/step may be null = 0 / 1)
    std::vector<VarPtr> iter_args;  // loop-carried values (init_values form)
    std::vector<ExprPtr> init_values;
    SplitMode split_mode = SplitMode::NONE;    // SplitAiv region mode
    std::vector<ExprPtr> loop_extra;           // other keyword args of the loop form (pl.spmd), kept for printing
    std::vector<std::string> loop_extra_keys;  // their keyword names (parallel to loop_extra)

    Block body;    // For body / If then-branch
    Block orelse;  // If else-branch
    // Set by the expander on a SHARED op it inserts for one lane only (the publication fence before a V2C
    // token push): 0 none, 1 the cube lane, 2 the vector lane. Not printed; the split reads it.
    uint8_t pinned_lane = 0;
};

struct Param {
    VarPtr var;
    ParamDir dir = ParamDir::In;
};

struct Attr {
    std::string key;
    ExprPtr value;  // Enum / Bool / Int / Str constant
};

struct Function {
    std::string name;
    FuncType type = FuncType::Opaque;
    std::vector<Attr> attrs;          // decorator attrs / pl.func_attr, in source order
    bool attrs_in_body = false;       // written as pl.func_attr({...}) (printed style)
    std::vector<ExprPtr> deco_extra;  // level=/role= keywords, kept for printing (as Enum exprs, keyed by sval of args)
    std::vector<std::string> deco_extra_keys;
    std::vector<Param> params;
    std::vector<Type> ret_types;  // empty = no return annotation
    bool ret_is_tuple = false;    // annotated as tuple[...]
    Block body;
    std::vector<VarPtr> vars;  // every variable of the function (params first)
    SourceLoc loc;
    std::string origin;  // mixed function this one was expanded from ("" if written by hand)
    // The function this one is a per-call copy of (sema_dims.cpp: a call at other sizes), "" otherwise; a copy
    // is never picked as the entry.
    std::string specialised_from;
    // The first use of distributed state (a pld.* type or op, pl.Ptr) in the signature or body: cvsim reads
    // such a function and prints it back but does not simulate it (frontend/launch.cpp raises E-UNSUPPORTED
    // when a launch reaches it). `what` is empty for a single-device function.
    struct DistributedUse {
        std::string what;  // "pld.DistributedTensor", "pld.tile.put", ...
        SourceLoc loc;
        uint32_t span = 1;
    } distributed;
    // A function cvsim could not read: the first E-UNSUPPORTED raised while lowering its body (or signature),
    // kept instead of rejecting the whole file (docs/DECISIONS.md, "Functions cvsim cannot read"). Its body is
    // empty (and its parameters too when `signature`); `text` is its source as written (decorators to last
    // line), which the printer emits verbatim. A launch or call that reaches it raises `diag` (refuse_unread).
    struct Unread {
        std::shared_ptr<const Diagnostic> diag;  // null: the function was read
        bool signature = false;                  // the signature itself could not be read
        std::string text;
    } unread;
    bool is_unread() const { return unread.diag != nullptr; }

    const Attr* attr(const std::string& key) const;
    SplitMode split_mode() const;  // attrs["split"], NONE when absent
    std::optional<int64_t> slot_num() const;
    VarPtr find_var(const std::string& name) const;
    VarPtr new_var(const std::string& name, Type type, SourceLoc loc);  // adds to vars; name must be unique
    std::string fresh_name(const std::string& base) const;              // base, base_1, base_2, ... not yet used
};

struct Program {
    std::string name;
    std::vector<std::shared_ptr<Function>> functions;        // in source order
    std::vector<std::shared_ptr<const SourceFile>> sources;  // keep source files alive for SourceLocs

    std::shared_ptr<Function> find(const std::string& name) const;
};

// A host statement of an Orchestration function (pl.tensor.slice, pl.submit, ...: frontend/sema_host.cpp) is a
// FuncCall whose sval is the dotted op name; its keywords are `attrs` (a Dict of Str names to values). An
// argument naming a kernel without calling it (pl.submit(self.k, ...)) is a FuncCall with ival == kFuncRef.
constexpr int64_t kFuncRef = 1;
inline bool is_host_op_call(const Expr& e) {
    return e.kind == ExprKind::FuncCall && e.sval.find('.') != std::string::npos;
}

// Deep copies (fresh Stmt/Expr nodes; Var pointers remapped through `map` when given).
struct VarMap;
ExprPtr clone_expr(const ExprPtr& e, const VarMap* map = nullptr);
StmtPtr clone_stmt(const StmtPtr& s, const VarMap* map = nullptr);
Block clone_block(const Block& b, const VarMap* map = nullptr);
std::shared_ptr<Function> clone_function(const Function& f);  // fresh vars too
std::shared_ptr<Program> clone_program(const Program& p);

// Remaps variables of one function onto another's (by name when cloning into a new function).
struct VarMap {
    std::vector<VarPtr> by_id;  // index: old var id -> new var (nullptr = keep)
    VarPtr get(const VarPtr& v) const { return v && v->id < by_id.size() && by_id[v->id] ? by_id[v->id] : v; }
};

// Visit every variable read by an expression (not assigned).
template <typename F>
void for_each_var(const ExprPtr& e, F&& f) {
    if (!e) return;
    if (e->kind == ExprKind::Var) f(e->var);
    for (auto& a : e->args) for_each_var(a, f);
    for (auto& a : e->args2) for_each_var(a, f);
}

}  // namespace cvsim::ir
