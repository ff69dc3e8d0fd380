// The host walk of an Orchestration function: see host_eval.h.
#include "frontend/host_eval.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>

#include "core/dtype.h"
#include "frontend/codes.h"
#include "frontend/diag.h"
#include "frontend/ops.h"
#include "frontend/passes/ir_util.h"
#include "frontend/runtime.h"
#include "frontend/scalar_influence.h"

namespace cvsim {

using namespace ir;

namespace {

// A host value: a known scalar, an array of host values, a tensor (only its entry parameter is tracked, for
// pl.tensor.read), or unknown with the reason.
struct HVal {
    enum class Kind : uint8_t { Unknown, Scalar, Array, Tensor } kind = Kind::Unknown;
    rt::Scalar s;
    std::vector<HVal> arr;
    std::string param;  // Tensor: the entry parameter it is ("" = a view, a created tensor, a kernel's result)
    std::string why;    // Unknown: the reason

    static HVal unknown(std::string why) {
        HVal v;
        v.why = std::move(why);
        return v;
    }
    static HVal scalar(rt::Scalar s) {
        HVal v;
        v.kind = Kind::Scalar;
        v.s = s;
        return v;
    }
    bool known() const { return kind == Kind::Scalar; }
};

struct StopWalk {};  // the step budget ran out

std::string where(const SourceLoc& loc) {
    return fmt::format("line {}", loc.line);
}

std::string scalar_text(const rt::Scalar& s) {
    return s.is_float() ? fmt::format("{}", s.f) : std::to_string(s.i);
}

// S as a value of a parameter of dtype DT (an integer given to a float parameter, or the reverse).
rt::Scalar as_dtype(rt::Scalar s, DType dt) {
    if (dtype_is_float(dt) && !s.is_float()) return rt::Scalar::of_float(static_cast<double>(s.i), dt);
    if (!dtype_is_float(dt) && s.is_float()) return rt::Scalar::of_int(s.as_int(), dt);
    return s;
}

class Walker {
  public:
    Walker(const Program& p, const HostInputs& in) : m_p(p), m_in(in) {}

    HostWalk run(const Function& orch) {
        Frame frame;
        for (const auto& prm : orch.params) {
            const Var* v = prm.var.get();
            if (v->type.kind == TypeKind::Tensor) {
                HVal t;
                t.kind = HVal::Kind::Tensor;
                t.param = v->name;
                frame[v] = t;
            } else if (v->type.kind == TypeKind::Scalar) {
                auto it = m_in.scalars.find(v->name);
                if (it == m_in.scalars.end() && m_in.sample) {
                    note_sampled(v->name);
                    frame[v] = HVal::scalar(
                        as_dtype(rt::Scalar::of_int(*m_in.sample + (m_in.sample_iota ? m_sampled_scalars++ : 0)),
                                 v->type.dtype));
                    continue;
                }
                frame[v] =
                    it != m_in.scalars.end()
                        ? HVal::scalar(as_dtype(it->second, v->type.dtype))
                        : HVal::unknown(fmt::format("the entry's scalar parameter '{}' (give it with --input {}=VALUE)",
                                                    v->name, v->name));
            }
        }
        try {
            exec_function(orch, frame, 0);
        } catch (const StopWalk&) {
            m_out.incomplete =
                fmt::format("the host walk stopped after {} statements (its budget); later launches were not seen",
                            m_in.step_budget);
        }
        return std::move(m_out);
    }

  private:
    using Frame = std::map<const Var*, HVal>;
    const Program& m_p;
    const HostInputs& m_in;
    HostWalk m_out;
    int64_t m_steps = 0;
    std::map<std::pair<const Function*, size_t>, bool> m_cannot_matter;
    std::map<std::string, std::set<std::string>> m_seen;  // per kernel: the keys of its distinct bindings
    int m_spmd_blocks = 0;   // inside `for i in pl.spmd(N)`: N (its launches are one launch of N blocks); -1: N unknown
    std::string m_spmd_why;  // N unknown: why
    struct TensorBufferCache {
        bool tried = false;
        bool ok = false;
        rt::TensorBuffer t;
        std::string error;
    };
    std::map<std::string, TensorBufferCache> m_files;  // --input data, read once

    // Executes F's body in FRAME; the values of its first `return`, if any.
    std::vector<HVal> exec_function(const Function& f, Frame& frame, int depth) {
        std::vector<HVal> ret;
        bool returned = false;
        std::vector<HVal> yield;
        exec_block(f.body, frame, depth, ret, returned, yield);
        return ret;
    }

