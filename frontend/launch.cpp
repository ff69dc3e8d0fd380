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

const std::string& launched_kernel(const Expr& call) {
    return launch_target(call).kernel;
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
