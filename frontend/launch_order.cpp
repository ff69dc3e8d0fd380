// LaunchOrder, the launches: unordered_launches, manual scopes, launches and host reads, the definitions followed.
#include "frontend/launch_order.h"

#include <algorithm>
#include <functional>
#include <string>
#include <string_view>

#include "frontend/launch.h"
#include "frontend/passes/ir_util.h"

namespace cvsim {

std::vector<Diagnostic> unordered_launches(const ir::Program& program, const ir::Function& orch);

}  // namespace cvsim

namespace cvsim::launch_detail {

namespace {

// The line ranges (the first and the last line of its body, inclusive) of every `with pl.scope(mode=pl.ScopeMode.
// MANUAL)` of FILE: the body is the lines after the header indented deeper than the `with` (blank and comment lines
// inside, continuation lines whatever their indentation), or the statement after the colon of a one-line `with`.
std::vector<std::pair<uint32_t, uint32_t>> manual_scope_lines(const SourceFile& file) {
    auto indent = [](std::string_view t) {
        size_t k = 0;
        while (k < t.size() && (t[k] == ' ' || t[k] == '\t')) ++k;
        return k;
    };
    auto blank = [&](std::string_view t) {
        size_t k = indent(t);
        return k == t.size() || t[k] == '#';
    };
    // A line's code (no comment, no string literal) and how many brackets it leaves open; a line that ends in a
    // backslash or inside brackets continues on the next, whose indentation means nothing (hunt12: a dedented
    // continuation line ended the scope early, its later launches counted as AUTO).
    struct Code {
        std::string text;
        int open = 0;
        bool backslash = false;
    };
    auto code = [](std::string_view u) {
        Code c;
        char quote = 0;
        for (size_t k = 0; k < u.size(); ++k) {
            const char ch = u[k];
            if (quote) {
                if (ch == '\\')
                    ++k;
                else if (ch == quote)
                    quote = 0;
                continue;
            }
            if (ch == '#') break;
            if (ch == '"' || ch == '\'') {
                quote = ch;
                continue;
            }
            c.open += ch == '(' || ch == '[' || ch == '{' ? 1 : ch == ')' || ch == ']' || ch == '}' ? -1 : 0;
            c.text.push_back(ch);
        }
        size_t e = c.text.find_last_not_of(" \t\r");
        c.backslash = e != std::string::npos && c.text[e] == '\\';
        return c;
    };
    std::vector<std::pair<uint32_t, uint32_t>> out;
    for (uint32_t l = 1; l <= file.line_count(); ++l) {
        std::string_view t = file.line_text(l);
        const size_t w = indent(t);
        std::string_view rest = t.substr(w);
        if (rest.rfind("with pl.scope(", 0) != 0) continue;
        // The header runs to the line where its brackets close (`with pl.scope(\n mode=...\n):` is one scope
        // statement to the parser; reading only its first line took a manual scope for AUTO: hunt12).
        std::string header;
        uint32_t head_end = l;
        int depth = 0;
        for (uint32_t m = l; m <= file.line_count(); ++m) {
            const Code c = code(file.line_text(m));
            header += c.text;
            depth += c.open;
            head_end = m;
            if (depth <= 0 && !c.backslash) break;
        }
        if (header.find("pl.ScopeMode.MANUAL") == std::string::npos) continue;
        // `with pl.scope(...): stmt` on one line (the parser takes it): the body is that statement.
        {
            size_t k = header.find("pl.scope(") + std::string_view("pl.scope").size();
            int d = 0;
            for (; k < header.size(); ++k) {
                d += header[k] == '(' ? 1 : header[k] == ')' ? -1 : 0;
                if (d == 0) break;
            }
            const size_t colon = header.find(':', k);
            if (colon != std::string::npos && header.find_first_not_of(" \t\r\\", colon + 1) != std::string::npos) {
                out.emplace_back(head_end, head_end);
                continue;
            }
        }
        uint32_t last = head_end;
        int open = 0;
        bool continued = false;
        for (uint32_t m = head_end + 1; m <= file.line_count(); ++m) {
            std::string_view u = file.line_text(m);
            if (open <= 0 && !continued) {
                if (blank(u)) continue;
                if (indent(u) <= w) break;
            }
            last = m;
            const Code c = code(u);
            open = std::max(0, open + c.open);
            continued = c.backslash;
        }
        if (last > head_end) out.emplace_back(head_end + 1, last);
    }
    return out;
}

// The kernel parameters a launch C passes with pl.no_dep(arg) (PyPTO's printed form: attrs={"arg_direction_
// overrides": [k, ...]}, k counting the kernel's arguments): the runtime neither looks the argument up in its
// tensor map nor publishes it there (simpler: TensorArgType::NO_DEP).
std::set<size_t> no_dep_params(const Expr& c, size_t first) {
    std::set<size_t> out;
    for (size_t p = first; p < c.args.size(); ++p)
        if (c.args[p] && c.args[p]->kind == ExprKind::FuncCall && c.args[p]->sval == "pl.no_dep") out.insert(p - first);
    std::function<void(const Expr*)> dict = [&](const Expr* d) {
        if (!d || d->kind != ExprKind::Dict) return;
        for (size_t k = 0; k < d->args.size() && k < d->args2.size(); ++k) {
            if (!d->args[k] || !d->args2[k]) continue;
            if (d->args[k]->sval == "attrs") dict(d->args2[k].get());
            if (d->args[k]->sval != "arg_direction_overrides") continue;
            const Expr& l = *d->args2[k];
            if (l.kind != ExprKind::List && l.kind != ExprKind::Tuple) continue;
            for (const auto& e : l.args)
                if (auto v = const_int(e); v && *v >= 0) out.insert(static_cast<size_t>(*v));
        }
    };
    dict(c.attrs.get());
    return out;
}

}  // namespace

LaunchOrder::LaunchOrder(const Program& program, const Function& orch)
    : m_program(program), m_orch(orch), m_scopes(manual_scope_lines(*orch.loc.file)) {}

std::vector<Diagnostic> LaunchOrder::run() {
    find_untracked();
    collect(m_orch.body);
    // Every orchestration: two AUTO launches are ordered only as far as the runtime's tensor map orders them
    // (docs/DECISIONS.md, "AUTO scopes order readers after writers only").
    if (m_launches.empty()) return m_out;
    m_n_launch = m_launches.size();

    // The task-id tokens each value surely carries (a must-set: a task waits for every launch in it). A launch's
    // result carries the launch and everything its deps= carry (so a dependency is transitive); a task-id array
    // carries its elements at constant indices one by one (an update at an index not known leaves each element
    // only what both values surely carry; an element read at an index not known: nothing sure); a branch's value
    // what both arms yield; other values what they are computed from.
    // A loop's carried value (or element) at an iteration stands for itself, the carry token (v, e): "what the
    // previous iteration yielded there", plus what it surely carries at every iteration (`carried_must`: the
    // greatest part of the initial value every iteration's yield keeps). `yielded` is what the body yields there
    // (the previous iteration's launches, for the back edges below). A loop's result is what its last iteration
    // yields (met with the initial value when the loop may run no iteration): the LAST instance of a launch in
    // the loop, which orders the earlier ones only when they run one after another, except for an array the loop
    // fills one element per iteration (below). Values are followed in program order; each loop to its fixed point.
    scan_values();
    m_launch_deps.resize(m_n_launch);
    flow(m_orch.body);

    m_roots.emplace(m_orch, &m_program);
    find_accesses();
    order_launches();
    order_iterations();
    return std::move(m_out);
}

void LaunchOrder::find_untracked() {
    passes::walk(m_orch.body, [&](const StmtPtr& s) {
        const Expr* v = s->value.get();
        if (s->kind != StmtKind::Assign || !v || v->kind != ExprKind::FuncCall || v->sval != "pl.tensor.create" ||
            !v->attrs)
            return;
        for (size_t k = 0; k < v->attrs->args.size() && k < v->attrs->args2.size(); ++k)
            if (v->attrs->args[k]->sval == "manual_dep" && v->attrs->args2[k] &&
                v->attrs->args2[k]->kind == ExprKind::Bool && v->attrs->args2[k]->ival != 0)
                for (const auto& t : s->targets) m_untracked.insert(t.get());
    });
}

std::optional<size_t> LaunchOrder::scope_of(uint32_t line) {
    for (size_t k = 0; k < m_scopes.size(); ++k)
        if (line >= m_scopes[k].first && line <= m_scopes[k].second) return k;
    return std::nullopt;
}

void LaunchOrder::collect(const Block& body) {
    for (const auto& s : body) {
        std::function<void(const Expr*, int)> reads = [&](const Expr* e, int depth) {
            if (!e || depth > 32) return;
            if (e->kind == ExprKind::FuncCall && e->sval == "pl.tensor.read" && !e->args.empty() && e->args[0] &&
                e->args[0]->kind == ExprKind::Var)
                m_host_reads.push_back(
                    HostRead{m_launches.size(), e->args[0].get(), m_arms, m_loops, scope_of(s->loc.line).has_value()});
            for (const auto& a : e->args) reads(a.get(), depth + 1);
        };
        if (s->kind == StmtKind::Assign || s->kind == StmtKind::Eval) reads(s->value.get(), 0);
        if (s->value && (s->kind == StmtKind::Assign || s->kind == StmtKind::Eval) &&
            s->value->kind == ExprKind::FuncCall && s->value->ival != kFuncRef) {
            const Expr& c = *s->value;
            const LaunchTarget t = launch_target(c);
            const bool submit = t.submit;
            std::shared_ptr<Function> fn;
            if (submit || !is_host_op_call(c)) fn = m_program.find(t.kernel);
            if (fn && fn->type != FuncType::Orchestration) {
                m_launch_of[&c] = m_launches.size();
                ManualLaunch l{
                    s.get(), &c,      fn, submit ? size_t{1} : size_t{0}, scope_of(s->loc.line).value_or(kAuto),
                    m_arms,  m_loops, {}};
                l.no_dep = no_dep_params(c, l.first);
                if (m_spmd_depth > 0) m_in_spmd.insert(m_launches.size());
                m_launches.push_back(std::move(l));
            }
        }
        // A pl.spmd loop is one launch of its body's kernel on N blocks, not N submissions.
        if (s->kind == StmtKind::For) {
            const bool iterates = s->loop_kind != LoopKind::Spmd;
            if (iterates) m_loops.push_back(s.get());
            m_spmd_depth += iterates ? 0 : 1;
            collect(s->body);
            m_spmd_depth -= iterates ? 0 : 1;
            if (iterates) m_loops.pop_back();
        }
        if (s->kind == StmtKind::If) {
            m_if_depth[s.get()] = m_loops.size();
            m_arms.emplace_back(s.get(), 0);
            collect(s->body);
            m_arms.back().second = 1;
            collect(s->orelse);
            m_arms.pop_back();
        }
    }
}

void LaunchOrder::scan_values() {
    passes::walk(m_orch.body, [&](const StmtPtr& s) {
        if (s->kind != StmtKind::For) return;
        for (const auto& ia : s->iter_args)
            if (ia) m_carry_index.insert(ia.get());
    });
    passes::walk(m_orch.body, [&](const StmtPtr& s) {
        for (const auto& t : s->targets)
            if (s->kind != StmtKind::Assign || s->targets.size() != 1 ||
                !m_token_def.emplace(t.get(), s->value.get()).second)
                m_token_multi.insert(t.get());
    });
    for (const auto& p : m_orch.params)
        if (p.var) ++m_def_count[p.var.get()];
    passes::walk(m_orch.body, [&](const StmtPtr& s) {
        if (s->kind == StmtKind::Assign || s->kind == StmtKind::For || s->kind == StmtKind::If)
            for (const auto& t : s->targets)
                if (t) ++m_def_count[t.get()];
        if (s->kind == StmtKind::For) {
            if (s->loop_var) ++m_def_count[s->loop_var.get()];
            for (const auto& ia : s->iter_args)
                if (ia) ++m_def_count[ia.get()];
        }
    });
    for (const auto& [v, d] : m_token_def)
        if (defined_twice(v)) m_token_multi.insert(v);
    passes::walk(m_orch.body, [&](const StmtPtr& s) {
        if (s->kind == StmtKind::For && s->loop_var && defined_twice(s->loop_var.get()))
            m_rebound.insert(s->loop_var.get());
    });
    passes::walk(m_orch.body, [&](const StmtPtr& s) {
        if (s->kind != StmtKind::For) return;
        for (size_t k = 0; k < s->targets.size(); ++k)
            if (s->targets[k]) m_loop_result_of[s->targets[k].get()] = {s.get(), k};
    });
    passes::walk(m_orch.body, [&](const StmtPtr& s) {
        if (s->kind == StmtKind::For && s->loop_var) m_index_loop[s->loop_var.get()] = s.get();
    });
    {
        std::vector<const Stmt*> stack;
        std::function<void(const Block&)> go = [&](const Block& b) {
            for (const auto& st : b) {
                if (st->kind == StmtKind::Assign || st->kind == StmtKind::For || st->kind == StmtKind::If)
                    for (const auto& t : st->targets)
                        if (t) m_def_loops[t.get()] = stack;
                if (st->kind == StmtKind::For) {
                    m_enclosing[st.get()] = stack;
                    stack.push_back(st.get());
                    go(st->body);
                    stack.pop_back();
                } else if (st->kind == StmtKind::If) {
                    go(st->body);
                    go(st->orelse);
                }
            }
        };
        go(m_orch.body);
    }
}

bool LaunchOrder::defined_twice(const Var* v) {
    auto it = m_def_count.find(v);
    return it != m_def_count.end() && it->second > 1;
}

const Stmt* LaunchOrder::last_yield(const Block& b) {
    for (auto it = b.rbegin(); it != b.rend(); ++it)
        if ((*it)->kind == StmtKind::Yield) return it->get();
    return nullptr;
}

}  // namespace cvsim::launch_detail

