// Sampled values of unbound control scalars: see sampling.h.
#include "app/sampling.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <set>

#include "core/dtype.h"
#include "frontend/passes/ir_util.h"

namespace cvsim::cli {

const std::vector<SampleKind>& sample_kinds() {
    static const std::vector<SampleKind> k = {{1, false}, {2, false}, {0, false}, {0, true}, {1, true}};
    return k;
}

std::vector<Assignment> sample_assignments(const ir::Function& f, const std::vector<std::string>& names) {
    std::vector<Assignment> out;
    for (const SampleKind& kind : sample_kinds()) {
        Assignment a;
        int64_t k = 0;
        for (const auto& n : names) {
            const ir::Var* var = nullptr;
            for (const auto& p : f.params)
                if (p.var->name == n) var = p.var.get();
            if (var && var->type.kind == ir::TypeKind::Tensor) {
                a.emplace_back(n, kind.iota
                                      ? (kind.value == 0 ? std::string("iota") : fmt::format("iota+{}", kind.value))
                                      : std::to_string(kind.value));
                continue;
            }
            const int64_t v = kind.value + (kind.iota ? k++ : 0);
            a.emplace_back(n, var && dtype_is_float(var->type.dtype) ? fmt::format("{}.0", v) : std::to_string(v));
        }
        if (std::find(out.begin(), out.end(), a) == out.end()) out.push_back(std::move(a));
    }
    return out;
}

std::vector<ExtraSample> extra_samples(const ir::Program& p, const ir::Function& f) {
    constexpr size_t kMaxBounds = 8;
    std::vector<int64_t> taken;
    for (const SampleKind& k : sample_kinds())
        if (!k.iota) taken.push_back(k.value);
    std::vector<ExtraSample> out;
    auto add = [&](int64_t v, bool chain) {
        if (std::find(taken.begin(), taken.end(), v) != taken.end()) return;
        taken.push_back(v);
        out.push_back({v, chain});
    };
    add(3, false);
    out.push_back({1, false, true});
    size_t bounds = 0;
    std::function<void(const ir::ExprPtr&)> cond = [&](const ir::ExprPtr& e) {
        if (!e) return;
        if (e->kind == ir::ExprKind::Compare && e->args.size() == 2) {
            for (int side = 0; side < 2; ++side) {
                const ir::ExprPtr& k = e->args[side];
                const ir::ExprPtr& other = e->args[1 - side];
                if (!k || !other || k->kind != ir::ExprKind::Int || other->kind == ir::ExprKind::Int) continue;
                if (k->ival < 0 || k->ival > (int64_t{1} << 31)) continue;
                for (int64_t v : {k->ival, k->ival + 1})
                    if (bounds < kMaxBounds && std::find(taken.begin(), taken.end(), v) == taken.end()) {
                        add(v, false);
                        ++bounds;
                    }
            }
        }
        for (const auto& a : e->args) cond(a);
    };
    std::set<const ir::Function*> seen;
    std::function<void(const ir::Function&)> visit = [&](const ir::Function& fn) {
        if (!seen.insert(&fn).second) return;
        passes::walk(fn.body, [&](const ir::StmtPtr& s) {
            cond(s->value);
            if (const ir::ExprPtr& v = s->value; v && v->kind == ir::ExprKind::FuncCall)
                if (auto callee = p.find(v->sval)) visit(*callee);
        });
    };
    visit(f);
    for (int64_t v : {64, 32, 16, 8, 4}) add(v, true);
    return out;
}

Assignment extra_assignment(const ir::Function& f, const std::vector<std::string>& names, const ExtraSample& x) {
    auto param = [&](const std::string& n) -> const ir::Var* {
        for (const auto& p : f.params)
            if (p.var->name == n) return p.var.get();
        return nullptr;
    };
    int64_t scalars = 0;
    for (const auto& n : names)
        if (const ir::Var* v = param(n); !v || v->type.kind != ir::TypeKind::Tensor) ++scalars;
    Assignment a;
    int64_t k = 0;
    for (const auto& n : names) {
        const ir::Var* var = param(n);
        const bool tensor = var && var->type.kind == ir::TypeKind::Tensor;
        const int64_t value = x.descending && !tensor ? x.value + scalars - 1 - k++ : x.value;
        if (var && !tensor && dtype_is_float(var->type.dtype))
            a.emplace_back(n, fmt::format("{}.0", value));
        else
            a.emplace_back(n, std::to_string(value));
    }
    return a;
}

std::string assignment_text(const Assignment& a) {
    std::string s;
    for (const auto& [n, v] : a) s += (s.empty() ? "" : ", ") + n + "=" + v;
    return s;
}

}  // namespace cvsim::cli
