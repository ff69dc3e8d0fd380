// Entry selection, expansion and the launch plan.
#include "frontend/launch.h"

#include <fmt/format.h>

#include "frontend/codes.h"
#include "frontend/diag.h"
#include "frontend/launch_internal.h"
#include "frontend/ops.h"
#include "frontend/passes/capacity.h"
#include "frontend/passes/ir_util.h"
#include "frontend/passes/ring_buffers.h"

#include <algorithm>
#include <deque>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <tuple>

namespace cvsim {

using namespace ir;
using namespace launch_detail;

const ExprPtr* core_num_attr(const Expr& call) {
    const Expr* d = call.attrs.get();
    if (!d || d->kind != ExprKind::Dict) return nullptr;
    for (size_t i = 0; i < d->args.size() && i < d->args2.size(); ++i)
        if (d->args[i] && d->args[i]->sval == "core_num" && d->args2[i]) return &d->args2[i];
    return nullptr;
}

std::shared_ptr<Function> pick_entry(const Program& p, const std::string& name) {
    if (!name.empty()) {
        auto f = p.find(name);
        if (!f) {
            std::string names;
            for (auto& g : p.functions) names += (names.empty() ? "" : ", ") + g->name;
            raise(codes::kEntry, p.functions.empty() ? SourceLoc{} : p.functions[0]->loc,
                  fmt::format("--entry {}: the program has no such function", name), "functions: " + names);
        }
        return f;
    }
    // The outermost launcher: the only Orchestration, else the only Spmd, else the only Group, else the only
    // InCore function.
    SourceLoc loc = p.functions.empty() ? SourceLoc{} : p.functions[0]->loc;
    for (FuncType t : {FuncType::Orchestration, FuncType::Spmd, FuncType::Group, FuncType::InCore}) {
        std::vector<std::shared_ptr<Function>> of;
        for (auto& f : p.functions)
            if (f->type == t && f->specialised_from.empty()) of.push_back(f);  // a per-call copy is a callee
        if (of.size() == 1) return of[0];
        if (of.size() > 1)
            raise(codes::kEntry, of[1]->loc,
                  fmt::format("the program has several {} functions; choose one with --entry NAME", func_type_name(t)));
    }
    raise(codes::kEntry, loc, "the program has no Orchestration, Spmd, Group or InCore function to launch",
          "give the entry with --entry NAME");
}

namespace {

// The first function a launch of F reaches (F itself, the kernels it calls) that uses distributed state.
const Function* distributed_reached(const Program& p, const Function& f, int depth) {
    if (!f.distributed.what.empty()) return &f;
    if (depth > 8) return nullptr;
    const Function* hit = nullptr;
    passes::walk(f.body, [&](const StmtPtr& s) {
        if (hit || !s->value || s->value->kind != ExprKind::FuncCall || is_host_op_call(*s->value)) return;
        if (auto g = p.find(s->value->sval)) hit = distributed_reached(p, *g, depth + 1);
    });
    return hit;
}

// The functions F calls or submits (self.g(...), pl.submit(self.g, ...)), by name.
// Every call in any expression of a statement (values, bounds, nested arguments): over-approximating is safe.
std::vector<std::string> callees_of(const Function& f) {
    std::vector<std::string> out;
    std::function<void(const ExprPtr&, int)> ex = [&](const ExprPtr& e, int depth) {
        if (!e || depth > 64) return;
        if (e->kind == ExprKind::FuncCall) out.push_back(e->sval);  // a host op's name matches no function
        for (const auto& a : e->args) ex(a, depth + 1);
        for (const auto& a : e->args2) ex(a, depth + 1);
    };
    passes::walk(f.body, [&](const StmtPtr& s) {
        for (const ExprPtr* e : {&s->value, &s->start, &s->stop, &s->step}) ex(*e, 0);
        for (const auto& v : s->values) ex(v, 0);
        for (const auto& v : s->init_values) ex(v, 0);
    });
    return out;
}

}  // namespace

// F and every function it reaches through calls and submits.
std::set<const Function*> reached_from(const Program& p, const Function& f) {
    std::set<const Function*> seen = {&f};
    std::vector<const Function*> todo = {&f};
    while (!todo.empty()) {
        const Function* g = todo.back();
        todo.pop_back();
        for (const auto& name : callees_of(*g))
            if (auto h = p.find(name); h && seen.insert(h.get()).second) todo.push_back(h.get());
    }
    return seen;
}

Program sub_program(const Program& p, const std::set<const Function*>& keep) {
    Program sub;
    sub.name = p.name;
    sub.sources = p.sources;
    for (const auto& f : p.functions)
        if (keep.count(f.get())) sub.functions.push_back(f);
    return sub;
}

namespace {

// Of FNS, the unread function (Function::unread) whose diagnostic comes first in the source; nullptr: none.
template <class Range>
const Function* first_unread(const Range& fns) {
    const Function* first = nullptr;
    for (const auto& f : fns)
        if (f->is_unread() && (!first || loc_before(f->unread.diag->loc, first->unread.diag->loc))) first = &*f;
    return first;
}

// The first function (in source order) that a launch of F reaches and cvsim could not read.
const Function* unread_reached(const Program& p, const Function& f) {
    return first_unread(reached_from(p, f));
}

// Kernels launched by an Orchestration function, in program order, each once (self.f(...) statements and the
// kernels of pl.submit / pl.spmd_submit); `host` is set when it also runs host ops cvsim does not execute.
void collect_launches(const Program& p, const Function& f, std::vector<KernelLaunch>& out, bool& host, int depth) {
    if (depth > 8) return;
    passes::walk(f.body, [&](const StmtPtr& s) {
        const ExprPtr& v = s->value;
        if (!v || v->kind != ExprKind::FuncCall) return;
        // ARGS: the kernel's arguments in parameter order (nullptr: unknown, e.g. passed through a submit).
        auto add = [&](const std::string& name, const std::vector<ExprPtr>* args) {
            auto callee = p.find(name);
            if (!callee) return;
            std::shared_ptr<const Diagnostic> refused;  // what launch_alias_groups cannot bind
            if (args) {
                try {
                    launch_alias_groups(&p, f, *callee, *args, v->loc);
                } catch (const CompileError& err) {
                    refused = std::make_shared<const Diagnostic>(err.diag());
                }
            }
            // An unread orchestration (no body) is a launch of its own: check reports it not checked.
            if (callee->type == FuncType::Orchestration && !callee->is_unread()) {
                if (refused) throw CompileError(*refused);
                return collect_launches(p, *callee, out, host, depth + 1);
            }
            for (auto& k : out)
                if (k.name == name) {  // the first launch site gives the scalar arguments
                    if (refused && !k.rejected) k.rejected = refused;
                    return;
                }
            KernelLaunch k;
            k.name = name;
            k.rejected = refused;
            if (auto n = launch_core_num(*v))
                k.blocks = static_cast<int>(*n);
            else
                k.runtime_core_num = core_num_attr(*v) != nullptr;
            for (size_t i = 0; i < callee->params.size(); ++i) {
                const Var& pv = *callee->params[i].var;
                if (pv.type.kind != TypeKind::Scalar) continue;
                const ExprPtr a = args && i < args->size() ? (*args)[i] : nullptr;
                if (auto c = const_int(a))
                    k.scalars.emplace_back(pv.name, std::to_string(*c));
                else if (auto d = const_number(a))
                    k.scalars.emplace_back(pv.name, fmt::format("{}", *d));
                else
                    k.computed.push_back(pv.name);
            }
            k.distributed = distributed_reached(p, *callee, 0) != nullptr;
            k.unread = unread_reached(p, *callee) != nullptr;
            out.push_back(std::move(k));
        };
        if (!is_host_op_call(*v)) return add(v->sval, &v->args);
        host = true;
        for (size_t i = 0; i < v->args.size(); ++i)
            if (const ExprPtr& a = v->args[i]; a && a->kind == ExprKind::FuncCall && a->ival == kFuncRef) {
                std::vector<ExprPtr> rest(v->args.begin() + static_cast<std::ptrdiff_t>(i) + 1, v->args.end());
                add(a->sval, &rest);
            }
    });
}

std::string several_launches(const Program& p, const Function& f) {
    std::vector<KernelLaunch> launches;
    bool host = false;
    collect_launches(p, f, launches, host, 0);
    std::vector<std::string> names;
    for (const auto& k : launches) names.push_back(k.name);
    return fmt::format("'{}' launches {} kernels ({}); check and explore take each in turn, run one with --entry NAME",
                       f.name, names.size(), fmt::join(names, ", "));
}

// Where a function's parameters come from, relative to the launch (entry parameters, created tensors, constants).
struct Sources {
    std::vector<int> from;  // per parameter (rt::kConstArg / rt::kCreatedArg - k / entry index)
    std::vector<rt::ArgBinding> consts;
};

bool attr_true(const Function& f, const char* key) {
    const Attr* a = f.attr(key);
    return a && a->value && a->value->ival != 0;
}

// Do both AIV lanes run the AIV function's body (each its own half, or both the whole of it)? A split
// function (attr `split`) or one in per-lane form (attr `split_aiv`: a split_aiv region, lowered by PyPTO's
// LowerAutoVectorSplit or flattened by cvsim's expander) always. An unsplit function marked
// `dual_aiv_dispatch` runs both lanes on a5; on a2a3 PyPTO's SplitVectorKernel (910B backend,
// ProcessNoSplitDualAivFunction) turns lane 1 into a replay of lane 0's handshakes (loads become empty tiles,
// stores are dropped), which is what the plan's lane-1 replay models.
bool aiv_splits(const Function& f, Target target) {
    if (f.split_mode() != SplitMode::NONE || attr_true(f, "split_aiv")) return true;
    return target == Target::A5 && attr_true(f, "dual_aiv_dispatch");
}

class Planner {
  public:
    Planner(Compiled& c) : m_c(c), m_plan(c.plan) {}

    void run(const std::shared_ptr<Function>& entry) {
        Sources src;
        for (size_t i = 0; i < entry->params.size(); ++i) {
            src.from.push_back(static_cast<int>(i));
            src.consts.emplace_back();
        }
        launch(entry, src, 0);
    }

  private:
    Compiled& m_c;
    rt::LaunchPlan& m_plan;
    std::map<const Var*, int> m_created;  // Orchestration-created tensor variables -> created index

    rt::LaneProgram program_of(const std::shared_ptr<Function>& fn, const Sources& s) {
        refuse_distributed(*fn);
        rt::LaneProgram lp;
        lp.fn = fn;
        lp.entry_param = s.from;
        lp.args = s.consts;
        return lp;
    }

    // Sources of a call's arguments inside `caller`, whose own parameters come from `outer`.
    // V bound (once) to a kernel launch's result in CALLER: the variable passed as the parameter that kernel
    // returns; nullptr when that is not known.
    const Var* launch_result_source(const Function& caller, const Var* v) const {
        const Stmt* def = nullptr;
        int n = 0;
        size_t index = 0;
        passes::walk(caller.body, [&](const StmtPtr& st) {
            for (size_t k = 0; k < st->targets.size(); ++k)
                if (st->targets[k].get() == v) {
                    ++n;
                    def = st.get();
                    index = st->targets.size() > 1 ? k : 0;
                }
        });
        if (n != 1 || def->kind != StmtKind::Assign || !def->value) return nullptr;
        if (def->value->kind == ExprKind::Var) return def->value->var.get();  // `v = buf`: the same tensor
        if (def->value->kind != ExprKind::FuncCall) return nullptr;
        const Program* prog = m_c.original.get();
        auto callee = prog ? prog->find(def->value->sval) : nullptr;
        if (!callee) return nullptr;
        auto k = returned_param(prog, *callee, index, 0);
        if (!k || *k >= def->value->args.size()) return nullptr;
        const ExprPtr& arg_k = def->value->args[*k];
        return arg_k && arg_k->kind == ExprKind::Var ? arg_k->var.get() : nullptr;
    }

    // The value of a scalar E of CALLER (a Spmd / Group wrapper computing a kernel's scalar argument, e.g.
    // `row = base * 2`) when it depends only on constants and on parameters its launcher passes as constants:
    // integer + - * // % (Python's floor semantics), pl.min / pl.max, unary minus, pl.cast, float + - * /.
    // nullopt otherwise.
    std::optional<rt::Scalar> wrapper_scalar(const Function& caller, const Expr* e, const Sources& outer,
                                             int depth) const {
        if (!e || depth > 32) return std::nullopt;
        if (e->kind == ExprKind::Int || e->kind == ExprKind::Bool)
            return rt::Scalar::of_int(e->ival, e->type.kind == TypeKind::Scalar ? e->type.dtype : DType::INDEX);
        if (e->kind == ExprKind::Float) return rt::Scalar::of_float(e->fval);
        if (e->kind == ExprKind::Var && e->var) {
            const Var* v = e->var.get();
            for (size_t i = 0; i < caller.params.size(); ++i)
                if (caller.params[i].var.get() == v)
                    return i < outer.from.size() && outer.from[i] == rt::kConstArg &&
                                   outer.consts[i].kind == rt::ArgBinding::Kind::Scalar
                               ? std::optional<rt::Scalar>(outer.consts[i].scalar)
                               : std::nullopt;
            const Expr* def = nullptr;
            int n = 0;
            passes::walk(caller.body, [&](const StmtPtr& st) {
                for (const auto& t : st->targets)
                    if (t.get() == v) {
                        ++n;
                        def = st->kind == StmtKind::Assign && st->targets.size() == 1 ? st->value.get() : nullptr;
                    }
            });
            return n == 1 && def ? wrapper_scalar(caller, def, outer, depth + 1) : std::nullopt;
        }
        if (e->kind == ExprKind::Unary && e->sval == "-" && !e->args.empty()) {
            auto a = wrapper_scalar(caller, e->args[0].get(), outer, depth + 1);
            if (!a) return std::nullopt;
            if (a->is_float()) return rt::Scalar::of_float(-a->f, a->dtype);
            return rt::Scalar::of_int(-a->i, a->dtype);
        }
        const bool minmax = e->kind == ExprKind::FuncCall && (e->sval == "pl.min" || e->sval == "pl.max");
        if (e->kind == ExprKind::FuncCall && e->sval == "pl.cast" && !e->args.empty()) {
            auto a = wrapper_scalar(caller, e->args[0].get(), outer, depth + 1);
            if (!a || e->type.kind != TypeKind::Scalar) return std::nullopt;
            return dtype_is_float(e->type.dtype) ? rt::Scalar::of_float(a->as_double(), e->type.dtype)
                                                 : rt::Scalar::of_int(a->as_int(), e->type.dtype);
        }
        if ((e->kind != ExprKind::Binary && !minmax) || e->args.size() != 2) return std::nullopt;
        auto a = wrapper_scalar(caller, e->args[0].get(), outer, depth + 1);
        auto b = wrapper_scalar(caller, e->args[1].get(), outer, depth + 1);
        if (!a || !b) return std::nullopt;
        const std::string op = minmax ? e->sval : e->sval;
        if (a->is_float() || b->is_float()) {
            const double x = a->as_double(), y = b->as_double();
            if (op == "+") return rt::Scalar::of_float(x + y);
            if (op == "-") return rt::Scalar::of_float(x - y);
            if (op == "*") return rt::Scalar::of_float(x * y);
            if (op == "/" && y != 0) return rt::Scalar::of_float(x / y);
            if (op == "pl.min") return rt::Scalar::of_float(std::min(x, y));
            if (op == "pl.max") return rt::Scalar::of_float(std::max(x, y));
            return std::nullopt;
        }
        const int64_t x = a->i, y = b->i;
        const DType dt = a->dtype;
        auto fits = [](__int128 r) { return r >= INT64_MIN && r <= INT64_MAX; };
        if (op == "+" && fits(static_cast<__int128>(x) + y)) return rt::Scalar::of_int(x + y, dt);
        if (op == "-" && fits(static_cast<__int128>(x) - y)) return rt::Scalar::of_int(x - y, dt);
        if (op == "*" && fits(static_cast<__int128>(x) * y)) return rt::Scalar::of_int(x * y, dt);
        if ((op == "//" || op == "%") && y != 0 && !(x == INT64_MIN && y == -1)) {
            int64_t q = x / y, r = x % y;
            if (r != 0 && ((r < 0) != (y < 0))) --q, r += y;
            return rt::Scalar::of_int(op == "//" ? q : r, dt);
        }
        if (op == "pl.min") return rt::Scalar::of_int(std::min(x, y), dt);
        if (op == "pl.max") return rt::Scalar::of_int(std::max(x, y), dt);
        return std::nullopt;
    }

    Sources map_call(const Function& caller, const Expr& call, const Sources& outer) {
        Sources s;
        for (const auto& a : call.args) {
            int from = rt::kConstArg;
            rt::ArgBinding b;
            if (a && a->kind == ExprKind::Var) {
                // A caller parameter, a tensor the orchestration created, or the result of an earlier launch in
                // the caller: the argument that kernel returns (its Out tensor), followed until one of the first two.
                auto bind = [&](const Var* v) {
                    for (size_t i = 0; i < caller.params.size(); ++i) {
                        if (caller.params[i].var.get() != v) continue;
                        if (i < outer.from.size()) {
                            from = outer.from[i];
                            b = outer.consts[i];
                            return true;
                        }
                        // A parameter the expander added (the soft-syncall workspace, __x) that the caller's own
                        // launcher does not pass: one zeroed GM tensor of the launch, as an orchestration creates.
                        if (v->name.rfind("__", 0) != 0 || v->type.kind != TypeKind::Tensor)
                            raise(codes::kUnsupported, a->loc,
                                  fmt::format("'{}' is a parameter of '{}' that its launch does not pass", v->name,
                                              caller.name));
                        if (!m_created.count(v)) {
                            rt::CreatedTensor t;
                            t.name = v->name;
                            t.dtype = v->type.dtype;
                            t.shape = v->type.shape;
                            m_created.emplace(v, static_cast<int>(m_plan.created.size()));
                            m_plan.created.push_back(t);
                        }
                    }
                    auto it = m_created.find(v);
                    if (it == m_created.end()) return false;
                    from = rt::kCreatedArg - it->second;
                    return true;
                };
                const Var* v = a->var.get();
                // A scalar the wrapper computes from what its launcher passes (a constant at the launch).
                if (v->type.kind == TypeKind::Scalar && !bind(v)) {
                    auto val = wrapper_scalar(caller, a.get(), outer, 0);
                    if (!val)
                        raise(codes::kUnsupported, a->loc,
                              fmt::format("'{}' is a scalar '{}' computes from values cvsim does not know when it "
                                          "plans the launch (a parameter its launcher does not pass as a constant, "
                                          "or an operation other than + - * // % / pl.min pl.max pl.cast)",
                                          v->name, caller.name));
                    s.from.push_back(rt::kConstArg);
                    b.kind = rt::ArgBinding::Kind::Scalar;
                    b.scalar = *val;
                    s.consts.push_back(b);
                    continue;
                }
                for (int hop = 0; v && !bind(v); ++hop) v = hop < 16 ? launch_result_source(caller, v) : nullptr;
                if (!v)
                    raise(codes::kUnsupported, a->loc,
                          fmt::format("'{}' is neither a parameter nor a tensor created with pl.create_tensor",
                                      a->var->name));
            } else {
                b.kind = rt::ArgBinding::Kind::Scalar;
                if (auto v = const_int(a))
                    b.scalar = rt::Scalar::of_int(*v);
                else if (auto d = const_number(a))
                    b.scalar = rt::Scalar::of_float(*d);
                else
                    raise(codes::kUnsupported, a ? a->loc : call.loc,
                          "a launcher may only pass parameters, created tensors or constants to its kernels");
            }
            s.from.push_back(from);
            s.consts.push_back(b);
        }
        return s;
    }