    void exec_block(const Block& b, Frame& fr, int depth, std::vector<HVal>& ret, bool& returned,
                    std::vector<HVal>& yield) {
        for (const auto& s : b) {
            if (returned) return;
            exec_stmt(*s, fr, depth, ret, returned, yield);
        }
    }

    int64_t m_sampled_scalars = 0;  // entry scalars given an ascending sample so far

    void note_sampled(const std::string& what) {
        if (m_in.sampled && std::find(m_in.sampled->begin(), m_in.sampled->end(), what) == m_in.sampled->end())
            m_in.sampled->push_back(what);
    }

    void step() {
        if (++m_steps > m_in.step_budget) throw StopWalk{};
    }

    // Every assignment goes through set(): the log lets a block the walk runs "maybe" (an `if` whose condition
    // it does not know, a loop whose bounds it does not know) make what it assigned unknown afterwards.
    void set(Frame& fr, const Var* v, HVal x) {
        fr[v] = std::move(x);
        m_log.push_back(v);
    }
    std::vector<const Var*> m_log;

    // Runs BODY as a block that may or may not run (or run any number of times): launches inside are recorded
    // with the values the walk has; afterwards every variable it assigned is unknown for WHY.
    void exec_maybe(const Block& body, Frame& fr, int depth, std::vector<HVal>& ret, std::vector<HVal>& y,
                    const std::string& why) {
        const size_t mark = m_log.size();
        bool r = false;
        exec_block(body, fr, depth, ret, r, y);
        for (size_t i = mark; i < m_log.size(); ++i)
            if (auto it = fr.find(m_log[i]); it != fr.end()) it->second = HVal::unknown(why);
    }

    void exec_stmt(const Stmt& s, Frame& fr, int depth, std::vector<HVal>& ret, bool& returned,
                   std::vector<HVal>& yield) {
        step();
        switch (s.kind) {
            case StmtKind::Assign: {
                HVal v = eval(s.value, fr, depth);
                if (s.targets.size() == 1) return set(fr, s.targets[0].get(), v);
                for (const auto& t : s.targets) {  // tuple unpacking: the walk keeps no tuples
                    HVal x = HVal::unknown(fmt::format("'{}' is one result of a tuple ({})", t->name, where(s.loc)));
                    if (t->type.kind == TypeKind::Tensor) x.kind = HVal::Kind::Tensor;
                    set(fr, t.get(), x);
                }
                return;
            }
            case StmtKind::Eval:
                eval(s.value, fr, depth);
                return;
            case StmtKind::Return:
                ret.clear();
                for (const auto& v : s.values) ret.push_back(eval(v, fr, depth));
                returned = true;
                return;
            case StmtKind::Pass:
                return;
            case StmtKind::Yield:
                yield.clear();
                for (const auto& v : s.values) yield.push_back(eval(v, fr, depth));
                return;
            case StmtKind::If: {
                HVal c = eval(s.value, fr, depth);
                std::vector<HVal> y;
                if (c.known()) {
                    exec_block(rt::truthy(c.s) ? s.body : s.orelse, fr, depth, ret, returned, y);
                    for (size_t i = 0; i < s.targets.size(); ++i)
                        set(fr, s.targets[i].get(), i < y.size() ? y[i] : HVal::unknown("a branch result"));
                    return;
                }
                // Unknown condition: either arm may run; both run, and what they assign is unknown after the if.
                const std::string why = fmt::format(
                    "it depends on an `if` whose condition the host walk does not know ({}: {})", where(s.loc), c.why);
                exec_maybe(s.body, fr, depth, ret, y, why);
                exec_maybe(s.orelse, fr, depth, ret, y, why);
                for (const auto& t : s.targets) set(fr, t.get(), HVal::unknown(why));
                return;
            }
            case StmtKind::For:
                return exec_for(s, fr, depth, ret, returned);
        }
    }

