// gm_sync_prune: the final re-check (property 4) and applying the plan (gm_sync.h).
#include "frontend/passes/gm_sync.h"

namespace cvsim::passes::gmsync {

void GmSync::run() {
    trace_origins();
    m_split = m_f.split_mode() != SplitMode::NONE;
    walk(m_f.body, [&](const StmtPtr& s) {
        if (s->kind == StmtKind::For && s->loop_kind == LoopKind::SplitAiv) m_split = true;
    });
    pin_scalar_writes();
    find_fact_vars();
    collect(m_f.body, {}, nullptr);
    walk(m_f.body, [&](const StmtPtr& s) {
        if (const Expr* c = stmt_call(*s)) {
            OpCode k = c->op->code;
            if (k == OpCode::TpushToAic || k == OpCode::TpopFromAiv) m_handwritten[1] = true;
            if (k == OpCode::TpushToAiv || k == OpCode::TpopFromAic) m_handwritten[0] = true;
            if (k == OpCode::TpushToAic || k == OpCode::TpopFromAiv || k == OpCode::TpushToAiv ||
                k == OpCode::TpopFromAic) {
                const ExprPtr& ia = arg(*c, "id");
                std::optional<int64_t> id = ia ? const_int(ia) : std::optional<int64_t>(0);
                if (!id || *id == 0)
                    m_author_ring0[(k == OpCode::TpushToAic || k == OpCode::TpopFromAiv) ? 1 : 0] = true;
            }
        }
    });
    m_stats.c2v_complete |= complete();
    order_across_blocks();  // before the same-cluster pairs, which then find them ordered (gm_sync_blocks.cpp)
    pair_and_place();
    place_deferred_war_barriers();
    order_v2c_waw();
    order_vector_reads();
    if (complete()) order_waw();
    drop_nested_tokens();
    drop_tokens_under_barriers();
    place_token_pops();
    merge_publishing_fences();
    drop_unneeded_publishing_fences();
    if (bp_conflict()) {
        m_bp_retry = true;  // nothing is applied; insert_gm_sync plans again without the back-pressure rule
        return;
    }
    if (m_dry) return;  // a re-check (recheck_plans_nothing): the plan is looked at, never applied
    apply();
    prune_inserted();
}

void GmSync::merge_publishing_fences() {
    for (const PubFence& pf : m_pub_fences) {
        auto lit = m_insert.find({pf.b, pf.idx});
        if (lit == m_insert.end()) continue;
        std::vector<StmtPtr>& list = lit->second;
        auto pos = std::find(list.begin(), list.end(), pf.fence);
        if (pos == list.end()) continue;
        const int lane = pf.fence->pinned_lane;
        auto is_fence = [&](const Stmt& x) {
            return x.kind == StmtKind::Eval && is_call(x, OpCode::Fence) &&
                   (x.pinned_lane == 0 || x.pinned_lane == lane);
        };
        auto scan = [&](const std::vector<StmtPtr>& l, size_t from) {  // 1: a fence, -1: a release, 0: go on
            for (size_t k = from; k < l.size(); ++k) {
                if (is_fence(*l[k])) return 1;
                if (!quiet(*l[k], nullptr)) return -1;
            }
            return 0;
        };
        int r = scan(list, static_cast<size_t>(pos - list.begin()) + 1);
        for (size_t j = pf.idx; r == 0 && j < pf.b->size(); ++j) {
            const Stmt& x = *(*pf.b)[j];
            if (is_fence(x))
                r = 1;
            else if (!quiet(x, nullptr))
                r = -1;
            else if (auto nx = m_insert.find({pf.b, j + 1}); nx != m_insert.end())
                r = scan(nx->second, 0);
        }
        if (r != 1) continue;
        list.erase(pos);
        m_stats.log.push_back(fmt::format(
            "{}: publishing fence dropped, a later fence of the lane publishes the store first", where(pf.s)));
    }
}

void GmSync::drop_unneeded_publishing_fences() {
    if (!trace() || m_pub_fences.size() > 64) return;
    m_count_planned_fences = true;
    std::vector<const PubFence*> dropped;
    auto holds = [&](const PubFence& pf) {
        for (const Access& c : pf.cons)
            if (!trace_published(pf.s, c)) return false;
        return true;
    };
    for (const PubFence& pf : m_pub_fences) {
        if (pf.keep || pf.cons.empty()) continue;
        auto lit = m_insert.find({pf.b, pf.idx});
        if (lit == m_insert.end() || std::find(lit->second.begin(), lit->second.end(), pf.fence) == lit->second.end())
            continue;
        m_pub_removed.insert(pf.fence.get());
        bool ok = holds(pf);
        for (const PubFence* d : dropped) ok = ok && holds(*d);
        if (!ok) {
            m_pub_removed.erase(pf.fence.get());
            continue;
        }
        dropped.push_back(&pf);
    }
    m_count_planned_fences = false;
    for (const PubFence* d : dropped) {
        auto& list = m_insert[{d->b, d->idx}];
        list.erase(std::find(list.begin(), list.end(), d->fence));
        m_stats.log.push_back(fmt::format(
            "{}: publishing fence dropped, another fence publishes the store before each release that orders it",
            where(d->s)));
    }
    m_pub_removed.clear();
}

void GmSync::place_deferred_war_barriers() {
    for (const DeferredWar& w : m_deferred_war) {
        if (std::all_of(w.loads.begin(), w.loads.end(),
                        [&](const Access* c) { return trace_planned_orders(*c, *w.store); })) {
            m_stats.log.push_back(w.what + " loop-carried WAR ordered by the barriers planned (unrolled)");
            continue;
        }
        place_barrier(w.b, w.idx, w.loc);
        ++m_stats.war_orders;
        m_stats.log.push_back(w.what + " loop-carried WAR ordered with a second barrier");
    }
    m_deferred_war.clear();
}

bool GmSync::dry_reject(const SourceLoc& loc) const {
    if (!m_dry && !m_hold) return false;
    if (!m_rejected) m_rejected = loc;
    return true;
}

bool GmSync::plans_nothing() const {
    for (const auto& [at, list] : m_insert)
        if (!list.empty()) return false;
    return true;
}

bool GmSync::recheck_plans_nothing(std::string* why) {
    ExpandOptions o = m_opt;
    o.v2c = V2CPolicy::Reject;
    o.visibility_delay = std::max<uint64_t>(o.visibility_delay, 1);
    ExpandStats scratch;
    const size_t vars = m_f.vars.size(), params = m_f.params.size();
    bool ok = false;
    try {
        GmSync g(m_f, o, scratch, m_live, m_live_reads);
        g.m_dry = true;
        g.run();
        ok = !g.m_rejected && !g.m_bp_retry && g.plans_nothing();
        if (g.m_rejected && why)
            *why = fmt::format("{}: E-V2C-UNFENCED", g.m_rejected->short_str());
        else if (!ok && why)
            *why = "it would add an ordering" + (scratch.log.empty() ? std::string() : " (" + scratch.log.back() + ")");
    } catch (const CompileError& e) {
        ok = false;
        if (why) *why = fmt::format("{}: {}", e.diag().loc.short_str(), e.what());
    }
    m_f.vars.resize(vars);  // what the re-check made for its plan (a token's variable, ...) goes
    m_f.params.resize(params);
    return ok;
}

void GmSync::walk_blocks(Block& b, const std::function<void(Block&)>& f) {
    f(b);
    for (auto& st : b) {
        walk_blocks(st->body, f);
        walk_blocks(st->orelse, f);
    }
}

void GmSync::prune_inserted() {
    if (m_opt.v2c != V2CPolicy::Fence && m_opt.v2c != V2CPolicy::Syncall) return;
    std::set<const Stmt*> inserted;
    for (const auto& [at, list] : m_insert)
        for (const auto& st : list) inserted.insert(st.get());
    std::vector<Unit> units;
    std::set<const Stmt*> claimed;
    auto add = [&](Unit u) {
        std::vector<StmtPtr> keep;
        for (auto& st : u.stmts)
            if (inserted.count(st.get()) && claimed.insert(st.get()).second) keep.push_back(st);
        if (keep.empty()) return;
        u.stmts = std::move(keep);
        units.push_back(std::move(u));
    };
    for (const Unit& u : m_barrier_units) add(u);
    for (const Token& t : m_tokens) {
        std::vector<StmtPtr> st = t.after;
        st.push_back(t.pop);
        if (!t.v2c) {
            for (auto& x : st) claimed.insert(x.get());  // upstream's C2V token stays as placed
            continue;
        }
        add({"V2C token", std::move(st), &m_stats.v2c_fences, nullptr, t.what});
    }
    for (const Unit& u : m_flag_units) add(u);
    // Publishing fences placed alone, in program order (the function's statements as now applied).
    walk(m_f.body, [&](const StmtPtr& st) {
        if (inserted.count(st.get()) && !claimed.count(st.get()) && is_call(*st, OpCode::Fence))
            add({"publishing fence", {st}, nullptr, nullptr, fmt::format("{} publishing fence", st->loc.short_str())});
    });
    if (units.empty()) return;
    if (units.size() > kMaxPruneUnits) {
        m_stats.log.push_back(
            fmt::format("final re-check skipped: {} insertions (at most {} are re-checked one by one)", units.size(),
                        kMaxPruneUnits));
        return;
    }
    if (std::string why; !recheck_plans_nothing(&why)) {
        m_stats.log.push_back(
            "final re-check: nothing removed, the re-check does not accept the expanded function as it is: " + why);
        return;
    }
    std::set<const Stmt*> removed;
    auto try_without = [&](const std::vector<StmtPtr>& out) {
        std::vector<Stmt> saved;
        for (auto& st : out) {
            saved.push_back(*st);
            *st = Stmt{};  // a Pass while the re-check runs
        }
        if (recheck_plans_nothing()) {
            for (auto& st : out) removed.insert(st.get());
            return true;
        }
        for (size_t k = 0; k < out.size(); ++k) *out[k] = std::move(saved[k]);
        return false;
    };
    for (const Unit& u : units) {
        bool whole = try_without(u.stmts), part = false;
        if (!whole) {
            std::vector<StmtPtr> no_fence;
            for (auto& st : u.stmts)
                if (!is_call(*st, OpCode::Fence)) no_fence.push_back(st);
            part = no_fence.size() != u.stmts.size() && !no_fence.empty() && try_without(no_fence);
        }
        if (!whole && !part) continue;
        // A barrier's fence left alone runs on both lanes; the lane whose accesses it orders keeps it.
        for (auto& st : u.stmts)
            if (part && is_call(*st, OpCode::Fence) && st->pinned_lane == 0)
                for (uint8_t lane : {uint8_t{2}, uint8_t{1}}) {
                    st->pinned_lane = lane;
                    if (recheck_plans_nothing()) break;
                    st->pinned_lane = 0;
                }
        if (u.counter) --*u.counter;
        if (u.counter2) --*u.counter2;
        ++m_stats.pruned;
        m_stats.log.push_back(
            fmt::format("{}: {} removed{} by the final re-check (every pair stays ordered and published without it)",
                        u.what, u.kind, part ? " (its system.fence() stays)" : ""));
    }
    if (removed.empty()) return;
    walk_blocks(m_f.body, [&](Block& b) {
        b.erase(std::remove_if(b.begin(), b.end(), [&](const StmtPtr& st) { return removed.count(st.get()) > 0; }),
                b.end());
    });
    // The soft barrier's parameter goes with the last barrier that used it.
    if (m_made_workspace) {
        bool used = false;
        walk(m_f.body, [&](const StmtPtr& st) { used |= is_call(*st, OpCode::Syncall); });
        VarPtr w = m_f.find_var("__syncall_workspace");
        if (!used && w)
            m_f.params.erase(
                std::remove_if(m_f.params.begin(), m_f.params.end(), [&](const Param& p) { return p.var == w; }),
                m_f.params.end());
    }
}

void GmSync::apply() {
    // Highest index first within each block, so earlier indices stay valid.
    for (auto it = m_insert.rbegin(); it != m_insert.rend(); ++it) {
        Block* b = it->first.first;
        size_t idx = std::min(it->first.second, b->size());
        b->insert(b->begin() + static_cast<std::ptrdiff_t>(idx), it->second.begin(), it->second.end());
    }
}

}  // namespace cvsim::passes::gmsync