    void launch(const std::shared_ptr<Function>& fn, const Sources& src, int depth) {
        if (depth > 8) raise(codes::kUnsupported, fn->loc, "launchers nested more than 8 deep");
        const Function& f = *fn;
        refuse_distributed(f);
        // A mixed InCore kernel was expanded into a Group of the same name: the reference runs the original.
        if (auto original = m_c.original->find(f.name); original && !m_plan.mixed && passes::is_mixed(*original)) {
            m_c.mixed = true;
            m_plan.mixed = original;
            m_plan.mixed_prog = program_of(original, src);
        }
        switch (f.type) {
            case FuncType::Group:
                passes::walk(f.body, [&](const StmtPtr& s) {
                    const ExprPtr& v = s->value;
                    if (!v || v->kind != ExprKind::FuncCall) return;
                    auto callee = m_c.expanded->find(v->sval);
                    if (!callee) return;
                    Sources cs = map_call(f, *v, src);
                    if (callee->type == FuncType::AIC)
                        m_plan.aic = program_of(callee, cs);
                    else if (callee->type == FuncType::AIV)
                        m_plan.aiv = program_of(callee, cs);
                    else
                        raise(codes::kUnsupported, v->loc,
                              fmt::format("a Group function launches AIC and AIV functions; '{}' is {}", callee->name,
                                          func_type_name(callee->type)));
                });
                if (!m_plan.aic && !m_plan.aiv)
                    raise(codes::kEntry, f.loc,
                          fmt::format("Group function '{}' launches no AIC or AIV function", f.name));
                return;
            case FuncType::AIC:
                m_plan.aic = program_of(fn, src);
                return;
            case FuncType::AIV:
                m_plan.aiv = program_of(fn, src);
                return;
            case FuncType::InCore: {
                // A non-mixed InCore function runs on the core type its statements need.
                bool cube = false;
                passes::walk(f.body, [&](const StmtPtr& s) { cube |= passes::stmt_side(*s) == Side::Cube; });
                if (cube)
                    m_plan.aic = program_of(fn, src);
                else
                    m_plan.aiv = program_of(fn, src);
                return;
            }
            case FuncType::Spmd:
            case FuncType::Orchestration: {
                // Tensors it creates, the SPMD width, the one kernel it calls.
                const Expr* call = nullptr;
                int blocks = 0;
                int64_t spmd = 1;  // blocks of the enclosing pl.spmd loops (their product)
                std::function<void(const Block&)> scan = [&](const Block& b) {
                    for (const auto& s : b) {
                        if (const Expr* c = passes::stmt_call(*s);
                            c && c->op->code == OpCode::TensorCreate && !s->targets.empty()) {
                            rt::CreatedTensor t;
                            t.name = s->targets[0]->name;
                            t.dtype = c->type.dtype;
                            t.shape = c->type.shape;
                            m_created[s->targets[0].get()] = static_cast<int>(m_plan.created.size());
                            m_plan.created.push_back(t);
                        }
                        if (s->value && s->value->kind == ExprKind::FuncCall) {
                            if (is_host_op_call(*s->value))
                                raise(codes::kUnsupported, s->loc,
                                      fmt::format("'{}' runs the host op '{}', which cvsim reads but does not execute",
                                                  f.name, s->value->sval),
                                      "check and explore take each kernel it launches in turn; run one with --entry "
                                      "NAME");
                            if (call && call->sval != s->value->sval)
                                raise(codes::kEntry, s->loc,
                                      several_launches(m_c.expanded ? *m_c.expanded : *m_c.original, f));
                            call = s->value.get();
                            if (auto n = launch_core_num(*call))
                                blocks = static_cast<int>(*n);
                            else if (spmd > 1)
                                blocks = static_cast<int>(spmd);
                        }
                        if (s->kind == StmtKind::For && s->loop_kind == LoopKind::Spmd) {
                            auto n = const_int(s->stop);
                            if (!n || *n < 1)
                                raise(codes::kUnsupported, s->loc, "pl.spmd needs a constant block count");
                            // Nested in another pl.spmd: every outer block runs the inner blocks (their product).
                            // Never fewer blocks than the program launches: the others' races would be missed.
                            const int64_t saved = spmd;
                            if (*n > 4096 / spmd)
                                raise(codes::kUnsupported, s->loc,
                                      fmt::format("pl.spmd launches {} blocks here; cvsim launches 1 to 4096",
                                                  *n > INT64_MAX / spmd ? INT64_MAX : *n * spmd));
                            // Two launches in one body: each block runs both, beside the other blocks (block
                            // i's second launch can race with block j's first), which one launch does not model.
                            const int sites = spmd_body_launches(*m_c.expanded, s->body);
                            if (sites > 1)
                                raise(codes::kUnsupported, s->loc,
                                      fmt::format("this pl.spmd loop makes {} launches in each block (one in a loop "
                                                  "counts twice); cvsim checks "
                                                  "one launch of one kernel at a time, not the blocks of one beside "
                                                  "those of another",
                                                  sites));
                            spmd *= *n;
                            scan(s->body);
                            spmd = saved;
                            continue;
                        }
                        scan(s->body);
                        scan(s->orelse);
                    }
                };
                scan(f.body);
                if (!call)
                    raise(codes::kEntry, f.loc,
                          fmt::format("{} function '{}' launches no kernel", func_type_name(f.type), f.name));
                if (blocks > 0) m_plan.blocks = blocks;
                auto callee = m_c.expanded->find(call->sval);
                if (!callee)
                    raise(codes::kName, call->loc, fmt::format("the program has no function '{}'", call->sval));
                Sources cs = map_call(f, *call, src);
                // One tensor passed as two parameters of one type is bound to both: they share its GM bytes.
                if (auto orig = m_c.original->find(call->sval))
                    refuse_aliased_arguments(
                        m_c.original.get(), f, *orig, call->args, call->loc, [&](size_t i, size_t j) {
                            return j < cs.from.size() && cs.from[i] == cs.from[j] && cs.from[i] != rt::kConstArg &&
                                   orig->params[i].var->type.shape == orig->params[j].var->type.shape &&
                                   orig->params[i].var->type.dtype == orig->params[j].var->type.dtype;
                        });
                return launch(callee, cs, depth + 1);
            }
            default:
                raise(codes::kUnsupported, f.loc,
                      fmt::format("launching a {} function is not supported", func_type_name(f.type)));
        }
    }
};

// TASK_ID (PyPTO's orchestration task handle) is read and sized, but it has no arithmetic: a lane program that
// would hold such a value is refused before it runs, naming the variable.
const ir::Type* without_numerics(const Type& t) {
    if (t.kind == TypeKind::Tuple) {
        for (auto& e : t.elems)
            if (auto* bad = without_numerics(e)) return bad;
        return nullptr;
    }
    bool valued = t.kind == TypeKind::Scalar || t.kind == TypeKind::Tensor || t.kind == TypeKind::Tile;
    return valued && !dtype_has_numerics(t.dtype) ? &t : nullptr;
}

void check_numerics(const Function& f) {
    for (const auto& v : f.vars)
        if (const Type* bad = without_numerics(v->type))
            raise(
                codes::kUnsupported, v->loc,
                fmt::format(
                    "'{}' has dtype pl.{}, an orchestration task handle that a lane program cannot compute with",
                    v->name, dtype_name(bad->dtype)),
                "cvsim expand still works on this program; run and check need a numeric dtype (floats, FP8, integers)",
                static_cast<uint32_t>(std::max<size_t>(v->name.size(), 1)));
}

}  // namespace

// ---- Launches of a manual scope (docs/DECISIONS.md, "Manual scopes") ----

namespace {

// The line ranges (the `with` line, the last line of its body) of every `with pl.scope(mode=pl.ScopeMode.MANUAL)`
// of FILE: the body is the following lines indented deeper than the `with` (blank and comment lines inside).
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
    std::vector<std::pair<uint32_t, uint32_t>> out;
    for (uint32_t l = 1; l <= file.line_count(); ++l) {
        std::string_view t = file.line_text(l);
        const size_t w = indent(t);
        std::string_view rest = t.substr(w);
        if (rest.rfind("with pl.scope(", 0) != 0 || rest.find("pl.ScopeMode.MANUAL") == std::string_view::npos)
            continue;
        uint32_t last = l;
        for (uint32_t m = l + 1; m <= file.line_count(); ++m) {
            std::string_view u = file.line_text(m);
            if (blank(u)) continue;
            if (indent(u) <= w) break;
            last = m;
        }
        out.emplace_back(l, last);
    }
    return out;
}

struct ManualLaunch {
    const Stmt* stmt = nullptr;
    const Expr* call = nullptr;
    std::shared_ptr<Function> callee;
    size_t first = 0;                               // the callee's first argument in call->args (1 for a submit)
    size_t scope = 0;                               // index of its manual scope
    std::vector<std::pair<const Stmt*, int>> arms;  // the branch arms it sits in (If, 0 then / 1 else)
    std::vector<const Stmt*> loops;                 // the loops it sits in (For, outermost first; no pl.spmd)
    std::set<size_t> no_dep;                        // the kernel parameters it passes with pl.no_dep
};

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

// An integer value of the orchestration as sum(coef * loop variable) + constant (nullopt: not of that form).
struct Affine {
    std::map<const Var*, int64_t> coef;
    int64_t c = 0;
};

}  // namespace

const std::string& launched_kernel(const Expr& call) {
    return launch_target(call).kernel;
}