    void exec_for(const Stmt& s, Frame& fr, int depth, std::vector<HVal>& ret, bool& returned) {
        HVal start = s.start ? eval(s.start, fr, depth) : HVal::scalar(rt::Scalar::of_int(0));
        HVal stop = eval(s.stop, fr, depth);
        HVal stp = s.step ? eval(s.step, fr, depth) : HVal::scalar(rt::Scalar::of_int(1));
        for (size_t i = 0; i < s.iter_args.size() && i < s.init_values.size(); ++i)
            set(fr, s.iter_args[i].get(), eval(s.init_values[i], fr, depth));
        std::vector<HVal> y;
        if (!start.known() || !stop.known() || !stp.known() || stp.s.as_int() == 0) {
            const HVal& bad = !start.known() ? start : !stop.known() ? stop : stp;
            const std::string why =
                fmt::format("it depends on a loop whose bounds the host walk does not know ({}: {})", where(s.loc),
                            bad.known() ? std::string("a zero step") : bad.why);
            set(fr, s.loop_var.get(), HVal::unknown(why));
            for (const auto& a : s.iter_args) set(fr, a.get(), HVal::unknown(why));
            // `pl.spmd(n)` with n unknown: its launches' block count is unknown, so they are not checked with a
            // guessed one (E-UNCHECKED; one block would hide the races between blocks: found by review).
            const int saved = m_spmd_blocks;
            const std::string saved_why = m_spmd_why;
            if (s.loop_kind == LoopKind::Spmd) {
                m_spmd_blocks = -1;
                m_spmd_why = fmt::format("it is the block count of the pl.spmd launch at {}, which {}", where(s.loc),
                                         why.substr(why.find("it depends on") == 0 ? 3 : 0));
            }
            exec_maybe(s.body, fr, depth, ret, y, why);
            m_spmd_blocks = saved;
            m_spmd_why = saved_why;
            for (const auto& t : s.targets) set(fr, t.get(), HVal::unknown(why));
            return;
        }
        const int64_t a = start.s.as_int(), b = stop.s.as_int(), st = stp.s.as_int();
        if (s.loop_kind == LoopKind::Spmd) {
            // `for i in pl.spmd(N)`: the body is one launch of N blocks that run at the same time, not N launches
            // in turn (checking those one block at a time would miss the races between blocks: found by review).
            // Its launches get N blocks; the block index is each block's own, so a launch argument computed from
            // it is unknown (E-UNCHECKED, never one block's value for all).
            const int64_t n = st > 0 ? (b > a ? (b - a + st - 1) / st : 0) : (a > b ? (a - b - st - 1) / -st : 0);
            if (n < 1) return;
            set(fr, s.loop_var.get(),
                HVal::unknown(
                    fmt::format("it is the block index of the pl.spmd launch at {}, each block's own", where(s.loc))));
            const int saved = m_spmd_blocks;
            const std::string saved_why = m_spmd_why;
            // Nested inside another pl.spmd: every block of the outer one runs the inner one's blocks, so the
            // launch is their product. More than cvsim launches (4096 blocks) is not checked with fewer: fewer
            // blocks would hide the races of the others (E-UNCHECKED says why).
            const int64_t total = saved > 0 ? n * saved : n;
            const int launches = spmd_body_launches(m_p, s.body);
            if (saved < 0) {
                m_spmd_blocks = -1;
            } else if (launches > 1) {
                // Each block runs every launch of the body in turn, beside the other blocks: block i's second
                // kernel can race with block j's first. cvsim checks each kernel on its own, so such a body is
                // not checked (E-UNCHECKED), never as launches in program order (a false PASS).
                m_spmd_blocks = -1;
                m_spmd_why = fmt::format(
                    "the pl.spmd loop at {} makes {} launches in each block (one in a loop counts twice), and cvsim "
                    "checks "
                    "each kernel on its own, not the blocks of one beside those of another",
                    where(s.loc), launches);
            } else if (total > 4096) {
                m_spmd_blocks = -1;
                m_spmd_why = fmt::format(
                    "it is the block count of the pl.spmd launch at {}: {} blocks, and cvsim "
                    "launches at most 4096",
                    where(s.loc), total);
            } else {
                m_spmd_blocks = static_cast<int>(total);
            }
            y.clear();
            exec_block(s.body, fr, depth, ret, returned, y);
            m_spmd_blocks = saved;
            m_spmd_why = saved_why;
            if (!s.iter_args.empty() && y.size() == s.iter_args.size())
                for (size_t k = 0; k < s.iter_args.size(); ++k) set(fr, s.iter_args[k].get(), y[k]);
            for (size_t k = 0; k < s.targets.size() && k < s.iter_args.size(); ++k)
                set(fr, s.targets[k].get(), fr[s.iter_args[k].get()]);
            return;
        }
        for (int64_t i = a; st > 0 ? i < b : i > b; i = rt::sat_add(i, st)) {
            set(fr, s.loop_var.get(), HVal::scalar(rt::Scalar::of_int(i)));
            y.clear();
            exec_block(s.body, fr, depth, ret, returned, y);
            if (returned) break;
            if (!s.iter_args.empty() && y.size() == s.iter_args.size())
                for (size_t k = 0; k < s.iter_args.size(); ++k) set(fr, s.iter_args[k].get(), y[k]);
            if (i == INT64_MAX || i == INT64_MIN) break;
        }
        for (size_t k = 0; k < s.targets.size() && k < s.iter_args.size(); ++k)
            set(fr, s.targets[k].get(), fr[s.iter_args[k].get()]);
    }

