// gm_sync_place: step (4) of the GM-synchronisation pass (gm_sync.h): pairing and placements.
#include "frontend/passes/gm_sync.h"

namespace cvsim::passes::gmsync {

void GmSync::place_fence(const Access& s, const Access& l, Block* b, size_t is, size_t il, bool v2c) {
    const SourceLoc& sl = s.stmt->loc;
    ExprPtr tile = s.store ? arg(*s.call, "tile") : var_ref(s.stmt->targets.at(0), sl);
    Type tok_t = tile->type;
    tok_t.view = TileView{};
    tok_t.valid.clear();
    std::vector<StmtPtr> after_store;
    if (v2c) {
        ExprPtr pushed = tile;
        if (m_opt.target == Target::A5) {
            // a5: the V2C transport carries NZ data, so the token is adapted first (the layout contract).
            Type nz_t = tok_t;
            nz_t.view.blayout = TileLayout::col_major;
            nz_t.view.slayout = TileLayout::row_major;
            nz_t.view.written = true;
            VarPtr nz = new_var(tile->kind == ExprKind::Var ? tile->var->name + "_nz" : "_tok_nz", nz_t, sl);
            after_store.push_back(make_assign(nz,
                                              make_call(OpCode::Move,
                                                        {{"tile", clone_expr(tile)},
                                                         {"target_memory", mem_lit(Mem::Vec)},
                                                         {"blayout", layout_lit(TileLayout::col_major)},
                                                         {"slayout", layout_lit(TileLayout::row_major)}},
                                                        sl),
                                              sl));
            pushed = var_ref(nz, sl);
        }
        // Publication (SPEC 4.5/6): the push's flag covers the store only through a fence of the vector
        // lane between them once GM writes become visible later than they complete.
        StmtPtr fence = make_eval(make_call(OpCode::Fence, {}, sl), sl);
        fence->pinned_lane = 2;
        if (s.store) after_store.push_back(fence);
        after_store.push_back(
            make_eval(make_call(OpCode::TpushToAic, {{"tile", clone_expr(pushed)}, {"split", int_lit(0)}}, sl), sl));
        Type pop_t = Type::tile(tok_t.shape, tok_t.dtype, Mem::Mat);
        VarPtr tok = new_var("_v2c_token", pop_t, l.stmt->loc);
        ExprPtr pop = make_call(OpCode::TpopFromAiv, {{"split", int_lit(0)}}, l.stmt->loc, &pop_t);
        m_tokens.push_back({b, is, il, true, make_assign(tok, pop, l.stmt->loc), after_store.back(), after_store,
                            fmt::format("{} -> {}", where(s), where(l))});
    } else {
        if (complete()) {
            // --c2v complete: the FIXP store is published before the token push (SPEC 4.5/6).
            StmtPtr fence = make_eval(make_call(OpCode::Fence, {}, sl), sl);
            fence->pinned_lane = 1;
            after_store.push_back(fence);
        }
        after_store.push_back(
            make_eval(make_call(OpCode::TpushToAiv, {{"tile", clone_expr(tile)}, {"split", int_lit(0)}}, sl), sl));
        Type pop_t = Type::tile(tok_t.shape, tok_t.dtype, Mem::Vec);
        VarPtr tok = new_var("_c2v_token", pop_t, l.stmt->loc);
        ExprPtr pop = make_call(OpCode::TpopFromAic, {{"split", int_lit(0)}}, l.stmt->loc, &pop_t);
        m_tokens.push_back({b, is, il, false, make_assign(tok, pop, l.stmt->loc), after_store.back(), after_store, ""});
    }
    for (auto& st : after_store) plan(b, is + 1, st);
}

std::optional<size_t> GmSync::index_in(Block* b, Block* x, size_t index) const {
    while (x && x != b) {
        auto it = m_index_in_parent.find(x);
        if (it == m_index_in_parent.end()) return std::nullopt;
        index = it->second;
        x = m_parent.at(x);
    }
    if (!x) return std::nullopt;
    return index;
}

bool GmSync::blocks_consumer(const Stmt& s, bool v2c) {
    if (const Expr* c = stmt_call(s)) {
        OpCode code = c->op->code;
        Side consumer = v2c ? Side::Cube : Side::Vector;
        if (code == OpCode::Syncall) return true;
        if (code == OpCode::SyncWait && call_side(*c) != (v2c ? Side::Vector : Side::Cube))
            return call_side(*c) == consumer || call_side(*c) == Side::Shared;
    }
    if (has_transport(s, !v2c)) return true;
    for (const auto& x : s.body)
        if (blocks_consumer(*x, v2c)) return true;
    for (const auto& x : s.orelse)
        if (blocks_consumer(*x, v2c)) return true;
    return false;
}

void GmSync::drop_nested_tokens() {
    std::vector<int> drop(m_tokens.size(), 0);  // 0 keep, 1 drop, 2 drop but keep the publishing fence
    for (size_t a = 0; a < m_tokens.size(); ++a)
        for (size_t c = 0; c < m_tokens.size() && drop[a] != 1; ++c) {
            const Token& ta = m_tokens[a];
            const Token& tc = m_tokens[c];
            // tc's push runs after ta's producer access and tc's pop before ta's consumer: nested, or from the
            // same statement to an earlier consumer (two cube stores after one vector load), or the same
            // interval twice (the later token goes).
            const bool nested =
                tc.is > ta.is ? tc.il <= ta.il : tc.is == ta.is && (tc.il < ta.il || (tc.il == ta.il && c < a));
            if (c != a && ta.v2c && tc.v2c && tc.b == ta.b && nested)
                drop[a] = token_fenced(tc) || !token_fenced(ta) ? 1 : 2;
        }
    std::vector<Token> kept;
    for (size_t a = 0; a < m_tokens.size(); ++a) {
        if (!drop[a]) {
            kept.push_back(std::move(m_tokens[a]));
            continue;
        }
        const Token& t = m_tokens[a];
        auto& list = m_insert[{t.b, t.is + 1}];
        for (const auto& st : t.after)
            if (drop[a] == 1 || !is_call(*st, OpCode::Fence))
                list.erase(std::remove(list.begin(), list.end(), st), list.end());
        --m_stats.v2c_fences;
        m_stats.log.push_back(t.what + ": token dropped, the token of a pair nested inside it orders it" +
                              (drop[a] == 2 ? std::string(" (the store's publishing fence stays)") : std::string()));
    }
    m_tokens = std::move(kept);
}

void GmSync::drop_tokens_under_barriers() {
    std::vector<Token> kept;
    for (auto& t : m_tokens) {
        if (!t.v2c || !planned_barrier(t.b, t.is + 1, t.il)) {
            kept.push_back(std::move(t));
            continue;
        }
        auto& list = m_insert[{t.b, t.is + 1}];
        for (const auto& st : t.after) list.erase(std::remove(list.begin(), list.end(), st), list.end());
        --m_stats.v2c_fences;
        m_stats.log.push_back(t.what + ": token dropped, a barrier placed for another pair orders it");
    }
    m_tokens = std::move(kept);
}

void GmSync::place_token_pops() {
    std::vector<size_t> pos(m_tokens.size());
    for (size_t k = m_tokens.size(); k-- > 0;) {
        const Token& t = m_tokens[k];
        size_t p = t.il;
        for (size_t i = t.is + 1; i < p; ++i)
            if (has_transport(*(*t.b)[i], t.v2c) || blocks_consumer(*(*t.b)[i], t.v2c)) p = i;
        for (const auto& [where, stmts] : m_insert) {
            bool moves = false, blocks = false;
            for (const auto& st : stmts) {
                moves |= has_transport(*st, t.v2c);
                blocks |= st != t.push && blocks_consumer(*st, t.v2c);
            }
            if (where.first == t.b) {
                // Same-block pushes are ordered through their own pops below; a blocking statement planned
                // at or before the pop's index pulls the pop up to that index (and in front of it).
                if (blocks && where.second > t.is && where.second <= p) p = where.second;
                continue;
            }
            if (!moves && !blocks) continue;
            if (auto i = index_in(t.b, where.first, where.second); i && *i > t.is && *i < p) p = *i;
        }
        for (size_t j = k + 1; j < m_tokens.size(); ++j)
            if (m_tokens[j].b == t.b && m_tokens[j].v2c == t.v2c && m_tokens[j].is > t.is) p = std::min(p, pos[j]);
        pos[k] = p;
    }
    for (size_t k = 0; k < m_tokens.size(); ++k) {
        const Token& t = m_tokens[k];
        auto& list = m_insert[{t.b, pos[k]}];
        // Before the first blocking statement planned at that index (after the token's own push).
        auto from = std::find(list.begin(), list.end(), t.push);
        auto at = std::find_if(from == list.end() ? list.begin() : from + 1, list.end(), [&](const StmtPtr& st) {
            return blocks_consumer(*st, t.v2c) || is_call(*st, OpCode::Fence);
        });
        // A fence planned right before a barrier belongs to it: the pop goes before both.
        list.insert(at, t.pop);
    }
}

bool GmSync::quiet(const Stmt& x, const Stmt* store) const {
    if (&x == store || x.kind == StmtKind::Yield || x.kind == StmtKind::Pass) return true;
    if (x.kind == StmtKind::For || x.kind == StmtKind::If) {
        for (const Block* blk : {&x.body, &x.orelse})
            for (const auto& y : *blk)
                if (!quiet(*y, store)) return false;
        return true;
    }
    const Expr* c = stmt_call(x);
    if (x.kind == StmtKind::Eval) return c && c->op->code == OpCode::Fence;
    if (x.kind != StmtKind::Assign) return false;
    // A tile move may become the transport that orders the store (a boundary move).
    return !(c && (c->op->code == OpCode::Move || is_cross_core(c->op->code) || call_side(*c) == Side::BoundaryV2C ||
                   call_side(*c) == Side::BoundaryC2V));
}

bool GmSync::published(const Access& s) const {
    const int lane = s.lane == Side::Cube ? 1 : 2;
    for (size_t k = s.path.size(); k-- > 0;) {
        Block* b = s.path[k].first;
        size_t i = s.path[k].second;
        for (size_t j = i + 1; j < b->size(); ++j) {
            const Stmt& x = *(*b)[j];
            if (is_call(x, OpCode::Fence) && x.kind == StmtKind::Eval && (x.pinned_lane == 0 || x.pinned_lane == lane))
                return true;
            if (!quiet(x, nullptr)) return false;
        }
        auto owner = m_owner.find(b);
        if (owner == m_owner.end() || !owner->second) return false;  // the function's body: no fence after it
        if (owner->second->kind == StmtKind::For)
            for (size_t j = 0; j <= i; ++j)
                if (!quiet(*(*b)[j], s.stmt.get())) return false;
    }
    return false;
}

void GmSync::publish_after(const Access& s, const Access* cons) {
    Block* sb = s.path.back().first;
    size_t si = s.path.back().second;
    // Already published: a fence after the store and before the first statement that orders it (an
    // author's `fence()` + `syncall()`, or the fence this pass placed on an earlier expansion).
    if (published(s) || (cons && trace_published(s, *cons))) return;
    // A barrier this pass plans between the two (fence + syncall on both lanes) publishes the store too.
    if (cons && compare(s.path, cons->path) == Order::Before) {
        size_t d = 0;
        while (d < s.path.size() && d < cons->path.size() && s.path[d] == cons->path[d]) ++d;
        if (d < s.path.size() && d < cons->path.size() &&
            (planned_barrier(s.path[d].first, s.path[d].second + 1, cons->path[d].second) || barrier_after(s, d + 1) ||
             barrier_before(*cons, d + 1)))
            return;
        // So does a token of the store's direction whose fence + push run after s and whose pop runs
        // before cons (both in the token's block): fence -> push -> pop is a release that orders and
        // publishes. (A token dropped later leaves a nested token or a barrier inside its interval.)
        const bool v2c = s.lane == Side::Vector;
        for (const Token& t : m_tokens) {
            if (t.v2c != v2c || !token_fenced(t)) continue;  // only a token with a publishing fence
            std::optional<size_t> js, jc;
            for (auto& [blk, i] : s.path)
                if (blk == t.b) js = i;
            for (auto& [blk, i] : cons->path)
                if (blk == t.b) jc = i;
            if (js && jc && *js < t.is && *jc >= t.il) return;
        }
    }
    if (!m_published.insert({sb, si}).second) {
        for (PubFence& pf : m_pub_fences)
            if (pf.s.stmt == s.stmt && pf.b == sb && pf.idx == si + 1) {
                if (cons)
                    pf.cons.push_back(*cons);
                else
                    pf.keep = true;
            }
        return;
    }
    const SourceLoc& sl = s.stmt->loc;
    StmtPtr fence = make_eval(make_call(OpCode::Fence, {}, sl), sl);
    fence->pinned_lane = s.lane == Side::Cube ? 1 : 2;
    plan(sb, si + 1, fence);
    m_pub_fences.push_back({sb, si + 1, fence, s, {}, cons == nullptr});
    if (cons) m_pub_fences.back().cons.push_back(*cons);
    m_stats.log.push_back(
        fmt::format("{}: store published with system.fence() (the ordering it relies on covers its completion "
                    "only, or, a flag set on another pipe, only after a fence)",
                    where(s)));
}

void GmSync::ordered_v2c_store(const Access& s, const Access& cons, bool same_cluster) {
    if (!s.store || s.lane != Side::Vector) return;
    if (m_opt.v2c == V2CPolicy::Fence || m_opt.v2c == V2CPolicy::Syncall)
        return publish_after(s, same_cluster ? &cons : nullptr);
    if (m_opt.v2c != V2CPolicy::Reject || m_opt.visibility_delay == 0 || published(s) ||
        (same_cluster && trace_published(s, cons)))
        return;
    if (dry_reject(cons.stmt->loc)) return;
    raise(codes::kV2cUnfenced, cons.stmt->loc,
          fmt::format("{} {} of '{}' is ordered after the vector store at {} only on the store's completion: with "
                      "a GM visibility delay "
                      "({} cycles) a flag, barrier or tile transport publishes a write only through a "
                      "system.fence() of the writing core "
                      "between the write and the release, and none follows the store",
                      cons.lane == Side::Cube ? "cube" : "vector", cons.store ? "store" : "load", name_of(s.origins),
                      s.stmt->loc.str(), m_opt.visibility_delay),
          "insert pl.system.fence() right after the vector store (or compile with --v2c fence)");
}

void GmSync::place_barrier(Block* b, size_t il, const SourceLoc& loc, const Stmt* paired_at, bool second,
                           bool whole_pair) {
    // A re-check that already failed, or a run holding reject's errors (dry_reject): nothing more is planned (under
    // reject a barrier is planned for a pair it rejects, order_vector_reads, or for --c2v complete; with errors
    // held a missing one makes insert_gm_sync's re-check fail, so the error stands).
    if (m_rejected) return;
    // One barrier covers every pair ordered there; half of a sibling-arm pair is placed with its other half.
    if (!m_barrier_at.insert({b, il}).second && !whole_pair) return;
    // A launch wider than the chip runs in waves: a barrier over all its blocks never completes.
    if (m_opt.chip_clusters > 0 && m_opt.blocks > m_opt.chip_clusters)
        raise(
            codes::kOccupancy, loc,
            fmt::format("this dependency needs a barrier (pl.system.syncall), but the launch's {} blocks exceed the "
                        "chip's {} clusters: "
                        "the blocks run in waves, so a barrier over all of them never completes (it hangs on hardware)",
                        m_opt.blocks, m_opt.chip_clusters),
            fmt::format("launch at most {} blocks (loop over the work inside a block), or order the accesses "
                        "within a cluster",
                        m_opt.chip_clusters));
    StmtPtr fence = make_eval(make_call(OpCode::Fence, {}, loc), loc);
    StmtPtr sync = make_eval(syncall_call(loc), loc);
    plan(b, il, fence);
    plan(b, il, sync);
    std::vector<StmtPtr> stmts = {fence, sync};
    // Clusters that take the other arm of a branch on the block index around it arrive at the end of that arm
    // (else they never arrive and the barrier hangs).
    // A barrier in loops inside that arm runs once per iteration: the other arm gets as many (the loops'
    // constant trip counts multiplied; a loop of unknown trip count ends the walk).
    int64_t times = 1;
    // The branches the same in every cluster passed on the way up (`if i == 0:`, `if n > 0:`), with the arm the
    // barrier is in: the twins at a block-index branch above them run under the same conditions (else they run
    // when the barrier does not, and the clusters meet different barriers), when every name the conditions read
    // is defined outside that branch (the same value in both its arms); otherwise the twins run unguarded (as
    // before: a deadlock stays possible there, and the run says so).
    std::vector<std::pair<ExprPtr, bool>> guards;  // innermost first
    for (Block* cur = b;;) {
        auto pi = m_parent.find(cur);
        auto ii = m_index_in_parent.find(cur);
        if (pi == m_parent.end() || !pi->second || ii == m_index_in_parent.end()) break;
        const StmtPtr& own = (*pi->second)[ii->second];
        if (own->kind == StmtKind::For) {
            auto n =
                own->loop_kind == LoopKind::SplitAiv || own->loop_kind == LoopKind::Spmd ? std::nullopt : trips(*own);
            if (!n || *n * times > kMaxBalancingBarriers) break;
            times *= *n;
        } else if (own->kind != StmtKind::If) {
            break;
        }
        if (second && own.get() == paired_at) break;
        if (own->kind == StmtKind::If && own.get() != paired_at && own->value &&
            m_win.uniform_across_blocks(*own->value)) {
            guards.emplace_back(own->value, cur == &own->body);
        } else if (own->kind == StmtKind::If && own.get() != paired_at && own->value) {
            Block* other = cur == &own->body ? &own->orelse : &own->body;
            size_t at = other->size();
            while (at > 0 && ((*other)[at - 1]->kind == StmtKind::Yield || (*other)[at - 1]->kind == StmtKind::Return))
                --at;
            // (the names this branch defines: a condition reading one has no value in the other arm)
            std::set<const Var*> inside;
            for (const Block* arm : {&own->body, &own->orelse})
                walk(*arm, [&](const StmtPtr& x) {
                    for (const auto& t : x->targets) inside.insert(t.get());
                    for (const auto& t : x->iter_args) inside.insert(t.get());
                    if (x->loop_var) inside.insert(x->loop_var.get());
                });
            bool guarded = !guards.empty();
            for (const auto& [cond, then_arm] : guards)
                for_each_var(cond, [&](const VarPtr& v) { guarded &= !inside.count(v.get()); });
            for (int64_t k = 0; k < times; ++k) {
                StmtPtr f2 = make_eval(make_call(OpCode::Fence, {}, loc), loc);
                StmtPtr s2 = make_eval(syncall_call(loc), loc);
                if (!guarded) {
                    plan(other, at, f2);
                    plan(other, at, s2);
                    stmts.push_back(f2);
                    stmts.push_back(s2);
                    continue;
                }
                // if c_outer: ... if c_inner: fence; syncall (a condition the barrier is in the else arm of: not c)
                Block inner = {f2, s2};
                for (const auto& [cond, then_arm] : guards) {
                    auto g = std::make_shared<Stmt>();
                    g->kind = StmtKind::If;
                    g->loc = loc;
                    ExprPtr c = clone_expr(cond);
                    if (!then_arm) {
                        auto n = std::make_shared<Expr>();
                        n->kind = ExprKind::Unary;
                        n->loc = loc;
                        n->type = c->type;
                        n->sval = "not";
                        n->args.push_back(c);
                        c = n;
                    }
                    g->value = c;
                    g->body = std::move(inner);
                    inner = {g};
                }
                plan(other, at, inner.front());
                stmts.push_back(inner.front());
            }
        }
        cur = pi->second;
    }
    ++m_stats.barriers;
    m_barrier_units.push_back(
        {"barrier", std::move(stmts), &m_stats.barriers, nullptr, fmt::format("{} barrier", loc.short_str())});
}

}  // namespace cvsim::passes::gmsync
