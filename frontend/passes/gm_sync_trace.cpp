// gm_sync_trace: "already ordered" by enumeration (issue 10, `--v2c reject` errors exactly when a V2C
// dependency is unordered). When every loop of the function has a constant trip count (and the function
// runs at most kMaxEvents statements), the pass unrolls it once: the statement instances in program order,
// each with the iteration of every loop around it and whether it surely runs (a branch whose condition the
// loop variables decide is taken or not; any other branch "may" run). Both lanes follow that one order (the
// split keeps the control flow), so the happens-before edges the checker uses can be read off it:
//   * a barrier (syncall of every core) that surely runs between the two accesses;
//   * the k-th sync_wait of an id on the consumer lane takes the k-th sync_set on the producer lane
//     (counting flags; a2a3: every AIV sets, a5: ids below the lane stride pair AIV0 with the AIC);
//   * the k-th pop of a ring (direction, id) takes the k-th push (FIFO; a boundary tile move is a push and
//     a pop at one position, a hand-written tpush / tpop one of each).
// A pair (store instance, load instance) is ordered when some k has the producer's k-th set / push after
// the store (on the store's pipe, PIPE_ALL, or after a fence) and the consumer's k-th wait / pop before the
// load (blocking its pipe). A counter or ring counts only when each of its statements surely runs when
// reached, its ids are constants, and (flags) on a5 only one AIV lane runs. Anything the enumeration cannot
// decide leaves the old structural answer (gm_sync.h), which is conservative.
#include "frontend/passes/gm_sync.h"