std::vector<Diagnostic> unordered_launches(const Program& program, const Function& orch) {
    std::vector<Diagnostic> out;
    if (orch.type != FuncType::Orchestration || !orch.loc.file) return out;
    const auto scopes = manual_scope_lines(*orch.loc.file);
    // Tensors the runtime does not track in an AUTO scope either: pl.tensor.create(..., manual_dep=True).
    std::set<const Var*> untracked;
    passes::walk(orch.body, [&](const StmtPtr& s) {
        const Expr* v = s->value.get();
        if (s->kind != StmtKind::Assign || !v || v->kind != ExprKind::FuncCall || v->sval != "pl.tensor.create" ||
            !v->attrs)
            return;
        for (size_t k = 0; k < v->attrs->args.size() && k < v->attrs->args2.size(); ++k)
            if (v->attrs->args[k]->sval == "manual_dep" && v->attrs->args2[k] &&
                v->attrs->args2[k]->kind == ExprKind::Bool && v->attrs->args2[k]->ival != 0)
                for (const auto& t : s->targets) untracked.insert(t.get());
    });
    constexpr size_t kAuto = std::numeric_limits<size_t>::max();  // ManualLaunch::scope of a launch in no manual scope
    auto scope_of = [&](uint32_t line) -> std::optional<size_t> {
        for (size_t k = 0; k < scopes.size(); ++k)
            if (line > scopes[k].first && line <= scopes[k].second) return k;
        return std::nullopt;
    };
    // The launches, in program order, with the loops and branch arms they sit in.
    std::vector<ManualLaunch> launches;
    std::map<const Expr*, size_t> launch_of;
    std::vector<std::pair<const Stmt*, int>> arms;
    std::vector<const Stmt*> loops;
    std::map<const Stmt*, size_t> if_depth;  // the loops around each branch
    // The orchestration's own reads of tensor data (pl.tensor.read), in program order among the launches: the
    // host waits there for the tensor's writers (docs/DECISIONS.md, "Manual scopes", host reads).
    struct HostRead {
        size_t pos = 0;  // launches before it in program order
        const Expr* tensor = nullptr;
        std::vector<std::pair<const Stmt*, int>> arms;
        std::vector<const Stmt*> loops;
        bool in_manual_scope = false;
    };
    std::vector<HostRead> host_reads;
    std::function<void(const Block&)> collect = [&](const Block& body) {
        for (const auto& s : body) {
            std::function<void(const Expr*, int)> reads = [&](const Expr* e, int depth) {
                if (!e || depth > 32) return;
                if (e->kind == ExprKind::FuncCall && e->sval == "pl.tensor.read" && !e->args.empty() && e->args[0] &&
                    e->args[0]->kind == ExprKind::Var)
                    host_reads.push_back(
                        HostRead{launches.size(), e->args[0].get(), arms, loops, scope_of(s->loc.line).has_value()});
                for (const auto& a : e->args) reads(a.get(), depth + 1);
            };
            if (s->kind == StmtKind::Assign || s->kind == StmtKind::Eval) reads(s->value.get(), 0);
            if (s->value && (s->kind == StmtKind::Assign || s->kind == StmtKind::Eval) &&
                s->value->kind == ExprKind::FuncCall && s->value->ival != kFuncRef) {
                const Expr& c = *s->value;
                const LaunchTarget t = launch_target(c);
                const bool submit = t.submit;
                std::shared_ptr<Function> fn;
                if (submit || !is_host_op_call(c)) fn = program.find(t.kernel);
                if (fn && fn->type != FuncType::Orchestration) {
                    launch_of[&c] = launches.size();
                    ManualLaunch l{
                        s.get(), &c,    fn, submit ? size_t{1} : size_t{0}, scope_of(s->loc.line).value_or(kAuto),
                        arms,    loops, {}};
                    l.no_dep = no_dep_params(c, l.first);
                    launches.push_back(std::move(l));
                }
            }
            // A pl.spmd loop is one launch of its body's kernel on N blocks, not N submissions.
            if (s->kind == StmtKind::For) {
                const bool iterates = s->loop_kind != LoopKind::Spmd;
                if (iterates) loops.push_back(s.get());
                collect(s->body);
                if (iterates) loops.pop_back();
            }
            if (s->kind == StmtKind::If) {
                if_depth[s.get()] = loops.size();
                arms.emplace_back(s.get(), 0);
                collect(s->body);
                arms.back().second = 1;
                collect(s->orelse);
                arms.pop_back();
            }
        }
    };
    collect(orch.body);
    // Every orchestration: two AUTO launches are ordered only as far as the runtime's tensor map orders them
    // (docs/DECISIONS.md, "AUTO scopes order readers after writers only").
    if (launches.empty()) return out;

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
    const size_t n_launch = launches.size();
    constexpr int64_t kWhole = std::numeric_limits<int64_t>::min();  // the element of a scalar carried value
    std::set<const Var*> carry_index;                                // the loops' carried values
    passes::walk(orch.body, [&](const StmtPtr& s) {
        if (s->kind != StmtKind::For) return;
        for (const auto& ia : s->iter_args)
            if (ia) carry_index.insert(ia.get());
    });
    // Single assignments of the orchestration (an array filled per iteration is recognised through them).
    std::map<const Var*, const Expr*> token_def;
    std::set<const Var*> token_multi;
    passes::walk(orch.body, [&](const StmtPtr& s) {
        for (const auto& t : s->targets)
            if (s->kind != StmtKind::Assign || s->targets.size() != 1 ||
                !token_def.emplace(t.get(), s->value.get()).second)
                token_multi.insert(t.get());
    });
    // How many times each name is defined: as a parameter, an assignment's target, a loop's or branch's result
    // (once: their yields name the same results), a loop index, a carried value. The parser gives every use of a
    // name one variable, so a name defined more than once has no single value cvsim follows.
    std::map<const Var*, int> def_count;
    for (const auto& p : orch.params)
        if (p.var) ++def_count[p.var.get()];
    passes::walk(orch.body, [&](const StmtPtr& s) {
        if (s->kind == StmtKind::Assign || s->kind == StmtKind::For || s->kind == StmtKind::If)
            for (const auto& t : s->targets)
                if (t) ++def_count[t.get()];
        if (s->kind == StmtKind::For) {
            if (s->loop_var) ++def_count[s->loop_var.get()];
            for (const auto& ia : s->iter_args)
                if (ia) ++def_count[ia.get()];
        }
    });
    auto defined_twice = [&](const Var* v) {
        auto it = def_count.find(v);
        return it != def_count.end() && it->second > 1;
    };
    for (const auto& [v, d] : token_def)
        if (defined_twice(v)) token_multi.insert(v);
    // A task-id array a loop nest fills one element per iteration: after the nest, element e holds the task id
    // the one iteration whose index expression is e stored (PyPTO's lowering of a list of task ids built in
    // loops: `tids[g * 8 + n] = tid`). The nest's loops have constant ranges, the array goes through every level
    // as a carried value, the innermost body updates it at an index of the nest's loop indices that differs at
    // every iteration, so depending on every element of the image orders after every iteration's launch. An
    // instance token (launch, fill, e) says "that launch at the iteration that stored element e".
    // A loop index that names something else too (the index of another loop, an assigned value, a parameter)
    // has no value cvsim follows.
    std::set<const Var*> rebound;
    passes::walk(orch.body, [&](const StmtPtr& s) {
        if (s->kind == StmtKind::For && s->loop_var && defined_twice(s->loop_var.get()))
            rebound.insert(s->loop_var.get());
    });
    std::map<const Var*, std::pair<const Stmt*, size_t>> loop_result_of;  // a loop's result -> (loop, k)
    passes::walk(orch.body, [&](const StmtPtr& s) {
        if (s->kind != StmtKind::For) return;
        for (size_t k = 0; k < s->targets.size(); ++k)
            if (s->targets[k]) loop_result_of[s->targets[k].get()] = {s.get(), k};
    });
    auto last_yield = [](const Block& b) -> const Stmt* {
        for (auto it = b.rbegin(); it != b.rend(); ++it)
            if ((*it)->kind == StmtKind::Yield) return it->get();
        return nullptr;
    };
    // An index at one iteration (BOUND: the nest's loop indices; other single assignments followed).
    // (each top-level evaluation visits at most 4096 expressions: shared subexpressions are not memoised)
    int64_t index_steps = 0;
    std::function<std::optional<int64_t>(const Expr*, const std::map<const Var*, int64_t>&, int)> index_at =
        [&](const Expr* x, const std::map<const Var*, int64_t>& bound, int depth) -> std::optional<int64_t> {
        if (depth == 0) index_steps = 0;
        if (!x || depth > 32 || ++index_steps > 4096) return std::nullopt;
        if (x->kind == ExprKind::Int) return x->ival;
        if (x->kind == ExprKind::Var && x->var) {
            if (rebound.count(x->var.get())) return std::nullopt;
            if (auto it = bound.find(x->var.get()); it != bound.end()) return it->second;
            auto d = token_def.find(x->var.get());
            if (d == token_def.end() || token_multi.count(x->var.get())) return std::nullopt;
            return index_at(d->second, bound, depth + 1);
        }
        if (x->kind == ExprKind::FuncCall && x->sval == "pl.cast" && !x->args.empty())
            return index_at(x->args[0].get(), bound, depth + 1);
        std::string op;
        if (x->kind == ExprKind::Binary && x->args.size() == 2) op = x->sval;
        if (x->kind == ExprKind::FuncCall && (x->sval == "pl.min" || x->sval == "pl.max") && x->args.size() == 2)
            op = x->sval;
        if (op.empty()) return std::nullopt;
        auto p = index_at(x->args[0].get(), bound, depth + 1);
        auto q = index_at(x->args[1].get(), bound, depth + 1);
        if (!p || !q || std::abs(*p) > (int64_t{1} << 31) || std::abs(*q) > (int64_t{1} << 31)) return std::nullopt;
        if (op == "+") return *p + *q;
        if (op == "-") return *p - *q;
        if (op == "*") return *p * *q;
        if ((op == "//" || op == "%") && *q > 0 && *p >= 0) return op == "//" ? *p / *q : *p % *q;
        if (op == "pl.min" || op == "pl.max") return op == "pl.min" ? std::min(*p, *q) : std::max(*p, *q);
        return std::nullopt;
    };
    // A loop's start, stop and step, each a constant followed through single assignments (nullopt: one is not).
    struct LoopBounds {
        int64_t lo = 0, hi = 0, step = 1;
    };
    auto loop_bounds = [&](const Stmt& f) -> std::optional<LoopBounds> {
        // (plain ints, not optionals: g++ 12 warns maybe-uninitialized on them)
        const std::map<const Var*, int64_t> none;
        const auto lo = f.start ? index_at(f.start.get(), none, 0) : std::optional<int64_t>(0);
        const auto hi = f.stop ? index_at(f.stop.get(), none, 0) : std::nullopt;
        const auto st = f.step ? index_at(f.step.get(), none, 0) : std::optional<int64_t>(1);
        if (!lo.has_value() || !hi.has_value() || !st.has_value()) return std::nullopt;
        return LoopBounds{lo.value_or(0), hi.value_or(0), st.value_or(1)};
    };
    // The values a loop's index takes (a positive step; nullopt when not known, none or more than 4096 of them).
    auto loop_vals = [&](const Stmt& f) -> std::optional<std::vector<int64_t>> {
        const auto b = loop_bounds(f);
        if (!b) return std::nullopt;
        const int64_t l = b->lo, h = b->hi, t = b->step;
        if (t <= 0 || h <= l || (h - l - 1) / t >= 4096) return std::nullopt;
        std::vector<int64_t> out;
        for (int64_t x = l; x < h; x += t) out.push_back(x);
        return out;
    };
    struct Fill {
        std::vector<const Stmt*> nest;  // outermost first
        const Expr* tid = nullptr;      // the task id stored
        const Expr* index = nullptr;    // where, over the nest's loop indices
        std::set<int64_t> image;        // the elements it stores
        std::vector<int64_t> order;     // the same, in the order the iterations run
    };
    std::vector<Fill> fills;
    std::map<std::pair<const Stmt*, size_t>, std::optional<size_t>> fill_of;  // (loop, k) -> index in fills
    auto fill_nest = [&](const Stmt* loop, size_t k) -> std::optional<size_t> {
        auto [memo, fresh] = fill_of.try_emplace({loop, k});
        if (!fresh) return memo->second;
        Fill f;
        const Stmt* cur = loop;
        size_t ck = k;
        const Expr* update = nullptr;
        for (int depth = 0; depth < 8 && !update; ++depth) {
            if (ck >= cur->iter_args.size() || !cur->iter_args[ck] || !cur->loop_var) return std::nullopt;
            f.nest.push_back(cur);
            const Stmt* y = last_yield(cur->body);
            if (!y || ck >= y->values.size() || !y->values[ck] || y->values[ck]->kind != ExprKind::Var)
                return std::nullopt;
            const Var* v = y->values[ck]->var.get();
            if (auto d = token_def.find(v); d != token_def.end() && !token_multi.count(v)) {
                // (the update is a statement of this body itself, not of a branch or loop in it)
                if (std::none_of(cur->body.begin(), cur->body.end(), [&](const StmtPtr& st) {
                        return st->kind == StmtKind::Assign && st->targets.size() == 1 && st->targets[0].get() == v;
                    }))
                    return std::nullopt;
                const Expr* u = d->second;
                if (!u || u->kind != ExprKind::FuncCall || u->sval != "pl.array.update_element" || u->args.size() < 3 ||
                    !u->args[0] || u->args[0]->kind != ExprKind::Var || u->args[0]->var != cur->iter_args[ck])
                    return std::nullopt;
                update = u;
                break;
            }
            // The carried array goes through a loop of the body (as its initial value) whose result is yielded.
            auto lr = loop_result_of.find(v);
            if (lr == loop_result_of.end()) return std::nullopt;
            const auto [inner, ik] = lr->second;
            if (std::find_if(cur->body.begin(), cur->body.end(),
                             [&](const StmtPtr& st) { return st.get() == inner; }) == cur->body.end() ||
                ik >= inner->init_values.size() || !inner->init_values[ik] ||
                inner->init_values[ik]->kind != ExprKind::Var || inner->init_values[ik]->var != cur->iter_args[ck])
                return std::nullopt;
            cur = inner;
            ck = ik;
        }
        if (!update) return std::nullopt;
        f.tid = update->args[2].get();
        f.index = update->args[1].get();
        // Every iteration of the nest (at most 4096): a different element each.
        std::vector<std::vector<int64_t>> values;
        size_t points = 1;
        for (const Stmt* l : f.nest) {
            auto v = loop_vals(*l);
            if (!v || v->empty()) return std::nullopt;
            points *= v->size();
            if (points > 4096) return std::nullopt;
            values.push_back(std::move(*v));
        }
        std::vector<size_t> at(f.nest.size(), 0);
        for (size_t p = 0; p < points; ++p) {
            std::map<const Var*, int64_t> bound;
            for (size_t q = 0; q < f.nest.size(); ++q) bound[f.nest[q]->loop_var.get()] = values[q][at[q]];
            auto e = index_at(update->args[1].get(), bound, 0);
            if (!e || !f.image.insert(*e).second) return std::nullopt;
            f.order.push_back(*e);
            for (size_t q = f.nest.size(); q-- > 0;) {
                if (++at[q] < values[q].size()) break;
                at[q] = 0;
            }
        }
        fills.push_back(std::move(f));
        memo->second = fills.size() - 1;
        return memo->second;
    };
    // Tokens past the launches: carry tokens (v, e) and instance tokens (launch, fill, e), by id - n_launch.
    struct Token {
        bool carry = false;
        const Var* var = nullptr;  // carry: the carried value
        size_t launch = 0;         // instance: the launch
        size_t fill = 0;           // instance: the fill (index in fills)
        int64_t e = 0;             // carry: the element (kWhole: the value); instance: the element stored
        const Expr* at = nullptr;  // instance: the element is this index at the reader's iteration (not e)
        // select: an element of an array whose elements hold different launches, read at AT, an index over the
        // reader's loops: at the reader's iteration where AT is E, the launches ELEMS[E] (their instances in that
        // iteration of the loops they share with the reader).
        bool select = false;
        std::map<int64_t, std::set<size_t>> elems;
    };
    std::vector<Token> token_of;
    std::map<std::pair<const Var*, int64_t>, size_t> carry_id;
    std::map<std::tuple<size_t, size_t, int64_t>, size_t> inst_id;
    auto carry_token = [&](const Var* v, int64_t e) {
        auto [it, fresh] = carry_id.emplace(std::make_pair(v, e), n_launch + token_of.size());
        if (fresh) token_of.push_back(Token{true, v, 0, 0, e, nullptr, false, {}});
        return it->second;
    };
    auto inst_token = [&](size_t x, size_t fill, int64_t e) {
        auto [it, fresh] = inst_id.emplace(std::make_tuple(x, fill, e), n_launch + token_of.size());
        if (fresh) token_of.push_back(Token{false, nullptr, x, fill, e, nullptr, false, {}});
        return it->second;
    };
    std::map<std::tuple<size_t, size_t, const Expr*>, size_t> sym_id;
    auto sym_token = [&](size_t x, size_t fill, const Expr* at) {
        auto [it, fresh] = sym_id.emplace(std::make_tuple(x, fill, at), n_launch + token_of.size());
        if (fresh) token_of.push_back(Token{false, nullptr, x, fill, 0, at, false, {}});
        return it->second;
    };
    std::map<std::pair<const Expr*, std::map<int64_t, std::set<size_t>>>, size_t> sel_id;
    auto sel_token = [&](const Expr* at, std::map<int64_t, std::set<size_t>> elems) {
        auto [it, fresh] = sel_id.emplace(std::make_pair(at, elems), n_launch + token_of.size());
        if (fresh) token_of.push_back(Token{false, nullptr, 0, 0, 0, at, true, std::move(elems)});
        return it->second;
    };
    auto is_carry = [&](size_t t) { return t >= n_launch && token_of[t - n_launch].carry; };
    auto is_inst = [&](size_t t) {
        return t >= n_launch && !token_of[t - n_launch].carry && !token_of[t - n_launch].select;
    };
    auto is_sel = [&](size_t t) { return t >= n_launch && token_of[t - n_launch].select; };
    using Tokens = std::set<size_t>;
    struct TokVal {
        Tokens s;                      // the value as a whole (a scalar task id; an array: none sure)
        std::map<int64_t, Tokens> at;  // an array's elements at constant indices (the others: none sure)
        bool operator==(const TokVal& o) const { return s == o.s && at == o.at; }
    };
    auto meet = [](const Tokens& a, const Tokens& b) {
        Tokens r;
        std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::inserter(r, r.begin()));
        return r;
    };
    auto meet_val = [&](const TokVal& a, const TokVal& b) {
        TokVal r{meet(a.s, b.s), {}};
        for (const auto& [e, t] : a.at)
            if (auto it = b.at.find(e); it != b.at.end())
                if (Tokens m = meet(t, it->second); !m.empty()) r.at[e] = std::move(m);
        return r;
    };
    auto whole = [](const TokVal& v) {
        Tokens r = v.s;
        for (const auto& [e, t] : v.at) r.insert(t.begin(), t.end());
        return r;
    };
    std::map<const Var*, TokVal> vals;
    std::map<size_t, Tokens> yielded;  // by carry token
    // The instances of a launch in a fill's nest that a later launch's deps= name: elements stored, and indices
    // (over the later launch's loops) whose element it names.
    // The elements of fill FI whose instance of launch T the tokens DEPS order: those named, and, when T's
    // instances run one after another over the nest, every one stored before the last named.
    // SEL: through an array read at an index over the later launch's loops whose elements hold different launches
    // (a select token), the instances of the later launch where that index is one of the values given.
    static constexpr size_t kNoFill = std::numeric_limits<size_t>::max();
    struct Partial {
        size_t fill = kNoFill;
        std::set<int64_t> elems;
        std::vector<const Expr*> at;
        std::vector<std::pair<const Expr*, std::set<int64_t>>> sel;
        // AT_IN: as AT, where the index is one of the values given (a select token's elements that hold this
        // fill's instances).
        std::vector<std::pair<const Expr*, std::set<int64_t>>> at_in;
    };
    // The values an index may take (at most 4096; nullopt: not known): constants, loop indices of constant
    // ranges, single assignments, and + - * // % min max casts of those (each combination: a superset).
    std::map<const Var*, const Stmt*> index_loop;
    passes::walk(orch.body, [&](const StmtPtr& s) {
        if (s->kind == StmtKind::For && s->loop_var) index_loop[s->loop_var.get()] = s.get();
    });
    int64_t value_steps = 0;
    std::function<std::optional<std::set<int64_t>>(const Expr*, int)> index_values =
        [&](const Expr* x, int depth) -> std::optional<std::set<int64_t>> {
        if (depth == 0) value_steps = 0;
        if (!x || depth > 32 || ++value_steps > 4096) return std::nullopt;
        if (x->kind == ExprKind::Int) return std::set<int64_t>{x->ival};
        if (x->kind == ExprKind::Var && x->var) {
            if (rebound.count(x->var.get())) return std::nullopt;
            if (auto it = index_loop.find(x->var.get()); it != index_loop.end()) {
                auto v = loop_vals(*it->second);
                if (!v) return std::nullopt;
                return std::set<int64_t>(v->begin(), v->end());
            }
            auto d = token_def.find(x->var.get());
            if (d == token_def.end() || token_multi.count(x->var.get())) return std::nullopt;
            return index_values(d->second, depth + 1);
        }
        if (x->kind == ExprKind::FuncCall && x->sval == "pl.cast" && !x->args.empty())
            return index_values(x->args[0].get(), depth + 1);
        std::string op;
        if (x->kind == ExprKind::Binary && x->args.size() == 2) op = x->sval;
        if (x->kind == ExprKind::FuncCall && (x->sval == "pl.min" || x->sval == "pl.max") && x->args.size() == 2)
            op = x->sval;
        if (op.empty()) return std::nullopt;
        auto a = index_values(x->args[0].get(), depth + 1);
        auto b = index_values(x->args[1].get(), depth + 1);
        if (!a || !b || a->size() * b->size() > 65536) return std::nullopt;
        std::set<int64_t> r;
        for (int64_t p : *a)
            for (int64_t q : *b) {
                if (std::abs(p) > (int64_t{1} << 31) || std::abs(q) > (int64_t{1} << 31)) return std::nullopt;
                if (op == "+")
                    r.insert(p + q);
                else if (op == "-")
                    r.insert(p - q);
                else if (op == "*")
                    r.insert(p * q);
                else if ((op == "//" || op == "%") && q > 0 && p >= 0)
                    r.insert(op == "//" ? p / q : p % q);
                else if (op == "pl.min" || op == "pl.max")
                    r.insert(op == "pl.min" ? std::min(p, q) : std::max(p, q));
                else
                    return std::nullopt;
            }
        if (r.size() > 4096) return std::nullopt;
        return r;
    };
    // The loops whose indices an index expression reads (through single assignments), and each loop's
    // enclosing loops.
    std::map<const Stmt*, std::vector<const Stmt*>> enclosing;
    {
        std::vector<const Stmt*> stack;
        std::function<void(const Block&)> go = [&](const Block& b) {
            for (const auto& st : b) {
                if (st->kind == StmtKind::For) {
                    enclosing[st.get()] = stack;
                    stack.push_back(st.get());
                    go(st->body);
                    stack.pop_back();
                } else if (st->kind == StmtKind::If) {
                    go(st->body);
                    go(st->orelse);
                }
            }
        };
        go(orch.body);
    }
    std::map<const Expr*, std::set<const Stmt*>> index_loops_memo;
    int64_t loop_steps = 0;
    std::function<void(const Expr*, std::set<const Stmt*>&, int)> collect_index_loops =
        [&](const Expr* x, std::set<const Stmt*>& out, int depth) {
            if (depth == 0) loop_steps = 0;
            if (!x) return;
            if (depth > 32 || ++loop_steps > 4096) {
                out.insert(nullptr);  // (not followed to the end: any loop)
                return;
            }
            if (x->kind == ExprKind::Var && x->var) {
                if (auto it = index_loop.find(x->var.get()); it != index_loop.end()) {
                    out.insert(it->second);
                } else if (auto d = token_def.find(x->var.get());
                           d != token_def.end() && !token_multi.count(x->var.get())) {
                    collect_index_loops(d->second, out, depth + 1);
                }
            }
            for (const auto& a : x->args) collect_index_loops(a.get(), out, depth + 1);
        };
    auto index_loops = [&](const Expr* x) -> const std::set<const Stmt*>& {
        auto [it, fresh] = index_loops_memo.try_emplace(x);
        if (fresh) collect_index_loops(x, it->second, 0);
        return it->second;
    };
    // A value defined more than once (not what the printer emits: hand-written code) surely carries nothing:
    // which definition reaches a use is not followed. What deps= each launch carries is taken where it runs, in
    // program order.
    std::vector<Tokens> launch_deps(n_launch);
    std::function<TokVal(const Expr*)> eval = [&](const Expr* x) -> TokVal {
        if (!x) return {};
        if (x->kind == ExprKind::Var && x->var) {
            if (defined_twice(x->var.get())) return {};
            auto it = vals.find(x->var.get());
            return it == vals.end() ? TokVal{} : it->second;
        }
        if (x->kind == ExprKind::FuncCall && x->sval == "pl.array.create") return {};
        if (x->kind == ExprKind::FuncCall && x->sval == "pl.array.update_element" && x->args.size() >= 3) {
            TokVal a = eval(x->args[0].get());
            const Tokens v = whole(eval(x->args[2].get()));
            a.s.clear();  // (an element it named may be the one replaced)
            const auto where = index_values(x->args[1].get(), 0);
            if (where && where->size() == 1) {
                a.at[*where->begin()] = v;
            } else {
                // (an element the index may name keeps what both values surely carry)
                for (auto it = a.at.begin(); it != a.at.end();) {
                    if (!where || where->count(it->first)) it->second = meet(it->second, v);
                    it = it->second.empty() ? a.at.erase(it) : std::next(it);
                }
            }
            return a;
        }
        if (x->kind == ExprKind::FuncCall && x->sval == "pl.array.get_element" && x->args.size() >= 2) {
            // (at an index that may take several values: what every element it may name surely carries)
            const TokVal a = eval(x->args[0].get());
            const auto where = index_values(x->args[1].get(), 0);
            if (!where || where->empty()) return {};
            std::optional<Tokens> r;
            for (int64_t e : *where) {
                auto it = a.at.find(e);
                static const Tokens none;
                r = r ? meet(*r, it == a.at.end() ? none : it->second) : it == a.at.end() ? none : it->second;
            }
            // Elements holding different launches (not in every element): which one orders the reader depends on
            // the reader's iteration (a select token, resolved per instance pair in apart()).
            if (where->size() > 1) {
                std::map<int64_t, std::set<size_t>> elems;
                for (int64_t e : *where)
                    if (auto it = a.at.find(e); it != a.at.end())
                        for (size_t t : it->second)
                            if (!r->count(t) && (t < n_launch || (is_inst(t) && !token_of[t - n_launch].at &&
                                                                  token_of[t - n_launch].e == e)))
                                elems[e].insert(t);
                if (!elems.empty()) r->insert(sel_token(x->args[1].get(), std::move(elems)));
            }
            // A filled array read at an index of the reader's loops: the launch at the iteration that stored
            // that element, whichever it is (when every element the index may name holds that fill's instance).
            if (where->size() > 1) {
                std::set<std::pair<size_t, size_t>> common;
                bool first = true;
                for (int64_t e : *where) {
                    std::set<std::pair<size_t, size_t>> here;
                    if (a.at.count(e))
                        for (size_t t : a.at.at(e))
                            if (is_inst(t) && !token_of[t - n_launch].at && token_of[t - n_launch].e == e)
                                here.emplace(token_of[t - n_launch].launch, token_of[t - n_launch].fill);
                    if (first)
                        common = std::move(here);
                    else
                        std::erase_if(common, [&](const auto& c) { return !here.count(c); });
                    first = false;
                }
                for (const auto& [lx, fi] : common) r->insert(sym_token(lx, fi, x->args[1].get()));
            }
            return TokVal{*r, {}};
        }
        TokVal r;
        if (auto it = launch_of.find(x); it != launch_of.end()) {
            Tokens deps;
            if (x->attrs)
                for (size_t k = 0; k < x->attrs->args.size() && k < x->attrs->args2.size(); ++k)
                    if (x->attrs->args[k]->sval == "deps") {
                        const Tokens d = whole(eval(x->attrs->args2[k].get()));
                        deps.insert(d.begin(), d.end());
                    }
            r.s = deps;
            r.s.insert(it->second);
            launch_deps[it->second] = std::move(deps);
            return r;
        }
        for (const auto& a : x->args) {
            const Tokens t = whole(eval(a.get()));
            r.s.insert(t.begin(), t.end());
        }
        for (const auto& a : x->args2) {
            const Tokens t = whole(eval(a.get()));
            r.s.insert(t.begin(), t.end());
        }
        const Tokens t = whole(eval(x->attrs.get()));
        r.s.insert(t.begin(), t.end());
        return r;
    };
    // The tokens of element E of a filled array: the fill's launches in its innermost loop at the iteration that
    // stored E, what the task id holds from outside the nest; nothing of the nest's own carried values.
    auto acc_fill = [&](size_t fi, int64_t e, Tokens& acc) {
        const Fill& f = fills[fi];
        for (size_t x : whole(eval(f.tid))) {
            if (x < n_launch) {
                const auto& ls = launches[x].loops;
                if (ls.size() >= f.nest.size() && std::equal(f.nest.begin(), f.nest.end(), ls.end() - f.nest.size()))
                    acc.insert(inst_token(x, fi, e));
                else if (std::find(ls.begin(), ls.end(), f.nest.front()) == ls.end())
                    acc.insert(x);
            } else if (!is_inst(x) && !is_sel(x) && std::none_of(f.nest.begin(), f.nest.end(), [&](const Stmt* l) {
                           return std::any_of(l->iter_args.begin(), l->iter_args.end(),
                                              [&](const VarPtr& v) { return v.get() == token_of[x - n_launch].var; });
                       })) {
                acc.insert(x);
            }
        }
    };
    std::function<void(const Block&)> forget_assigned = [&](const Block& b) {
        for (const auto& st : b) {
            if (st->kind == StmtKind::Assign)
                for (const auto& t : st->targets)
                    if (t) vals.erase(t.get());
            forget_assigned(st->body);
            forget_assigned(st->orelse);
        }
    };
    // (a budget of statements: nested loops each find their fixed point afresh in every round of the loops around
    // them; past it, a loop's carried values hold nothing sure and its body is followed once)
    int64_t work = 0;
    constexpr int64_t kWorkBudget = 4'000'000;
    std::function<void(const Block&)> flow = [&](const Block& body) {
        for (const auto& s : body) {
            ++work;
            if (s->kind == StmtKind::Assign && s->value) {
                const TokVal v = eval(s->value.get());
                if (s->targets.size() == 1) {
                    if (s->targets[0]) vals[s->targets[0].get()] = v;
                } else {
                    for (const auto& t : s->targets)
                        if (t) vals[t.get()] = TokVal{whole(v), {}};
                }
            } else if (s->kind == StmtKind::Eval && s->value) {
                eval(s->value.get());
            } else if (s->kind == StmtKind::For) {
                const size_t n_ia = s->iter_args.size();
                std::vector<TokVal> init(n_ia), must(n_ia), y(n_ia);
                for (size_t k = 0; k < n_ia && k < s->init_values.size(); ++k) init[k] = eval(s->init_values[k].get());
                const Stmt* ys = last_yield(s->body);
                // Its own carried tokens stand for what they surely hold at every iteration.
                auto own_of = [&](size_t t) -> std::optional<std::pair<size_t, int64_t>> {
                    if (!is_carry(t)) return std::nullopt;
                    const Token& tk = token_of[t - n_launch];
                    for (size_t q = 0; q < n_ia; ++q)
                        if (s->iter_args[q].get() == tk.var) return std::make_pair(q, tk.e);
                    return std::nullopt;
                };
                auto expand = [&](const Tokens& in, const std::vector<TokVal>& m) {
                    Tokens r;
                    for (size_t t : in) {
                        if (auto o = own_of(t)) {
                            const TokVal& mv = m[o->first];
                            const Tokens* part = &mv.s;
                            if (o->second != kWhole) {
                                auto it = mv.at.find(o->second);
                                static const Tokens none;
                                part = it == mv.at.end() ? &none : &it->second;
                            }
                            r.insert(part->begin(), part->end());
                        } else {
                            r.insert(t);
                        }
                    }
                    return r;
                };
                auto expand_val = [&](const TokVal& v, const std::vector<TokVal>& m) {
                    TokVal r{expand(v.s, m), {}};
                    for (const auto& [e, t] : v.at)
                        if (Tokens x = expand(t, m); !x.empty()) r.at[e] = std::move(x);
                    return r;
                };
                // The greatest M <= init with M[k] <= what the body yields through k (with M for its own carried
                // tokens), from the top down; at most 16 rounds, then nothing sure.
                must = init;
                for (int round = work > kWorkBudget ? 16 : 0; round <= 16; ++round) {
                    if (round == 16 || work > kWorkBudget) {
                        round = 16;
                        must.assign(n_ia, TokVal{});
                    }
                    for (size_t k = 0; k < n_ia; ++k) {
                        if (!s->iter_args[k]) continue;
                        const Var* ia = s->iter_args[k].get();
                        TokVal v = must[k];
                        v.s.insert(carry_token(ia, kWhole));
                        std::set<int64_t> keys;
                        for (const auto& [e, t] : init[k].at) keys.insert(e);
                        for (const auto& [e, t] : y[k].at) keys.insert(e);
                        for (int64_t e : keys) v.at[e].insert(carry_token(ia, e));
                        vals[ia] = std::move(v);
                    }
                    // (a value of the body read before it is assigned there: not the last round's)
                    forget_assigned(s->body);
                    flow(s->body);
                    for (size_t k = 0; k < n_ia; ++k)
                        y[k] = ys && k < ys->values.size() ? eval(ys->values[k].get()) : TokVal{};
                    if (round == 16) break;
                    std::vector<TokVal> next(n_ia);
                    for (size_t k = 0; k < n_ia; ++k) next[k] = meet_val(init[k], expand_val(y[k], must));
                    // (a key the yield added changes the carried value's elements: one more round)
                    bool keys_same = true;
                    for (size_t k = 0; k < n_ia && keys_same; ++k)
                        for (const auto& [e, t] : y[k].at)
                            keys_same &= vals[s->iter_args[k].get()].at.count(e) > 0 || !s->iter_args[k];
                    if (next == must && keys_same) break;
                    must = std::move(next);
                }
                for (size_t k = 0; k < n_ia; ++k) {
                    if (!s->iter_args[k]) continue;
                    const Var* ia = s->iter_args[k].get();
                    yielded[carry_token(ia, kWhole)] = whole(y[k]);
                    for (const auto& [e, t] : y[k].at) yielded[carry_token(ia, e)] = t;
                }
                const bool runs = passes::runs_at_least_once(*s);
                // (an element read at an index of this loop or one inside it: out of the loop, not known)
                auto local = [&](size_t t) {
                    if (!(is_inst(t) || is_sel(t)) || !token_of[t - n_launch].at) return false;
                    for (const Stmt* l : index_loops(token_of[t - n_launch].at)) {
                        if (!l || l == s.get()) return true;
                        const auto& enc = enclosing[l];
                        if (std::find(enc.begin(), enc.end(), s.get()) != enc.end()) return true;
                    }
                    return false;
                };
                for (size_t k = 0; k < n_ia; ++k) {
                    TokVal res = expand_val(y[k], must);
                    if (!runs) res = meet_val(res, init[k]);
                    std::erase_if(res.s, local);
                    for (auto& [e, t] : res.at) std::erase_if(t, local);
                    if (auto fi = fill_nest(s.get(), k))
                        for (int64_t e : fills[*fi].image) {
                            Tokens t;
                            acc_fill(*fi, e, t);
                            res.at[e] = std::move(t);
                        }
                    if (k < s->targets.size() && s->targets[k]) vals[s->targets[k].get()] = res;
                    if (ys && k < ys->targets.size() && ys->targets[k]) vals[ys->targets[k].get()] = res;
                }
                // (a value assigned in the body and used after it: the last iteration's, when one surely ran)
                if (!runs) forget_assigned(s->body);
            } else if (s->kind == StmtKind::If) {
                // (each arm sees what was before the branch, not what the other arm assigned)
                const Stmt* y1 = last_yield(s->body);
                const Stmt* y2 = last_yield(s->orelse);
                forget_assigned(s->body);
                flow(s->body);
                std::vector<TokVal> v1(s->targets.size()), v2(s->targets.size());
                for (size_t k = 0; k < s->targets.size(); ++k)
                    if (y1 && k < y1->values.size()) v1[k] = eval(y1->values[k].get());
                forget_assigned(s->body);
                forget_assigned(s->orelse);
                flow(s->orelse);
                for (size_t k = 0; k < s->targets.size(); ++k)
                    if (y2 && k < y2->values.size()) v2[k] = eval(y2->values[k].get());
                // A branch's value holds a task id only when both arms yield it (a dependency on one path is
                // none on the other: deps= of a value that may be task_invalid orders nothing sure).
                for (size_t k = 0; k < s->targets.size(); ++k) {
                    const TokVal& a1 = v1[k];
                    const TokVal& a2 = v2[k];
                    const TokVal both = y1 && y2 ? meet_val(a1, a2) : y1 ? a1 : a2;
                    if (s->targets[k]) vals[s->targets[k].get()] = both;
                    for (const Stmt* yy : {y1, y2})
                        if (yy && k < yy->targets.size() && yy->targets[k] && yy->targets[k] != s->targets[k])
                            vals[yy->targets[k].get()] = both;
                }
                // (a value assigned in an arm and used after the branch, not through its results: on the other
                // path it is not that value)
                forget_assigned(s->body);
                forget_assigned(s->orelse);
            }
        }
    };
    flow(orch.body);

    LaunchAliases roots(orch, &program);
    // A tensor launches A and B may both access, one of them writing it (nullptr: none).
    struct Conflict {
        const Var* shared = nullptr;
        bool a_writes = false, b_writes = false;
        bool tracked = false;  // both in AUTO scopes, both arguments tracked, the tensor not manual_dep
        bool sure = false;     // both windows are what the kernels access, without gaps: the overlap is real
    };
    // Each launch's tensor arguments: the argument, what it may be (roots and windows), whether the launch writes
    // it and whether the runtime tracks it there (not pl.no_dep).
    // LOOKS_UP: the runtime looks the argument up in its tensor map, so the launch runs after the earlier writers
    // it finds there (an In or InOut argument, or an Out one PyPTO's DeriveCallDirections makes InOut; set below).
    struct Access {
        const Expr* arg = nullptr;
        std::vector<GmAlias> roots;
        bool writes = false;
        bool tracked = true;
        ParamDir dir = ParamDir::In;
        bool looks_up = false;
    };
    std::map<const Function*, std::vector<ParamDir>> dir_memo;
    std::vector<std::vector<Access>> access(n_launch);
    for (size_t k = 0; k < n_launch; ++k) {
        const ManualLaunch& l = launches[k];
        const std::vector<ParamDir> dirs = effective_dirs(program, *l.callee, dir_memo);
        for (size_t p = l.first; p < l.call->args.size(); ++p) {
            const size_t pp = p - l.first;
            if (pp >= l.callee->params.size() || l.callee->params[pp].var->type.kind != TypeKind::Tensor) continue;
            const Expr* a = l.call->args[p].get();
            if (a && a->kind == ExprKind::FuncCall && a->sval == "pl.no_dep" && !a->args.empty()) a = a->args[0].get();
            const ParamDir d = pp < dirs.size() ? dirs[pp] : l.callee->params[pp].dir;
            access[k].push_back(Access{a, roots.of(a), d != ParamDir::In, l.no_dep.count(pp) == 0, d, false});
        }
    }

    // Values of the orchestration as affine functions of its loop variables (single definitions followed).
    std::map<const Var*, const Expr*> def_of;
    std::set<const Var*> multi_def, loop_vars;
    // The loops each tensor the orchestration creates is created in: every iteration of those has a fresh one.
    std::map<const Var*, std::set<const Stmt*>> created_in;
    {
        std::vector<const Stmt*> stack;
        std::function<void(const Block&)> scan = [&](const Block& body) {
            for (const auto& st : body) {
                if (st->kind == StmtKind::Assign && st->value && st->value->kind == ExprKind::FuncCall &&
                    st->value->sval == "pl.tensor.create")
                    for (const auto& t : st->targets) created_in[t.get()].insert(stack.begin(), stack.end());
                if (st->kind == StmtKind::For) {
                    stack.push_back(st.get());
                    scan(st->body);
                    stack.pop_back();
                }
                if (st->kind == StmtKind::If) {
                    scan(st->body);
                    scan(st->orelse);
                }
            }
        };
        scan(orch.body);
    }
    passes::walk(orch.body, [&](const StmtPtr& s) {
        if (s->kind == StmtKind::For && s->loop_var) loop_vars.insert(s->loop_var.get());
        for (const auto& t : s->targets)
            if (s->kind != StmtKind::Assign || s->targets.size() != 1 ||
                !def_of.emplace(t.get(), s->value.get()).second)
                multi_def.insert(t.get());
    });
    // (a parameter, a loop index or a carried value that is also assigned: one name, several values)
    for (const auto& [v, d] : def_of)
        if (defined_twice(v)) multi_def.insert(v);
    // The buffer a tensor value is, as PyPTO's BufferRootCollector names it for DeriveCallDirections (nullptr:
    // none it would name, or not one cvsim can tell): a parameter, a pl.tensor.create or pl.tensor.slice result
    // (a slice is a root of its own there), what pl.tensor.assemble writes into, a launch's result that one
    // written argument matches in shape and dtype (the I-th written argument for `ret[I]`), a loop's carried value
    // when its initial value and every yield are the same buffer. A view or reshape is no root there.
    std::map<const Var*, std::pair<const Expr*, std::vector<const Expr*>>> carry_defs;  // init, yields
    std::map<const Var*, const Var*> loop_result;                                       // result -> carried value
    {
        std::function<void(const Block&, const Stmt*)> scan = [&](const Block& body, const Stmt* owner) {
            for (const auto& st : body) {
                if (st->kind == StmtKind::For) {
                    for (size_t k = 0; k < st->iter_args.size() && k < st->init_values.size(); ++k)
                        if (st->iter_args[k]) carry_defs[st->iter_args[k].get()].first = st->init_values[k].get();
                    for (size_t k = 0; k < st->targets.size() && k < st->iter_args.size(); ++k)
                        if (st->targets[k] && st->iter_args[k])
                            loop_result[st->targets[k].get()] = st->iter_args[k].get();
                    scan(st->body, st.get());
                } else if (st->kind == StmtKind::If) {
                    scan(st->body, nullptr);
                    scan(st->orelse, nullptr);
                } else if (st->kind == StmtKind::Yield && owner) {
                    for (size_t k = 0; k < st->values.size() && k < owner->iter_args.size(); ++k)
                        if (owner->iter_args[k])
                            carry_defs[owner->iter_args[k].get()].second.push_back(st->values[k].get());
                }
            }
        };
        scan(orch.body, nullptr);
    }
    std::set<const Var*> orch_params;
    std::map<const Var*, ParamDir> orch_param_dir;
    for (const auto& prm : orch.params)
        if (prm.var) {
            orch_params.insert(prm.var.get());
            orch_param_dir[prm.var.get()] = prm.dir;
        }
    std::map<const Var*, const Var*> root_memo;
    std::set<const Var*> root_active;
    // The I-th written argument of launch call D (I < 0: the one matching the result type T).
    auto written_arg = [&](const Expr* d, int64_t i, const Type* t) -> const Expr* {
        if (!d || d->kind != ExprKind::FuncCall || d->ival == kFuncRef) return nullptr;
        const LaunchTarget lt = launch_target(*d);
        std::shared_ptr<Function> fn = program.find(lt.kernel);
        if (!fn || fn->type == FuncType::Orchestration) return nullptr;
        const std::vector<ParamDir> dirs = effective_dirs(program, *fn, dir_memo);
        std::vector<const Expr*> written;
        for (size_t a = lt.first; a < d->args.size(); ++a) {
            const size_t pp = a - lt.first;
            if (pp >= fn->params.size() || pp >= dirs.size() || dirs[pp] == ParamDir::In ||
                fn->params[pp].var->type.kind != TypeKind::Tensor)
                continue;
            const Expr* x = d->args[a].get();
            if (x && x->kind == ExprKind::FuncCall && x->sval == "pl.no_dep" && !x->args.empty()) x = x->args[0].get();
            written.push_back(x);
        }
        if (i >= 0) return static_cast<size_t>(i) < written.size() ? written[static_cast<size_t>(i)] : nullptr;
        const Expr* match = nullptr;
        int matches = 0;
        for (const Expr* x : written)
            if (x && t && x->type.kind == TypeKind::Tensor && x->type.shape == t->shape && x->type.dtype == t->dtype) {
                match = x;
                ++matches;
            }
        return matches == 1 ? match : nullptr;
    };
    // CYCLE: set when the value was reached again while its own root is computed (a loop's carried value yielded
    // back through launches): nullptr then says "the same as where the cycle started", not "none".
    std::function<const Var*(const Var*, int, bool&)> root_of_var;
    std::function<const Var*(const Expr*, int, bool&)> root_of = [&](const Expr* e, int depth,
                                                                     bool& cycle) -> const Var* {
        if (!e || depth > 64) return nullptr;
        if (e->kind == ExprKind::Index && !e->args.empty() && e->args[0] && e->args[0]->kind == ExprKind::Var) {
            auto it = def_of.find(e->args[0]->var.get());
            if (it == def_of.end() || multi_def.count(e->args[0]->var.get())) return nullptr;
            return root_of(written_arg(it->second, e->ival, nullptr), depth + 1, cycle);
        }
        if (e->kind != ExprKind::Var || !e->var) return nullptr;
        return root_of_var(e->var.get(), depth, cycle);
    };
    int64_t root_visits = 0;  // bound on the work (beyond it: no root, so no promotion is assumed)
    root_of_var = [&](const Var* v, int depth, bool& cycle) -> const Var* {
        if (auto m = root_memo.find(v); m != root_memo.end()) return m->second;
        if (!root_active.insert(v).second) {
            cycle = true;
            return nullptr;
        }
        if (++root_visits > 100000) {
            root_active.erase(v);
            return nullptr;
        }
        bool cut = false;
        const Var* r = nullptr;
        if (auto c = carry_defs.find(v); c != carry_defs.end()) {
            // The roots of the initial value and of each yield, a value that cycles back being any of them.
            bool any = false, agree = true;
            std::vector<const Expr*> defs{c->second.first};
            defs.insert(defs.end(), c->second.second.begin(), c->second.second.end());
            for (const Expr* y : defs) {
                bool back = false;
                const Var* ry = root_of(y, depth + 1, back);
                cut |= back;
                if (!ry && back) continue;
                if (any && ry != r) agree = false;
                any = true;
                r = ry;
            }
            if (!agree) r = nullptr;
            if (!any) {  // every definition cycles back: the same as where the cycle started
                root_active.erase(v);
                cycle = true;
                return nullptr;
            }
        } else if (auto lr = loop_result.find(v); lr != loop_result.end()) {
            r = root_of_var(lr->second, depth + 1, cut);
        } else if (orch_params.count(v) && !def_of.count(v)) {
            r = v;
        } else if (auto it = def_of.find(v); it != def_of.end() && !multi_def.count(v) && it->second) {
            const Expr* d = it->second;
            if (d->kind == ExprKind::Var || d->kind == ExprKind::Index)
                r = root_of(d, depth + 1, cut);
            else if (d->kind == ExprKind::FuncCall && (d->sval == "pl.tensor.create" || d->sval == "pl.tensor.slice"))
                r = v;
            else if (d->kind == ExprKind::FuncCall && d->sval == "pl.tensor.assemble" && !d->args.empty())
                r = root_of(d->args[0].get(), depth + 1, cut);
            else
                r = root_of(written_arg(d, -1, &v->type), depth + 1, cut);
        }
        root_active.erase(v);
        // A result computed through a cycle cut short holds only for where that cycle started: not kept.
        if (!cut) root_memo[v] = r;
        cycle |= cut && !r;
        return r;
    };
    auto pypto_root = [&](const Expr* e) {
        bool cycle = false;
        return root_of(e, 0, cycle);
    };
    // Which arguments the runtime looks up (PyPTO's DeriveCallDirections): In and InOut always; Out when the launch
    // sits in a loop that is not pl.parallel (R-seq), an earlier launch (not in the other arm of a branch) writes the
    // same buffer (R-prior), or the buffer is an InOut parameter of the orchestration (R-enclosing); else it is
    // OutputExisting, published without a lookup. Not tracked (pl.no_dep): never.
    auto exclusive_arms = [&](const ManualLaunch& a, const ManualLaunch& b) {
        bool x = false;
        for (const auto& [s1, arm1] : a.arms)
            for (const auto& [s2, arm2] : b.arms) x |= s1 == s2 && arm1 != arm2;
        return x;
    };
    for (size_t k = 0; k < n_launch; ++k) {
        bool sequential = false;
        for (const Stmt* f : launches[k].loops) sequential |= f->loop_kind != LoopKind::Parallel;
        for (Access& x : access[k]) {
            if (!x.tracked) continue;
            if (x.dir != ParamDir::Out || sequential) {
                x.looks_up = true;
                continue;
            }
            const Var* r = pypto_root(x.arg);
            if (!r) continue;
            if (auto pd = orch_param_dir.find(r); pd != orch_param_dir.end() && pd->second == ParamDir::InOut) {
                x.looks_up = true;
                continue;
            }
            for (size_t i = 0; i < k && !x.looks_up; ++i) {
                if (exclusive_arms(launches[i], launches[k])) continue;
                for (const Access& w : access[i])
                    if (w.writes && pypto_root(w.arg) == r) x.looks_up = true;
            }
        }
    }
    // A loop index divided by a constant (`i // 5`, `i % 5`: a flattened 2-D loop) is a derived variable: an
    // offset affine in it, whose value follows from the loop index's (apart() pairs the two).
    struct Derived {
        const Var* base = nullptr;
        int64_t k = 1, c = 0, d = 1;  // (k * base + c) // d, or % d
        bool mod = false;
    };
    std::map<const Var*, Derived> derived_of;
    std::deque<Var> derived_vars;
    std::map<std::tuple<const Var*, int64_t, int64_t, int64_t, bool>, const Var*> derived_key;
    auto derive = [](const Derived& dv, int64_t x) {
        const int64_t n = dv.k * x + dv.c;
        return dv.mod ? n % dv.d : n / dv.d;
    };
    auto base_of = [&](const Var* v) {
        auto it = derived_of.find(v);
        return it == derived_of.end() ? v : it->second.base;
    };
    // The loop of each orchestration loop variable, the range of values it takes (constant bounds; nullopt: not
    // known) and the values themselves (nullopt beyond 4096 of them).
    std::map<const Var*, const Stmt*> loop_of;
    for (const auto& l : launches)
        for (const Stmt* f : l.loops)
            if (f->loop_var) loop_of[f->loop_var.get()] = f;
    std::function<std::optional<std::pair<int64_t, int64_t>>(const Var*)> loop_range =
        [&](const Var* v) -> std::optional<std::pair<int64_t, int64_t>> {
        if (auto dv = derived_of.find(v); dv != derived_of.end()) {
            // (monotone in the base for k > 0 and a quotient; a remainder: 0 .. d - 1)
            auto r = loop_range(dv->second.base);
            if (!r) return std::nullopt;
            if (dv->second.mod) return std::pair<int64_t, int64_t>{0, dv->second.d - 1};
            const int64_t x = derive(dv->second, r->first), y = derive(dv->second, r->second);
            return std::pair<int64_t, int64_t>{std::min(x, y), std::max(x, y)};
        }
        auto it = loop_of.find(v);
        if (it == loop_of.end()) return std::nullopt;
        const auto b = loop_bounds(*it->second);
        if (!b) return std::nullopt;
        const int64_t lo = b->lo, hi = b->hi, st = b->step;
        if (st <= 0 || hi <= lo) return std::nullopt;
        return std::pair<int64_t, int64_t>{lo, lo + (hi - lo - 1) / st * st};
    };
    std::function<std::optional<std::vector<int64_t>>(const Var*)> loop_values =
        [&](const Var* v) -> std::optional<std::vector<int64_t>> {
        if (auto dv = derived_of.find(v); dv != derived_of.end()) {
            auto b = loop_values(dv->second.base);
            if (!b) return std::nullopt;
            std::set<int64_t> out;
            for (int64_t x : *b) out.insert(derive(dv->second, x));
            return std::vector<int64_t>(out.begin(), out.end());
        }
        auto it = loop_of.find(v);
        if (it == loop_of.end()) it = index_loop.find(v);
        return it == index_loop.end() ? std::nullopt : loop_vals(*it->second);
    };
    std::function<std::optional<Affine>(const Expr*, int)> affine = [&](const Expr* e,
                                                                        int depth) -> std::optional<Affine> {
        if (!e || depth > 32) return std::nullopt;
        if (e->kind == ExprKind::Int) return Affine{{}, e->ival};
        if (e->kind == ExprKind::Var && e->var) {
            const Var* v = e->var.get();
            if (rebound.count(v)) return std::nullopt;
            if (loop_vars.count(v)) return Affine{{{v, 1}}, 0};
            auto it = def_of.find(v);
            if (it == def_of.end() || multi_def.count(v)) return std::nullopt;
            return affine(it->second, depth + 1);
        }
        if (e->kind == ExprKind::FuncCall && e->sval == "pl.cast" && !e->args.empty())
            return affine(e->args[0].get(), depth + 1);
        if (e->kind != ExprKind::Binary || e->args.size() != 2) return std::nullopt;
        auto a = affine(e->args[0].get(), depth + 1);
        auto b = affine(e->args[1].get(), depth + 1);
        if (!a || !b) return std::nullopt;
        if (e->sval == "+" || e->sval == "-") {
            const int64_t sign = e->sval == "+" ? 1 : -1;
            for (const auto& [v, k] : b->coef) a->coef[v] += sign * k;
            a->c += sign * b->c;
            return a;
        }
        if (e->sval == "*") {
            if (!a->coef.empty() && !b->coef.empty()) return std::nullopt;
            const Affine& s = a->coef.empty() ? *b : *a;
            const int64_t m = a->coef.empty() ? a->c : b->c;
            Affine r{{}, s.c * m};
            for (const auto& [v, k] : s.coef) r.coef[v] = k * m;
            return r;
        }
        if ((e->sval == "//" || e->sval == "%") && b->coef.empty() && b->c > 0 && a->coef.size() == 1 &&
            loop_vars.count(a->coef.begin()->first) && std::abs(a->coef.begin()->second) < (int64_t{1} << 20) &&
            std::abs(a->c) < (int64_t{1} << 40)) {
            // (a numerator that is never negative: Python's floor division is C++'s there)
            const auto [v, k] = *a->coef.begin();
            const auto r = loop_range(v);
            if (!r || std::min(k * r->first, k * r->second) + a->c < 0) return std::nullopt;
            const bool mod = e->sval == "%";
            auto [it, fresh] = derived_key.try_emplace(std::make_tuple(v, k, a->c, b->c, mod), nullptr);
            if (fresh) {
                derived_vars.push_back(Var{v->name + (mod ? "%" : "//") + std::to_string(b->c), v->type, 0, v->loc});
                it->second = &derived_vars.back();
                derived_of[it->second] = Derived{v, k, a->c, b->c, mod};
            }
            return Affine{{{it->second, 1}}, 0};
        }
        return std::nullopt;
    };
    // The window ARG names when it is a pl.tensor.slice (or three-argument pl.tensor.view) of the whole of one
    // root, per dimension its offset (affine) and extent; nullopt otherwise.
    struct AffineWindow {
        const Var* root = nullptr;
        std::vector<std::optional<Affine>> lo;
        std::vector<int64_t> ext;
    };
    auto window_of = [&](const Expr* arg) -> std::optional<AffineWindow> {
        for (int hop = 0; arg && arg->kind == ExprKind::Var && hop < 16; ++hop) {
            auto it = def_of.find(arg->var.get());
            if (it == def_of.end() || multi_def.count(arg->var.get()) || !it->second) return std::nullopt;
            const Expr* d = it->second;
            if (d->kind == ExprKind::Var) {
                arg = d;
                continue;
            }
            // A tensor created and assembled once into a target is a slice of it (FuseCreateAssembleToSlice): its
            // shape, padded with leading 1s, at the assemble's offsets.
            const Expr* target = nullptr;
            const Expr* offs = nullptr;
            std::optional<std::vector<int64_t>> shape;
            if (d->kind == ExprKind::FuncCall && d->sval == "pl.tensor.create") {
                const Expr* as = roots.fused_assemble(arg->var.get());
                if (!as || as->args.size() < 3 || !as->args[0] || as->args[0]->kind != ExprKind::Var)
                    return std::nullopt;
                target = as->args[0].get();
                offs = as->args[2].get();
                std::vector<int64_t> sh = arg->var->type.shape;
                const size_t rank = target->var->type.shape.size();
                if (sh.size() > rank) return std::nullopt;
                sh.insert(sh.begin(), rank - sh.size(), 1);
                shape = sh;
            } else if (d->kind == ExprKind::FuncCall && (d->sval == "pl.tensor.slice" || d->sval == "pl.tensor.view") &&
                       d->args.size() >= 3 && d->args[0] && d->args[0]->kind == ExprKind::Var) {
                target = d->args[0].get();
                offs = d->args[2].get();
                shape = const_ints(d->args[1]);
            } else {
                return std::nullopt;
            }
            if (!shape || !offs || (offs->kind != ExprKind::List && offs->kind != ExprKind::Tuple) ||
                offs->args.size() != shape->size())
                return std::nullopt;
            // The whole of one root (by one path or several: a loop's carried value).
            auto base = roots.of(target);
            if (base.empty() ||
                !std::all_of(base.begin(), base.end(),
                             [&](const GmAlias& g) { return g.base == base[0].base && whole_or_unknown(g); }) ||
                base[0].base->type.shape != target->var->type.shape)
                return std::nullopt;
            AffineWindow w{base[0].base, {}, *shape};
            for (const auto& o : offs->args) w.lo.push_back(affine(o.get(), 0));
            return w;
        }
        return std::nullopt;
    };
    // The window a launch's argument covers of its root, per dimension an offset affine in the orchestration's
    // loop variables and an extent (nullopt: not known): the argument's own slice (or the whole root), narrowed by
    // what the kernel accesses of its parameter (kernel_window) when its scalar arguments are affine too.
    struct ArgDim {
        Affine off;
        int64_t ext = 0;
        bool exact = false;  // narrowed to what the kernel accesses, with no gaps (else its whole extent, or a box)
    };
    struct ArgWindow {
        const Var* root = nullptr;
        std::vector<std::optional<ArgDim>> dims;
        bool atomic = false;  // the kernel only adds to it atomically (atomic-add stores commute)
    };
    std::map<std::pair<size_t, size_t>, std::optional<ArgWindow>> arg_windows;  // (launch, access) -> window
    std::vector<std::vector<size_t>> access_param(n_launch);                    // access -> kernel parameter
    for (size_t k = 0; k < n_launch; ++k) {
        const ManualLaunch& l = launches[k];
        for (size_t p = l.first; p < l.call->args.size(); ++p) {
            const size_t pp = p - l.first;
            if (pp < l.callee->params.size() && l.callee->params[pp].var->type.kind == TypeKind::Tensor)
                access_param[k].push_back(pp);
        }
    }
    // The window access X of launch K names of its root as the runtime's tensor map sees it: the argument's own
    // slice (or the whole root), not narrowed to what the kernel accesses (nullopt: not known).
    std::map<std::pair<size_t, size_t>, std::optional<ArgWindow>> arg_boxes;  // (launch, access) -> window
    auto box_from = [&](const Expr* arg, const std::vector<GmAlias>& rts) -> std::optional<ArgWindow> {
        struct {
            const Expr* arg;
            const std::vector<GmAlias>& roots;
        } a{arg, rts};
        ArgWindow w;
        if (auto sw = window_of(a.arg)) {
            w.root = sw->root;
            for (size_t d = 0; d < sw->lo.size(); ++d)
                w.dims.push_back(sw->lo[d] ? std::optional<ArgDim>(ArgDim{*sw->lo[d], sw->ext[d]}) : std::nullopt);
        } else if (!a.roots.empty() &&
                   std::all_of(a.roots.begin(), a.roots.end(),
                               [&](const GmAlias& g) { return g.base == a.roots[0].base && whole_or_unknown(g); }) &&
                   a.arg && a.arg->type.kind == TypeKind::Tensor && a.roots[0].base->type.shape == a.arg->type.shape) {
            // (several roots: the same tensor by several paths, e.g. a loop's carried value; of its shape: all of it)
            w.root = a.roots[0].base;
            for (int64_t e : a.arg->type.shape) w.dims.push_back(ArgDim{Affine{}, e});
        } else if (const GmAlias whole = a.roots.size() == 1 ? whole_of(a.roots[0].base) : GmAlias{};
                   a.roots.size() == 1 && !a.roots[0].shape.empty() && !whole.shape.empty() &&
                   a.roots[0].strides == whole.strides && a.roots[0].start >= 0) {
            // One constant box of the root (a slice, or a tensor assembled into it): its offsets from its start.
            w.root = a.roots[0].base;
            int64_t rest = a.roots[0].start;
            for (size_t d = 0; d < whole.shape.size(); ++d) {
                w.dims.push_back(ArgDim{Affine{{}, rest / whole.strides[d]}, a.roots[0].shape[d]});
                rest %= whole.strides[d];
            }
        } else {
            return std::nullopt;
        }
        return w;
    };
    auto arg_box = [&](size_t k, size_t x) -> const std::optional<ArgWindow>& {
        auto [it, fresh] = arg_boxes.try_emplace({k, x});
        if (fresh) it->second = box_from(access[k][x].arg, access[k][x].roots);
        return it->second;
    };
    // The argument a launch's result stands for: the written argument of the launch that returns it, when that
    // launch writes one tensor argument only (followed through single definitions); else E itself.
    auto through_results = [&](const Expr* e) {
        for (int hop = 0; e && hop < 32; ++hop) {
            const Expr* d = nullptr;
            int64_t index = -1;
            const Type* t = nullptr;
            if (e->kind == ExprKind::Index && !e->args.empty() && e->args[0] && e->args[0]->kind == ExprKind::Var) {
                const Var* tv = e->args[0]->var.get();
                auto it = def_of.find(tv);
                if (it == def_of.end() || multi_def.count(tv)) break;
                d = it->second;
                index = e->ival;
            } else if (e->kind == ExprKind::Var && e->var) {
                auto it = def_of.find(e->var.get());
                if (it == def_of.end() || multi_def.count(e->var.get()) || !it->second) break;
                if (it->second->kind == ExprKind::Var || it->second->kind == ExprKind::Index) {
                    e = it->second;
                    continue;
                }
                d = it->second;
                t = &e->var->type;
            } else {
                break;
            }
            const Expr* w = written_arg(d, index, t);
            // one written tensor argument only: the result is that one
            if (!w || written_arg(d, 1, nullptr)) break;
            e = w;
        }
        return e;
    };
    std::map<std::pair<size_t, size_t>, std::optional<ArgWindow>> map_boxes;  // (launch, access) -> window
    auto map_box = [&](size_t k, size_t x) -> const std::optional<ArgWindow>& {
        auto [it, fresh] = map_boxes.try_emplace({k, x});
        if (fresh) {
            const Expr* e = through_results(access[k][x].arg);
            it->second = e == access[k][x].arg ? arg_box(k, x) : box_from(e, roots.of(e));
        }
        return it->second;
    };
    auto arg_window = [&](size_t k, size_t x) -> const std::optional<ArgWindow>& {
        auto [it, fresh] = arg_windows.try_emplace({k, x});
        if (!fresh) return it->second;
        const ManualLaunch& l = launches[k];
        const auto& box = map_box(k, x);
        if (!box) return it->second;
        ArgWindow w = *box;
        const size_t pp = access_param[k][x];
        auto blocks = launch_core_num(*l.call);
        bool atomic = false;
        auto kw = kernel_window(program, *l.callee, pp, blocks ? static_cast<int>(*blocks) : 1, 0, &atomic);
        w.atomic = kw && atomic;
        if (kw && kw->size() == w.dims.size())
            for (size_t d = 0; d < w.dims.size(); ++d) {
                if (!w.dims[d] || !(*kw)[d]) continue;
                Affine off = w.dims[d]->off;
                bool ok = true;
                for (const auto& [q, m] : (*kw)[d]->coef) {
                    auto v =
                        l.first + q < l.call->args.size() ? affine(l.call->args[l.first + q].get(), 0) : std::nullopt;
                    if (!v) {
                        ok = false;
                        break;
                    }
                    for (const auto& [lv, cf] : v->coef) off.coef[lv] += m * cf;
                    off.c += m * v->c;
                }
                if (!ok) continue;
                off.c += (*kw)[d]->lo;
                std::erase_if(off.coef, [](const auto& e) { return e.second == 0; });
                w.dims[d] = ArgDim{off, (*kw)[d]->hi - (*kw)[d]->lo, (*kw)[d]->dense};
            }
        it->second = w;
        return it->second;
    };
    // Whether access X of launch A and Y of launch B name bytes that cannot be shared: in one dimension both
    // offsets move alike with the loops (the same loop variables, same coefficients) and the windows are apart.
    // LOOP == nullptr: in one iteration of every loop both sit in; else at two different iterations of LOOP:
    // both offsets are s * i + c (+ the same terms of loops outside it) and both windows fit in one span of
    // |s * step| elements, so different iterations' windows are different spans.
    // PART (in one iteration only): the instances of A that B's deps= name through a filled array; a pair of
    // instances it orders needs no window apart.
    auto apart = [&](size_t a, size_t x, size_t b, size_t y, const Stmt* loop, const Partial* part = nullptr) {
        const auto& wx = arg_window(a, x);
        const auto& wy = arg_window(b, y);
        if (!wx || !wy || wx->root != wy->root || wx->dims.size() != wy->dims.size()) return false;
        // (a derived variable is its loop index's: the same loop, its value computed from the index's)
        auto common = [&](const Var* v) {
            v = base_of(v);
            for (const Stmt* f : launches[a].loops)
                if (f->loop_var.get() == v)
                    return std::find(launches[b].loops.begin(), launches[b].loops.end(), f) != launches[b].loops.end();
            return false;
        };
        // Whether loop variable V has one value for both windows: its loop encloses both launches and, when LOOP
        // pairs two of its iterations, encloses LOOP too (a loop inside LOOP runs afresh in each iteration).
        const Var* iv = loop ? loop->loop_var.get() : nullptr;
        auto shared_var = [&](const Var* v) {
            v = base_of(v);
            if (v == iv || !common(v)) return false;
            if (!loop) return true;
            for (const Stmt* f : launches[a].loops) {
                if (f == loop) return false;  // reached LOOP first: V's loop is inside it
                if (f->loop_var.get() == v) return true;
            }
            return false;
        };
        // Each variable instance of the two offsets: (variable, 0 = A's own value, 1 = B's own, 2 = shared).
        std::vector<std::pair<const Var*, int>> keys;
        auto key_of = [&](const Var* v, int side) {
            const std::pair<const Var*, int> k{base_of(v), shared_var(v) ? 2 : side};
            auto it = std::find(keys.begin(), keys.end(), k);
            if (it != keys.end()) return static_cast<size_t>(it - keys.begin());
            keys.push_back(k);
            return keys.size() - 1;
        };
        for (size_t d = 0; d < wx->dims.size(); ++d)
            for (int side = 0; side < 2; ++side)
                if (const auto& w = (side == 0 ? wx : wy)->dims[d])
                    for (const auto& [v, cf] : w->off.coef) key_of(v, side);
        if (part) {
            if (part->fill != kNoFill)
                for (const Stmt* l : fills[part->fill].nest) key_of(l->loop_var.get(), 0);
            for (const Expr* h : part->at)
                for (const Stmt* l : index_loops(h)) key_of(l->loop_var.get(), 1);
            for (const auto& [h, es] : part->sel)
                for (const Stmt* l : index_loops(h)) key_of(l->loop_var.get(), 1);
            for (const auto& [h, es] : part->at_in)
                for (const Stmt* l : index_loops(h)) key_of(l->loop_var.get(), 1);
        }
        std::vector<std::vector<int64_t>> values;
        bool enumerable = true;
        int64_t combos = 1;
        for (const auto& [v, side] : keys) {
            auto vals = loop_values(v);
            if (!vals || vals->empty()) {
                enumerable = false;
                values.emplace_back();
                continue;
            }
            combos = std::min<int64_t>(combos * static_cast<int64_t>(vals->size()), int64_t{1} << 40);
            values.push_back(std::move(*vals));
        }
        // Exact when the variables take few values: under every assignment (A's iteration of LOOP before B's) the two
        // windows are apart in some dimension.
        if (enumerable && combos <= (int64_t{1} << 16)) {
            std::vector<size_t> at(keys.size(), 0);
            size_t iv_a = keys.size(), iv_b = keys.size();
            for (size_t k = 0; k < keys.size(); ++k) {
                if (keys[k].first == iv && keys[k].second == 0) iv_a = k;
                if (keys[k].first == iv && keys[k].second == 1) iv_b = k;
            }
            auto value = [&](const Var* v, int side) {
                const std::pair<const Var*, int> k{base_of(v), shared_var(v) ? 2 : side};
                const size_t i = static_cast<size_t>(std::find(keys.begin(), keys.end(), k) - keys.begin());
                auto dv = derived_of.find(v);
                return dv == derived_of.end() ? values[i][at[i]] : derive(dv->second, values[i][at[i]]);
            };
            // The instance pair is ordered through a filled array B's deps= read (PART).
            auto ordered_here = [&] {
                if (!part) return false;
                for (const auto& [h, es] : part->sel) {
                    std::map<const Var*, int64_t> hb;
                    for (const Stmt* l : index_loops(h)) hb[l->loop_var.get()] = value(l->loop_var.get(), 1);
                    if (auto e = index_at(h, hb, 0); e && es.count(*e)) return true;
                }
                if (part->fill == kNoFill) return false;
                const Fill& f = fills[part->fill];
                std::map<const Var*, int64_t> bound;
                for (const Stmt* l : f.nest) bound[l->loop_var.get()] = value(l->loop_var.get(), 0);
                const auto e = index_at(f.index, bound, 0);
                if (!e) return false;
                if (part->elems.count(*e)) return true;
                for (const Expr* h : part->at) {
                    std::map<const Var*, int64_t> hb;
                    for (const Stmt* l : index_loops(h)) hb[l->loop_var.get()] = value(l->loop_var.get(), 1);
                    if (index_at(h, hb, 0) == e) return true;
                }
                for (const auto& [h, es] : part->at_in) {
                    std::map<const Var*, int64_t> hb;
                    for (const Stmt* l : index_loops(h)) hb[l->loop_var.get()] = value(l->loop_var.get(), 1);
                    if (index_at(h, hb, 0) == e && es.count(*e)) return true;
                }
                return false;
            };
            bool all_apart = true;
            for (int64_t c = 0; c < combos && all_apart; ++c) {
                const bool skip =
                    (iv_a < keys.size() && iv_b < keys.size() && values[iv_a][at[iv_a]] >= values[iv_b][at[iv_b]]) ||
                    ordered_here();
                if (!skip) {
                    bool apart_here = false;
                    for (size_t d = 0; d < wx->dims.size() && !apart_here; ++d) {
                        const auto& p = wx->dims[d];
                        const auto& q = wy->dims[d];
                        if (!p || !q) continue;
                        int64_t po = p->off.c, qo = q->off.c;
                        for (const auto& [v, cf] : p->off.coef) po += cf * value(v, 0);
                        for (const auto& [v, cf] : q->off.coef) qo += cf * value(v, 1);
                        apart_here = po + p->ext <= qo || qo + q->ext <= po;
                    }
                    all_apart = apart_here;
                }
                for (size_t k = 0; k < at.size(); ++k) {
                    if (++at[k] < values[k].size()) break;
                    at[k] = 0;
                }
            }
            if (all_apart) return true;
        }
        for (size_t d = 0; d < wx->dims.size(); ++d) {
            const auto& p = wx->dims[d];
            const auto& q = wy->dims[d];
            // The offsets' difference over the ranges of the variables keeps the windows apart (what the two
            // coefficients of a shared variable do not cancel ranges over its values).
            if (p && q) {
                std::map<const Var*, int64_t> shared;
                std::vector<std::pair<const Var*, int64_t>> own;
                for (int side = 0; side < 2; ++side)
                    for (const auto& [v, cf] : (side == 0 ? p : q)->off.coef) {
                        const int64_t signed_cf = side == 0 ? cf : -cf;
                        if (shared_var(v))
                            shared[v] += signed_cf;
                        else
                            own.emplace_back(v, signed_cf);
                    }
                for (const auto& [v, cf] : shared) own.emplace_back(v, cf);
                int64_t lo = p->off.c - q->off.c, hi = lo;
                bool ok = true;
                for (const auto& [v, cf] : own) {
                    if (cf == 0) continue;
                    auto r = loop_range(v);
                    if (!r || std::abs(cf) > (int64_t{1} << 31) || std::abs(r->first) > (int64_t{1} << 31) ||
                        std::abs(r->second) > (int64_t{1} << 31)) {
                        ok = false;
                        break;
                    }
                    lo += std::min(cf * r->first, cf * r->second);
                    hi += std::max(cf * r->first, cf * r->second);
                }
                if (ok && (lo >= q->ext || hi <= -p->ext)) return true;
            }
            if (!p || !q || p->off.coef != q->off.coef) continue;
            bool same_iteration_terms = true;
            for (const auto& [v, cf] : p->off.coef) same_iteration_terms &= common(v);
            if (!same_iteration_terms) continue;
            if (!loop) {
                if (p->off.c + p->ext <= q->off.c || q->off.c + q->ext <= p->off.c) return true;
                continue;
            }
            auto step = loop->step ? const_int(loop->step) : std::optional<int64_t>(1);
            auto s_it = p->off.coef.find(iv);
            if (!iv || !step || *step == 0 || s_it == p->off.coef.end()) continue;
            // The other terms must not change between two iterations of LOOP: loops enclosing it.
            bool outer_only = true;
            for (const auto& [v, cf] : p->off.coef) {
                if (v == iv) continue;
                bool outer = false;
                for (const Stmt* f : launches[a].loops) {
                    if (f == loop) break;
                    outer |= f->loop_var.get() == v;
                }
                outer_only &= outer;
            }
            if (!outer_only) continue;
            const int64_t span = std::abs(s_it->second * *step);
            const int64_t lo = std::min(p->off.c, q->off.c), hi = std::max(p->off.c + p->ext, q->off.c + q->ext);
            if (hi - lo <= span) return true;
        }
        return false;
    };

    // Whether the runtime's tensor map surely sees access X of launch A and Y of launch B overlap, at every pair of
    // their instances the check pairs: the argument windows (not narrowed to what the kernels access: the map keys
    // on arguments) share bytes under every value of the loop variables in their offsets (LOOP == nullptr: one
    // iteration of every loop both sit in; else A at an earlier iteration of LOOP than B). A map edge that holds for
    // some instances only (a slice at an offset moving with a loop, a value that is one of several tensors) orders
    // nothing cvsim may rely on: the instance it misses is unordered.
    auto must_overlap = [&](size_t a, size_t x, size_t b, size_t y, const Stmt* loop) {
        const auto& wx = map_box(a, x);
        const auto& wy = map_box(b, y);
        if (!wx || !wy || wx->root != wy->root || wx->dims.size() != wy->dims.size()) return false;
        for (size_t d = 0; d < wx->dims.size(); ++d)
            if (!wx->dims[d] || !wy->dims[d]) return false;
        auto common = [&](const Var* v) {
            for (const Stmt* f : launches[a].loops)
                if (f->loop_var.get() == v)
                    return std::find(launches[b].loops.begin(), launches[b].loops.end(), f) != launches[b].loops.end();
            return false;
        };
        const Var* iv = loop ? loop->loop_var.get() : nullptr;
        auto shared_var = [&](const Var* v) {
            if (v == iv || !common(v)) return false;
            if (!loop) return true;
            for (const Stmt* f : launches[a].loops) {
                if (f == loop) return false;
                if (f->loop_var.get() == v) return true;
            }
            return false;
        };
        std::vector<std::pair<const Var*, int>> keys;
        for (size_t d = 0; d < wx->dims.size(); ++d)
            for (int side = 0; side < 2; ++side)
                for (const auto& [v, cf] : (side == 0 ? wx : wy)->dims[d]->off.coef) {
                    const std::pair<const Var*, int> k{v, shared_var(v) ? 2 : side};
                    if (std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(k);
                }
        std::vector<std::vector<int64_t>> values;
        int64_t combos = 1;
        for (const auto& [v, side] : keys) {
            auto vals = loop_values(v);
            if (!vals || vals->empty()) return false;
            combos = std::min<int64_t>(combos * static_cast<int64_t>(vals->size()), int64_t{1} << 40);
            values.push_back(std::move(*vals));
        }
        if (combos > (int64_t{1} << 16)) return false;
        size_t iv_a = keys.size(), iv_b = keys.size();
        for (size_t k = 0; k < keys.size(); ++k) {
            if (keys[k].first == iv && keys[k].second == 0) iv_a = k;
            if (keys[k].first == iv && keys[k].second == 1) iv_b = k;
        }
        std::vector<size_t> at(keys.size(), 0);
        auto value = [&](const Var* v, int side) {
            const std::pair<const Var*, int> k{v, shared_var(v) ? 2 : side};
            const size_t i = static_cast<size_t>(std::find(keys.begin(), keys.end(), k) - keys.begin());
            return values[i][at[i]];
        };
        for (int64_t c = 0; c < combos; ++c) {
            const bool skip =
                iv_a < keys.size() && iv_b < keys.size() && values[iv_a][at[iv_a]] >= values[iv_b][at[iv_b]];
            if (!skip)
                for (size_t d = 0; d < wx->dims.size(); ++d) {
                    const auto& p = *wx->dims[d];
                    const auto& q = *wy->dims[d];
                    int64_t po = p.off.c, qo = q.off.c;
                    for (const auto& [v, cf] : p.off.coef) po += cf * value(v, 0);
                    for (const auto& [v, cf] : q.off.coef) qo += cf * value(v, 1);
                    // (a dimension of unknown extent overlaps only as the same whole dimension)
                    const bool overlap = p.ext > 0 && q.ext > 0 ? po < qo + q.ext && qo < po + p.ext
                                                                : po == 0 && qo == 0 && p.ext == q.ext &&
                                                                      p.off.coef.empty() && q.off.coef.empty();
                    if (!overlap) return false;
                }
            for (size_t k = 0; k < at.size(); ++k) {
                if (++at[k] < values[k].size()) break;
                at[k] = 0;
            }
        }
        return true;
    };

    // Whether an argument of launch K may differ between iterations of LOOP: a scalar computed from a loop
    // variable of LOOP or of a loop inside it (or from a value cvsim does not follow: a carried scalar, several
    // definitions), or a tensor sliced at such an offset. A tensor that is a launch's result or a loop's carried
    // value is the same root at every iteration.
    std::function<bool(const Expr*, const Stmt*, const ManualLaunch&, int)> varies =
        [&](const Expr* e, const Stmt* loop, const ManualLaunch& l, int depth) -> bool {
        if (!e || depth > 32) return depth > 32;
        if (e->kind == ExprKind::Var && e->var) {
            const Var* v = e->var.get();
            if (rebound.count(v)) return true;
            if (loop_vars.count(v)) {
                for (const Stmt* f : l.loops) {
                    if (f == loop) break;
                    if (f->loop_var.get() == v) return false;  // a loop outside LOOP: fixed across its iterations
                }
                return true;
            }
            const bool tensor = v->type.kind == TypeKind::Tensor;
            auto it = def_of.find(v);
            if (it == def_of.end() || multi_def.count(v) || !it->second)
                // No single definition: a parameter (fixed), or a loop's or branch's result or carried value (a
                // scalar one may change; a tensor one has the same roots at every iteration).
                return !tensor && (multi_def.count(v) > 0 || carry_index.count(v) > 0);
            const Expr* d = it->second;
            if (tensor) {
                if (d->kind == ExprKind::Var) return varies(d, loop, l, depth + 1);
                if (d->kind == ExprKind::FuncCall &&
                    (d->sval == "pl.tensor.slice" || d->sval == "pl.tensor.view" || d->sval == "pl.tensor.reshape"))
                    for (const auto& a : d->args)
                        if (varies(a.get(), loop, l, depth + 1)) return true;
                return false;
            }
            return varies(d, loop, l, depth + 1);
        }
        if (e->kind == ExprKind::FuncCall && e->ival == kFuncRef) return false;
        for (const auto& a : e->args)
            if (varies(a.get(), loop, l, depth + 1)) return true;
        return false;
    };
    auto launch_varies = [&](size_t k, const Stmt* loop) {
        const ManualLaunch& l = launches[k];
        for (size_t p = l.first; p < l.call->args.size(); ++p)
            if (varies(l.call->args[p].get(), loop, l, 0)) return true;
        return false;
    };

    auto is_untracked = [&](const Var* v) { return untracked.count(v) > 0; };
    // A tensor launches A and B may share, one of them writing it. ORDERED_BY_MAP: only through arguments the
    // runtime's tensor map orders (both launches in AUTO scopes, both arguments tracked, the tensor not
    // manual_dep); else only through the others. LOOP: at different iterations of it (windows that differ by the
    // iteration are apart).
    // The window of access X of launch K is known at every iteration of LOOP: narrowed to what the kernel
    // accesses in every dimension, offsets moving only with LOOP and the loops outside it.
    // The window of access X of launch K is what the kernel accesses in every dimension, without gaps.
    auto exact_window = [&](size_t k, size_t x) {
        const auto& w = arg_window(k, x);
        return w && std::all_of(w->dims.begin(), w->dims.end(), [](const auto& d) { return d && d->exact; });
    };
    auto known = [&](size_t k, size_t x, const Stmt* loop) {
        if (!loop || !exact_window(k, x)) return false;
        std::set<const Var*> fixed;
        for (const Stmt* f : launches[k].loops) {
            fixed.insert(f->loop_var.get());
            if (f == loop) break;
        }
        for (const auto& d : arg_window(k, x)->dims) {
            for (const auto& [v, cf] : d->off.coef)
                if (!fixed.count(base_of(v))) {
                    // A loop inside LOOP with few values: apart() tries every one of them.
                    auto vals = loop_values(v);
                    if (!vals || vals->size() > 64) return false;
                }
        }
        return true;
    };
    // KNOWN_ONLY: only through arguments whose windows are known in every dimension.
    auto conflict = [&](size_t a, size_t b, const Stmt* loop, bool known_only = false, const Partial* part = nullptr) {
        Conflict c;
        const bool both_auto = launches[a].scope == kAuto && launches[b].scope == kAuto;
        for (size_t xi = 0; xi < access[a].size(); ++xi)
            for (size_t yi = 0; yi < access[b].size(); ++yi) {
                const Access& x = access[a][xi];
                const Access& y = access[b][yi];
                if (!x.writes && !y.writes) continue;
                // X published and Y looked up in the tensor map: at every pair of instances whose accesses share
                // bytes, the arguments (which hold the accesses) overlap there too, so the map orders those two.
                // (per shared tensor: one the runtime tracks)
                const bool through_map = both_auto && x.writes && x.tracked && y.looks_up && y.tracked;
                for (const GmAlias& gx : x.roots)
                    for (const GmAlias& gy : y.roots) {
                        if (c.shared || !may_share(gx, gy)) continue;
                        if (through_map && !is_untracked(gx.base)) continue;
                        // A tensor created in the loop's body: each iteration has its own.
                        if (loop)
                            if (auto it = created_in.find(gx.base); it != created_in.end() && it->second.count(loop))
                                continue;
                        if (apart(a, xi, b, yi, loop, part)) continue;
                        // Two atomic adds (and nothing else) to the same bytes commute: no order needed.
                        if (const auto& wa = arg_window(a, xi), &wb = arg_window(b, yi);
                            wa && wb && wa->atomic && wb->atomic)
                            continue;
                        if (known_only && (!known(a, xi, loop) || !known(b, yi, loop))) continue;
                        c = Conflict{gx.base, x.writes, y.writes,
                                     both_auto && x.tracked && y.tracked && !is_untracked(gx.base),
                                     exact_window(a, xi) && exact_window(b, yi)};
                    }
            }
        return c;
    };
    // The runtime's tensor map orders B after A (both in AUTO scopes; A earlier, in the same iteration or an
    // earlier one): A publishes a tracked argument it writes and B looks up one that may share its bytes.
    // It does so only when the two arguments surely overlap at every instance paired (LOOP: at two different
    // iterations of it): one root each (not a value that is one of several tensors), and constant windows that
    // share bytes or windows over the loop variables that share bytes at every value (must_overlap). A window
    // that moves with a loop overlaps some instances only, and the tensor map orders nothing for the others.
    auto single_root = [](const std::vector<GmAlias>& rs) -> const GmAlias* {
        if (rs.empty()) return nullptr;
        for (const GmAlias& g : rs)
            if (g.base != rs[0].base || g.shape != rs[0].shape || g.strides != rs[0].strides || g.start != rs[0].start)
                return nullptr;
        return &rs[0];
    };
    // The one tensor all of RS are (nullptr: none, or several tensors).
    auto one_base = [](const std::vector<GmAlias>& rs) -> const Var* {
        if (rs.empty()) return nullptr;
        for (const GmAlias& g : rs)
            if (g.base != rs[0].base) return nullptr;
        return rs[0].base;
    };
    // Whether the tensor BASE is created in a loop launch A sits in and the other side (the loops OTHER) does not:
    // that side finds one iteration's tensor only.
    auto fresh_in = [&](const Var* base, const std::vector<const Stmt*>& a_loops,
                        const std::vector<const Stmt*>& other) {
        auto it = created_in.find(base);
        if (it == created_in.end()) return false;
        for (const Stmt* f : it->second)
            if (std::find(a_loops.begin(), a_loops.end(), f) != a_loops.end() &&
                std::find(other.begin(), other.end(), f) == other.end())
                return true;
        return false;
    };
    // Whether E (which may be RS) is all of its one root, by one path or several (as arg_box reads it).
    // A view that is all of its root in another shape (a pl.tensor.reshape of the whole): it starts at 0, holds as
    // many elements as the root, contiguously.
    auto whole_view = [](const GmAlias& g) {
        if (g.shape.empty() || g.start != 0) return false;
        const GmAlias w = whole_of(g.base);
        if (w.shape.empty()) return false;
        int64_t n = 1, m = 1;
        for (int64_t d : g.shape) n *= d;
        for (int64_t d : w.shape) m *= d;
        int64_t stride = 1;
        for (size_t k = g.shape.size(); k-- > 0;) {
            if (g.shape[k] != 1 && g.strides[k] != stride) return false;
            stride *= g.shape[k];
        }
        return n == m;
    };
    auto whole_arg = [&](const std::vector<GmAlias>& rs, const Expr* e) {
        if (!e || e->type.kind != TypeKind::Tensor || !one_base(rs)) return false;
        if (std::all_of(rs.begin(), rs.end(), whole_view)) return true;
        return std::all_of(rs.begin(), rs.end(), [](const GmAlias& g) { return whole_or_unknown(g); }) &&
               rs[0].base->type.shape == e->type.shape;
    };
    auto map_orders = [&](size_t a, size_t b, const Stmt* loop = nullptr) {
        if (launches[a].scope != kAuto || launches[b].scope != kAuto) return false;
        for (size_t xi = 0; xi < access[a].size(); ++xi) {
            const Access& x = access[a][xi];
            if (!x.writes || !x.tracked) continue;
            const Var* base = one_base(x.roots);
            if (!base || is_untracked(base)) continue;
            // A tensor created in a loop A sits in and B does not (or, pairing iterations of LOOP, in LOOP's
            // body): B finds one iteration's tensor only, another instance of A wrote another tensor.
            if (loop ? created_in.count(base) && created_in.at(base).count(loop)
                     : fresh_in(base, launches[a].loops, launches[b].loops))
                continue;
            for (size_t yi = 0; yi < access[b].size(); ++yi) {
                const Access& y = access[b][yi];
                if (!y.looks_up || !y.tracked || one_base(y.roots) != base) continue;
                // All of the root on one side: any window of it overlaps.
                if (whole_arg(x.roots, x.arg) || whole_arg(y.roots, y.arg)) return true;
                // Two constant boxes: may_share is exact.
                const GmAlias* gx = single_root(x.roots);
                const GmAlias* gy = single_root(y.roots);
                if (gx && gy && !gx->shape.empty() && !gy->shape.empty()) {
                    if (may_share(*gx, *gy)) return true;
                    continue;
                }
                if (must_overlap(a, xi, b, yi, loop)) return true;
            }
        }
        return false;
    };
    const auto& exclusive = exclusive_arms;  // the two arms of one branch
    // What each launch runs after in its iteration (transitively): its deps= and, both in AUTO scopes, every
    // earlier launch that publishes a tracked tensor it looks up (map_orders), as the runtime's tensor map orders
    // them; and the loop-carried values its deps= (or those of a launch it runs after) read.
    std::vector<std::set<size_t>> after(n_launch), carried(n_launch);
    std::vector<bool> reported(n_launch, false);
    // UNSURE: the windows of the two iterations may or may not overlap (cvsim cannot bound them).
    auto report = [&](size_t i, size_t j, const Conflict& c, const Stmt* loop, bool unsure = false) {
        const ManualLaunch& a = launches[i];
        const ManualLaunch& b = launches[j];
        const char* code = c.a_writes && c.b_writes ? codes::kRaceWaw : c.a_writes ? codes::kRaceRaw : codes::kRaceWar;
        const std::string kind = c.a_writes && c.b_writes ? "WAW" : c.a_writes ? "RAW" : "WAR";
        std::string where;
        if (a.scope != kAuto && a.scope == b.scope)
            where = "in a manual scope";
        else if (a.scope != kAuto || b.scope != kAuto)
            where = fmt::format(
                "{} a manual scope and {}",
                a.scope != kAuto && b.scope != kAuto ? "in two manual scopes (neither is tracked):" : "across",
                a.scope != kAuto && b.scope != kAuto ? "the runtime orders neither by tensor"
                                                     : "outside it (the runtime's tensor map "
                                                       "records no task of a manual scope and "
                                                       "looks none up there)");
        else if (c.tracked && !c.b_writes)
            where =
                "in AUTO scopes (the runtime's tensor map orders a reader after the writers it finds there, "
                "but cvsim found no such order between these two)";
        else if (c.tracked && !c.a_writes)
            where =
                "in AUTO scopes (the runtime's tensor map orders a launch after the earlier writers it looks "
                "up, never a writer after an earlier reader: no write-after-read order)";
        else if (c.tracked)
            where = fmt::format(
                "in AUTO scopes ('{}' writes it through an Out argument the runtime does not look up: PyPTO's "
                "DeriveCallDirections makes it OutputExisting when no sequential loop encloses the launch and no "
                "earlier launch writes the same buffer)",
                b.callee->name);
        else if (is_untracked(c.shared))
            where = "of a tensor created with manual_dep=True (the runtime does not track it)";
        else
            where = "passing it with pl.no_dep (the runtime does not track that argument)";
        Diagnostic d;
        d.code = code;
        d.loc = b.stmt->loc;
        d.span = 1;
        if (loop) {
            d.message = fmt::format(
                "{} on GM tensor '{}' between launches {}: '{}' (line {}) {} it and '{}' {} it at a later iteration "
                "of the loop at line {}, and nothing orders that iteration's '{}' after the earlier one's '{}' "
                "(deps= of a task id the loop carries, or windows that differ by the loop index){}, so the runtime "
                "may run them in either order or at once",
                kind, c.shared->name, where, a.callee->name, a.stmt->loc.line, c.a_writes ? "writes" : "reads",
                b.callee->name, c.b_writes ? "writes" : "reads", loop->loc.line, b.callee->name, a.callee->name,
                unsure ? "; cvsim cannot tell whether the two iterations' windows overlap: they depend on data, "
                         "on a value it does not follow, or on a strided access it bounds by a box"
                       : "");
            d.hint = fmt::format(
                "carry the task id of the launch at line {} through the loop (init_values / pl.yield_, or a task-id "
                "array) into deps=[...] of this launch, or give each iteration a slice of its own{}",
                a.stmt->loc.line,
                unsure ? " (a pl.tensor.slice at an offset affine in the loop index, which cvsim can show apart); if "
                         "the windows are disjoint by construction, this finding is what cvsim cannot prove"
                       : "");
        } else {
            d.message = fmt::format(
                "{} on GM tensor '{}' between launches {}: '{}' (line {}) {} it and '{}' {} it, and '{}' does not "
                "depend on '{}' (deps=){}, so the runtime may run them in either order or at once",
                kind, c.shared->name, where, a.callee->name, a.stmt->loc.line, c.a_writes ? "writes" : "reads",
                b.callee->name, c.b_writes ? "writes" : "reads", b.callee->name, a.callee->name,
                unsure ? "; cvsim cannot tell whether their windows overlap: they depend on data, on a value it does "
                         "not follow, or on an access it bounds by a box"
                       : "");
            d.hint = c.tracked ? fmt::format(
                                     "order it explicitly: submit this launch with deps=[the task id of the launch at "
                                     "line {}], declare the earlier launch's parameter pl.InOut (the runtime then "
                                     "publishes it as a writer), or write into a tensor of its own",
                                     a.stmt->loc.line)
                               : fmt::format("add the task id of the launch at line {} to deps=[...] of this launch",
                                             a.stmt->loc.line);
        }
        out.push_back(std::move(d));
        reported[j] = true;
    };
    // A host read of a tracked tensor waits for the launches that wrote it before (AUTO scope, tracked argument:
    // the runtime's tensor map knows them): every launch after the read, in every path through it, runs after
    // them. A read in a manual scope, of a manual_dep tensor, or in a branch arm or loop the later launch is not
    // in orders nothing here.
    std::vector<std::set<size_t>> read_writers(host_reads.size());
    for (size_t r = 0; r < host_reads.size(); ++r) {
        const HostRead& hr = host_reads[r];
        if (hr.in_manual_scope) continue;
        // Only writers the read surely waits for at every instance (as map_orders): one root each, and constant
        // windows that share bytes, or one of the two all of the root. A writer in a loop the read is not in, at
        // a window moving with that loop, overlaps the read at some iterations only; one writing a tensor created
        // in that loop wrote the read's tensor at one iteration only.
        const auto read_roots = roots.of(hr.tensor);
        const Var* base = one_base(read_roots);
        const GmAlias* gr = single_root(read_roots);
        for (size_t i = 0; base && !is_untracked(base) && i < hr.pos && i < n_launch; ++i) {
            if (launches[i].scope != kAuto || fresh_in(base, launches[i].loops, hr.loops)) continue;
            for (const Access& x : access[i]) {
                if (!x.writes || !x.tracked || one_base(x.roots) != base) continue;
                const GmAlias* gx = single_root(x.roots);
                if ((gx && gr && !gx->shape.empty() && !gr->shape.empty() && may_share(*gx, *gr)) ||
                    whole_arg(x.roots, x.arg) || whole_arg(read_roots, hr.tensor))
                    read_writers[r].insert(i);
            }
        }
    }
    // A launch in a loop of a constant range that runs no iteration never runs: it races with nothing.
    auto never_runs = [&](const ManualLaunch& m) {
        return std::any_of(m.loops.begin(), m.loops.end(), [&](const Stmt* l) {
            const auto b = loop_bounds(*l);
            return b && b->step > 0 && b->hi <= b->lo;
        });
    };
    // Where a launch sits relative to a loop it is in: D is the loop's index in its loops.
    auto loop_index = [](const ManualLaunch& m, const Stmt* loop) -> size_t {
        return static_cast<size_t>(std::find(m.loops.begin(), m.loops.end(), loop) - m.loops.begin());
    };
    // M runs in every iteration of LOOP: in no branch arm inside it, and every loop between them runs.
    auto runs_every = [&](const ManualLaunch& m, const Stmt* loop) {
        const size_t d = loop_index(m, loop);
        for (const auto& arm : m.arms)
            if (if_depth.at(arm.first) > d) return false;
        for (size_t q = d + 1; q < m.loops.size(); ++q)
            if (!passes::runs_at_least_once(*m.loops[q])) return false;
        return true;
    };
    // What a launch runs after across the iterations of one loop (its launches only):
    // PREV[j]: every instance of i at the previous iteration that ran (through a task id the loop carries, or
    // the tensor map); EVERY[j]: every instance of i at every earlier iteration (the tensor map holds them all).
    struct LoopOrder {
        std::map<size_t, std::set<size_t>> prev, every;
    };
    std::map<const Stmt*, LoopOrder> loop_orders;
    std::function<const LoopOrder&(const Stmt*)> loop_order;
    // Every instance of X over LOOP runs after every earlier one: the tensor map finds them, or X runs in every
    // iteration after the previous iteration's.
    auto chained = [&](size_t x, const Stmt* loop) {
        if (auto values = loop_vals(*loop); values && values->size() == 1) return true;  // one instance
        const LoopOrder& o = loop_order(loop);
        auto has = [&](const std::map<size_t, std::set<size_t>>& m) {
            auto it = m.find(x);
            return it != m.end() && it->second.count(x) > 0;
        };
        return has(o.every) || (has(o.prev) && runs_every(launches[x], loop));
    };
    // X's instances inside LOOP's iteration (in the loops below LOOP) run one after another: the last one runs
    // after the others.
    auto chained_below = [&](size_t x, const Stmt* loop) {
        const ManualLaunch& m = launches[x];
        for (size_t q = loop_index(m, loop) + 1; q < m.loops.size(); ++q)
            if (!chained(x, m.loops[q])) return false;
        return true;
    };
    auto prefix_of = [](const auto& a, const auto& b) {
        return a.size() <= b.size() && std::equal(a.begin(), a.end(), b.begin());
    };
    // What i runs after reaches j through i only when i runs whenever j does: i in no branch arm j is not in,
    // and in no loop j is not in that may run no iteration (else, on the path without i, nothing of it orders j).
    // The number of loops two launches (or a read and a launch) share, outermost first.
    auto shared_loops = [](const std::vector<const Stmt*>& p, const std::vector<const Stmt*>& q) {
        size_t k = 0;
        while (k < p.size() && k < q.size() && p[k] == q[k]) ++k;
        return k;
    };
    auto on_every_path = [&](const ManualLaunch& m, const ManualLaunch& b) {
        if (!prefix_of(m.arms, b.arms)) return false;
        const size_t k = shared_loops(m.loops, b.loops);
        for (size_t q = k; q < m.loops.size(); ++q)
            if (!passes::runs_at_least_once(*m.loops[q])) return false;
        return true;
    };
    // The read lies on every path to launch B: the branch arms it sits in are B's, and each loop around it that
    // is not around B runs (a read in the loops B shares sits in B's iteration).
    auto dominates = [&](const HostRead& r, const ManualLaunch& b) {
        if (!prefix_of(r.arms, b.arms)) return false;
        const size_t k = shared_loops(r.loops, b.loops);
        for (size_t m = k; m < r.loops.size(); ++m)
            if (!passes::runs_at_least_once(*r.loops[m])) return false;
        return true;
    };
    // The launches of LOOP and what each runs after across its iterations (needs `after` of its launches: every launch
    // of a loop comes before the launches after it, which ask).
    auto launches_in = [&](const Stmt* loop) {
        std::vector<size_t> in;
        for (size_t k = 0; k < n_launch; ++k)
            if (std::find(launches[k].loops.begin(), launches[k].loops.end(), loop) != launches[k].loops.end())
                in.push_back(k);
        return in;
    };
    loop_order = [&](const Stmt* loop) -> const LoopOrder& {
        if (auto it = loop_orders.find(loop); it != loop_orders.end()) return it->second;
        LoopOrder o;
        const std::vector<size_t> in = launches_in(loop);
        std::set<const Var*> own;
        for (const auto& ia : loop->iter_args) own.insert(ia.get());
        for (size_t j : in) {
            std::set<size_t> r, e;
            // Through a value the loop carries: the launches the previous iteration's yield surely holds ran there
            // (their last instance in the loops below; all of them when those run one after another), and so did
            // what they run after.
            for (size_t t : carried[j]) {
                if (!is_carry(t) || !own.count(token_of[t - n_launch].var)) continue;
                if (auto it = yielded.find(t); it != yielded.end())
                    for (size_t x : it->second)
                        if (x < n_launch && loop_index(launches[x], loop) < launches[x].loops.size() &&
                            chained_below(x, loop)) {
                            r.insert(x);
                            r.insert(after[x].begin(), after[x].end());
                        }
            }
            // The tensor map orders j after every earlier iteration's i as it does in one iteration: i publishes
            // what j looks up (and what i runs after, where i runs in every iteration).
            for (size_t i : in)
                if (map_orders(i, j, loop)) {
                    for (auto* s : {&r, &e}) {
                        s->insert(i);
                        if (runs_every(launches[i], loop)) s->insert(after[i].begin(), after[i].end());
                    }
                }
            o.prev[j] = std::move(r);
            o.every[j] = std::move(e);
        }
        // Through a launch j runs after in its iteration, which runs whenever j does: that launch's back edges.
        const LoopOrder direct = o;
        for (size_t j : in)
            for (size_t y : after[j])
                if (on_every_path(launches[y], launches[j])) {
                    if (auto it = direct.prev.find(y); it != direct.prev.end())
                        o.prev[j].insert(it->second.begin(), it->second.end());
                    if (auto it = direct.every.find(y); it != direct.every.end())
                        o.every[j].insert(it->second.begin(), it->second.end());
                }
        return loop_orders.emplace(loop, std::move(o)).first->second;
    };
    // after[j]: every instance of i that ran, in j's iteration of the loops both are in (all of i's instances in
    // the loops j is not in), runs before j. partial[(i, j)]: some instances of i do (through a filled array).
    std::map<std::pair<size_t, size_t>, Partial> partial;
    // before_all[j][x] = K: every instance of x runs before some instance of j over j's loops past the first K (the
    // loops x and j share), in each iteration of those K.
    std::vector<std::map<size_t, size_t>> before_all(n_launch);
    auto ordered_elems = [&](size_t t, size_t fi, const std::set<size_t>& deps) {
        const Fill& f = fills[fi];
        std::set<int64_t> named;
        for (int64_t e : f.image)
            if (auto it = inst_id.find(std::make_tuple(t, fi, e)); it != inst_id.end() && deps.count(it->second))
                named.insert(e);
        if (named.empty() || !std::all_of(f.nest.begin(), f.nest.end(), [&](const Stmt* l) { return chained(t, l); }))
            return named;
        size_t last = 0;
        for (size_t q = 0; q < f.order.size(); ++q)
            if (named.count(f.order[q])) last = q;
        named.insert(f.order.begin(), f.order.begin() + static_cast<std::ptrdiff_t>(last) + 1);
        return named;
    };
    // Whether index H reads only loops B is in (its value is known at each instance of B).
    auto over_loops_of = [&](const Expr* h, const ManualLaunch& b) {
        const auto& hl = index_loops(h);
        return std::all_of(hl.begin(), hl.end(), [&](const Stmt* l) {
            return l && std::find(b.loops.begin(), b.loops.end(), l) != b.loops.end();
        });
    };
    for (size_t j = 0; j < n_launch; ++j) {
        const ManualLaunch& b = launches[j];
        std::set<size_t> by_deps, direct, named, sels;
        by_deps = launch_deps[j];
        for (size_t t : by_deps) {
            if (is_sel(t)) {
                sels.insert(t);
                for (const auto& [e, ts] : token_of[t - n_launch].elems)
                    for (size_t u : ts)
                        if (is_inst(u)) named.insert(token_of[u - n_launch].launch);
            } else if (is_inst(t)) {
                named.insert(token_of[t - n_launch].launch);
            } else if (is_carry(t)) {
                carried[j].insert(t);
            } else {
                named.insert(t);
            }
        }
        for (size_t t : named) {
            if (t >= j) continue;
            // A task id out of a loop j is not in is its last iteration's: it orders the earlier iterations'
            // instances only when they run one after another, or when deps= name the task id of every iteration
            // (an array filled per iteration).
            const ManualLaunch& m = launches[t];
            const size_t k = shared_loops(m.loops, b.loops);
            // (the loops from Q on: covered by a fill whose every element deps= name)
            size_t covered = m.loops.size();
            for (size_t fi = 0; fi < fills.size(); ++fi) {
                const Fill& f = fills[fi];
                if (f.nest.size() > m.loops.size() - k ||
                    !std::equal(f.nest.begin(), f.nest.end(), m.loops.end() - f.nest.size()))
                    continue;
                const bool every = ordered_elems(t, fi, by_deps).size() == f.image.size();
                if (every) covered = std::min(covered, m.loops.size() - f.nest.size());
            }
            // (the loops no fill covers: chained, and a task id of t itself, which is its last instance there; a
            // fill's element names the instance that stored it, which orders nothing about the later ones)
            bool all = covered < m.loops.size() || by_deps.count(t) > 0;
            for (size_t q = k; q < covered && all; ++q) all = chained(t, m.loops[q]);
            if (all) {
                direct.insert(t);
                continue;
            }
            // Some of its instances: those of a fill over all the loops t is in and j is not, whose elements
            // deps= name (constant elements, or an index over j's loops).
            for (size_t fi = 0; fi < fills.size() && !partial.count({t, j}); ++fi) {
                const Fill& f = fills[fi];
                if (f.nest.size() != m.loops.size() - k ||
                    !std::equal(f.nest.begin(), f.nest.end(), m.loops.end() - f.nest.size()))
                    continue;
                Partial p{fi, ordered_elems(t, fi, by_deps), {}, {}, {}};
                for (size_t tk : by_deps) {
                    if (!is_inst(tk)) continue;
                    const Token& x = token_of[tk - n_launch];
                    if (x.launch != t || x.fill != fi) continue;
                    if (!x.at) {
                        continue;
                    } else if (over_loops_of(x.at, b)) {
                        p.at.push_back(x.at);
                    }
                }
                // (a select token: the elements that hold this fill's instance that stored them)
                for (size_t tk : sels) {
                    const Token& x = token_of[tk - n_launch];
                    if (!over_loops_of(x.at, b)) continue;
                    std::set<int64_t> es;
                    for (const auto& [e, ts] : x.elems)
                        if (auto it = inst_id.find(std::make_tuple(t, fi, e));
                            it != inst_id.end() && ts.count(it->second))
                            es.insert(e);
                    if (!es.empty()) p.at_in.emplace_back(x.at, std::move(es));
                }
                if (p.elems.empty() && p.at.empty() && p.at_in.empty()) continue;
                // Every instance of t runs before some instance of j, all of which run (j in no branch arm in
                // its loops past t's, those of constant ranges, the indices over them): what runs after every
                // instance of j runs after every instance of t.
                bool all_run = std::all_of(b.arms.begin(), b.arms.end(),
                                           [&](const auto& arm) { return if_depth.at(arm.first) <= k; });
                std::vector<const Stmt*> own(b.loops.begin() + static_cast<std::ptrdiff_t>(k), b.loops.end());
                for (const Expr* h : p.at)
                    for (const Stmt* l : index_loops(h)) all_run &= std::find(own.begin(), own.end(), l) != own.end();
                for (const auto& [h, es] : p.at_in)
                    for (const Stmt* l : index_loops(h)) all_run &= std::find(own.begin(), own.end(), l) != own.end();
                std::vector<std::vector<int64_t>> vals;
                size_t points = 1;
                for (const Stmt* l : own) {
                    auto v = all_run ? loop_vals(*l) : std::nullopt;
                    all_run = all_run && v && !v->empty() && (points *= v->size()) <= 4096;
                    if (all_run) vals.push_back(std::move(*v));
                }
                if (all_run) {
                    std::set<int64_t> got = p.elems;
                    std::vector<size_t> at(own.size(), 0);
                    for (size_t q = 0; q < points; ++q) {
                        std::map<const Var*, int64_t> bound;
                        for (size_t d = 0; d < own.size(); ++d) bound[own[d]->loop_var.get()] = vals[d][at[d]];
                        for (const Expr* h : p.at)
                            if (auto e = index_at(h, bound, 0)) got.insert(*e);
                        for (const auto& [h, es] : p.at_in)
                            if (auto e = index_at(h, bound, 0); e && es.count(*e)) got.insert(*e);
                        for (size_t d = own.size(); d-- > 0;) {
                            if (++at[d] < vals[d].size()) break;
                            at[d] = 0;
                        }
                    }
                    if (std::includes(got.begin(), got.end(), f.image.begin(), f.image.end())) before_all[j][t] = k;
                }
                partial.emplace(std::make_pair(t, j), std::move(p));
            }
        }
        // Select tokens: at j's instances where the index is E, the launches of element E (and, when each runs
        // whenever j does, what they run after) ran before, in this iteration of the loops they share with j. Only
        // launches in no loop j is not in (a task id out of such a loop is its last instance, which orders
        // nothing of the others here), and indices over j's own loops.
        for (size_t tk : sels) {
            const Token& x = token_of[tk - n_launch];
            if (index_loops(x.at).empty() || !over_loops_of(x.at, b)) continue;
            std::map<size_t, std::set<int64_t>> ordered;  // launch -> the index values where j runs after it
            for (const auto& [e, ts] : x.elems)
                for (size_t t : ts) {
                    if (t >= n_launch || t >= j || shared_loops(launches[t].loops, b.loops) != launches[t].loops.size())
                        continue;
                    ordered[t].insert(e);
                    if (on_every_path(launches[t], b))
                        for (size_t i : after[t]) ordered[i].insert(e);
                }
            for (auto& [i, es] : ordered) partial[{i, j}].sel.emplace_back(x.at, std::move(es));
        }
        for (size_t r = 0; r < host_reads.size(); ++r)
            if (host_reads[r].pos <= j && dominates(host_reads[r], b))
                direct.insert(read_writers[r].begin(), read_writers[r].end());
        for (size_t i = 0; i < j; ++i)
            if (!exclusive(launches[i], b) && map_orders(i, j)) direct.insert(i);
        for (size_t i : direct)
            if (i < j) {
                after[j].insert(i);
                if (!on_every_path(launches[i], b)) continue;
                after[j].insert(after[i].begin(), after[i].end());
                carried[j].insert(carried[i].begin(), carried[i].end());
                // (only when j runs after ALL of those instances of i: j shares none of i's loops past the K)
                for (const auto& [x, kx] : before_all[i]) {
                    if (shared_loops(launches[i].loops, b.loops) > kx) continue;
                    after[j].insert(x);
                    after[j].insert(after[x].begin(), after[x].end());
                }
            }
        for (size_t i = 0; i < j && !reported[j]; ++i) {
            if (after[j].count(i) || exclusive(launches[i], b) || never_runs(launches[i]) || never_runs(b)) continue;
            auto pt = partial.find({i, j});
            if (const Conflict c = conflict(i, j, nullptr, false, pt == partial.end() ? nullptr : &pt->second);
                c.shared)
                report(i, j, c, nullptr, !c.sure);
        }
    }
    // Launches of one loop at two iterations (a launch and itself, or two launches of its body, either first in
    // the body): i at iteration t runs before j at every later t' when j runs after every earlier instance of i
    // (the tensor map), or after the previous iteration's i and i after its own previous instance in every
    // iteration, or after i in its own iteration (i running whenever j does) and i so chained, or when j runs in
    // every iteration after its previous instance and after i in its own or the previous iteration
    // (docs/DECISIONS.md, "Manual scopes" and "Task ids carried by loops").
    // (in program order: the order of findings never depends on where the statements were allocated)
    std::vector<const Stmt*> all_loops;
    for (const auto& l : launches)
        for (const Stmt* f : l.loops)
            if (std::find(all_loops.begin(), all_loops.end(), f) == all_loops.end()) all_loops.push_back(f);
    for (const Stmt* loop : all_loops) {
        // A loop of one iteration (or none) pairs nothing across iterations.
        if (auto lo = loop->start ? const_int(loop->start) : std::optional<int64_t>(0),
            hi = loop->stop ? const_int(loop->stop) : std::nullopt,
            st = loop->step ? const_int(loop->step) : std::optional<int64_t>(1);
            lo && hi && st && *st > 0 && *hi - *lo <= *st)
            continue;
        const std::vector<size_t> in = launches_in(loop);
        const LoopOrder& o = loop_order(loop);
        auto holds = [](const std::map<size_t, std::set<size_t>>& m, size_t j, size_t i) {
            auto it = m.find(j);
            return it != m.end() && it->second.count(i) > 0;
        };
        for (size_t j : in) {
            if (reported[j] || never_runs(launches[j])) continue;
            const ManualLaunch& b = launches[j];
            for (size_t i : in) {
                const ManualLaunch& a = launches[i];
                if (never_runs(a)) continue;
                const bool ordered =
                    holds(o.every, j, i) || (holds(o.prev, j, i) && runs_every(a, loop) && chained(i, loop)) ||
                    (after[j].count(i) && on_every_path(a, b) && chained(i, loop)) ||
                    ((after[j].count(i) || holds(o.prev, j, i)) && runs_every(b, loop) && chained(j, loop));
                if (ordered) continue;
                // j looks up what i publishes: the tensor map holds every earlier iteration's i that is still
                // running (a task publishes one entry per write; a writer that replaced another overlapping one
                // without an order is itself a WAW reported at i), so j runs after all of them.
                if (map_orders(i, j, loop)) continue;
                // Launches whose arguments change with the iteration are paired through windows cvsim knows
                // (docs/DECISIONS.md, "Manual scopes": what it cannot tell is a limit, counted in the note).
                const bool varying = launch_varies(i, loop) || launch_varies(j, loop);
                if (const Conflict c = conflict(i, j, loop, varying); c.shared) {
                    report(i, j, c, loop, !c.sure);
                    break;
                }
                // Windows cvsim cannot bound in every dimension (data, a value it does not follow, a strided
                // access): it cannot show the iterations apart, so the pair is a finding that says so.
                if (varying)
                    if (const Conflict c = conflict(i, j, loop, false); c.shared) {
                        report(i, j, c, loop, true);
                        break;
                    }
            }
        }
    }
    return out;
}

