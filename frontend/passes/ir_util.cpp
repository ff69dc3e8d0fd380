// IR construction and query helpers.
#include "frontend/passes/ir_util.h"

#include <map>

namespace cvsim::passes {

using namespace ir;

ExprPtr var_ref(const VarPtr& v, const SourceLoc& loc) {
    auto e = std::make_shared<Expr>();
    e->kind = ExprKind::Var;
    e->var = v;
    e->type = v->type;
    e->loc = loc;
    return e;
}

ExprPtr int_lit(int64_t v, const SourceLoc& loc) {
    auto e = std::make_shared<Expr>();
    e->kind = ExprKind::Int;
    e->ival = v;
    e->type = Type::scalar(DType::INDEX);
    e->loc = loc;
    return e;
}

ExprPtr str_lit(const std::string& s, const SourceLoc& loc) {
    auto e = std::make_shared<Expr>();
    e->kind = ExprKind::Str;
    e->sval = s;
    e->type = Type::none();
    e->loc = loc;
    return e;
}

ExprPtr mem_lit(Mem m, const SourceLoc& loc) {
    auto e = std::make_shared<Expr>();
    e->kind = ExprKind::Enum;
    e->enum_kind = EnumKind::Mem;
    e->ival = static_cast<int64_t>(m);
    e->sval = std::string(mem_name(m));
    e->type = Type::none();
    e->loc = loc;
    return e;
}

ExprPtr layout_lit(TileLayout l, const SourceLoc& loc) {
    auto e = std::make_shared<Expr>();
    e->kind = ExprKind::Enum;
    e->enum_kind = EnumKind::TileLayout;
    e->ival = static_cast<int64_t>(l);
    e->sval = std::string(tile_layout_name(l));
    e->type = Type::none();
    e->loc = loc;
    return e;
}

ExprPtr dtype_lit(DType d, const SourceLoc& loc) {
    auto e = std::make_shared<Expr>();
    e->kind = ExprKind::DTypeLit;
    e->dtype = d;
    e->type = Type::none();
    e->loc = loc;
    return e;
}

ExprPtr const_lit(int64_t v, DType d, const SourceLoc& loc) {
    auto e = std::make_shared<Expr>();
    e->kind = ExprKind::Const;
    e->dtype = d;
    e->fval = static_cast<double>(v);
    e->type = Type::scalar(d);
    e->loc = loc;
    return e;
}

ExprPtr list_lit(const std::vector<int64_t>& v, const SourceLoc& loc) {
    auto e = std::make_shared<Expr>();
    e->kind = ExprKind::List;
    e->loc = loc;
    for (auto x : v) e->args.push_back(int_lit(x, loc));
    return e;
}

ExprPtr make_call(OpCode op, const std::vector<std::pair<std::string, ExprPtr>>& args, const SourceLoc& loc,
                  const Type* type) {
    auto e = std::make_shared<Expr>();
    e->kind = ExprKind::Call;
    e->op = &op_def(op);
    e->loc = loc;
    e->args.assign(e->op->params.size(), nullptr);
    for (auto& [name, value] : args) {
        for (size_t i = 0; i < e->op->params.size(); ++i)
            if (e->op->params[i].name == name) e->args[i] = value;
    }
    e->type = type ? *type : infer_call_type(*e);
    return e;
}

StmtPtr make_assign(const VarPtr& target, const ExprPtr& value, const SourceLoc& loc) {
    auto s = std::make_shared<Stmt>();
    s->kind = StmtKind::Assign;
    s->loc = loc;
    s->targets = {target};
    s->value = value;
    s->annotated = true;
    return s;
}

StmtPtr make_eval(const ExprPtr& value, const SourceLoc& loc) {
    auto s = std::make_shared<Stmt>();
    s->kind = StmtKind::Eval;
    s->loc = loc;
    s->value = value;
    return s;
}

const Expr* stmt_call(const Stmt& s) {
    if ((s.kind == StmtKind::Assign || s.kind == StmtKind::Eval) && s.value && s.value->kind == ExprKind::Call)
        return s.value.get();
    return nullptr;
}

bool is_call(const Stmt& s, OpCode op) {
    const Expr* c = stmt_call(s);
    return c && c->op->code == op;
}

namespace {
void expr_reads(const ExprPtr& e, std::set<const Var*>& out) {
    if (!e) return;
    if (e->kind == ExprKind::Var) out.insert(e->var.get());
    for (auto& a : e->args) expr_reads(a, out);
    for (auto& a : e->args2) expr_reads(a, out);
}
}  // namespace

void collect_reads(const Stmt& s, std::set<const Var*>& out) {
    expr_reads(s.value, out);
    for (auto& v : s.values) expr_reads(v, out);
    expr_reads(s.start, out);
    expr_reads(s.stop, out);
    expr_reads(s.step, out);
    for (auto& v : s.init_values) expr_reads(v, out);
    for (auto& b : s.body) collect_reads(*b, out);
    for (auto& b : s.orelse) collect_reads(*b, out);
}

bool reads_var(const Stmt& s, const Var* v) {
    std::set<const Var*> r;
    collect_reads(s, r);
    return r.count(v) > 0;
}

void walk(const Block& b, const std::function<void(const StmtPtr&)>& f) {
    for (const auto& s : b) {
        f(s);
        walk(s->body, f);
        walk(s->orelse, f);
    }
}

bool has_effect(const Stmt& s) {
    switch (s.kind) {
        case StmtKind::Return:
        case StmtKind::Yield:
            return true;
        case StmtKind::Pass:
            return false;
        case StmtKind::For:
        case StmtKind::If: {
            for (auto& b : s.body)
                if (has_effect(*b)) return true;
            for (auto& b : s.orelse)
                if (has_effect(*b)) return true;
            return false;
        }
        default:
            break;
    }
    if (s.value && s.value->kind == ExprKind::FuncCall) return true;
    const Expr* c = stmt_call(s);
    if (!c) return false;
    switch (c->op->code) {
        case OpCode::Store:
        case OpCode::TpushToAic:
        case OpCode::TpushToAiv:
        case OpCode::TpopFromAic:
        case OpCode::TpopFromAiv:
        case OpCode::TfreeToAic:
        case OpCode::TfreeToAiv:
        case OpCode::ReserveBuffer:
        case OpCode::ImportPeerBuffer:
        case OpCode::AicInitializePipe:
        case OpCode::AivInitializePipe:
        case OpCode::Syncall:
        case OpCode::SyncSet:
        case OpCode::SyncWait:
        case OpCode::SetFfts:
        case OpCode::Fence:
        case OpCode::CacheInvalid:
        case OpCode::AivShard:
        case OpCode::AicGather:
        case OpCode::TensorWrite:
        case OpCode::Mscatter:
        case OpCode::PrefetchAsync:
        case OpCode::PrefetchWait:  // kept as upstream keeps them (a cache hint the AIV issues)
            return true;
        default:
            return false;
    }
}

std::set<const Var*> storage_aliases(const Block& body, const Var* v) {
    // Edges "target may alias source", collected once; then the closure from v.
    std::multimap<const Var*, const Var*> edges;
    auto var_of = [](const ExprPtr& e) -> const Var* { return e && e->kind == ExprKind::Var ? e->var.get() : nullptr; };
    auto edge = [&](const Var* from, const Var* to) {
        if (from && to) edges.emplace(from, to);
    };
    auto yields = [](const Block& b) -> const Stmt* {
        return !b.empty() && b.back()->kind == StmtKind::Yield ? b.back().get() : nullptr;
    };
    walk(body, [&](const StmtPtr& sp) {
        const Stmt& s = *sp;
        if (s.kind == StmtKind::Assign && s.value && !s.targets.empty()) {
            const Expr& e = *s.value;
            std::vector<const Var*> srcs;
            if (e.kind == ExprKind::Var) srcs.push_back(e.var.get());
            if (e.kind == ExprKind::Tuple || e.kind == ExprKind::List)
                for (auto& a : e.args) srcs.push_back(var_of(a));
            if (e.kind == ExprKind::Index && !e.args.empty()) srcs.push_back(var_of(e.args[0]));
            if (e.kind == ExprKind::Call && e.op) {
                OpCode c = e.op->code;
                if (c == OpCode::Slice || c == OpCode::Reshape || c == OpCode::SetValidShape ||
                    c == OpCode::TransposeView)
                    srcs.push_back(var_of(arg(e, "tile")));
                if (c == OpCode::ReinterpretView) srcs.push_back(var_of(arg(e, "data")));  // the same bytes
                if (c == OpCode::Write) srcs.push_back(var_of(arg(e, "tile")));  // written in place on hardware
            }
            for (const Var* x : srcs)
                for (auto& t : s.targets) edge(x, t.get());
        }
        if (s.kind == StmtKind::Yield)
            for (size_t k = 0; k < s.values.size() && k < s.targets.size(); ++k)
                edge(var_of(s.values[k]), s.targets[k].get());
        if (s.kind == StmtKind::If)
            for (const Stmt* y : {yields(s.body), yields(s.orelse)})
                if (y)
                    for (size_t k = 0; k < y->values.size() && k < s.targets.size(); ++k)
                        edge(var_of(y->values[k]), s.targets[k].get());
        if (s.kind == StmtKind::For)
            for (size_t k = 0; k < s.iter_args.size(); ++k) {
                const Var* it = s.iter_args[k].get();
                if (k < s.init_values.size()) edge(var_of(s.init_values[k]), it);
                if (const Stmt* y = yields(s.body); y && k < y->values.size()) edge(var_of(y->values[k]), it);
                if (k < s.targets.size()) edge(it, s.targets[k].get());
            }
    });
    std::set<const Var*> out{v};
    std::vector<const Var*> todo{v};
    while (!todo.empty()) {
        const Var* x = todo.back();
        todo.pop_back();
        auto [lo, hi] = edges.equal_range(x);
        for (auto it = lo; it != hi; ++it)
            if (out.insert(it->second).second) todo.push_back(it->second);
    }
    return out;
}

Side stmt_side(const Stmt& s) {
    if (s.pinned_lane) return s.pinned_lane == 1 ? Side::Cube : Side::Vector;
    switch (s.kind) {
        case StmtKind::For:
        case StmtKind::If: {
            bool cube = false, vec = false;
            auto scan = [&](const Block& b) {
                for (auto& x : b) {
                    Side sd = stmt_side(*x);
                    if (sd == Side::Cube)
                        cube = true;
                    else if (sd == Side::Vector)
                        vec = true;
                    else if (sd != Side::Shared)
                        cube = vec = true;
                }
            };
            scan(s.body);
            scan(s.orelse);
            // A split_aiv region always needs the AIV lane's view of the lane index.
            if (cube && vec) return Side::Mixed;
            if (cube) return Side::Cube;
            if (vec) return Side::Vector;
            return Side::Shared;
        }
        case StmtKind::Yield: {
            bool cube = false, vec = false;
            for (auto& v : s.values)
                if (v->type.kind == TypeKind::Tile) (is_cube_mem(v->type.mem) ? cube : vec) = true;
            if (cube && vec) return Side::Mixed;
            return cube ? Side::Cube : vec ? Side::Vector : Side::Shared;
        }
        case StmtKind::Return:
        case StmtKind::Pass:
            return Side::Shared;
        default:
            break;
    }
    if (const Expr* c = stmt_call(s)) return call_side(*c);
    if ((s.kind == StmtKind::Assign || s.kind == StmtKind::Eval) && s.value && s.value->kind == ExprKind::FuncCall &&
        s.value->sval.rfind("pld.", 0) == 0)
        return distributed_op_side(*s.value);
    if (s.value && s.value->type.kind == TypeKind::Tile)
        return is_cube_mem(s.value->type.mem) ? Side::Cube : Side::Vector;
    return Side::Shared;
}

// A distributed op (pld.*) in a mixed kernel goes where upstream's core-affinity analysis puts it
// (core_affinity.cpp): an `attrs={"core_placement": "aiv"|"aic"}` the author (or LowerAutoVectorSplit) wrote
// decides; else a pld.tile.* op runs on the side of the tile it moves (pld.tile.put / remote_store of a Vec
// tile: the vector lane); else it is shared (both lanes, as upstream duplicates a SHARED statement).
Side distributed_op_side(const Expr& call) {
    if (call.attrs && call.attrs->kind == ExprKind::Dict)
        for (size_t i = 0; i < call.attrs->args.size() && i < call.attrs->args2.size(); ++i) {
            if (call.attrs->args[i]->sval != "attrs" || !call.attrs->args2[i] ||
                call.attrs->args2[i]->kind != ExprKind::Dict)
                continue;
            const Expr& d = *call.attrs->args2[i];
            for (size_t k = 0; k < d.args.size() && k < d.args2.size(); ++k)
                if (d.args[k]->sval == "core_placement" && d.args2[k] && d.args2[k]->kind == ExprKind::Str) {
                    if (d.args2[k]->sval == "aiv") return Side::Vector;
                    if (d.args2[k]->sval == "aic") return Side::Cube;
                }
        }
    if (call.sval.rfind("pld.tile.", 0) == 0)
        for (const auto& a : call.args)
            if (a && a->type.kind == TypeKind::Tile) return is_cube_mem(a->type.mem) ? Side::Cube : Side::Vector;
    return Side::Shared;
}

bool runs_at_least_once(const ir::Stmt& loop) {
    if (loop.loop_kind == ir::LoopKind::SplitAiv) return true;
    auto start = loop.start ? const_int(loop.start) : std::optional<int64_t>(0);
    auto stop = const_int(loop.stop);
    auto step = loop.step ? const_int(loop.step) : std::optional<int64_t>(1);
    if (!start || !stop || !step || *step == 0) return false;
    return *step > 0 ? *start < *stop : *start > *stop;
}

}  // namespace cvsim::passes