    // One element of an --input tensor (nullopt + why when it cannot be read).
    std::optional<rt::Scalar> read_input(const std::string& param, const Type& type, const std::vector<int64_t>& idx,
                                         DType dt, const SourceLoc& loc, std::string& why) {
        auto f = m_in.files.find(param);
        auto flat_index = [&]() -> std::optional<int64_t> {
            if (idx.size() != type.shape.size()) return std::nullopt;
            int64_t flat = 0;
            for (size_t d = 0; d < idx.size(); ++d) {
                if (idx[d] < 0 || idx[d] >= type.shape[d]) return std::nullopt;
                flat = flat * type.shape[d] + idx[d];
            }
            return flat;
        };
        auto value_of = [&](double x) {
            return dtype_is_int(dt) ? rt::Scalar::of_int(rt::Scalar::float_to_int(x), dt) : rt::Scalar::of_float(x, dt);
        };
        if (f == m_in.files.end()) {
            if (auto io = m_in.iotas.find(param); io != m_in.iotas.end())
                if (auto flat = flat_index()) return value_of(static_cast<double>(io->second + *flat));
            // --input T=VALUE fills the tensor (sim/session.cpp does the same for the kernel's GM).
            if (auto fill = m_in.scalars.find(param); fill != m_in.scalars.end()) {
                const double x = fill->second.is_float() ? fill->second.f : static_cast<double>(fill->second.i);
                return dtype_is_int(dt) ? rt::Scalar::of_int(rt::Scalar::float_to_int(x), dt)
                                        : rt::Scalar::of_float(x, dt);
            }
        }
        if (f == m_in.files.end() && m_in.sample) {
            // Sampled data: in bounds of the parameter's shape, every element is the sample (ascending: the
            // sample plus the element's flat index).
            if (auto flat = flat_index()) {
                note_sampled("data of " + param);
                return value_of(static_cast<double>(*m_in.sample + (m_in.sample_iota ? *flat : 0)));
            }
        }
        if (f == m_in.files.end()) {
            why = fmt::format(
                "it is read from the data of '{}' ({}: pl.tensor.read); give that data with --input {}=FILE.npy", param,
                where(loc), param);
            return std::nullopt;
        }
        TensorBufferCache& c = m_files[param];
        if (!c.tried) {
            c.tried = true;
            c.t.name = param;
            c.t.dtype = type.dtype;
            c.t.shape = type.shape;
            try {
                rt::read_npy(c.t, f->second);
                c.ok = true;
            } catch (const std::exception& e) {
                c.error = e.what();
            }
        }
        if (!c.ok) {
            why = fmt::format("--input {}={} could not be read: {}", param, f->second, c.error);
            return std::nullopt;
        }
        if (idx.size() != c.t.shape.size()) {
            why = fmt::format("pl.tensor.read of '{}' ({}) has {} indices for a rank-{} tensor", param, where(loc),
                              idx.size(), c.t.shape.size());
            return std::nullopt;
        }
        int64_t flat = 0;
        for (size_t d = 0; d < idx.size(); ++d) {
            if (idx[d] < 0 || idx[d] >= c.t.shape[d])
                raise(codes::kOob, loc,
                      fmt::format("pl.tensor.read of '{}' at index {} of dimension {} (extent {}): outside the tensor "
                                  "--input {} gives",
                                  param, idx[d], d, c.t.shape[d], param));
            flat = flat * c.t.shape[d] + idx[d];
        }
        const double x =
            decode_element(c.t.dtype, c.t.bytes.data() + static_cast<size_t>(flat) * dtype_bytes(c.t.dtype));
        return dtype_is_int(dt) ? rt::Scalar::of_int(rt::Scalar::float_to_int(x), dt) : rt::Scalar::of_float(x, dt);
    }

