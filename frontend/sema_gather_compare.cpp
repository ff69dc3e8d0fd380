// pl.tile.gather_compare(src, kvalue, tmp, cmp_mode=, offset=, out_cols=, count_dtype=) returns two tiles, as
// PyPTO's TupleType{dst, cdst} (pto-isa TGATHER compare form: the matching indices and the per-row match counts).
// cvsim's ops have one result each, so sema lowers the call to the two registry ops of its results on the same
// operands, in order: `dst = pl.tile.gather_compare_dst(...)`, `cdst = pl.tile.gather_compare_cdst(...)`. Both
// forms PyPTO produces are read: the DSL's unpacking `d, c = pl.tile.gather_compare(...)`, and the printed IR's
// `t: pl.Tuple[...] = pl.tile.gather_compare(...)` followed by `d = t[0]` and `c = t[1]` (t's elements are the
// hidden variables t__dst and t__cdst; t itself can only be indexed). docs/DECISIONS.md.
#include <fmt/format.h>

#include "frontend/codes.h"
#include "frontend/diag.h"
#include "frontend/ops.h"
#include "frontend/sema_lower.h"

namespace cvsim::sema {

using namespace ir;

bool FunctionLowering::is_gather_compare(const ast::Expr& value) {
    return value.kind == ast::ExprKind::Call && value.children[0]->dotted() == "pl.tile.gather_compare";
}

void FunctionLowering::lower_gather_compare_assign(const ast::Stmt& s, const Type* ann) {
    const ast::Expr& e = *s.value;
    const ast::Expr& target = *s.targets[0];
    static const char* params = "src, kvalue, tmp, cmp_mode, offset, out_cols, count_dtype";
    if (e.args.size() > 3)
        raise(codes::kType, e.args[3]->loc,
              fmt::format("pl.tile.gather_compare() takes 3 positional arguments (src, kvalue, tmp), got {}",
                          e.args.size()),
              "cmp_mode, offset, out_cols and count_dtype are keyword arguments");
    for (const auto& kw : e.keywords) {
        bool known = false;
        for (const char* n : {"src", "kvalue", "tmp", "cmp_mode", "offset", "out_cols", "count_dtype"})
            known |= kw.name == n;
        if (!known)
            raise(codes::kType, kw.loc,
                  fmt::format("pl.tile.gather_compare() got an unexpected keyword argument '{}'", kw.name),
                  fmt::format("its parameters are: {}", params), static_cast<uint32_t>(kw.name.size()));
    }
    // The target: two names, or one name whose elements are taken by index.
    std::vector<std::pair<std::string, SourceLoc>> names;
    if (target.kind == ast::ExprKind::Tuple || target.kind == ast::ExprKind::List) {
        if (target.args.size() != 2)
            raise(codes::kType, s.loc,
                  fmt::format("cannot unpack the 2 tiles of pl.tile.gather_compare into {} names", target.args.size()));
        for (const auto& n : target.args) {
            if (n->kind != ast::ExprKind::Name)
                raise(codes::kUnsupported, n->loc, "only plain names can be unpacked into");
            names.emplace_back(n->name, n->loc);
        }
    } else if (target.kind == ast::ExprKind::Name) {
        if (m_vars.count(target.name))
            raise(codes::kType, target.loc,
                  fmt::format("'{}' is re-bound with a different type: the pair of tiles of pl.tile.gather_compare "
                              "(first bound at line {} as {})",
                              target.name, m_vars.at(target.name)->loc.line, type_str(m_vars.at(target.name)->type)),
                  "use a new name for a value of a different type");
        for (size_t i = 0; i < 2; ++i) {
            const std::string h = tuple_part_name(target.name, i);
            if (m_vars.count(h) && !m_hidden.count(h))
                raise(
                    codes::kType, target.loc,
                    fmt::format(
                        "cvsim reads {0}[{1}] as the variable '{2}', and this function already has a '{2}' (line {3})",
                        target.name, i, h, m_vars.at(h)->loc.line),
                    "rename one of them");
            names.emplace_back(h, target.loc);
        }
    } else {
        raise(codes::kUnsupported, target.loc,
              "assignment to this kind of target is not supported (only names and tuples of names)");
    }
    if (ann && target.kind != ast::ExprKind::Name)
        raise(codes::kParse, s.annotation->loc, "a tuple target cannot be annotated");
    if (ann && (ann->kind != TypeKind::Tuple || ann->elems.size() != 2))
        raise(codes::kType, s.annotation->loc,
              fmt::format("annotation says {} but pl.tile.gather_compare returns two tiles (pl.Tuple[dst, cdst])",
                          type_str(*ann)));

    ExprPtr dst = lower_op_call(e, "pl.tile.gather_compare", {&op_def(OpCode::GatherCompareDst)});
    ExprPtr cdst = clone_expr(dst);
    cdst->op = &op_def(OpCode::GatherCompareCdst);
    cdst->type = infer_call_type(*cdst, region_split());
    ExprPtr parts[2] = {dst, cdst};
    for (size_t i = 0; i < 2; ++i) {
        Type t = parts[i]->type;
        if (ann) t = merge_annotation(ann->elems[i], t, s.loc, e);
        parts[i]->type = t;
        auto st = std::make_shared<Stmt>();
        st->kind = StmtKind::Assign;
        st->loc = s.loc;
        st->annotated = ann != nullptr;
        st->value = parts[i];
        const bool hidden = target.kind == ast::ExprKind::Name;
        if (hidden) m_hidden.insert(names[i].first);
        m_binding_hidden = hidden;
        st->targets.push_back(bind(names[i].first, t, names[i].second));
        m_binding_hidden = false;
        emit(st);
    }
}

}  // namespace cvsim::sema
