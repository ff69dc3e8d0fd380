// Sema helpers: module constants and folding, type annotations, enum references, attrs.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <variant>
#include <vector>

#include "frontend/ast.h"
#include "frontend/ir/ir.h"

namespace cvsim {

// A folded Python constant.
struct ConstValue {
    std::variant<int64_t, double, bool, std::string> v;
};

struct ConstTable {
    std::map<std::string, ConstValue> values;  // NAME = const_expr
    std::set<std::string> dynamic;             // NAME = pl.dynamic("N")
    std::map<std::string, int64_t> bound;      // --dim NAME=V: dynamic symbols folded to V (by NAME or "N")
    std::set<std::string> bound_used;          // the --dim names that matched a pl.dynamic symbol
    std::optional<int64_t> dim_default;        // value of a symbol --dim does not bind (SemaOptions)
    std::vector<std::string> defaulted;        // the symbols that took dim_default, in definition order
    // pl.dynamic symbols --dim does not bind, waiting for the program's own shapes (bind_implicit_dims) before
    // the default; those the program binds, with their values.
    std::set<std::string> pending_dynamic;
    std::vector<std::pair<std::string, int64_t>> inferred;
    // The per-call copies bind_implicit_dims made, one line each ("'f__N_16' is 'f' specialised for ...").
    std::vector<std::string> specialised;
    std::map<std::string, std::string> copy_of;  // per-call copy -> the function it copies
};

// Folds `e` when every name in it is a module constant (Python semantics for //, %, /, **, <<, >>, &, |, ^).
// `locals` (function variables) shadow module constants: a name found there is not constant.
std::optional<ConstValue> fold_const(const ConstTable& consts, const ast::Expr& e,
                                     const std::unordered_map<std::string, ir::VarPtr>* locals = nullptr,
                                     bool index_consts = false);  // also pl.const(INT, pl.INDEX) (dimensions)
double const_as_double(const ConstValue& c);
// An int or a bool (Python's int subclass), and its integer value.
bool const_is_int(const ConstValue& c);
int64_t const_as_int(const ConstValue& c);
ir::ExprPtr const_to_expr(const ConstValue& c, const SourceLoc& loc);
ir::ExprPtr make_int(int64_t v, const SourceLoc& loc);

// Module-level `NAME = expr`.
void define_constant(ConstTable& consts, const ast::Stmt& s);

// Tensor dimensions over names that are neither module constants nor pl.dynamic symbols (a caller's variable
// PyPTO prints after inlining) become dynamic symbols of the launch: bound by --dim, by an actual argument's
// shape or `NAME = pl.tensor.dim(t, k)`, else dim_default (listed in `defaulted`), else left dynamic (sema_dims.cpp).
// A call passing other sizes than the program's binding gets its own copy of the callee: the returned class
// (nullptr when no call needs one) replaces program_class for the rest of the analysis.
std::unique_ptr<ast::Stmt> bind_implicit_dims(ConstTable& consts, const ast::Stmt& program_class);

// pl.Tensor[...], pl.Tile[...], pl.Scalar[...], tuple[...]; `fn` may be null.
ir::Type lower_type(const ConstTable& consts, const ast::Expr& e, const ir::Function* fn);
// A parameter annotation: also pl.Out[T] / pl.InOut[T].
ir::Type lower_param_type(const ConstTable& consts, const ast::Expr& e, ir::ParamDir& dir);
// pl.Mem.X, pl.MemorySpace.X, pl.FP16, pl.SplitMode.X, pl.TileLayout.X, pl.PipeType.X, pl.FunctionType.X,
// pl.AtomicType.X, pl.Level.X, pl.Role.X, pl.AUTO; nullptr when `e` is not such a reference.
ir::ExprPtr lower_enum_ref(const ast::Expr& e);
// attrs={...} of a decorator or pl.func_attr; values are constants or enum references.
std::vector<ir::Attr> lower_attrs(const ConstTable& consts, const ast::Expr& dict);
ir::ExprPtr lower_attr_value(const ConstTable& consts, const ast::Expr& e);

// Types that may share one variable slot (valid shape and view may differ; they are per value).
bool same_slot_type(const ir::Type& a, const ir::Type& b);
size_t edit_distance(const std::string& a, const std::string& b);

}  // namespace cvsim