    // Whether parameter I of kernel F cannot influence what a launch of it does (memoised: a loop launches the
    // same kernel many times).
    bool cannot_matter(const Function& f, size_t i) {
        auto [it, fresh] = m_cannot_matter.try_emplace({&f, i}, false);
        if (fresh) it->second = scalar_param_cannot_matter(m_p, f, i);
        return it->second;
    }

    // Records one launch of kernel NAME with ARGS (parameter order) and its call expression.
    // Whether kernel F may write GM through its tensor parameter I: an Out/InOut one, or any GM store of F whose
    // tensor operand is that parameter or not a parameter at all (a view of one); a kernel that calls other
    // functions (a Group / Spmd wrapper) may write any.
    static bool may_write_param(const Function& f, size_t i) {
        if (f.params[i].dir != ParamDir::In) return true;
        bool may = false;
        passes::walk(f.body, [&](const StmtPtr& st) {
            if (may || !st->value) return;
            if (st->value->kind == ExprKind::FuncCall) {
                may = true;
                return;
            }
            const Expr* c = passes::stmt_call(*st);
            if (!c || !c->op || c->op->effect != Effect::GmStore) return;
            for (const auto& a : c->args) {
                if (!a || a->type.kind != TypeKind::Tensor) continue;
                bool other_param = false;
                for (size_t k = 0; k < f.params.size(); ++k)
                    other_param |= k != i && a->kind == ExprKind::Var && a->var == f.params[k].var;
                may |= !other_param;
            }
        });
        return may;
    }

    void launch(const Function& callee, const std::vector<ExprPtr>& args, const Expr& call, Frame& fr, int depth) {
        LaunchBinding b;
        b.loc = call.loc;
        for (size_t i = 0; i < callee.params.size(); ++i) {
            const Var& pv = *callee.params[i].var;
            if (pv.type.kind == TypeKind::Tensor && m_spmd_blocks != 0 && b.unknown.empty() && i < args.size() &&
                may_write_param(callee, i)) {
                // In a pl.spmd body a written tensor argument that is a window at an offset the walk does not know
                // (the block index's) is each block's own window: not checked with one binding for all blocks (it
                // gave a race between blocks writing disjoint slices). A read-only one cannot race there.
                HVal v = eval(args[i], fr, depth);
                if (v.kind == HVal::Kind::Tensor && !v.why.empty()) {
                    b.unknown = pv.name;
                    b.why = v.why;
                }
            }
            if (pv.type.kind != TypeKind::Scalar) continue;
            HVal v = i < args.size() ? eval(args[i], fr, depth) : HVal::unknown("it is not passed");
            if (v.known()) {
                b.scalars.emplace_back(pv.name, scalar_text(as_dtype(v.s, pv.type.dtype)));
            } else if (cannot_matter(callee, i)) {
                // Any value gives the same run (docs/DECISIONS.md, "Scalars that cannot matter"): 0.
                b.scalars.emplace_back(pv.name, scalar_text(as_dtype(rt::Scalar::of_int(0), pv.type.dtype)));
                b.dead.emplace_back(pv.name, v.why.empty() ? "the host walk does not evaluate it" : v.why);
            } else if (b.unknown.empty()) {
                b.unknown = pv.name;
                b.why = v.why.empty() ? "the host walk does not evaluate it" : v.why;
            }
        }
        if (const Expr* d = call.attrs.get(); d && d->kind == ExprKind::Dict)
            for (size_t i = 0; i < d->args.size() && i < d->args2.size(); ++i)
                if (d->args[i] && d->args[i]->sval == "core_num") {
                    HVal n = eval(d->args2[i], fr, depth);
                    if (n.known() && n.s.as_int() >= 1 && n.s.as_int() <= 4096) {
                        b.blocks = static_cast<int>(n.s.as_int());
                    } else if (n.known() && b.unknown.empty()) {
                        // Never checked with another width: fewer blocks would hide the others' races.
                        b.unknown = "core_num";
                        b.why = fmt::format("core_num is {} at this launch ({}), and cvsim launches 1 to 4096 blocks",
                                            n.s.as_int(), where(call.loc));
                    }
                }
        if (b.blocks == 0 && m_spmd_blocks > 0) b.blocks = m_spmd_blocks;  // launched inside `pl.spmd(N)`
        if (b.blocks == 0 && m_spmd_blocks < 0 && b.unknown.empty()) {
            b.unknown = "pl.spmd";  // the launch width, not a parameter: check says the kernel is not checked
            b.why = m_spmd_why;
        }
        HostKernelLaunches* k = nullptr;
        for (auto& e : m_out.kernels)
            if (e.name == callee.name) k = &e;
        if (!k) {
            m_out.kernels.push_back(HostKernelLaunches{callee.name, {}, 0});
            k = &m_out.kernels.back();
        }
        ++k->launches;
        // Distinct bindings by a key of what LaunchBinding::operator== compares (a set, not a scan of every earlier
        // one: a model's walk launches a kernel tens of thousands of times).
        std::string key = b.unknown + '\x1e' + std::to_string(b.blocks);
        for (const auto& [n, v] : b.scalars) key += '\x1e' + n + '\x1f' + v;
        if (!m_seen[k->name].insert(std::move(key)).second) return;
        k->distinct.push_back(std::move(b));
    }

