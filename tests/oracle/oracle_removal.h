// Property 4 of the oracle tests: is each synchronisation the expander inserted necessary? Removes one inserted
// V2C token (the AIV's push, the AIC's token pop and its tfree) or one inserted barrier (syncall and the fence
// before it, on both lanes) from a copy of the lane functions and asks the oracle again.
// A publishing fence placed alone (no token or barrier after it) is tried too, under a visibility delay.
#pragma once

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "frontend/ops.h"
#include "oracle_support.h"

namespace cvsim::test {

struct StmtSite {
    ir::Block* block;
    size_t idx;
};

inline const ir::Expr* stmt_call_of(const ir::Stmt& s) {
    if ((s.kind == ir::StmtKind::Assign || s.kind == ir::StmtKind::Eval) && s.value &&
        s.value->kind == ir::ExprKind::Call)
        return s.value.get();
    return nullptr;
}

inline void collect_sites(ir::Block& b, const std::function<bool(const ir::Stmt&)>& want, std::vector<StmtSite>& out) {
    for (size_t i = 0; i < b.size(); ++i) {
        ir::Stmt& s = *b[i];
        if (want(s)) out.push_back({&b, i});
        if (s.kind == ir::StmtKind::For || s.kind == ir::StmtKind::If) {
            collect_sites(s.body, want, out);
            collect_sites(s.orelse, want, out);
        }
    }
}

inline bool is_op(const ir::Stmt& s, ir::OpCode c) {
    const ir::Expr* e = stmt_call_of(s);
    return e && e->op->code == c;
}

inline void erase_site(const StmtSite& st) {
    *(*st.block)[st.idx] = ir::Stmt{};
}  // becomes a Pass

struct Removal {
    int inserted = 0;                          // inserted synchronisations tried
    int necessary = 0;                         // removing it makes the oracle find a race (or a deadlock)
    int redundant = 0;                         // removing it leaves the program race- and deadlock-free
    std::vector<std::string> redundant_sites;  // "token line N" / "barrier line N" of each redundant one
};

// The source line `line` (1-based) of `text`.
inline std::string source_line(const std::string& text, uint32_t line) {
    size_t p = 0;
    for (uint32_t i = 1; i < line && p != std::string::npos; ++i) {
        p = text.find('\n', p);
        if (p != std::string::npos) ++p;
    }
    return p == std::string::npos ? std::string() : text.substr(p, text.find('\n', p) - p);
}

// Tries every V2C token and barrier the expander inserted into the session's expansion of `text` (a syncall
// written in the source is the author's, not tried).
inline Removal try_removals(const sim::Session& s, const std::string& text) {
    Removal r;
    const rt::LaunchPlan& plan = s.compiled().plan;
    if (!plan.aic || !plan.aiv) return r;
    auto judge = [&](const rt::LaunchPlan& p2, const std::string& site, uint64_t min_delay = 0) {
        oracle::Options o;
        o.target = s.options().target;
        o.visibility_delay = std::max<uint64_t>(s.hw().gm.visibility_delay, min_delay);
        o.chip_clusters = static_cast<int>(s.hw().chip.clusters);
        auto v = oracle::analyze(p2, s.initial_gm(), o);
        ++r.inserted;
        if (v.deadlock || !v.races.empty())
            ++r.necessary;
        else {
            ++r.redundant;
            r.redundant_sites.push_back(site);
        }
    };
    auto fresh = [&] {
        rt::LaunchPlan p2 = plan;
        p2.aic->fn = ir::clone_function(*plan.aic->fn);
        p2.aiv->fn = ir::clone_function(*plan.aiv->fn);
        return p2;
    };
    // Source lines of the AIV pushes that carry an inserted token (their fence belongs to the token).
    std::vector<uint32_t> token_push_lines;
    // V2C tokens: the i-th AIC pop from the AIV pairs with the i-th AIV push to the AIC (static order).
    {
        rt::LaunchPlan probe = fresh();
        std::vector<StmtSite> pops, pushes;
        collect_sites(
            probe.aic->fn->body, [](const ir::Stmt& x) { return is_op(x, ir::OpCode::TpopFromAiv); }, pops);
        collect_sites(
            probe.aiv->fn->body, [](const ir::Stmt& x) { return is_op(x, ir::OpCode::TpushToAic); }, pushes);
        if (pops.size() == pushes.size())
            for (size_t i = 0; i < pops.size(); ++i) {
                const ir::Stmt& pop = *(*pops[i].block)[pops[i].idx];
                if (pop.targets.empty() || pop.targets[0]->name.rfind("_v2c_token", 0) != 0) continue;
                token_push_lines.push_back((*pushes[i].block)[pushes[i].idx]->loc.line);
                rt::LaunchPlan p2 = fresh();
                std::vector<StmtSite> pp, ps, fr;
                collect_sites(
                    p2.aic->fn->body, [](const ir::Stmt& x) { return is_op(x, ir::OpCode::TpopFromAiv); }, pp);
                collect_sites(
                    p2.aiv->fn->body, [](const ir::Stmt& x) { return is_op(x, ir::OpCode::TpushToAic); }, ps);
                std::string tok = (*pp[i].block)[pp[i].idx]->targets[0]->name;
                collect_sites(
                    p2.aic->fn->body,
                    [&](const ir::Stmt& x) {
                        const ir::Expr* e = stmt_call_of(x);
                        if (!e || e->op->code != ir::OpCode::TfreeToAiv) return false;
                        const ir::ExprPtr& t = ir::arg(*e, "tile");
                        return t && t->kind == ir::ExprKind::Var && t->var->name == tok;
                    },
                    fr);
                std::string site = "token line " + std::to_string((*ps[i].block)[ps[i].idx]->loc.line);
                erase_site(pp[i]);
                erase_site(ps[i]);
                for (auto& f : fr) erase_site(f);
                judge(p2, site);
            }
    }
    // Barriers: the i-th syncall of each lane (and a fence right before it).
    {
        rt::LaunchPlan probe = fresh();
        std::vector<StmtSite> a, v;
        auto sync = [](const ir::Stmt& x) { return is_op(x, ir::OpCode::Syncall); };
        collect_sites(probe.aic->fn->body, sync, a);
        collect_sites(probe.aiv->fn->body, sync, v);
        if (a.size() == v.size())
            for (size_t i = 0; i < a.size(); ++i) {
                if (source_line(text, (*a[i].block)[a[i].idx]->loc.line).find("syncall") != std::string::npos) continue;
                rt::LaunchPlan p2 = fresh();
                std::string site = "barrier line " + std::to_string((*a[i].block)[a[i].idx]->loc.line);
                for (ir::Block* body : {&p2.aic->fn->body, &p2.aiv->fn->body}) {
                    std::vector<StmtSite> sites;
                    collect_sites(*body, sync, sites);
                    StmtSite st = sites[i];
                    if (st.idx > 0 && is_op(*(*st.block)[st.idx - 1], ir::OpCode::Fence))
                        erase_site({st.block, st.idx - 1});
                    erase_site(st);
                }
                judge(p2, site);
            }
    }
    // Publishing fences placed alone (no push or syncall of the expander right after them): the ordering the
    // store relies on is the author's, and the fence makes it cover the store's completion and visibility.
    // A fence's job is publication, so it is judged under a GM visibility delay (at least 50 cycles): the
    // expander cannot know the board's delay and publishes whatever --visibility-delay says.
    {
        auto lone_fence = [&](const ir::Block& b, size_t i) {
            if (!is_op(*b[i], ir::OpCode::Fence) ||
                source_line(text, b[i]->loc.line).find("fence") != std::string::npos)
                return false;
            size_t j = i + 1;
            if (j < b.size() && is_op(*b[j], ir::OpCode::Move)) ++j;
            if (j >= b.size()) return true;
            if (is_op(*b[j], ir::OpCode::Syncall)) return false;  // a barrier's fence
            // a token's fence (a push of the AIC's _v2c_token, or a C2V token of --c2v complete)
            if (is_op(*b[j], ir::OpCode::TpushToAiv)) return false;
            return !(is_op(*b[j], ir::OpCode::TpushToAic) && std::find(token_push_lines.begin(), token_push_lines.end(),
                                                                       b[j]->loc.line) != token_push_lines.end());
        };
        for (int lane = 0; lane < 2; ++lane) {
            auto body_of = [&](rt::LaunchPlan& p) -> ir::Block& { return lane ? p.aiv->fn->body : p.aic->fn->body; };
            rt::LaunchPlan probe = fresh();
            std::vector<StmtSite> fences;
            collect_sites(
                body_of(probe), [](const ir::Stmt& x) { return is_op(x, ir::OpCode::Fence); }, fences);
            for (size_t i = 0; i < fences.size(); ++i) {
                if (!lone_fence(*fences[i].block, fences[i].idx)) continue;
                rt::LaunchPlan p2 = fresh();
                std::vector<StmtSite> sites;
                collect_sites(
                    body_of(p2), [](const ir::Stmt& x) { return is_op(x, ir::OpCode::Fence); }, sites);
                std::string site = "fence line " + std::to_string((*sites[i].block)[sites[i].idx]->loc.line);
                erase_site(sites[i]);
                judge(p2, site, 50);
            }
        }
    }
    return r;
}

}  // namespace cvsim::test