namespace cvsim::passes::gmsync {

namespace {

constexpr size_t kMaxEvents = 20000;

std::optional<int64_t> eval_int(const Expr& e, const std::map<const Var*, int64_t>& env) {
    switch (e.kind) {
        case ExprKind::Int:
        case ExprKind::Bool:
            return e.ival;
        case ExprKind::Var: {
            auto it = env.find(e.var.get());
            if (it == env.end()) return std::nullopt;
            return it->second;
        }
        case ExprKind::Unary: {
            if (e.args.size() != 1 || !e.args[0]) return std::nullopt;
            auto a = eval_int(*e.args[0], env);
            if (!a) return std::nullopt;
            if (e.sval == "-") return -*a;
            if (e.sval == "not") return *a == 0 ? 1 : 0;
            return std::nullopt;
        }
        case ExprKind::Binary:
        case ExprKind::Compare:
        case ExprKind::BoolOp: {
            if (e.args.size() != 2 || !e.args[0] || !e.args[1]) return std::nullopt;
            auto a = eval_int(*e.args[0], env), b = eval_int(*e.args[1], env);
            if (!a || !b) return std::nullopt;
            const std::string& op = e.sval;
            if (op == "+") return *a + *b;
            if (op == "-") return *a - *b;
            if (op == "*") return *a * *b;
            if ((op == "//" || op == "%") && *b != 0) {
                int64_t q = *a / *b;
                if ((*a % *b != 0) && ((*a < 0) != (*b < 0))) --q;  // Python floor division
                return op == "//" ? q : *a - q * *b;
            }
            if (op == "<") return *a < *b;
            if (op == "<=") return *a <= *b;
            if (op == ">") return *a > *b;
            if (op == ">=") return *a >= *b;
            if (op == "==") return *a == *b;
            if (op == "!=") return *a != *b;
            if (op == "and") return (*a != 0 && *b != 0) ? 1 : 0;
            if (op == "or") return (*a != 0 || *b != 0) ? 1 : 0;
            return std::nullopt;
        }
        default:
            return std::nullopt;
    }
}

}  // namespace

bool GmSync::trace_block(const Block& b, std::map<const Var*, int64_t>& env, bool definite,
                         std::vector<std::pair<const Var*, int64_t>>& vals, std::vector<TraceEv>& out) const {
    for (size_t xi = 0; xi <= b.size(); ++xi) {
        if (out.size() > kMaxEvents || m_marks.size() > 4 * kMaxEvents) return false;
        m_marks.push_back({out.size(), &b, xi, definite});  // where a statement planned at (b, xi) would run
        if (xi == b.size()) break;
        const StmtPtr& x = b[xi];
        switch (x->kind) {
            case StmtKind::For: {
                if (!sequential(*x)) return false;
                auto start = x->start ? const_int(x->start) : std::optional<int64_t>(0);
                auto stop = const_int(x->stop);
                auto step = x->step ? const_int(x->step) : std::optional<int64_t>(1);
                if (!start || !stop || !step || *step == 0) return false;
                vals.push_back({x->loop_var.get(), 0});
                // A loop variable an assignment re-binds is not the iteration's value everywhere: left unbound
                // (conditions on it may go either way, windows holding it are unknown).
                const bool bind = x->loop_var && !m_win.rebound(x->loop_var.get());
                for (int64_t v = *start; *step > 0 ? v < *stop : v > *stop; v += *step) {
                    if (bind) env[x->loop_var.get()] = v;
                    vals.back().second = v;
                    if (!trace_block(x->body, env, definite, vals, out)) return false;
                }
                vals.pop_back();
                if (x->loop_var) env.erase(x->loop_var.get());
                break;
            }
            case StmtKind::If: {
                if (const Stmt* op = m_opt.target == Target::A5 ? lane_pair_flag(*x, nullptr) : nullptr) {
                    out.push_back({op, definite, vals, 1});  // one lane's op stands for both lanes
                    break;
                }
                std::optional<int64_t> t = x->value ? eval_int(*x->value, env) : std::nullopt;
                if (t) {
                    if (!trace_block(*t ? x->body : x->orelse, env, definite, vals, out)) return false;
                } else {
                    if (!trace_block(x->body, env, false, vals, out)) return false;
                    if (!trace_block(x->orelse, env, false, vals, out)) return false;
                }
                break;
            }
            case StmtKind::Return:
                if (&b != &m_f.body || &x != &b.back()) return false;  // an early return: not followed
                break;
            default:
                if (stmt_call(*x)) {
                    uint8_t pair = 0;
                    if (m_opt.target == Target::A5) {
                        if (xi + 1 < b.size() && lane_pair_flag(*x, b[xi + 1].get()))
                            pair = 1;
                        else if (xi > 0 && lane_pair_flag(*b[xi - 1], x.get()))
                            pair = 2;
                    }
                    out.push_back({x.get(), definite, vals, pair});
                }
                break;
        }
    }
    return true;
}

bool GmSync::is_subblock_idx(const Expr& e) const {
    if (e.kind == ExprKind::Call) return e.op->code == OpCode::GetSubblockIdx;
    if (e.kind != ExprKind::Var || !e.var) return false;
    derives_from(nullptr, nullptr, 0);  // builds m_defs
    auto it = m_defs.find(e.var.get());
    if (it == m_defs.end() || it->second.size() != 1 || !it->second[0]) return false;
    const Expr* c = stmt_call(*it->second[0]);
    return it->second[0]->kind == StmtKind::Assign && c && c->op->code == OpCode::GetSubblockIdx;
}

const Stmt* GmSync::lane_pair_flag(const Stmt& x, const Stmt* next) const {
    const int64_t stride = m_opt.flag_lane_stride;
    // Two flag ops: the same op, pipe and core, ids X < stride and X + stride.
    auto twins = [&](const Stmt& a, const Stmt& b) {
        const Expr* ca = stmt_call(a);
        const Expr* cb = stmt_call(b);
        if (!ca || !cb || a.kind != StmtKind::Eval || b.kind != StmtKind::Eval || ca->op->code != cb->op->code)
            return false;
        if (ca->op->code != OpCode::SyncSet && ca->op->code != OpCode::SyncWait) return false;
        auto ia = const_int(arg(*ca, "event_id")), ib = const_int(arg(*cb, "event_id"));
        if (!ia || !ib || *ia < 0 || *ia >= stride || *ib != *ia + stride || call_side(*ca) != call_side(*cb))
            return false;
        auto pa = sync_pipe(*ca, call_side(*ca)), pb = sync_pipe(*cb, call_side(*cb));
        return pa == pb;
    };
    if (next) {
        const Expr* c = stmt_call(x);
        return c && call_side(*c) == Side::Cube && twins(x, *next) ? &x : nullptr;
    }
    if (x.kind != StmtKind::If || !x.value || x.body.size() != 1 || x.orelse.size() != 1) return nullptr;
    const Expr& cond = *x.value;
    if (cond.kind != ExprKind::Compare || cond.sval != "==" || cond.args.size() != 2 || !cond.args[0] || !cond.args[1])
        return nullptr;
    const bool lhs_lane =
        is_subblock_idx(*cond.args[0]) && cond.args[1]->kind == ExprKind::Int && cond.args[1]->ival == 0;
    if (!lhs_lane) return nullptr;
    const Expr* c = stmt_call(*x.body[0]);
    return c && call_side(*c) == Side::Vector && twins(*x.body[0], *x.orelse[0]) ? x.body[0].get() : nullptr;
}

const std::vector<GmSync::TraceEv>* GmSync::trace() const {
    if (!m_trace_built) {
        m_trace_built = true;
        std::map<const Var*, int64_t> env;
        std::vector<std::pair<const Var*, int64_t>> vals;
        m_trace_ok = trace_block(m_f.body, env, true, vals, m_trace);
        if (!m_trace_ok) {
            m_trace.clear();
            m_marks.clear();
        }
    }
    return m_trace_ok ? &m_trace : nullptr;
}

bool GmSync::instance_overlap(const Access& a, const TraceEv& ea, const Access& b, const TraceEv& eb) const {
    if (!a.win.ok || !b.win.ok || a.origins.size() != 1 || a.origins != b.origins ||
        a.win.off.size() != b.win.off.size() || a.win.ext.size() != a.win.off.size() ||
        b.win.ext.size() != b.win.off.size())
        return true;
    // The value of an offset's loop variable (or `x % c` atom, gm_windows.h) in instance e.
    std::function<std::optional<int64_t>(const Var*, const TraceEv&, int)> value =
        [&](const Var* v, const TraceEv& e, int depth) -> std::optional<int64_t> {
        for (const auto& [lv, val] : e.vals)
            if (lv == v) return val;
        const WindowAnalysis::ModAtom* m = m_win.mod_atom(v);
        if (!m || depth > 8 || !m->x.ok || m->c <= 0) return std::nullopt;
        int64_t x = m->x.c;
        for (const auto& [xv, k] : m->x.terms) {
            auto xval = value(xv, e, depth + 1);
            if (!xval) return std::nullopt;
            x += k * *xval;
        }
        return ((x % m->c) + m->c) % m->c;
    };
    // Offsets with each instance's loop variables substituted; what is left (block index, scalar
    // parameters) is the same atom in both, so only its coefficients' difference matters. A loop variable
    // left unbound (not one of the instance's loops) may take any value: no conclusion in that dimension.
    bool free_var = false;
    auto at = [&](const Affine& f, const TraceEv& e, int sign, Affine& acc) {
        acc.c += sign * f.c;
        for (const auto& [v, k] : f.terms) {
            if (auto val = value(v, e, 0))
                acc.c += sign * k * *val;
            else if (m_win.is_loop_var(v))
                free_var = true;
            else
                acc.terms[v] += sign * k;
        }
        return f.ok;
    };
    for (size_t d = 0; d < a.win.off.size(); ++d) {
        Affine diff;  // a's offset - b's offset
        free_var = false;
        if (!at(a.win.off[d], ea, 1, diff) || !at(b.win.off[d], eb, -1, diff)) return true;
        if (free_var) continue;  // may overlap in this dimension
        bool constant = true;
        for (const auto& [v, k] : diff.terms) constant &= k == 0;
        if (!constant) continue;  // may overlap in this dimension
        // [diff, diff + ext_a) against [0, ext_b)
        if (diff.c >= b.win.ext[d] || diff.c + a.win.ext[d] <= 0) return false;
    }
    return true;
}

// The ring / flag operations of the trace on one side of a (producer -> consumer) order, by counter key.
GmSync::Counters GmSync::counters(const Access& prod, const Access& cons) const {
    Counters c;
    const std::vector<TraceEv>& tr = m_trace;
    const bool v2c = prod.lane == Side::Vector;
    const Side cons_lane = cons.lane;
    const bool flags_ok = !(m_opt.target == Target::A5 && (m_split || a5_two_lanes()));
    bool flag_nonconst = false, ring_nonconst = false;
    for (size_t i = 0; i < tr.size(); ++i) {
        const Expr* e = stmt_call(*tr[i].s);
        if (!e) continue;
        OpCode code = e->op->code;
        Side sd = call_side(*e);
        auto add = [&](std::map<std::pair<int, int64_t>, std::vector<size_t>>& m, std::pair<int, int64_t> key) {
            if (!tr[i].definite) c.bad.insert(key);
            m[key].push_back(i);
        };
        if (code == OpCode::SyncSet || code == OpCode::SyncWait) {
            bool set = code == OpCode::SyncSet;
            if (sd != Side::Shared && sd != (set ? prod.lane : cons_lane)) continue;  // the other counter
            auto id = const_int(arg(*e, "event_id"));
            if (!id) {
                flag_nonconst = true;
                continue;
            }
            // a5 with both AIV lanes: a lane pair (lane_pair_flag) is AIV0's protocol, AIV1's the same shifted
            // by the stride; the AIC's twin op is AIV1's side of it. Any other flag of the two-lane function
            // pairs the AIC with one lane only: uncertain.
            if (!flags_ok && tr[i].pair == 2) continue;
            std::pair<int, int64_t> key{0, *id};
            if ((!flags_ok && tr[i].pair != 1) || (m_opt.target == Target::A5 && *id >= m_opt.flag_lane_stride))
                c.bad.insert(key);
            add(set ? c.sets : c.waits, key);
            continue;
        }
        bool push = v2c ? code == OpCode::TpushToAic : code == OpCode::TpushToAiv;
        bool pop = v2c ? code == OpCode::TpopFromAiv : code == OpCode::TpopFromAic;
        bool boundary = v2c ? sd == Side::BoundaryV2C : sd == Side::BoundaryC2V;
        bool rpush = v2c ? code == OpCode::TpushToAiv : code == OpCode::TpushToAic;
        bool rpop = v2c ? code == OpCode::TpopFromAic : code == OpCode::TpopFromAiv;
        bool rboundary = v2c ? sd == Side::BoundaryC2V : sd == Side::BoundaryV2C;
        // The ring id of a transport (a boundary move's ring is 0); nullopt: not a constant.
        auto ring_id = [&](bool is_boundary) -> std::optional<int64_t> {
            const ExprPtr* ia = is_boundary ? nullptr : &arg(*e, "id");
            return ia && *ia ? const_int(*ia) : std::optional<int64_t>(0);
        };
        if (rpush || rpop || rboundary) {
            const std::optional<int64_t> id = ring_id(rboundary);
            if (!id) {
                c.rbad_all = true;
                continue;
            }
            if (!tr[i].definite) c.rbad.insert(*id);
            if (rpush || rboundary) c.rpushes[*id].push_back(i);
            if (rpop || rboundary) c.rpops[*id].push_back(i);
            continue;
        }
        if (!push && !pop && !boundary) continue;
        const std::optional<int64_t> id = ring_id(boundary);
        if (!id) {
            ring_nonconst = true;
            continue;
        }
        std::pair<int, int64_t> key{1, *id};
        if (push || boundary) add(c.sets, key);
        if (pop || boundary) add(c.waits, key);
    }
    if (flag_nonconst)
        for (auto* m : {&c.sets, &c.waits})
            for (auto& [k, v] : *m)
                if (k.first == 0) c.bad.insert(k);
    if (ring_nonconst)
        for (auto* m : {&c.sets, &c.waits})
            for (auto& [k, v] : *m)
                if (k.first == 1) c.bad.insert(k);
    return c;
}

// Is the producer's access at trace position i ordered before the consumer's at position j (i < j)?
bool GmSync::trace_between(size_t i, size_t j, const Access& prod, const Access& cons, const Counters& c,
                           bool publish) const {
    const std::vector<TraceEv>& tr = m_trace;
    // publish: the release must also follow a system.fence() of the producer's lane after the access (SPEC
    // 4.5/6: a flag, barrier or transport publishes a write only through a fence between the two).
    const int lane = prod.lane == Side::Cube ? 1 : 2;
    auto pub_fenced = [&](size_t from, size_t to) {
        for (size_t x = from + 1; x < to; ++x) {
            if (!tr[x].definite) continue;
            const Expr* e = stmt_call(*tr[x].s);
            if (e && e->op->code == OpCode::Fence && tr[x].s->kind == StmtKind::Eval &&
                (tr[x].s->pinned_lane == 0 || tr[x].s->pinned_lane == lane))
                return true;
        }
        return m_count_planned_fences && planned_fence_between(from, to, lane);
    };
    for (size_t x = i + 1; x < j; ++x) {
        if (!tr[x].definite) continue;
        const Expr* e = stmt_call(*tr[x].s);
        if (e && e->op->code == OpCode::Syncall && call_side(*e) == Side::Shared && (!publish || pub_fenced(i, x)))
            return true;
    }
    // A fence of lane `side` (SPEC 4.1: it waits for every outstanding instruction of its core, loads
    // included), or a barrier that lane takes part in, in trace positions (from, to).
    auto lane_fenced = [&](size_t from, size_t to, Side side) {
        const int no = side == Side::Cube ? 1 : 2;
        const Side opposite = side == Side::Cube ? Side::Vector : Side::Cube;
        for (size_t x = from + 1; x < to; ++x) {
            if (!tr[x].definite) continue;
            const Expr* e = stmt_call(*tr[x].s);
            if (e && e->op->code == OpCode::Fence && tr[x].s->kind == StmtKind::Eval &&
                (tr[x].s->pinned_lane == 0 || tr[x].s->pinned_lane == no))
                return true;
            if (e && e->op->code == OpCode::Syncall && call_side(*e) != opposite) return true;
        }
        return false;
    };
    // ... of the producer's lane, between the access and the release.
    auto fenced = [&](size_t from, size_t to) { return lane_fenced(from, to, prod.lane); };
    const Pipe pp = prod_pipe(prod);
    for (const auto& [key, ss] : c.sets) {
        if (c.bad.count(key)) continue;
        auto wit = c.waits.find(key);
        if (wit == c.waits.end()) continue;
        const std::vector<size_t>& ws = wit->second;
        for (size_t k = 0; k < ss.size() && k < ws.size(); ++k) {
            if (!(ss[k] > i && ws[k] < j)) continue;
            const Expr& se = *stmt_call(*tr[ss[k]].s);
            const Expr& we = *stmt_call(*tr[ws[k]].s);
            bool covers, blocks;
            if (key.first == 0) {
                auto sp = sync_pipe(se, prod.lane);
                covers = !sp || *sp == pp || fenced(i, ss[k]) || will_publish(prod) ||
                         (*sp == Pipe::Mte3 && load_drained_by_mte3(i, ss[k], prod)) ||
                         (*sp == Pipe::Fixp && load_drained_by_fixp(i, ss[k], prod));
                auto wp = sync_pipe(we, cons.lane);
                blocks = !wp || *wp == Pipe::Scalar || *wp == prod_pipe(cons) ||
                         (wp && wait_gates_fixp(ws[k], j, *wp, cons));
            } else {
                // A push runs on the store's pipe (V2C: MTE3, C2V: FIXP) after it; a pop blocks the scalar unit.
                // A vector load: the push's MTE3 queue follows an MTE3 op computed from the loaded tile (the push
                // itself, or an earlier store / push of the lane), which waits for the load.
                // A fence of the lane between the access and the push drains the access (a load too).
                covers = pp == (prod.lane == Side::Vector ? Pipe::Mte3 : Pipe::Fixp) || fenced(i, ss[k]) ||
                         load_drained_by_mte3(i, ss[k], prod) || load_drained_by_fixp(i, ss[k], prod);
                blocks = true;
            }
            if (publish) covers = pub_fenced(i, ss[k]);
            if (covers && blocks) return true;
        }
    }
    // Ring back-pressure (SPEC 6, free -> reuse): the (k + n)-th push of the ring the consumer's lane feeds
    // (n slots) waits for its slot, which the producer's lane frees after its k-th pop of that ring. A fence
    // (or a barrier) of the producer's lane between the access and that pop drains the access before the
    // free (the free is a scalar instruction after the pop, and a fence blocks the scalar unit); the push runs
    // on the consumer's data pipe (cube FIXP, vector MTE3), so an access of the consumer on that pipe after
    // it, or one after a fence or barrier of the consumer's lane after it, follows.
    if (const int64_t n = back_pressure_slots(); n > 0 && !c.rbad_all) {
        const Pipe push_pipe = cons.lane == Side::Cube ? Pipe::Fixp : Pipe::Mte3;
        for (const auto& [id, pops] : c.rpops) {
            if (c.rbad.count(id)) continue;
            auto pit = c.rpushes.find(id);
            if (pit == c.rpushes.end()) continue;
            const std::vector<size_t>& pushes = pit->second;
            for (size_t k = 0; k < pops.size(); ++k) {
                if (pops[k] <= i || !(publish ? pub_fenced(i, pops[k]) : fenced(i, pops[k]))) continue;
                const size_t m = k + static_cast<size_t>(n);  // the first drained free; later ones give later pushes
                if (m < pushes.size() && pushes[m] < j &&
                    (prod_pipe(cons) == push_pipe || lane_fenced(pushes[m], j, cons.lane))) {
                    if (id == 0) m_bp_ring0_used[cons.lane == Side::Cube ? 0 : 1] = true;  // see bp_conflict
                    return true;
                }
                break;
            }
        }
    }
    return false;
}

}  // namespace cvsim::passes::gmsync
