// Sampled values of unbound control scalars: see sampling.h.
#include "app/sampling.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
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
    constexpr int64_t kMaxModulus = 16;
    constexpr size_t kMaxResidues = 16;
    size_t residues = 0;
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
        // `x % c` of a computed x (a window at `((n + 1) % 7) * 16`): every residue of a scalar modulo c is one
        // of 0 .. c - 1, which no other sample reaches (n = 6 there; the kinds and 3 / 64 / 32 / ... give
        // residues 0-5 and 1: a race only n = 6 has was "PASS", found by hunt8a).
        if (e->kind == ir::ExprKind::Binary && e->sval == "%" && e->args.size() == 2 && e->args[1] &&
            e->args[1]->kind == ir::ExprKind::Int && e->args[1]->ival >= 2 && e->args[1]->ival <= kMaxModulus &&
            e->args[0] && e->args[0]->kind != ir::ExprKind::Int)
            for (int64_t v = 0; v < e->args[1]->ival; ++v)
                if (residues < kMaxResidues && std::find(taken.begin(), taken.end(), v) == taken.end()) {
                    add(v, false);
                    ++residues;
                }
        for (const auto& a : e->args) cond(a);
    };
    std::set<const ir::Function*> seen;
    std::function<void(const ir::Function&)> visit = [&](const ir::Function& fn) {
        if (!seen.insert(&fn).second) return;
        passes::walk(fn.body, [&](const ir::StmtPtr& s) {
            cond(s->value);
            for (const ir::ExprPtr* b : {&s->start, &s->stop, &s->step}) cond(*b);
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

namespace {

// Python's floor division and modulo (a zero divisor gives nothing).
std::optional<int64_t> floor_div(int64_t a, int64_t b) {
    if (b == 0) return std::nullopt;
    int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
    return q;
}

struct SizeEval {
    const std::string& name;
    const std::map<std::string, int64_t>& consts;
    int64_t value = 0;
    bool reads_name = false;

    std::optional<int64_t> eval(const ast::Expr& e) {
        switch (e.kind) {
            case ast::ExprKind::Int:
                return e.int_value;
            case ast::ExprKind::Name:
                if (e.name == name) {
                    reads_name = true;
                    return value;
                }
                if (auto it = consts.find(e.name); it != consts.end()) return it->second;
                return std::nullopt;
            case ast::ExprKind::UnaryOp: {
                if (e.children.empty() || !e.children[0]) return std::nullopt;
                auto a = eval(*e.children[0]);
                if (!a) return std::nullopt;
                if (e.op == "-") return -*a;
                if (e.op == "+") return *a;
                return std::nullopt;
            }
            case ast::ExprKind::BinOp: {
                if (e.children.size() != 2 || !e.children[0] || !e.children[1]) return std::nullopt;
                auto a = eval(*e.children[0]);
                auto b = eval(*e.children[1]);
                if (!a || !b) return std::nullopt;
                // Operands stay far below 2^31 (sizes up to the limit, the program's constants): no overflow
                // checks beyond a bound on each operand.
                constexpr int64_t kBig = int64_t{1} << 31;
                if (*a > kBig || *a < -kBig || *b > kBig || *b < -kBig) return std::nullopt;
                if (e.op == "+") return *a + *b;
                if (e.op == "-") return *a - *b;
                if (e.op == "*") return *a * *b;
                if (e.op == "//") return floor_div(*a, *b);
                if (e.op == "%") {
                    auto q = floor_div(*a, *b);
                    if (!q) return std::nullopt;
                    return *a - *q * *b;
                }
                return std::nullopt;
            }
            default:
                return std::nullopt;
        }
    }

    // The comparison's value at the current size (nothing when it cannot be evaluated).
    std::optional<bool> compare(const ast::Expr& e) {
        if (e.children.size() != 2 || !e.children[0] || !e.children[1]) return std::nullopt;
        auto a = eval(*e.children[0]);
        auto b = eval(*e.children[1]);
        if (!a || !b) return std::nullopt;
        if (e.op == "==") return *a == *b;
        if (e.op == "!=") return *a != *b;
        if (e.op == "<") return *a < *b;
        if (e.op == "<=") return *a <= *b;
        if (e.op == ">") return *a > *b;
        if (e.op == ">=") return *a >= *b;
        return std::nullopt;
    }
};

}  // namespace

std::vector<int64_t> compared_sizes(const ast::Module& module, const std::string& name, size_t max, int64_t limit) {
    // Module-level integer constants (`TILE = 16`), which a comparison may read.
    std::map<std::string, int64_t> consts;
    for (const auto& s : module.body)
        if (s && s->kind == ast::StmtKind::Assign && s->targets.size() == 1 && s->targets[0] &&
            s->targets[0]->kind == ast::ExprKind::Name && s->value && s->value->kind == ast::ExprKind::Int)
            consts[s->targets[0]->name] = s->value->int_value;
    std::vector<int64_t> out;
    auto add = [&](int64_t v) {
        if (v >= 1 && v <= limit && out.size() < max && std::find(out.begin(), out.end(), v) == out.end())
            out.push_back(v);
    };
    std::function<void(const ast::Expr&)> expr = [&](const ast::Expr& e) {
        if (e.kind == ast::ExprKind::Compare) {
            SizeEval ev{name, consts};
            ev.value = 1;
            std::optional<bool> prev = ev.compare(e);
            if (prev && ev.reads_name)
                for (int64_t v = 2; v <= limit && out.size() < max; ++v) {
                    ev.value = v;
                    std::optional<bool> now = ev.compare(e);
                    if (!now) break;
                    if (*now != *prev) {
                        add(v - 1);
                        add(v);
                    }
                    prev = now;
                }
        }
        for (const auto& c : e.children)
            if (c) expr(*c);
        for (const auto& c : e.args)
            if (c) expr(*c);
        for (const auto& c : e.values)
            if (c) expr(*c);
        for (const auto& k : e.keywords)
            if (k.value) expr(*k.value);
    };
    std::function<void(const ast::Stmt&)> stmt = [&](const ast::Stmt& s) {
        for (const auto& t : s.targets)
            if (t) expr(*t);
        if (s.value) expr(*s.value);
        for (const auto& b : s.body)
            if (b) stmt(*b);
        for (const auto& b : s.orelse)
            if (b) stmt(*b);
    };
    for (const auto& s : module.body)
        if (s) stmt(*s);
    return out;
}

}  // namespace cvsim::cli
