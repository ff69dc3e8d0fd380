// IR helpers: type printing, function lookups, deep copies.
#include "frontend/ir/ir.h"

#include <fmt/format.h>

#include <cassert>

namespace cvsim::ir {

std::string_view func_type_name(FuncType t) {
    static constexpr std::string_view n[] = {"Opaque", "InCore", "AIC", "AIV", "Group", "Orchestration", "Spmd"};
    return n[static_cast<int>(t)];
}

std::string_view split_mode_name(SplitMode m) {
    static constexpr std::string_view n[] = {"NONE", "UP_DOWN", "LEFT_RIGHT"};
    return n[static_cast<int>(m)];
}

std::string_view pipe_type_name(PipeType p) {
    static constexpr std::string_view n[] = {"S", "V", "M", "MTE1", "MTE2", "MTE3", "FIX", "ALL"};
    return n[static_cast<int>(p)];
}

std::string_view enum_kind_name(EnumKind k) {
    static constexpr std::string_view n[] = {"Mem",        "SplitMode", "TileLayout", "PipeType", "FunctionType",
                                             "AtomicType", "Level",     "Role",       "Other"};
    return n[static_cast<int>(k)];
}

Layout Type::layout() const {
    Layout d = default_layout(mem);
    if (!view.blayout && !view.slayout) return d;
    TileLayout db, ds;
    view_from_layout(d, db, ds);
    auto l = layout_from_view(view.blayout.value_or(db), view.slayout.value_or(ds));
    return l.value_or(d);
}

int64_t Type::rows() const {
    if (shape.empty()) return 1;
    if (shape.size() == 1) return 1;
    int64_t r = 1;
    for (size_t i = 0; i + 1 < shape.size(); ++i) r *= shape[i];
    return r;
}

int64_t Type::cols() const {
    return shape.empty() ? 1 : shape.back();
}

int64_t Type::numel() const {
    int64_t n = 1;
    for (auto d : shape) n *= d;
    return n;
}

std::string shape_str(const std::vector<int64_t>& s) {
    std::string out = "[";
    for (size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
    return out + "]";
}

std::string type_str(const Type& t, const std::string* dynamic_valid) {
    switch (t.kind) {
        case TypeKind::Unknown:
            return "<unknown>";
        case TypeKind::None:
            return "None";
        case TypeKind::Scalar:
            return fmt::format("pl.Scalar[pl.{}]", dtype_name(t.dtype));
        case TypeKind::Tensor:
            return fmt::format("{}[{}, pl.{}]", t.distributed ? "pld.DistributedTensor" : "pl.Tensor",
                               shape_str(t.shape), dtype_name(t.dtype));
        case TypeKind::Opaque:
            return t.name;
        case TypeKind::Tile: {
            std::string s =
                fmt::format("pl.Tile[{}, pl.{}, pl.Mem.{}", shape_str(t.nd_shape.empty() ? t.shape : t.nd_shape),
                            dtype_name(t.dtype), mem_name(t.mem));
            const bool dyn = t.valid_dynamic && dynamic_valid && !dynamic_valid->empty();
            bool view = t.view.written || !t.valid.empty() || dyn;
            if (view) {
                std::vector<std::string> parts;
                if (!t.valid.empty())
                    parts.push_back("valid_shape=" + shape_str(t.valid));
                else if (dyn)
                    parts.push_back("valid_shape=" + *dynamic_valid);
                if (t.view.blayout)
                    parts.push_back(fmt::format("blayout=pl.TileLayout.{}", tile_layout_name(*t.view.blayout)));
                if (t.view.slayout)
                    parts.push_back(fmt::format("slayout=pl.TileLayout.{}", tile_layout_name(*t.view.slayout)));
                if (t.view.fractal) parts.push_back(fmt::format("fractal={}", *t.view.fractal));
                s += ", pl.TileView(" + fmt::format("{}", fmt::join(parts, ", ")) + ")";
            }
            return s + "]";
        }
        case TypeKind::Tuple: {
            std::string s = "tuple[";
            for (size_t i = 0; i < t.elems.size(); ++i) s += (i ? ", " : "") + type_str(t.elems[i]);
            return s + "]";
        }
    }
    return "?";
}

const Attr* Function::attr(const std::string& key) const {
    for (const auto& a : attrs)
        if (a.key == key) return &a;
    return nullptr;
}

SplitMode Function::split_mode() const {
    const Attr* a = attr("split");
    if (!a || !a->value || a->value->kind != ExprKind::Enum || a->value->enum_kind != EnumKind::SplitMode)
        return SplitMode::NONE;
    return static_cast<SplitMode>(a->value->ival);
}

std::optional<int64_t> Function::slot_num() const {
    const Attr* a = attr("slot_num");
    if (!a || !a->value || a->value->kind != ExprKind::Int) return std::nullopt;
    return a->value->ival;
}

VarPtr Function::find_var(const std::string& n) const {
    for (const auto& v : vars)
        if (v->name == n) return v;
    return nullptr;
}

VarPtr Function::new_var(const std::string& n, Type type, SourceLoc loc) {
    assert(!find_var(n) && "variable names are unique per function");
    auto v = std::make_shared<Var>();
    v->name = n;
    v->type = std::move(type);
    v->id = static_cast<uint32_t>(vars.size());
    v->loc = loc;
    vars.push_back(v);
    return v;
}

std::string Function::fresh_name(const std::string& base) const {
    if (!find_var(base)) return base;
    for (int i = 1;; ++i) {
        std::string n = base + "_" + std::to_string(i);
        if (!find_var(n)) return n;
    }
}

std::shared_ptr<Function> Program::find(const std::string& n) const {
    for (const auto& f : functions)
        if (f->name == n) return f;
    return nullptr;
}

ExprPtr clone_expr(const ExprPtr& e, const VarMap* map) {
    if (!e) return nullptr;
    auto c = std::make_shared<Expr>(*e);
    if (map && c->var) c->var = map->get(c->var);
    for (auto& a : c->args) a = clone_expr(a, map);
    for (auto& a : c->args2) a = clone_expr(a, map);
    c->attrs = clone_expr(e->attrs, map);
    return c;
}

StmtPtr clone_stmt(const StmtPtr& s, const VarMap* map) {
    if (!s) return nullptr;
    auto c = std::make_shared<Stmt>(*s);
    auto remap = [&](std::vector<VarPtr>& vs) {
        if (map)
            for (auto& v : vs) v = map->get(v);
    };
    remap(c->targets);
    remap(c->iter_args);
    if (map && c->loop_var) c->loop_var = map->get(c->loop_var);
    c->value = clone_expr(s->value, map);
    for (auto& v : c->values) v = clone_expr(v, map);
    c->start = clone_expr(s->start, map);
    c->stop = clone_expr(s->stop, map);
    c->step = clone_expr(s->step, map);
    for (auto& v : c->init_values) v = clone_expr(v, map);
    for (auto& v : c->loop_extra) v = clone_expr(v, map);
    c->body = clone_block(s->body, map);
    c->orelse = clone_block(s->orelse, map);
    return c;
}

Block clone_block(const Block& b, const VarMap* map) {
    Block out;
    out.reserve(b.size());
    for (const auto& s : b) out.push_back(clone_stmt(s, map));
    return out;
}

std::shared_ptr<Function> clone_function(const Function& f) {
    auto nf = std::make_shared<Function>(f);
    nf->vars.clear();
    VarMap map;
    map.by_id.resize(f.vars.size());
    for (const auto& v : f.vars) {
        auto nv = std::make_shared<Var>(*v);
        nf->vars.push_back(nv);
        map.by_id[v->id] = nv;
    }
    for (auto& p : nf->params) p.var = map.get(p.var);
    nf->body = clone_block(f.body, &map);
    for (auto& a : nf->attrs) a.value = clone_expr(a.value);
    for (auto& e : nf->deco_extra) e = clone_expr(e);
    return nf;
}

std::shared_ptr<Program> clone_program(const Program& p) {
    auto np = std::make_shared<Program>();
    np->name = p.name;
    np->sources = p.sources;
    for (const auto& f : p.functions) np->functions.push_back(clone_function(*f));
    return np;
}

}  // namespace cvsim::ir