    // A call of another function: a kernel launch, or an orchestration the walk enters.
    HVal call_function(const Expr& e, const std::string& name, const std::vector<ExprPtr>& args, Frame& fr, int depth) {
        auto callee = m_p.find(name);
        if (!callee) return HVal::unknown(fmt::format("'{}' is not a function of the program", name));
        if (callee->type == FuncType::Orchestration && !callee->is_unread() && depth < 8) {
            Frame inner;
            for (size_t i = 0; i < callee->params.size(); ++i) {
                HVal v = i < args.size() ? eval(args[i], fr, depth) : HVal::unknown("not passed");
                if (v.kind == HVal::Kind::Tensor) v.param.clear();  // only the entry's own tensors have --input data
                inner[callee->params[i].var.get()] = v;
            }
            std::vector<HVal> ret;
            bool returned = false;
            std::vector<HVal> y;
            exec_block(callee->body, inner, depth + 1, ret, returned, y);
            if (ret.size() == 1) return ret[0];
            return HVal::unknown(fmt::format("the result of '{}'", name));
        }
        launch(*callee, args, e, fr, depth);
        HVal t;
        t.kind = HVal::Kind::Tensor;  // a kernel's result: a tensor (or a tuple of them)
        return t;
    }

    std::optional<int64_t> known_int(const ExprPtr& e, Frame& fr, int depth, std::string& why) {
        HVal v = eval(e, fr, depth);
        if (!v.known()) {
            why = v.why;
            return std::nullopt;
        }
        return v.s.as_int();
    }

