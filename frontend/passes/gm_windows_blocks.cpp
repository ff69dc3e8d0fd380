// GM windows (gm_windows.h): values per block (cluster) and whether windows of different blocks may overlap.
#include "frontend/passes/gm_windows.h"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <map>
#include <tuple>

#include <fmt/format.h>

#include "frontend/ops.h"
#include "frontend/passes/gm_windows_internal.h"
#include "frontend/passes/ir_util.h"

namespace cvsim::passes {

using namespace ir;
using namespace gm_windows_detail;

std::optional<int64_t> WindowAnalysis::block_eval(const Expr& e, int64_t x, int depth, std::string* residual) const {
    // `residual` (when the value is unknown): the condition's text with what x decides folded away. Parts that
    // may differ between clusters carry x, so two clusters' residuals are equal only when they surely agree.
    auto unknown = [&](std::string r) -> std::optional<int64_t> {
        if (residual) *residual = std::move(r);
        return std::nullopt;
    };
    auto id = [&](const void* p, bool uniform) {
        return uniform ? fmt::format("@{}", p) : fmt::format("@{}#{}", p, x);
    };
    if (depth > kMaxDepth) return unknown(id(&e, false));
    switch (e.kind) {
        case ExprKind::Int:
        case ExprKind::Bool:
            return e.ival;
        case ExprKind::Const:
            if (e.fval != static_cast<double>(static_cast<int64_t>(e.fval))) return unknown(id(&e, true));
            return static_cast<int64_t>(e.fval);
        case ExprKind::Var: {
            const Var* v = e.var.get();
            auto it = m_defs.find(v);
            // Bound once, to get_block_idx() (a name bound again, or also a loop variable, holds other values).
            if (m_block_vars.count(v) && it != m_defs.end() && it->second.count == 1 && !m_multi.count(v) &&
                !m_params.count(v) && !m_loop_vars.count(v))
                return x;
            return unknown(id(v, uniform_across_blocks(e)));
        }
        case ExprKind::Call:
            if (e.op && e.op->code == OpCode::GetBlockIdx) return x;
            return unknown(id(&e, false));
        case ExprKind::Unary: {
            if (e.args.size() != 1 || !e.args[0]) return unknown(id(&e, false));
            std::string r;
            auto v = block_eval(*e.args[0], x, depth + 1, &r);
            if (!v) return unknown(fmt::format("({} {})", e.sval, r));
            if (e.sval == "-") return -*v;
            if (e.sval == "not") return *v == 0 ? 1 : 0;
            return unknown(id(&e, false));
        }
        case ExprKind::BoolOp: {
            // Three-valued: `and` is false when one operand is, `or` true when one is.
            const bool is_and = e.sval == "and";
            if (!is_and && e.sval != "or") return unknown(id(&e, false));
            std::string rest;
            for (const auto& a : e.args) {
                std::string r;
                auto v = a ? block_eval(*a, x, depth + 1, &r) : std::nullopt;
                if (!a) r = id(&e, false);
                if (!v)
                    rest += " " + r;
                else if ((*v != 0) != is_and)
                    return is_and ? 0 : 1;
            }
            if (!rest.empty()) return unknown(fmt::format("({}{})", e.sval, rest));
            return is_and ? 1 : 0;
        }
        case ExprKind::Binary:
        case ExprKind::Compare: {
            if (e.args.size() != 2 || !e.args[0] || !e.args[1]) return unknown(id(&e, false));
            std::string rl, rr;
            auto l = block_eval(*e.args[0], x, depth + 1, &rl), r = block_eval(*e.args[1], x, depth + 1, &rr);
            if (!l || !r)
                return unknown(
                    fmt::format("({} {} {})", e.sval, l ? std::to_string(*l) : rl, r ? std::to_string(*r) : rr));
            const std::string& op = e.sval;
            if (op == "<") return *l < *r;
            if (op == "<=") return *l <= *r;
            if (op == ">") return *l > *r;
            if (op == ">=") return *l >= *r;
            if (op == "==") return *l == *r;
            if (op == "!=") return *l != *r;
            if (std::max(std::abs(*l), std::abs(*r)) > (int64_t{1} << 30)) return unknown(id(&e, false));
            if (op == "+") return *l + *r;
            if (op == "-") return *l - *r;
            if (op == "*") return *l * *r;
            if (op == "//" && *r != 0) return floor_div(*l, *r);
            if (op == "%" && *r != 0) return *l - floor_div(*l, *r) * *r;
            return unknown(id(&e, false));
        }
        default:
            return unknown(id(&e, false));
    }
}

bool WindowAnalysis::arms_may_differ(const Expr& cond, int64_t x, bool x_then, int64_t y, bool y_then) const {
    std::string rx, ry;
    auto vx = block_eval(cond, x, 0, &rx), vy = block_eval(cond, y, 0, &ry);
    if (vx && (*vx != 0) != x_then) return false;
    if (vy && (*vy != 0) != y_then) return false;
    if (!vx && !vy && rx == ry) return x_then == y_then;  // the same value in both clusters
    return true;
}

bool WindowAnalysis::uniform_across_blocks(const Expr& e, int depth) const {
    if (depth > kMaxDepth) return false;
    switch (e.kind) {
        case ExprKind::Int:
        case ExprKind::Bool:
        case ExprKind::Float:
        case ExprKind::Const:
            return true;
        case ExprKind::Var: {
            const Var* v = e.var.get();
            if (m_params.count(v)) return !m_defs.count(v) && !m_multi.count(v);
            if (m_loop_vars.count(v)) return !rebound(v) && m_bounds.count(v) > 0;  // a constant range
            auto it = m_defs.find(v);
            if (it == m_defs.end() || it->second.count != 1 || m_multi.count(v) || !it->second.stmt->value)
                return false;
            return uniform_across_blocks(*it->second.stmt->value, depth + 1);
        }
        case ExprKind::Unary:
        case ExprKind::Binary:
        case ExprKind::Compare:
        case ExprKind::BoolOp:
            for (const auto& a : e.args)
                if (!a || !uniform_across_blocks(*a, depth + 1)) return false;
            return true;
        default:
            return false;
    }
}

std::optional<std::vector<bool>> WindowAnalysis::block_values(const StmtPath& path) const {
    if (m_blocks < 1 || m_blocks > kMaxBlockEnum) return std::nullopt;
    std::optional<std::vector<bool>> out;
    for (size_t k = 0; k + 1 < path.size(); ++k) {
        const Stmt& st = *(*path[k].first)[path[k].second];
        if (st.kind != StmtKind::If || !st.value) continue;
        const bool then_arm = path[k + 1].first == &st.body;
        for (int64_t x = 0; x < m_blocks; ++x) {
            auto v = block_eval(*st.value, x, 0, nullptr);
            if (!v || (*v != 0) == then_arm) continue;
            if (!out) out.emplace(static_cast<size_t>(m_blocks), true);
            (*out)[static_cast<size_t>(x)] = false;
        }
    }
    return out;
}

GmWindow WindowAnalysis::at_block(const GmWindow& w, int64_t x) const {
    GmWindow r = w;
    for (auto& off : r.off)
        for (auto it = off.terms.begin(); it != off.terms.end();)
            if (is_block_var(it->first)) {
                off.c += it->second * x;
                it = off.terms.erase(it);
            } else {
                ++it;
            }
    return r;
}

bool WindowAnalysis::may_overlap_across_blocks(const GmWindow& a, const GmWindow& b, int blocks,
                                               const WindowAnalysis& wa, const std::set<const Var*>& shared,
                                               const Stmt* cross, int64_t tmin, int64_t tmax,
                                               const std::vector<bool>* a_blocks, const std::vector<bool>* b_blocks,
                                               const std::function<bool(int64_t, int64_t)>* pair_ok) {
    if (blocks <= 1) return false;
    // Accesses that run in some clusters only (`if blk == 0:`): the pairs of clusters (x, y), x != y, where
    // a runs in x and b in y, each with its block index substituted.
    if ((a_blocks || b_blocks || pair_ok) && blocks <= kMaxBlockEnum) {
        auto runs = [](const std::vector<bool>* v, int64_t x) {
            return !v || (static_cast<size_t>(x) < v->size() && (*v)[static_cast<size_t>(x)]);
        };
        for (int64_t x = 0; x < blocks; ++x) {
            if (!runs(a_blocks, x)) continue;
            const GmWindow ax = wa.at_block(a, x);
            for (int64_t y = 0; y < blocks; ++y)
                if (y != x && runs(b_blocks, y) && (!pair_ok || (*pair_ok)(x, y)) &&
                    may_overlap(ax, wa.at_block(b, y), shared, cross, tmin, tmax, wa))
                    return true;
        }
        return false;
    }
    if (!a.ok || !b.ok || a.off.size() != b.off.size() || a.ext.size() != a.off.size() || b.ext.size() != b.off.size())
        return true;
    // Per dimension, the sum of the block atoms' coefficients (every atom bound to get_block_idx() holds the
    // cluster's index): a's cluster x and b's cluster y add ka * x - kb * y to off_a - off_b. The rest is
    // may_overlap's question on the windows with those constants substituted.
    const size_t rank = a.off.size();
    std::vector<int64_t> ka(rank, 0), kb(rank, 0);
    bool any = false;
    auto strip = [&](const GmWindow& w, std::vector<int64_t>& k) {
        GmWindow r = w;
        for (size_t d = 0; d < rank; ++d)
            for (auto it = r.off[d].terms.begin(); it != r.off[d].terms.end();)
                if (wa.is_block_var(it->first)) {
                    k[d] += it->second;
                    any = true;
                    it = r.off[d].terms.erase(it);
                } else {
                    ++it;
                }
        return r;
    };
    const GmWindow sa = strip(a, ka), sb = strip(b, kb);
    if (!any) return may_overlap(sa, sb, shared, cross, tmin, tmax, wa);  // every cluster touches the same window
    auto at = [&](const std::vector<int64_t>& shift) {
        GmWindow sx = sa;
        for (size_t d = 0; d < rank; ++d) sx.off[d].c += shift[d];
        return may_overlap(sx, sb, shared, cross, tmin, tmax, wa);
    };
    std::vector<int64_t> shift(rank);
    if (ka == kb) {
        // The usual case (both windows move with the block index alike): the shift is ka * (x - y).
        for (int64_t delta = -(blocks - 1); delta <= blocks - 1; ++delta) {
            if (delta == 0) continue;
            for (size_t d = 0; d < rank; ++d) shift[d] = ka[d] * delta;
            if (at(shift)) return true;
        }
        return false;
    }
    if (blocks > 256) return true;  // (no conclusion on wider launches)
    // Pairs (x, y), x != y, that shift a against b alike give the same answer: each distinct shift once.
    std::set<std::vector<int64_t>> seen;
    for (int64_t x = 0; x < blocks; ++x)
        for (int64_t y = 0; y < blocks; ++y) {
            if (x == y) continue;
            for (size_t d = 0; d < rank; ++d) shift[d] = ka[d] * x - kb[d] * y;
            if (seen.insert(shift).second && at(shift)) return true;
        }
    return false;
}

}  // namespace cvsim::passes
