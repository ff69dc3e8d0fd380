// Sema internals shared by sema.cpp, sema_stmt.cpp and sema_expr.cpp: the per-function lowering.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "frontend/ast.h"
#include "frontend/ir/ir.h"
#include "frontend/sema_types.h"

namespace cvsim::sema {

struct ProgramCtx {
    ConstTable consts;                                             // module constants
    std::shared_ptr<ir::Program> program;                          // the program being built
    std::map<std::string, std::shared_ptr<ir::Function>> by_name;  // functions by name
    bool keep_unread = false;                                      // SemaOptions::keep_unread
};

// Lowers one function body: statements in sema_stmt.cpp, expressions and calls in sema_expr.cpp.
class FunctionLowering {
  public:
    FunctionLowering(ProgramCtx& ctx, ir::Function& fn) : m_ctx(ctx), m_fn(fn) {
        for (auto& v : fn.vars) m_vars[v->name] = v;
    }

    void lower_body(const std::vector<ast::StmtPtr>& body);

  private:
    using Block = ir::Block;
    using ExprPtr = ir::ExprPtr;
    using Type = ir::Type;
    using VarPtr = ir::VarPtr;
    enum class BlockKind { Function, Loop, LoopWithInit, Branch, Region };

    struct RangeCall {
        ir::LoopKind kind = ir::LoopKind::Range;
        std::vector<ExprPtr> bounds;
        const ast::Expr* init = nullptr;
        ir::SplitMode mode = ir::SplitMode::NONE;
        std::vector<ExprPtr> extra;           // pl.spmd keyword values
        std::vector<std::string> extra_keys;  // their names
    };

    ProgramCtx& m_ctx;                               // program-wide state
    ir::Function& m_fn;                              // function being lowered
    std::unordered_map<std::string, VarPtr> m_vars;  // name -> variable slot
    std::set<std::string> m_hidden;                  // t__dst / t__cdst of `t = pl.tile.gather_compare(...)`
    bool m_binding_hidden = false;                   // lower_gather_compare_assign is binding one of them
    Block* m_out = nullptr;                          // block receiving hoisted statements
    const ir::Stmt* m_region = nullptr;              // enclosing pl.split_aiv region (shard/gather take its mode)

    // ---- blocks and statements (sema_stmt.cpp) ----
    Block lower_block(const std::vector<ast::StmtPtr>& stmts, size_t start, BlockKind kind,
                      std::vector<VarPtr>* yield_targets = nullptr, const std::vector<Type>* yield_types = nullptr);
    static bool is_yield(const ast::Stmt& s);
    void lower_stmt(const ast::Stmt& s);
    VarPtr bind(const std::string& name, const Type& type, const SourceLoc& loc);
    void lower_assign(const ast::Stmt& s);
    Type merge_annotation(const Type& ann, const Type& inferred, const SourceLoc& loc, const ast::Expr& value);
    void annotated_valid_region(const ast::Expr& annotation, const ir::Type& ann, ir::Expr& value);
    void lower_expr_stmt(const ast::Stmt& s);
    void lower_return(const ast::Stmt& s);
    void lower_yield(const ast::Stmt& s, std::vector<VarPtr>* targets, const std::vector<Type>* types);
    RangeCall lower_range(const ast::Expr& it);
    void lower_for(const ast::Stmt& s);
    void lower_if(const ast::Stmt& s);
    void lower_with(const ast::Stmt& s);
    void check_scope(const ast::Stmt& s);  // the keywords of `with pl.scope(...)`
    void emit(ir::StmtPtr s) { m_out->push_back(std::move(s)); }

    // ---- expressions and calls (sema_expr.cpp) ----
    int region_split() const;  // split code of the enclosing pl.split_aiv region, -1 outside one
    ExprPtr hoist(ExprPtr call);
    void insert_memory_moves(ir::Expr& call);  // the moves PyPTO's InferTileMemorySpace inserts
    ExprPtr lower_expr(const ast::Expr& e, bool top, const Type* ann);
    std::string suggest_name(const std::string& n) const;
    ExprPtr lower_subscript(const ast::Expr& e);
    size_t tuple_index(const ast::Expr& index,
                       size_t size);  // a constant index into a tuple of `size` (negative from the end)
    ExprPtr lower_call(const ast::Expr& e, const Type* ann);
    // A registry op call of `e` (arguments, keywords, memory moves, type) once its candidates are known.
    ExprPtr lower_op_call(const ast::Expr& e, const std::string& name, const std::vector<const ir::OpDef*>& cands);
    ExprPtr lower_dict(const ast::Expr& d);
    ExprPtr lower_typed_const(const ast::Expr& e);
    ExprPtr lower_scalar_func(const ast::Expr& e, const std::string& name);  // nullptr when `e` is not one
    ExprPtr lower_func_call(const ast::Expr& e, const std::string& fname);
    // pl.tile.gather_row as pl.tile.load + pl.tile.assemble (sema_gather_row.cpp).
    ExprPtr lower_gather_row(const ast::Expr& e);
    // `d, c = pl.tile.gather_compare(...)` / `t = pl.tile.gather_compare(...)` (then t[0], t[1]) as the two registry
    // ops of its results (sema_gather_compare.cpp). `t`'s elements are the hidden variables t__dst / t__cdst.
    static bool is_gather_compare(const ast::Expr& value);
    void lower_gather_compare_assign(const ast::Stmt& s, const Type* ann);
    static std::string tuple_part_name(const std::string& name, size_t i) {
        return name + (i == 0 ? "__dst" : "__cdst");
    }
    // A host statement of an Orchestration function (sema_host.cpp); nullptr when NAME is a catalogue op.
    // A distributed op (pld.*) is read the same way, in any function (the function is then not simulated).
    ExprPtr lower_host_op(const ast::Expr& e, const std::string& name, const Type* ann);
    ExprPtr lower_host_call(const ast::Expr& e, const std::string& name, const Type* ann);
    // True where pl.tensor.* ops are host statements (an Orchestration function or a host orchestrator), so a
    // tensor subscript `x[a:b, :]` there is pl.tensor.slice, not a kernel's pl.tile.slice.
    bool runs_host_ops() const;
};

// pl.tile.load(..., clamp=True): the valid_shape argument becomes the region clamped to the source's edge
// (sema_load_clamp.cpp); no-op for any other call.
void lower_load_clamp(ir::Expr& call);
// E-UNSUPPORTED when an in-place op (matmul_acc, gemv_acc, ...) writes into a view of a tile that is read elsewhere:
// the device's shared buffer changes, cvsim's value semantics would not show it (sema_view_writes.cpp).
void check_view_writes(const ir::Function& f);

}  // namespace cvsim::sema
