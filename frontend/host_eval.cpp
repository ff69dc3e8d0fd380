// The host walk of an Orchestration function (host_eval.h): the walker's statements (functions, blocks, loops,
// branches); its expressions, host ops and launches: host_eval_ops.cpp.
#include "frontend/host_eval_internal.h"

namespace cvsim {

namespace host_walk {

HostWalk Walker::run(const Function& orch) {
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
                frame[v] = HVal::scalar(as_dtype(
                    rt::Scalar::of_int(*m_in.sample + (m_in.sample_iota ? m_sampled_scalars++ : 0)), v->type.dtype));
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
        m_out.incomplete = fmt::format(
            "the host walk stopped after {} statements (its budget); later launches were not seen", m_in.step_budget);
    }
    return std::move(m_out);
}

std::vector<HVal> Walker::exec_function(const Function& f, Frame& frame, int depth) {
    std::vector<HVal> ret;
    bool returned = false;
    std::vector<HVal> yield;
    exec_block(f.body, frame, depth, ret, returned, yield);
    return ret;
}

void Walker::exec_block(const Block& b, Frame& fr, int depth, std::vector<HVal>& ret, bool& returned,
                        std::vector<HVal>& yield) {
    for (const auto& s : b) {
        if (returned) return;
        exec_stmt(*s, fr, depth, ret, returned, yield);
    }
}

void Walker::exec_maybe(const Block& body, Frame& fr, int depth, std::vector<HVal>& ret, std::vector<HVal>& y,
                        const std::string& why) {
    const size_t mark = m_log.size();
    bool r = false;
    exec_block(body, fr, depth, ret, r, y);
    for (size_t i = mark; i < m_log.size(); ++i)
        if (auto it = fr.find(m_log[i]); it != fr.end()) it->second = HVal::unknown(why);
}

void Walker::exec_stmt(const Stmt& s, Frame& fr, int depth, std::vector<HVal>& ret, bool& returned,
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

void Walker::exec_for(const Stmt& s, Frame& fr, int depth, std::vector<HVal>& ret, bool& returned) {
    HVal start = s.start ? eval(s.start, fr, depth) : HVal::scalar(rt::Scalar::of_int(0));
    HVal stop = eval(s.stop, fr, depth);
    HVal stp = s.step ? eval(s.step, fr, depth) : HVal::scalar(rt::Scalar::of_int(1));
    for (size_t i = 0; i < s.iter_args.size() && i < s.init_values.size(); ++i)
        set(fr, s.iter_args[i].get(), eval(s.init_values[i], fr, depth));
    std::vector<HVal> y;
    if (!start.known() || !stop.known() || !stp.known() || stp.s.as_int() == 0) {
        const HVal& bad = !start.known() ? start : !stop.known() ? stop : stp;
        const std::string why = fmt::format("it depends on a loop whose bounds the host walk does not know ({}: {})",
                                            where(s.loc), bad.known() ? std::string("a zero step") : bad.why);
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

}  // namespace host_walk

using namespace ir;
using host_walk::Walker;

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