    HVal host_op(const Expr& e, Frame& fr, int depth) {
        const std::string& n = e.sval;
        auto operand = [&](size_t i) -> ExprPtr { return i < e.args.size() ? e.args[i] : nullptr; };
        if (n == "pl.submit" || n == "pl.spmd_submit") {
            for (size_t i = 0; i < e.args.size(); ++i)
                if (e.args[i] && e.args[i]->kind == ExprKind::FuncCall && e.args[i]->ival == kFuncRef) {
                    std::vector<ExprPtr> rest(e.args.begin() + static_cast<std::ptrdiff_t>(i) + 1, e.args.end());
                    call_function(e, e.args[i]->sval, rest, fr, depth);
                    break;
                }
            return HVal::unknown(fmt::format("a task id ({})", where(e.loc)));
        }
        if (n == "pl.tensor.dim") {
            ExprPtr t = operand(0), ax = operand(1);
            std::string why;
            auto a = known_int(ax, fr, depth, why);
            if (t && a && t->type.kind == TypeKind::Tensor) {
                int64_t rank = static_cast<int64_t>(t->type.shape.size());
                int64_t d = *a < 0 ? *a + rank : *a;
                if (d >= 0 && d < rank) {
                    const int64_t extent = t->type.shape[static_cast<size_t>(d)];
                    std::vector<std::string> same;
                    for (const auto& [dn, dv] : m_in.defaulted_dims)
                        if (dv == extent) same.push_back(dn);
                    if (!same.empty() && !m_in.sample)
                        return HVal::unknown(fmt::format(
                            "pl.tensor.dim ({}) may be the dynamic dim {} {} {}; bind it with --dim NAME=VALUE or an "
                            "--input .npy",
                            where(e.loc), fmt::join(same, " / "), kMadeUpSizeWhy, extent));
                    return HVal::scalar(rt::Scalar::of_int(extent, e.type.dtype));
                }
            }
            return HVal::unknown(fmt::format("pl.tensor.dim ({}) of an axis the walk does not know", where(e.loc)));
        }
        if (n == "pl.array.create") {
            std::string why;
            auto len = known_int(operand(0), fr, depth, why);
            if (!len || *len < 0 || *len > 65536)
                return HVal::unknown(fmt::format("an array of unknown length ({})", where(e.loc)));
            HVal a;
            a.kind = HVal::Kind::Array;
            a.arr.assign(static_cast<size_t>(*len),
                         HVal::unknown(fmt::format("an element of the array created at {} that no update_element wrote",
                                                   where(e.loc))));
            return a;
        }
        if (n == "pl.array.update_element" || n == "pl.array.get_element") {
            HVal a = eval(operand(0), fr, depth);
            std::string why;
            auto i = known_int(operand(1), fr, depth, why);
            if (a.kind != HVal::Kind::Array || !i || *i < 0 || *i >= static_cast<int64_t>(a.arr.size())) {
                if (n == "pl.array.get_element")
                    return HVal::unknown(fmt::format("an array element the walk does not know ({})", where(e.loc)));
                // An update at an unknown index makes every element unknown.
                if (a.kind == HVal::Kind::Array)
                    for (auto& x : a.arr)
                        x = HVal::unknown(
                            fmt::format("the array was updated at an index the walk does not know ({})", where(e.loc)));
                return a;
            }
            if (n == "pl.array.get_element") return a.arr[static_cast<size_t>(*i)];
            HVal v = eval(operand(2), fr, depth);
            a.arr[static_cast<size_t>(*i)] = v.kind == HVal::Kind::Scalar ? v : HVal::unknown(v.why);
            return a;
        }
        if (n == "pl.tensor.read") {
            ExprPtr t = operand(0), ix = operand(1);
            HVal tv = eval(t, fr, depth);
            std::vector<int64_t> idx;
            std::string why;
            if (ix && (ix->kind == ExprKind::List || ix->kind == ExprKind::Tuple))
                for (const auto& x : ix->args) {
                    auto v = known_int(x, fr, depth, why);
                    if (!v)
                        return HVal::unknown(fmt::format("pl.tensor.read ({}) at an index the walk does not know: {}",
                                                         where(e.loc), why));
                    idx.push_back(*v);
                }
            else
                return HVal::unknown(
                    fmt::format("pl.tensor.read ({}) with indices the walk does not evaluate", where(e.loc)));
            if (tv.kind != HVal::Kind::Tensor || tv.param.empty() || !t)
                return HVal::unknown(fmt::format(
                    "it is read from GM ({}: pl.tensor.read of a tensor that is no parameter of the entry), which the "
                    "host walk does not model",
                    where(e.loc)));
            auto s = read_input(tv.param, t->type, idx, e.type.dtype, e.loc, why);
            return s ? HVal::scalar(*s) : HVal::unknown(why);
        }
        // Other host ops (slice, view, create, assemble, reshape, write, task_dummy, ...): no scalar value; a
        // tensor-valued one is a view the walk does not track (its data is no --input's).
        HVal t;
        if (e.type.kind == TypeKind::Tensor) {
            t.kind = HVal::Kind::Tensor;
            // A window of a tensor at offsets the walk does not know (in a pl.spmd body: computed from the block
            // index) may differ per block, which one launch binding cannot express: launch() refuses it there.
            // The reason rides on the tensor value (its `why`), through further slices, views and reshapes.
            if (n == "pl.tensor.slice" || n == "pl.tensor.view" || n == "pl.tensor.reshape") {
                HVal src = eval(operand(0), fr, depth);
                if (src.kind == HVal::Kind::Tensor) t.why = src.why;
                ExprPtr off = n == "pl.tensor.reshape" ? nullptr : operand(2);
                if (!off && n != "pl.tensor.reshape" && e.attrs && e.attrs->kind == ExprKind::Dict)
                    for (size_t i = 0; i < e.attrs->args.size() && i < e.attrs->args2.size(); ++i)
                        if (e.attrs->args[i] &&
                            (e.attrs->args[i]->sval == "offset" || e.attrs->args[i]->sval == "offsets"))
                            off = e.attrs->args2[i];
                if (t.why.empty() && off && (off->kind == ExprKind::List || off->kind == ExprKind::Tuple))
                    for (const auto& x : off->args) {
                        std::string why;
                        if (!known_int(x, fr, depth, why)) {
                            t.why = fmt::format("it is a window ({}: {}) at an offset the host walk does not know: {}",
                                                where(e.loc), n, why.empty() ? "not evaluated" : why);
                            break;
                        }
                    }
            }
            return t;
        }
        return HVal::unknown(
            fmt::format("the value of {} ({}), which the host walk does not evaluate", n, where(e.loc)));
    }

