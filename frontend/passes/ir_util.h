// Small IR construction and query helpers shared by the passes.
#pragma once

#include <functional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "frontend/ir/ir.h"
#include "frontend/ops.h"

namespace cvsim::passes {

ir::ExprPtr var_ref(const ir::VarPtr& v, const SourceLoc& loc = {});
ir::ExprPtr int_lit(int64_t v, const SourceLoc& loc = {});
ir::ExprPtr str_lit(const std::string& s, const SourceLoc& loc = {});
ir::ExprPtr mem_lit(Mem m, const SourceLoc& loc = {});
ir::ExprPtr layout_lit(TileLayout l, const SourceLoc& loc = {});
ir::ExprPtr dtype_lit(DType d, const SourceLoc& loc = {});
ir::ExprPtr const_lit(int64_t v, DType d, const SourceLoc& loc = {});
ir::ExprPtr list_lit(const std::vector<int64_t>& v, const SourceLoc& loc = {});

// An op call with arguments given by parameter name; the result type is inferred unless `type` is given.
ir::ExprPtr make_call(ir::OpCode op, const std::vector<std::pair<std::string, ir::ExprPtr>>& args, const SourceLoc& loc,
                      const ir::Type* type = nullptr);
ir::StmtPtr make_assign(const ir::VarPtr& target, const ir::ExprPtr& value, const SourceLoc& loc);
ir::StmtPtr make_eval(const ir::ExprPtr& value, const SourceLoc& loc);

// The op call of an Assign/Eval statement, or nullptr.
const ir::Expr* stmt_call(const ir::Stmt& s);
bool is_call(const ir::Stmt& s, ir::OpCode op);

// Variables read by a statement, including nested blocks (targets are not reads).
void collect_reads(const ir::Stmt& s, std::set<const ir::Var*>& out);
bool reads_var(const ir::Stmt& s, const ir::Var* v);
// Visit every statement of a block recursively (pre-order).
void walk(const ir::Block& b, const std::function<void(const ir::StmtPtr&)>& f);
// Does a statement have an effect beyond binding its targets (stores, transports, syncs, calls)?
bool has_effect(const ir::Stmt& s);
// Does the body of For statement LOOP surely run: constant bounds with at least one iteration (a split_aiv loop
// always runs)?
bool runs_at_least_once(const ir::Stmt& loop);

// Every tile variable that may share storage with `v` (v included), transitively: `b = a`, a view of it
// (slice, reshape, set_validshape, transpose_view), a tuple holding it and an element taken from such a
// tuple, a branch or loop result yielding it, a loop-carried value initialised with or yielding it.
std::set<const ir::Var*> storage_aliases(const ir::Block& body, const ir::Var* v);

// The lane side of one statement (OPS.md rules): Mixed for loops/branches holding both sides.
ir::Side stmt_side(const ir::Stmt& s);
ir::Side distributed_op_side(const ir::Expr& call);  // a pld.* FuncCall in a mixed kernel (ir_util.cpp)

}  // namespace cvsim::passes