void refuse_distributed(const Function& f) {
    if (f.distributed.what.empty()) return;
    raise(
        codes::kUnsupported, f.distributed.loc,
        fmt::format(
            "'{}' is a distributed function ('{}'), which cvsim does not simulate: it models one device, and PyPTO "
            "lowers "
            "pld.* after ExpandMixedKernel (LowerHostTensorCollectives, MaterializeDistTensorCtx, then PTO codegen to "
            "TPUT/TGET/TNOTIFY/TWAIT)",
            f.name, f.distributed.what),
        "check reports this kernel as not checked and still checks the program's single-device kernels (--entry NAME "
        "picks one)",
        f.distributed.span);
}

void refuse_unread(const Program& program, const std::string& entry) {
    const Function* first = first_unread(program.functions);
    if (!first) return;
    std::shared_ptr<Function> e;
    try {
        e = pick_entry(program, entry);
    } catch (const CompileError&) {
        throw CompileError(*first->unread.diag);  // no entry to follow: the file is rejected as before
    }
    if (const Function* hit = unread_reached(program, *e)) throw CompileError(*hit->unread.diag);
}

std::vector<const Function*> unread_unreached(const Program& program, const std::string& entry) {
    std::vector<const Function*> out;
    std::shared_ptr<Function> e;
    try {
        e = pick_entry(program, entry);
    } catch (const CompileError&) {
        return out;
    }
    const std::set<const Function*> reached = reached_from(program, *e);
    for (const auto& f : program.functions)
        if (f->is_unread() && !reached.count(f.get())) out.push_back(f.get());
    return out;
}