namespace cvsim {

std::vector<Diagnostic> unordered_launches(const ir::Program& program, const ir::Function& orch) {
    std::vector<Diagnostic> out;
    if (orch.type != ir::FuncType::Orchestration || !orch.loc.file) return out;
    // Launches inside an Orchestration function ORCH calls are launches of ORCH (the runtime submits them in its
    // task stream): the calls are inlined first (docs/DECISIONS.md, "An orchestration called by another"). A call
    // inside a manual scope puts the callee's launches in that scope.
    std::shared_ptr<ir::Program> inlined;
    std::map<const ir::Stmt*, int> origin;
    try {
        const auto scopes = launch_detail::manual_scope_lines(*orch.loc.file);
        inlined = inline_orchestration_calls(
            program, orch.name,
            [&](uint32_t line) {
                for (const auto& [first, last] : scopes)
                    if (line >= first && line <= last) return true;
                return false;
            },
            &origin);
    } catch (const CompileError& e) {
        out.push_back(e.diag());
        return out;
    }
    if (!inlined) return launch_detail::LaunchOrder(program, orch).run();
    auto f = inlined->find(orch.name);
    launch_detail::LaunchOrder lo(*inlined, *f);
    lo.set_origin(std::move(origin));
    return lo.run();
}

}  // namespace cvsim
