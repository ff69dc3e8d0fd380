// Private to frontend/host_eval*.cpp: the host walker of an Orchestration function (host_eval.h): its values and
// class Walker, whose statements are in host_eval.cpp and whose expressions, host ops and launches in
// host_eval_ops.cpp.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>

#include "core/dtype.h"
#include "frontend/codes.h"
#include "frontend/diag.h"
#include "frontend/host_eval.h"
#include "frontend/ops.h"
#include "frontend/passes/ir_util.h"
#include "frontend/runtime.h"
#include "frontend/scalar_influence.h"

namespace cvsim::host_walk {

using namespace ir;

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

inline std::string where(const SourceLoc& loc) {
    return fmt::format("line {}", loc.line);
}

inline std::string scalar_text(const rt::Scalar& s) {
    return s.is_float() ? fmt::format("{}", s.f) : std::to_string(s.i);
}

// S as a value of a parameter of dtype DT (an integer given to a float parameter, or the reverse).
inline rt::Scalar as_dtype(rt::Scalar s, DType dt) {
    if (dtype_is_float(dt) && !s.is_float()) return rt::Scalar::of_float(static_cast<double>(s.i), dt);
    if (!dtype_is_float(dt) && s.is_float()) return rt::Scalar::of_int(s.as_int(), dt);
    return s;
}

class Walker {
  public:
    Walker(const Program& p, const HostInputs& in) : m_p(p), m_in(in) {}

    HostWalk run(const Function& orch);

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
    std::vector<HVal> exec_function(const Function& f, Frame& frame, int depth);

    void exec_block(const Block& b, Frame& fr, int depth, std::vector<HVal>& ret, bool& returned,
                    std::vector<HVal>& yield);

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
                    const std::string& why);

    void exec_stmt(const Stmt& s, Frame& fr, int depth, std::vector<HVal>& ret, bool& returned,
                   std::vector<HVal>& yield);

    void exec_for(const Stmt& s, Frame& fr, int depth, std::vector<HVal>& ret, bool& returned);

    // One element of an --input tensor (nullopt + why when it cannot be read).
    std::optional<rt::Scalar> read_input(const std::string& param, const Type& type, const std::vector<int64_t>& idx,
                                         DType dt, const SourceLoc& loc, std::string& why);

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

    void launch(const Function& callee, const std::vector<ExprPtr>& args, const Expr& call, Frame& fr, int depth);

    // A call of another function: a kernel launch, or an orchestration the walk enters.
    HVal call_function(const Expr& e, const std::string& name, const std::vector<ExprPtr>& args, Frame& fr, int depth);

    std::optional<int64_t> known_int(const ExprPtr& e, Frame& fr, int depth, std::string& why);

    HVal host_op(const Expr& e, Frame& fr, int depth);

    HVal eval(const ExprPtr& ep, Frame& fr, int depth);

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

}  // namespace cvsim::host_walk