// The kernels ENTRY launches (empty when it is no orchestration); `host`: it also runs host ops.
static std::vector<KernelLaunch> entry_launches(const Program& program, const std::string& entry, bool& host) {
    auto f = pick_entry(program, entry);
    std::vector<KernelLaunch> launches;
    host = false;
    if (f->type == FuncType::Orchestration) collect_launches(program, *f, launches, host, 0);
    return launches;
}

std::optional<int> launch_width(const Program& program, const std::string& entry) {
    std::vector<KernelLaunch> launches;
    try {
        bool host = false;
        launches = entry_launches(program, entry, host);
    } catch (const std::exception&) {
        return std::nullopt;  // no entry to follow (expand takes every function): its width is --blocks'
    }
    std::optional<int> width;
    for (const auto& k : launches) {
        if (k.blocks <= 0) continue;
        if (width && *width != k.blocks) return std::nullopt;
        width = k.blocks;
    }
    return width;
}

namespace {
std::optional<std::pair<int64_t, SourceLoc>> site_width(const Program& program, const std::string& kernel, int depth) {
    std::optional<std::pair<int64_t, SourceLoc>> widest;
    // A wrapper that calls the kernel (an Spmd / Group function) runs it as wide as the wrapper is launched.
    int64_t caller_width = 1;
    SourceLoc caller_loc;
    std::function<void(const Block&, int64_t)> scan = [&](const Block& b, int64_t spmd) {
        for (const auto& st : b) {
            if (const ExprPtr& v = st->value; v && v->kind == ExprKind::FuncCall) {
                bool launches = v->sval == kernel;
                for (const auto& a : v->args)
                    launches |= is_host_op_call(*v) && a && a->kind == ExprKind::FuncCall && a->ival == kFuncRef &&
                                a->sval == kernel;
                if (launches) {
                    int64_t w = spmd;
                    if (const ExprPtr* n = core_num_attr(*v)) {
                        const auto c = const_int(*n);
                        w = c && *c > 0 ? *c : w;  // a run-time core_num: the walk's business (--entry: unknown)
                    }
                    w = std::max(w, caller_width);
                    if (!widest || w > widest->first)
                        widest = std::make_pair(w, caller_width > 1 && w == caller_width ? caller_loc : st->loc);
                }
            }
            int64_t inner = spmd;
            if (st->kind == StmtKind::For && st->loop_kind == LoopKind::Spmd) {
                const auto n = const_int(st->stop);
                inner = n && *n > 0 && *n <= 4096 / spmd ? spmd * *n : spmd;
            }
            scan(st->body, inner);
            scan(st->orelse, spmd);
        }
    };
    for (const auto& f : program.functions) {
        if (f->name == kernel || f->is_unread()) continue;
        caller_width = 1;
        bool calls = false;
        launch_sites(*f, kernel, [&](const Expr&, const std::vector<ExprPtr>&) { calls = true; });
        if (!calls) continue;
        if (f->type != FuncType::Orchestration) {
            if (depth >= 8) continue;
            auto w = site_width(program, f->name, depth + 1);
            if (!w) continue;  // a wrapper nobody launches wide
            caller_width = w->first;
            caller_loc = w->second;
        }
        scan(f->body, 1);
    }
    return widest;
}
}  // namespace

