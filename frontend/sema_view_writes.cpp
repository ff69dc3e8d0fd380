// An in-place op into a view of another tile (sema: check_view_writes). PyPTO's views (tile.slice, reshape,
// transpose_view, set_validshape) share their source's buffer, and matmul_acc / gemv_acc (and the in-place forms
// of write, fillpad_inplace, scatter, scatter_mask) write their destination operand in place, so
// `w = pl.tile.slice(acc, ...); pl.tile.matmul_acc(w, a, b)` changes `acc` on the device. cvsim's tiles are
// values: a view is a copy, and the op's result is a new value, so a later read of `acc` would see the old
// contents (a silent wrong value). Such a program is refused (E-UNSUPPORTED, the function is not read) when the
// view's source or another alias of it is read anywhere else; an in-place op into a view nothing else reads
// changes nothing cvsim shows and is accepted.
#include <fmt/format.h>

#include <map>
#include <set>

#include "frontend/codes.h"
#include "frontend/diag.h"
#include "frontend/ops.h"
#include "frontend/passes/ir_util.h"
#include "frontend/sema_lower.h"

namespace cvsim::sema {

namespace {

bool is_view(ir::OpCode c) {
    using O = ir::OpCode;
    return c == O::Slice || c == O::Reshape || c == O::TransposeView || c == O::SetValidShape;
}

// The destination parameter an op writes in place, or nullptr.
const char* in_place_dst(ir::OpCode c) {
    using O = ir::OpCode;
    switch (c) {
        case O::MatmulAcc:
        case O::GemvAcc:
            return "acc";
        case O::Write:
        case O::FillpadInplace:
            return "tile";
        case O::Scatter:
        case O::ScatterMask:
            return "dst";
        default:
            return nullptr;
    }
}

// The variables a statement reads itself (the reads of nested statements are theirs).
std::set<const ir::Var*> own_reads(const ir::Stmt& s) {
    ir::Stmt sh = s;
    sh.body.clear();
    sh.orelse.clear();
    std::set<const ir::Var*> r;
    passes::collect_reads(sh, r);
    return r;
}

}  // namespace

void check_view_writes(const ir::Function& f) {
    std::map<const ir::Var*, const ir::Var*> view_src;  // view -> the tile it views
    std::map<const ir::Var*, const ir::Stmt*> view_def;
    passes::walk(f.body, [&](const ir::StmtPtr& s) {
        const ir::Expr* c = passes::stmt_call(*s);
        if (!c || !is_view(c->op->code) || s->targets.size() != 1) return;
        const ir::ExprPtr& x = ir::arg(*c, "tile");
        if (x && x->kind == ir::ExprKind::Var && x->type.kind == ir::TypeKind::Tile) {
            view_src[s->targets[0].get()] = x->var.get();
            view_def[s->targets[0].get()] = s.get();
        }
    });
    if (view_src.empty()) return;
    passes::walk(f.body, [&](const ir::StmtPtr& s) {
        const ir::Expr* c = passes::stmt_call(*s);
        const char* dst = c ? in_place_dst(c->op->code) : nullptr;
        if (!dst) return;
        const ir::ExprPtr& d = ir::arg(*c, dst);
        if (!d || d->kind != ir::ExprKind::Var) return;
        std::set<const ir::Var*> chain;
        std::set<const ir::Stmt*> chain_defs;
        const ir::Var* base = d->var.get();
        while (view_src.count(base) && chain.insert(base).second) {
            chain_defs.insert(view_def[base]);
            base = view_src[base];
        }
        if (chain.empty()) return;
        std::set<const ir::Var*> aliases = passes::storage_aliases(f.body, base);
        for (const ir::Var* v : chain) aliases.erase(v);
        const ir::Stmt* reader = nullptr;
        passes::walk(f.body, [&](const ir::StmtPtr& t) {
            if (reader || t.get() == s.get() || chain_defs.count(t.get())) return;
            for (const ir::Var* r : own_reads(*t))
                if (aliases.count(r)) reader = t.get();
        });
        if (!reader) return;
        raise(codes::kUnsupported, s->loc,
              fmt::format("pl.{} writes in place into '{}', a view of '{}' that is read at line {}: PyPTO's view "
                          "shares its source's "
                          "buffer, so the device's '{}' changes; cvsim's tiles are values (a view is a copy) and would "
                          "give the old "
                          "contents there",
                          c->op->name(), d->var->name, base->name, reader->loc.line, base->name),
              "write into the tile itself (or read the op's result instead of the view's source)");
    });
}

}  // namespace cvsim::sema