    HVal eval(const ExprPtr& ep, Frame& fr, int depth) {
        if (!ep) return HVal::unknown("no value");
        const Expr& e = *ep;
        switch (e.kind) {
            case ExprKind::Int:
                return HVal::scalar(rt::Scalar::of_int(e.ival, DType::INDEX));
            case ExprKind::Bool:
                return HVal::scalar(rt::Scalar::of_int(e.ival, DType::BOOL));
            case ExprKind::Float:
                return HVal::scalar(rt::Scalar::of_float(e.fval, DType::FP32));
            case ExprKind::Const:
                return HVal::scalar(dtype_is_float(e.dtype)
                                        ? rt::Scalar::of_float(e.fval, e.dtype)
                                        : rt::Scalar::of_int(static_cast<int64_t>(e.fval), e.dtype));
            case ExprKind::Var: {
                auto it = fr.find(e.var.get());
                if (it != fr.end()) return it->second;
                return HVal::unknown(fmt::format("'{}' has no value the host walk knows", e.var->name));
            }
            case ExprKind::FuncCall:
                if (is_host_op_call(e)) return host_op(e, fr, depth);
                return call_function(e, e.sval, e.args, fr, depth);
            case ExprKind::Unary:
            case ExprKind::Binary:
            case ExprKind::Compare:
            case ExprKind::BoolOp: {
                static const std::vector<std::string> unary = {"not", "cast", "abs", "-", "+"};
                static const std::vector<std::string> binary = {"+", "-",  "*",  "/",   "//",
                                                                "%", "<<", ">>", "min", "max"};
                const auto& ok = e.kind == ExprKind::Unary ? unary : binary;
                if ((e.kind == ExprKind::Unary || e.kind == ExprKind::Binary) &&
                    std::find(ok.begin(), ok.end(), e.sval) == ok.end())
                    return HVal::unknown(fmt::format("the operator '{}' ({}), which the host walk does not evaluate",
                                                     e.sval, where(e.loc)));
                // Operands first (each may be unknown); then the runtime's own scalar arithmetic on constants.
                std::vector<ExprPtr> lits;
                for (const auto& a : e.args) {
                    HVal v = eval(a, fr, depth);
                    if (!v.known())
                        return v.kind == HVal::Kind::Unknown
                                   ? v
                                   : HVal::unknown(fmt::format("a non-scalar operand ({})", where(e.loc)));
                    lits.push_back(literal(v.s));
                }
                Expr copy = e;
                copy.args = lits;
                return HVal::scalar(rt::eval_scalar(copy, [](const Var&) { return rt::Scalar::of_int(0); }));
            }
            case ExprKind::List:
            case ExprKind::Tuple:
                return HVal::unknown(fmt::format("a list ({})", where(e.loc)));
            default:
                return HVal::unknown(fmt::format("an expression the host walk does not evaluate ({})", where(e.loc)));
        }
    }

    static ExprPtr literal(const rt::Scalar& s) {
        auto x = std::make_shared<Expr>();
        x->kind = ExprKind::Const;
        x->dtype = s.dtype;
        x->fval = s.is_float() ? s.f : static_cast<double>(s.i);
        if (!s.is_float() && (s.i > (int64_t{1} << 53) || s.i < -(int64_t{1} << 53))) {
            x->kind = ExprKind::Int;  // beyond a double's integers: an INDEX literal keeps every bit
            x->ival = s.i;
        }
        return x;
    }
};

}  // namespace

int spmd_body_launches(const Program& p, const Block& body) {
    int n = 0;
    for (const auto& st : body) {
        if (st->value && st->value->kind == ExprKind::FuncCall &&
            (p.find(st->value->sval) || st->value->sval == "pl.submit" || st->value->sval == "pl.spmd_submit"))
            ++n;
        const int inner = spmd_body_launches(p, st->body) + spmd_body_launches(p, st->orelse);
        n += st->kind == StmtKind::For && st->loop_kind != LoopKind::Spmd && inner > 0 ? 2 * inner : inner;
    }
    return n;
}

HostWalk walk_host(const Program& program, const Function& orch, const HostInputs& in) {
    return Walker(program, in).run(orch);
}

}  // namespace cvsim