std::optional<std::pair<int64_t, SourceLoc>> kernel_site_width(const Program& program, const std::string& kernel) {
    auto widest = site_width(program, kernel, 0);
    if (!widest || widest->first <= 1) return std::nullopt;
    return widest;
}

std::vector<KernelLaunch> kernel_launches(const Program& program, const std::string& entry, const HostInputs& in) {
    bool host = false;
    std::vector<KernelLaunch> launches = entry_launches(program, entry, host);
    if (launches.empty()) return {};
    // The host walk gives each launch's scalar arguments (loop variables, computed scalars).
    const HostWalk walk = walk_host(program, *pick_entry(program, entry), in);
    // One launch of one kernel with constant scalars runs as the entry itself (one launch plan).
    // (A core_num computed at run time goes the per-kernel way too, so the walk's value is the launch width.)
    bool one = launches.size() == 1 && !host && launches[0].computed.empty() && !launches[0].runtime_core_num;
    for (const auto& w : walk.kernels) one &= w.launches <= 1;
    if (one) return {};
    for (auto& k : launches)
        for (const auto& w : walk.kernels)
            if (w.name == k.name) {
                k.bindings = w.distinct;
                k.launch_count = w.launches;
                k.walk_incomplete = walk.incomplete;
            }
    return launches;
}

