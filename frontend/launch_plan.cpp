// The launch plan: the Planner binds the entry's launchers down to its AIC / AIV lane programs.
#include <fmt/format.h>

#include <algorithm>
#include <functional>

#include "frontend/codes.h"
#include "frontend/diag.h"
#include "frontend/launch_internal.h"
#include "frontend/ops.h"
#include "frontend/passes/ir_util.h"

namespace cvsim::launch_detail {

namespace {

// Where a function's parameters come from, relative to the launch (entry parameters, created tensors, constants).
struct Sources {
    std::vector<int> from;  // per parameter (rt::kConstArg / rt::kCreatedArg - k / entry index)
    std::vector<rt::ArgBinding> consts;
};

}  // namespace

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
// A vector-only InCore function (one the expansion leaves as written: no function of the program is mixed) is the
// plain AIV function upstream makes of it: ExpandMixedKernel converts a one-sided InCore function to AIV and strips
// its `split` (LowerAutoVectorSplit leaves a pure-vector split function un-split: no boundary to halve), as cvsim's
// expander does when it runs (`expand` prints it so). So its `split` does not make both lanes run it: they ran the
// whole unhalved body each, an AIV0 / AIV1 write-after-write on every store (hunt8a
// vector_only_split_function_lanes.py).
bool aiv_splits(const Function& f, Target target) {
    const bool split = f.split_mode() != SplitMode::NONE && f.type != FuncType::InCore;
    if (split || attr_true(f, "split_aiv")) return true;
    return target == Target::A5 && attr_true(f, "dual_aiv_dispatch");
}

namespace {

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

}  // namespace

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

void plan_launch(Compiled& c, const std::shared_ptr<Function>& entry) {
    Planner(c).run(entry);
}

}  // namespace cvsim::launch_detail
