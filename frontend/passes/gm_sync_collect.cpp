// gm_sync_collect: steps (1) and (2) of the GM-synchronisation pass (gm_sync.h): origins and accesses.
#include "frontend/passes/gm_sync.h"

namespace cvsim::passes::gmsync {

bool GmSync::both_atomic_add(const Access& a, const Access& b) {
    return a.call && b.call && a.call->op->code == OpCode::Store && b.call->op->code == OpCode::Store &&
           is_atomic_add_store(*a.call) && is_atomic_add_store(*b.call);
}

bool GmSync::will_publish(const Access& prod) const {
    if (!prod.store) return false;
    if (prod.lane == Side::Vector) return m_opt.v2c == V2CPolicy::Fence || m_opt.v2c == V2CPolicy::Syncall;
    return complete();
}

bool GmSync::bp_conflict() const {
    return std::any_of(m_tokens.begin(), m_tokens.end(),
                       [&](const Token& t) { return m_bp_ring0_used[t.v2c ? 1 : 0]; });
}

bool GmSync::token_fenced(const Token& t) {
    return std::any_of(t.after.begin(), t.after.end(), [](const StmtPtr& st) { return is_call(*st, OpCode::Fence); });
}

std::set<const Var*> GmSync::origin_of(const ExprPtr& e) {
    if (!e || e->kind != ExprKind::Var) return {};
    return m_origin[e->var.get()];
}

void GmSync::trace_origins() {
    for (auto& p : m_f.params)
        if (p.var->type.kind == TypeKind::Tensor) m_origin[p.var.get()].insert(p.var.get());
    bool changed = true;
    auto add = [&](const Var* to, const std::set<const Var*>& from) {
        auto& s = m_origin[to];
        size_t n = s.size();
        s.insert(from.begin(), from.end());
        if (s.size() != n) changed = true;
    };
    std::function<void(const Block&)> scan = [&](const Block& b) {
        for (const auto& s : b) {
            if (s->kind == StmtKind::Assign && s->targets.size() == 1 && s->targets[0]->type.kind == TypeKind::Tensor) {
                const Var* t = s->targets[0].get();
                if (const Expr* c = stmt_call(*s)) {
                    if (c->op->code == OpCode::Store || c->op->code == OpCode::Mscatter)
                        add(t, origin_of(arg(*c, "output_tensor")));
                    else if (c->op->code == OpCode::Slice)
                        add(t, origin_of(arg(*c, "tile")));
                    // A reshaped view: its accesses have no window here (they may overlap anything of it).
                    else if (c->op->code == OpCode::TensorView)
                        add(t, origin_of(arg(*c, "tensor")));
                    else if (c->op->code == OpCode::TensorCreate)
                        add(t, {t});
                } else {
                    add(t, origin_of(s->value));
                }
            }
            if (s->kind == StmtKind::For) {
                for (size_t k = 0; k < s->iter_args.size(); ++k) {
                    add(s->iter_args[k].get(), origin_of(s->init_values[k]));
                    if (!s->body.empty() && s->body.back()->kind == StmtKind::Yield &&
                        k < s->body.back()->values.size())
                        add(s->iter_args[k].get(), origin_of(s->body.back()->values[k]));
                    if (k < s->targets.size()) add(s->targets[k].get(), m_origin[s->iter_args[k].get()]);
                }
            }
            if (s->kind == StmtKind::If)
                for (auto* br : {&s->body, &s->orelse})
                    if (!br->empty() && br->back()->kind == StmtKind::Yield)
                        for (size_t k = 0; k < s->targets.size() && k < br->back()->values.size(); ++k)
                            add(s->targets[k].get(), origin_of(br->back()->values[k]));
            scan(s->body);
            scan(s->orelse);
        }
    };
    while (changed) {
        changed = false;
        scan(m_f.body);
    }
}

void GmSync::pin_scalar_writes() {
    bool any = false;
    walk(m_f.body, [&](const StmtPtr& s) { any |= is_call(*s, OpCode::TensorWrite); });
    if (!any) return;
    std::map<const Var*, int> lanes;  // scalar variable -> lanes whose values it holds (1 cube, 2 vector)
    auto uses = [&](const std::set<const Var*>& r) {
        int m = 0;
        for (const Var* v : r)
            if (auto it = lanes.find(v); it != lanes.end()) m |= it->second;
        return m;
    };
    auto expr_uses = [&](const ExprPtr& e) {
        if (!e) return 0;
        auto st = make_eval(e, e->loc);
        std::set<const Var*> r;
        collect_reads(*st, r);
        return uses(r);
    };
    bool changed = true;
    auto mark = [&](const Var* v, int m) {
        if (!v || v->type.kind != TypeKind::Scalar || !m) return;
        int& x = lanes[v];
        if ((x | m) != x) {
            x |= m;
            changed = true;
        }
    };
    auto yields = [](const Block& b) -> const Stmt* {
        return !b.empty() && b.back()->kind == StmtKind::Yield ? b.back().get() : nullptr;
    };
    while (changed) {
        changed = false;
        walk(m_f.body, [&](const StmtPtr& s) {
            if (s->kind == StmtKind::Assign) {
                Side sd = stmt_side(*s);
                int m = sd == Side::Cube ? 1 : sd == Side::Vector ? 2 : sd == Side::Shared ? expr_uses(s->value) : 3;
                for (const auto& t : s->targets) mark(t.get(), m);
            } else if (s->kind == StmtKind::For) {
                const Stmt* y = yields(s->body);
                for (size_t k = 0; k < s->iter_args.size(); ++k) {
                    int m = k < s->init_values.size() ? expr_uses(s->init_values[k]) : 0;
                    if (y && k < y->values.size()) m |= expr_uses(y->values[k]);
                    mark(s->iter_args[k].get(), m);
                    if (k < s->targets.size()) mark(s->targets[k].get(), m);
                }
            } else if (s->kind == StmtKind::If) {
                int cond = expr_uses(s->value);
                for (const Stmt* y : {yields(s->body), yields(s->orelse)})
                    for (size_t k = 0; y && k < s->targets.size() && k < y->values.size(); ++k)
                        mark(s->targets[k].get(), cond | expr_uses(y->values[k]));
            }
        });
    }
    // (a2a3's unsplit lane 1 is a replay: it issues no GM write, so only AIV0 writes.)
    const bool two_aivs = m_split || a5_two_lanes();
    walk(m_f.body, [&](const StmtPtr& s) {
        if (!is_call(*s, OpCode::TensorWrite) || s->pinned_lane) return;
        std::set<const Var*> r;
        collect_reads(*s, r);
        int m = uses(r);
        if (m == 3)
            raise(codes::kUnsupported, s->loc,
                  "pl.tensor.write in a mixed kernel whose index or value uses values of both the cube and the "
                  "vector lane",
                  "compute the element's value and indices on one lane");
        if (m == 2 && two_aivs)
            raise(codes::kUnsupported, s->loc,
                  "pl.tensor.write of a vector value in a function both AIV lanes run (split, split_aiv or dual "
                  "dispatch): each lane "
                  "would write the element",
                  "write the element with pl.tile.store of a [1, 1] tile from one lane's half, or compute it on "
                  "the cube");
        s->pinned_lane = m == 1 || (m == 0 && two_aivs) ? 1 : 2;
    });
}

namespace {
// An access whose `if` conditions on the block index hold in no cluster of the launch never runs.
bool runs_somewhere(const Access& a) {
    return !a.blocks || std::find(a.blocks->begin(), a.blocks->end(), true) != a.blocks->end();
}
}  // namespace

void GmSync::find_fact_vars() {
    for (const auto& p : m_f.params)
        if (p.var && p.var->type.kind == TypeKind::Scalar && dtype_is_int(p.var->type.dtype))
            m_fact_vars.insert(p.var.get());
    walk(m_f.body, [&](const StmtPtr& s) {
        for (const auto& t : s->targets) m_fact_vars.erase(t.get());
        for (const auto& t : s->iter_args) m_fact_vars.erase(t.get());
        if (s->loop_var) m_fact_vars.erase(s->loop_var.get());
    });
}

namespace {

// p OP c over p's values ([lo, hi] without ne, integers): false when no value is left.
bool narrow(ParamFact& r, const std::string& op, int64_t c) {
    if (op == "==") {
        r.lo = std::max(r.lo, c);
        r.hi = std::min(r.hi, c);
    } else if (op == "!=") {
        r.ne.insert(c);
    } else if (op == "<") {
        r.hi = std::min(r.hi, c - 1);
    } else if (op == "<=") {
        r.hi = std::min(r.hi, c);
    } else if (op == ">") {
        r.lo = std::max(r.lo, c + 1);
    } else if (op == ">=") {
        r.lo = std::max(r.lo, c);
    }
    while (r.lo <= r.hi && r.ne.count(r.lo)) ++r.lo;
    while (r.lo <= r.hi && r.ne.count(r.hi)) --r.hi;
    return r.lo <= r.hi;
}

std::string negate(const std::string& op) {
    if (op == "==") return "!=";
    if (op == "!=") return "==";
    if (op == "<") return ">=";
    if (op == "<=") return ">";
    if (op == ">") return "<=";
    if (op == ">=") return "<";
    return "";
}

std::string mirror(const std::string& op) {  // c OP p as p OP' c
    if (op == "<") return ">";
    if (op == "<=") return ">=";
    if (op == ">") return "<";
    if (op == ">=") return "<=";
    return op;
}

constexpr int64_t kFactMax = int64_t{1} << 40;

}  // namespace

bool GmSync::narrow_cond(const Expr& cond, bool holds, Facts& f) const {
    if (cond.kind == ExprKind::BoolOp && cond.args.size() == 2 && cond.args[0] && cond.args[1] &&
        ((cond.sval == "and" && holds) || (cond.sval == "or" && !holds)))
        return narrow_cond(*cond.args[0], holds, f) && narrow_cond(*cond.args[1], holds, f);
    if (cond.kind == ExprKind::Unary && cond.sval == "not" && cond.args.size() == 1 && cond.args[0])
        return narrow_cond(*cond.args[0], !holds, f);
    if (cond.kind != ExprKind::Compare || cond.args.size() != 2 || !cond.args[0] || !cond.args[1]) return true;
    std::string op = cond.sval;
    const Var* v = nullptr;
    std::optional<int64_t> c;
    if (cond.args[0]->kind == ExprKind::Var && m_fact_vars.count(cond.args[0]->var.get())) {
        v = cond.args[0]->var.get();
        c = const_int(cond.args[1]);
    } else if (cond.args[1]->kind == ExprKind::Var && m_fact_vars.count(cond.args[1]->var.get())) {
        v = cond.args[1]->var.get();
        c = const_int(cond.args[0]);
        op = mirror(op);
    }
    if (!v || !c || std::abs(*c) > kFactMax) return true;
    if (!holds) op = negate(op);
    if (op.empty()) return true;
    auto it = f.try_emplace(v, ParamFact{-kFactMax * 4, kFactMax * 4, {}}).first;
    return narrow(it->second, op, *c);
}

bool GmSync::narrow_loop(const Stmt& loop, Facts& f) const {
    if (!sequential(loop)) return true;
    const auto step = loop.step ? const_int(loop.step) : std::optional<int64_t>(1);
    if (!step || *step == 0) return true;
    // The body runs only when start < stop (a positive step; start > stop for a negative one).
    const ExprPtr start = loop.start;
    const ExprPtr& stop = loop.stop;
    auto value = [&](const ExprPtr& e) -> std::optional<std::pair<int64_t, int64_t>> {  // an interval
        if (!e) return std::make_pair(int64_t{0}, int64_t{0});
        if (auto k = const_int(e)) return std::make_pair(*k, *k);
        if (e->kind == ExprKind::Var && m_fact_vars.count(e->var.get())) {
            auto it = f.find(e->var.get());
            return it == f.end() ? std::make_pair(-kFactMax * 4, kFactMax * 4)
                                 : std::make_pair(it->second.lo, it->second.hi);
        }
        return std::nullopt;
    };
    auto a = value(start), b = value(stop);
    if (!a || !b) return true;
    // start < stop (step > 0) or start > stop: narrow a variable end by the other end's interval.
    const bool up = *step > 0;
    auto narrow_end = [&](const ExprPtr& e, const std::string& op, int64_t c) {
        if (e && e->kind == ExprKind::Var && m_fact_vars.count(e->var.get())) {
            auto it = f.try_emplace(e->var.get(), ParamFact{-kFactMax * 4, kFactMax * 4, {}}).first;
            return narrow(it->second, op, c);
        }
        return true;
    };
    // (up) start < stop: start < max(stop), stop > min(start); a constant end is its own interval.
    if (up ? !(a->first < b->second) : !(a->second > b->first)) return false;
    // Each end by the other's bound, when that bound is known (an unknown end is [-4 kFactMax, 4 kFactMax]).
    auto known = [](int64_t x) { return std::abs(x) <= kFactMax; };
    bool ok = true;
    if (up) {
        if (known(b->second)) ok = narrow_end(start, "<", b->second) && ok;
        if (known(a->first)) ok = narrow_end(stop, ">", a->first) && ok;
    } else {
        if (known(b->first)) ok = narrow_end(start, ">", b->first) && ok;
        if (known(a->second)) ok = narrow_end(stop, "<", a->second) && ok;
    }
    return ok;
}

bool GmSync::facts_disjoint(const Access& a, const Access& b) {
    for (const auto& [v, x] : a.facts) {
        auto it = b.facts.find(v);
        if (it == b.facts.end()) continue;
        const ParamFact& y = it->second;
        const int64_t lo = std::max(x.lo, y.lo), hi = std::min(x.hi, y.hi);
        if (lo > hi) return true;
        if (hi - lo > 64) continue;  // (the excluded values are few: some value is left)
        bool any = false;
        for (int64_t k = lo; k <= hi && !any; ++k) any = !x.ne.count(k) && !y.ne.count(k);
        if (!any) return true;
    }
    return false;
}

void GmSync::collect(Block& b, Path path, Block* parent, bool dead) {
    m_parent[&b] = parent;
    for (size_t i = 0; i < b.size(); ++i) {
        StmtPtr s = b[i];
        Path here = path;
        here.push_back({&b, i});
        const size_t first_new = m_acc.size();
        if (const Expr* c = dead ? nullptr : stmt_call(*s)) {
            // A load lane DCE removes (nothing reads its tile) touches no GM in the expanded program.
            bool dead_load =
                c->op->code == OpCode::Load && m_live && !s->targets.empty() && !m_live->count(s->targets[0].get());
            if ((c->op->code == OpCode::Store || c->op->code == OpCode::Load) && !dead_load) {
                Access a;
                a.stmt = s;
                a.path = here;
                a.blocks = m_win.block_values(here);
                a.store = c->op->code == OpCode::Store;
                a.call = c;
                a.win = m_win.window(*c, here);
                if (a.store) {
                    a.lane = is_cube_mem(arg(*c, "tile")->type.mem) ? Side::Cube : Side::Vector;
                    a.origins = origin_of(arg(*c, "output_tensor"));
                } else {
                    a.lane = c->type.mem == Mem::Vec ? Side::Vector : Side::Cube;
                    a.origins = origin_of(arg(*c, "tensor"));
                }
                if (runs_somewhere(a)) m_acc.push_back(std::move(a));
            } else if (is_indexed_gm(c->op->code)) {
                // pl.tile.mgather (MTE2) / mscatter (MTE3) on the vector lane: the index tile's values pick the
                // elements, so the access's window is unknown (may overlap anything of its tensor). mgather's
                // Mat form runs on the cube: it reads the table and the GM index tensor and (elem mode) writes
                // the GM scratch, each of unknown window here.
                const bool scatter = c->op->code == OpCode::Mscatter;
                const bool mat = !scatter && c->type.kind == TypeKind::Tile && c->type.mem == Mem::Mat;
                const bool unused = !scatter && m_live && !s->targets.empty() && !m_live->count(s->targets[0].get());
                std::vector<std::pair<const char*, bool>> parts = {{scatter ? "output_tensor" : "mem", scatter}};
                if (mat) parts.push_back({"idx", false});
                if (mat && arg(*c, "scratch") && arg(*c, "scratch")->kind == ExprKind::Var)
                    parts.push_back({"scratch", true});
                for (const auto& [param, store] : parts) {
                    if (unused) break;
                    Access a;
                    a.stmt = s;
                    a.path = here;
                    a.blocks = m_win.block_values(here);
                    a.store = store;
                    a.call = c;
                    a.win = GmWindow{};
                    a.lane = mat ? Side::Cube : Side::Vector;
                    a.origins = origin_of(arg(*c, param));
                    if (runs_somewhere(a)) m_acc.push_back(std::move(a));
                }
            } else if (c->op->code == OpCode::TensorWrite) {
                // A scalar GM write of one element, on the lane pin_scalar_writes gave it (MTE3).
                Access a;
                a.stmt = s;
                a.path = here;
                a.blocks = m_win.block_values(here);
                a.store = true;
                a.call = c;
                a.win = m_win.window(*c, here);
                a.lane = s->pinned_lane == 1 ? Side::Cube : Side::Vector;
                a.origins = origin_of(arg(*c, "tensor"));
                if (runs_somewhere(a)) m_acc.push_back(std::move(a));
            } else if (c->op->code == OpCode::TensorRead) {
                // A scalar GM read (SHARED: each lane that keeps it reads GM on its own core), so it is a load
                // of both lanes; lane DCE later drops the copy a lane does not use.
                for (Side lane : {Side::Cube, Side::Vector}) {
                    const auto* kept = m_live_reads ? &m_live_reads[lane == Side::Cube ? 0 : 1] : nullptr;
                    if (kept && !s->targets.empty() && !kept->count(s->targets[0].get()))
                        continue;  // the lane drops it
                    Access a;
                    a.stmt = s;
                    a.path = here;
                    a.blocks = m_win.block_values(here);
                    a.call = c;
                    a.win = m_win.window(*c, here);
                    a.lane = lane;
                    a.origins = origin_of(arg(*c, "tensor"));
                    if (runs_somewhere(a)) m_acc.push_back(std::move(a));
                }
            }
        }
        for (size_t k = first_new; k < m_acc.size(); ++k) m_acc[k].facts = m_facts;  // the path's facts
        if (s->kind == StmtKind::For || s->kind == StmtKind::If) {
            m_owner[&s->body] = s.get();
            m_index_in_parent[&s->body] = i;
            int taken = -1;  // the If's condition: 1 always, 0 never, -1 depends on the iteration
            if (s->kind == StmtKind::If && s->value)
                if (auto t = m_win.static_condition(*s->value)) taken = *t ? 1 : 0;
            // A loop of a constant trip count of 0 never runs its body (`pl.range(NB - 1)` with NB = 1).
            if (s->kind == StmtKind::For && s->loop_kind != LoopKind::SplitAiv && s->loop_kind != LoopKind::Spmd)
                if (auto n = trips(*s); n && *n == 0) taken = 0;
            const Facts outer = m_facts;
            bool live = true;
            if (s->kind == StmtKind::If && s->value)
                live = narrow_cond(*s->value, true, m_facts);
            else if (s->kind == StmtKind::For)
                live = narrow_loop(*s, m_facts);
            collect(s->body, here, &b, dead || taken == 0 || !live);
            m_facts = outer;
            if (s->kind == StmtKind::If) {
                m_owner[&s->orelse] = s.get();
                m_index_in_parent[&s->orelse] = i;
                live = !s->value || narrow_cond(*s->value, false, m_facts);
                collect(s->orelse, here, &b, dead || taken == 1 || !live);
                m_facts = outer;
            }
        }
    }
}

}  // namespace cvsim::passes::gmsync