// PyPTO's a2a3 codegen of pl.tile.mgather (src/backend/common/pto_ops_memory.cpp): no 8-bit float table, a
// [1, R] index in row mode, 32-byte aligned destination rows. A kernel it refuses is refused here too.
// On a5, row mode's table rows are the second-to-last dimension alone (pto-isa a5 MGather.hpp, GetShape(DIM_3)),
// where cvsim (and a2a3) take the product of all leading dimensions: a table with more leading rows is refused.
static void check_mgather_targets(const Program& program, Target target) {
    for (auto& f : program.functions)
        passes::walk(f->body, [&](const StmtPtr& s) {
            const Expr* c = passes::stmt_call(*s);
            if (!c || c->op->code != OpCode::Mgather) return;
            const ExprPtr& mem = arg(*c, "mem");
            const DType dt = mem->type.dtype;
            // The Mat (L1) form: a5's GM -> L1 row mode takes the product of the leading dimensions as a2a3 does
            // (MGatherGm2L1RowImpl); a2a3 has no 8-bit float GM -> L1 gather (MGatherCheckGm2L1).
            if (c->type.mem == Mem::Mat) {
                if (target == Target::A2A3 && (dt == DType::FP8E4M3FN || dt == DType::FP8E5M2 || dt == DType::HF8))
                    raise(codes::kUnsupported, mem->loc,
                          fmt::format(
                              "pl.tile.mgather: dtype {} is not supported on a2a3 (PyPTO's a2a3 codegen refuses it)",
                              dtype_name(dt)),
                          "use --target a5");
                return;
            }
            if (target == Target::A5) {
                const auto& sh = mem->type.shape;
                bool leading = false;
                for (size_t d = 0; d + 2 < sh.size(); ++d) leading |= sh[d] != 1;
                if (mgather_coalesce(*c) == 0 && leading)
                    raise(codes::kUnsupported, mem->loc,
                          fmt::format("pl.tile.mgather: row mode on a5 over a table of shape {}: a5's MGATHER counts "
                                      "only the second-to-last "
                                      "dimension as table rows, cvsim all leading dimensions",
                                      shape_str(sh)),
                          "reshape the table to 2-D (pl.tensor.view) or use --target a2a3");
                return;
            }
            if (dt == DType::FP8E4M3FN || dt == DType::FP8E5M2 || dt == DType::HF8)
                raise(
                    codes::kUnsupported, mem->loc,
                    fmt::format("pl.tile.mgather: dtype {} is not supported on a2a3 (PyPTO's a2a3 codegen refuses it)",
                                dtype_name(dt)),
                    "use --target a5");
            const ExprPtr& idx = arg(*c, "idx");
            if (mgather_coalesce(*c) == 0 && idx->type.shape[0] != 1)
                raise(codes::kType, idx->loc,
                      fmt::format("pl.tile.mgather: row mode on a2a3 requires an idx shape [1, R], got {}",
                                  shape_str(idx->type.shape)));
            if ((c->type.cols() * static_cast<int64_t>(dtype_bytes(dt))) % 32 != 0)
                raise(codes::kType, c->loc,
                      fmt::format("pl.tile.mgather: on a2a3 each destination row must be 32-byte aligned ({} columns "
                                  "of {} are {} bytes)",
                                  c->type.cols(), dtype_name(dt),
                                  c->type.cols() * static_cast<int64_t>(dtype_bytes(dt))));
        });
}

// pto-isa TGATHER compare form on a2a3 (include/pto/npu/a2a3/TGather.hpp): src FP16 / FP32, or INT32 with EQ only;
// its a5 form also takes INT16.
static void check_gather_compare_targets(const Program& program, Target target) {
    if (target != Target::A2A3) return;
    for (auto& f : program.functions)
        passes::walk(f->body, [&](const StmtPtr& s) {
            const Expr* c = passes::stmt_call(*s);
            if (!c || c->op->code != OpCode::GatherCompareDst) return;
            const ExprPtr& src = arg(*c, "src");
            const DType dt = src->type.dtype;
            const ExprPtr& m = arg(*c, "cmp_mode");
            const bool gt = m && (const_str(m).value_or("") == "gt" || const_int(m).value_or(-1) == 4);
            if (dt == DType::INT16 || (dt == DType::INT32 && gt))
                raise(codes::kUnsupported, src->loc,
                      fmt::format("pl.tile.gather_compare: {} src{} is not supported on a2a3 (pto-isa's a2a3 TGATHER "
                                  "compare form takes FP16/FP32, "
                                  "or INT32 with cmp_mode eq)",
                                  dtype_name(dt), dt == DType::INT32 ? " with cmp_mode gt" : ""),
                      "use --target a5");
        });
}

// A hand-written AIC function runs on the cube core, an AIV function on a vector core: a statement of the other
// side (a UB tile op in an AIC function, a cube op in an AIV one) has no unit to run on there.
static void check_lane_sides(const Program& program) {
    for (auto& f : program.functions) {
        if (f->is_unread() || (f->type != FuncType::AIC && f->type != FuncType::AIV)) continue;
        const bool aic = f->type == FuncType::AIC;
        passes::walk(f->body, [&](const StmtPtr& s) {
            const Expr* c = passes::stmt_call(*s);
            if (!c || !c->op) return;
            const Side side = call_side(*c);
            if ((aic && side == Side::Vector) || (!aic && side == Side::Cube))
                raise(codes::kType, c->loc,
                      fmt::format("pl.{} runs on the {} core, but '{}' is an {} function (it runs on the {} core)",
                                  c->op->name(), aic ? "vector" : "cube", f->name, aic ? "AIC" : "AIV",
                                  aic ? "cube" : "vector"),
                      "move the statement to the other lane's function, or write one InCore function and let the "
                      "expansion split it");
        });
    }
}

// The a5 store path has no bf16 atomic add (PyPTO: an fp32 accumulator plus a cast is required there).
static void check_atomic_targets(const Program& program, Target target) {
    if (target != Target::A5) return;
    for (auto& f : program.functions)
        passes::walk(f->body, [&](const StmtPtr& s) {
            const Expr* c = passes::stmt_call(*s);
            if (!c || !is_atomic_add_store(*c)) return;
            const ExprPtr& out = arg(*c, "output_tensor");
            if (out && out->type.dtype == DType::BF16)
                raise(codes::kUnsupported, arg(*c, "atomic")->loc,
                      "pl.tile.store: a BF16 atomic add is not available on a5 (accumulate in FP32 and cast)");
        });
}

// A soft syncall's used_cores (PyPTO: the total number of participating cores; 0 derives it from the launch)
// must be the launch's participant count on the device: cvsim's barrier waits for every launched core of its
// type, so a smaller count (released early: it orders nothing) or a larger one (never released) is refused,
// never ignored. Cores per block on the device: mix = the AIC and both AIVs of the cluster; aic_only = 1;
// aiv_only = both AIVs of a mixed kernel's cluster, else one per block of a vector-only kernel (two when it
// splits between the lanes).
void check_soft_barrier_counts(const rt::LaunchPlan& plan) {
    for (const auto* lane : {&plan.aic, &plan.aiv}) {
        if (!*lane || !(*lane)->fn) continue;
        passes::walk((*lane)->fn->body, [&](const StmtPtr& s) {
            const Expr* c = passes::stmt_call(*s);
            if (!c || c->op->code != OpCode::Syncall) return;
            const ExprPtr& u = arg(*c, "used_cores");
            if (!u || u->kind == ExprKind::NoneLit) return;
            auto n = const_int(u);
            if (n && *n == 0) return;
            if (!n)
                raise(codes::kUnsupported, u->loc,
                      "pl.system.syncall: a used_cores computed at run time is not modelled",
                      "give the participant count as a constant (or 0: every launched core)");
            const std::string ct = const_str(arg(*c, "core_type")).value_or("mix");
            const int aics = plan.aic ? 1 : 0;
            const int aivs = !plan.aiv ? 0 : (plan.aic || plan.aiv_split) ? 2 : 1;
            const int per_block = ct == "mix" ? aics + (plan.aiv ? 2 : 0) : ct == "aic_only" ? aics : aivs;
            const int64_t launched = static_cast<int64_t>(per_block) * plan.blocks;
            if (*n != launched)
                raise(codes::kUnsupported, u->loc,
                      fmt::format(
                          "pl.system.syncall: used_cores={} but the launch has {} '{}' participant(s) ({} block(s)); a "
                          "partial soft barrier (released before every launched core arrived) is not modelled",
                          *n, launched, ct, plan.blocks),
                      fmt::format("give used_cores={} (or 0: every launched core)", launched));
        });
    }
}

// The alias groups every launch of ENTRY in PROGRAM binds (launch_alias_groups); E-UNSUPPORTED when two
// launches bind its parameters differently (cvsim checks a kernel on one binding of its tensors).
static std::vector<rt::AliasGroup> entry_aliases(const Program& program, const Function& entry) {
    struct Site {
        const Function* caller;
        std::vector<ExprPtr> args;
        SourceLoc loc;
        std::vector<rt::AliasGroup> groups;
    };
    std::vector<Site> sites;
    for (const auto& f : program.functions) {
        if (f.get() == &entry || f->is_unread()) continue;
        launch_sites(*f, entry.name, [&](const Expr& call, const std::vector<ExprPtr>& args) {
            auto groups = launch_alias_groups(&program, *f, entry, args, call.loc);
            sites.push_back(Site{f.get(), args, call.loc, std::move(groups)});
        });
    }
    for (size_t k = 1; k < sites.size(); ++k) {
        if (same_groups(sites[0].groups, sites[k].groups)) continue;
        // Refused at the launch that shares bytes, naming its pair.
        const Site& shared = sites[0].groups.empty() ? sites[k] : sites[0];
        const Site& other = &shared == &sites[0] ? sites[k] : sites[0];
        const auto pairs = sharing_pairs(&program, *shared.caller, entry, shared.args);
        if (pairs.empty()) break;  // (cannot happen: a group comes from a sharing pair)
        const auto& [i, j, base] = pairs.front();
        raise_shared(entry, shared.args, i, j, base, shared.loc,
                     fmt::format("its launch at line {} binds its tensors differently, and cvsim checks a kernel on "
                                 "one binding of its tensors",
                                 other.loc.line));
    }
    return sites.empty() ? std::vector<rt::AliasGroup>{} : sites[0].groups;
}

Compiled compile(std::shared_ptr<Program> program, const CompileOptions& opt) {
    refuse_unread(*program, opt.entry);      // before inlining, which would hide a call of an unread function
    program = inline_kernel_calls(program);  // the lanes and the reference run a callee's statements in place
    refuse_kernel_calls(*program);
    check_atomic_targets(*program, opt.expand.target);
    check_mgather_targets(*program, opt.expand.target);
    check_gather_compare_targets(*program, opt.expand.target);
    check_lane_sides(*program);
    auto entry = pick_entry(*program, opt.entry);
    // Parameters the launches of the entry pass one tensor's bytes (a tensor and its reshape or slice): one GM
    // tensor, each parameter a view of it (docs/DECISIONS.md, "Aliasing launch arguments").
    std::vector<rt::AliasGroup> aliases;
    if (entry->type != FuncType::Orchestration) aliases = entry_aliases(*program, *entry);
    // The launch is what its entry reaches: the expansion, the hardware checks and the verify steps run on
    // those functions only (a whole-model file holds hundreds of kernels; cloning every one per launch made
    // `expand` of pypto-lib's deepseek_v4_pro decode_fwd take 18 GB). The checks above saw every function.
    const std::set<const Function*> reached = reached_from(*program, *entry);
    if (reached.size() < program->functions.size()) program = std::make_shared<Program>(sub_program(*program, reached));
    Compiled c;
    c.original = program;
    bool any_mixed = false;
    for (auto& f : program->functions) any_mixed |= passes::is_mixed(*f);
    passes::ExpandOptions eo = opt.expand;
    eo.keep_distributed = true;  // the Planner refuses a launch that reaches one (refuse_distributed)
    for (const Function* f : reached) eo.only.insert(f->name);
    auto& plan = c.plan;
    // The expansion needs the launch's cluster count (cross-cluster pairs, per-block windows, hard barriers); a
    // launch that sets its own core_num is known only once the Planner walked it: then expand again with it.
    for (int pass = 0; pass < 2; ++pass) {
        c.stats = {};
        c.mixed = false;
        c.expanded = any_mixed ? passes::expand_mixed_kernel(*program, eo, c.stats) : program;
        bool regions = false;
        for (auto& f : c.expanded->functions) regions |= passes::flatten_vector_split_regions(*f, false);
        if (regions) {
            if (c.expanded == program) c.expanded = clone_program(*program);  // the original stays as parsed
            for (auto& f : c.expanded->functions) passes::flatten_vector_split_regions(*f);
        }
        if (passes::split_hand_written_lanes(*c.expanded, false)) {
            if (c.expanded == program) c.expanded = clone_program(*program);  // the original stays as parsed
            passes::split_hand_written_lanes(*c.expanded, true);
        }
        plan = rt::LaunchPlan{};
        plan.program = c.expanded;
        plan.blocks = std::max(1, eo.blocks);
        plan.entry = c.expanded->find(entry->name);
        Planner(c).run(plan.entry);
        if (!any_mixed || plan.blocks == std::max(1, eo.blocks)) break;
        eo.blocks = plan.blocks;
    }
    plan.aliases = std::move(aliases);
    for (const auto* lane : {&plan.aic, &plan.aiv, &plan.mixed_prog})
        if (*lane && (*lane)->fn) check_numerics(*(*lane)->fn);
    if (plan.aiv) {
        plan.aiv_split = aiv_splits(*plan.aiv->fn, opt.expand.target);
        // The a2a3 lane-1 replay is PyPTO's dual dispatch of a mixed kernel (ExpandMixedKernel marks every unsplit
        // mixed kernel dual_aiv_dispatch on 910B). A vector-only kernel is a single-AIV task: lane 1 does not run.
        plan.aiv_lane1_replay = !plan.aiv_split && (plan.aic || attr_true(*plan.aiv->fn, "dual_aiv_dispatch"));
        plan.aiv_lane1_launched = plan.aiv_split;
    }
    check_soft_barrier_counts(plan);
    return c;
}

// A cross-core flag set or waited on a pipe its core does not have (PIPE_V on the AIC; M, MTE1, FIX on an AIV)
// names no queue of that core: refused (E-TYPE), never run as if it were on the scalar unit, where a wait
// would order everything after it and a set nothing before it.
void check_sync_pipes(const Program& p) {
    for (const auto& f : p.functions) {
        if (f->type != FuncType::AIC && f->type != FuncType::AIV) continue;
        const bool aic = f->type == FuncType::AIC;
        passes::walk(f->body, [&](const StmtPtr& s) {
            const Expr* c = passes::stmt_call(*s);
            if (!c || (c->op->code != OpCode::SyncSet && c->op->code != OpCode::SyncWait)) return;
            const ExprPtr& pa = arg(*c, "pipe");
            if (!pa || pa->kind != ExprKind::Enum || pa->enum_kind != EnumKind::PipeType) return;
            const auto pt = static_cast<PipeType>(pa->ival);
            const bool missing =
                aic ? pt == PipeType::V : (pt == PipeType::M || pt == PipeType::MTE1 || pt == PipeType::FIX);
            if (missing)
                raise(codes::kType, pa->loc,
                      fmt::format("{} on pipe {}: the {} has no such pipe ({})",
                                  c->op->code == OpCode::SyncSet ? "sync_set" : "sync_wait", pipe_type_name(pt),
                                  aic ? "AIC" : "AIV", aic ? "S, MTE1, MTE2, MTE3, M, FIX" : "S, MTE2, MTE3, V"),
                      "name the pipe of the access the flag orders (a vector store: MTE3; a cube load: MTE2), or "
                      "PIPE_ALL / S");
        });
    }
}

// pto-isa's TSTORE of a Vec tile compiles only when the GM tensor's layout matches the tile's (ND: row_major /
// none_box, DN: col_major / none_box, NZ: col_major / row_major; CheckStaticForVecAndMat on a2a3, CheckStaticVec
// on a5), except for a tile of one row or one column. A GM tensor here is ND, so a Vec tile in another layout
// stored to it is a kernel the board's toolchain rejects (PyPTO and ptoas pass it through unchanged): refused
// here (E-TYPE at the tile), not simulated as if the bytes landed somewhere (docs/DECISIONS.md).
void check_store_layouts(const Program& p) {
    for (const auto& f : p.functions) {
        passes::walk(f->body, [&](const StmtPtr& s) {
            const Expr* c = passes::stmt_call(*s);
            if (!c || c->op->code != OpCode::Store) return;
            const ExprPtr& t = arg(*c, "tile");
            if (!t || !t->type.is_tile() || t->type.mem != Mem::Vec) return;
            const Layout l = t->type.layout();
            if (l == Layout::ND || t->type.rows() == 1 || t->type.cols() == 1) return;
            const ExprPtr& dst = arg(*c, "output_tensor");
            std::string name =
                dst && dst->kind == ExprKind::Var && dst->var ? fmt::format(" '{}'", dst->var->name) : std::string();
            raise(codes::kType, t->loc,
                  fmt::format(
                      "pl.tile.store of a Vec tile in {} layout (blayout={}, slayout={}) into the ND tensor{}: "
                      "pto-isa's TSTORE "
                      "needs the GM layout to match the tile's (ND: row_major/none_box, DN: col_major/none_box, NZ: "
                      "col_major/row_major), so the kernel does not compile for the board",
                      layout_name(l), tile_layout_name(t->type.view.blayout.value_or(TileLayout::row_major)),
                      tile_layout_name(t->type.view.slayout.value_or(TileLayout::none_box)), name),
                  "move the tile to row_major / none_box before the store (pl.tile.move(t, target_memory=pl.Mem.Vec, "
                  "blayout=pl.TileLayout.row_major, slayout=pl.TileLayout.none_box))");
        });
    }
}

void check_expanded_for_hardware(const Program& expanded, const HwParams& hw, bool store_layouts) {
    passes::check_capacity(expanded, hw);
    passes::check_ring_buffers(expanded, hw);
    check_sync_pipes(expanded);
    if (store_layouts) check_store_layouts(expanded);
}

RingLayout ring_layout(const rt::LaunchPlan& plan) {
    std::map<std::pair<int, int64_t>, int64_t> size;  // (dir, id) -> bytes
    for (const auto* lane : {&plan.aic, &plan.aiv}) {
        if (!*lane) continue;
        passes::walk((*lane)->fn->body, [&](const StmtPtr& s) {
            const Expr* call = passes::stmt_call(*s);
            if (!call || (call->op->code != OpCode::AicInitializePipe && call->op->code != OpCode::AivInitializePipe))
                return;
            auto bytes = const_int(arg(*call, "slot_size")).value_or(0);
            auto dm = const_int(arg(*call, "dir_mask")).value_or(1);
            auto num = const_int(arg(*call, "slot_num")).value_or(dm == 3 ? 4 : 8);
            int64_t id = arg(*call, "id") ? const_int(arg(*call, "id")).value_or(0) : 0;
            int64_t ring = -1;
            if (bytes < 0 || num < 0 || __builtin_mul_overflow(bytes, num, &ring)) ring = -1;
            for (int dir = 0; dir < 2; ++dir)
                if (dm & (1 << dir)) {
                    int64_t& cur = size[{dir, id}];
                    cur = ring < 0 || cur < 0 ? -1 : std::max(cur, ring);
                }
        });
    }
    RingLayout out;
    if (size.empty()) return out;
    // -1 bytes: more than int64 holds (the session refuses it with E-CAPACITY).
    auto overflow = [&] {
        out.base.clear();
        out.bytes = -1;
        return out;
    };
    for (auto& [key, n] : size)
        if (n < 0) return overflow();
    int64_t half = std::max(size[{0, 0}], size[{1, 0}]);
    if (half > INT64_MAX / 2) return overflow();
    out.base[{0, 0}] = 0;
    out.base[{1, 0}] = half;
    out.bytes = 2 * half;
    for (auto& [key, n] : size) {
        if (key.second == 0) continue;
        out.base[key] = out.bytes;
        if (__builtin_add_overflow(out.bytes, n, &out.bytes)) return overflow();
    }
    return out;
}

int64_t ring_tensor_bytes(const rt::LaunchPlan& plan) {
    return ring_layout(plan).bytes;
}

}  // namespace cvsim
