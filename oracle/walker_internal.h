// Private to oracle/lanes*.cpp: the oracle's lane walker (its own evaluator of scalars, loops and branches, and
// the instructions each operation becomes; SPEC 4.1).
#pragma once

#include <fmt/format.h>

#include <array>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "frontend/ops.h"
#include "oracle/lanes.h"
#include "oracle/values.h"

namespace cvsim::oracle::detail {

using namespace ir;

// Local tile storage: its last writer and readers since (same-core tile dependencies), and on a5 the ring
// slot it is bound to by a pop (reads of it, or of a view of it, read the slot until the producer rewrites it).
struct Storage {
    int writer = -1;
    std::vector<int> readers;
    int slot_res = -1;
    std::vector<int64_t> slot_lo, slot_hi;
};

class Walker {
  public:
    Walker(Model& m, Lane& lane, const rt::LaneProgram& prog, const rt::TensorStore& ts, const Options& opt,
           int aiv_lanes)
        : m_m(m), m_lane(lane), m_prog(prog), m_ts(ts), m_opt(opt), m_aiv_lanes(aiv_lanes) {
        m_env.resize(prog.fn->vars.size());
        for (size_t i = 0; i < prog.fn->params.size() && i < prog.args.size(); ++i) {
            const auto& a = prog.args[i];
            Val v;
            if (a.kind == rt::ArgBinding::Kind::Tensor) {
                v.k = Val::Tensor;
                v.tensor = static_cast<int>(a.tensor);
                v.shape = ts.tensors[a.tensor].shape;
                v.off.assign(v.shape.size(), 0);
            } else {
                v = a.scalar.is_float() ? Val::of_float(a.scalar.f) : Val::of_int(a.scalar.i);
            }
            m_env[prog.fn->params[i].var->id] = v;
        }
        m_last_pipe.fill(-1);
    }

    void run() { block(m_prog.fn->body); }

  private:
    Model& m_m;
    Lane& m_lane;
    const rt::LaneProgram& m_prog;
    const rt::TensorStore& m_ts;
    const Options& m_opt;
    int m_aiv_lanes;
    std::vector<Val> m_env;
    std::vector<Val> m_yield;
    bool m_returned = false;
    std::vector<Storage> m_st;
    std::array<int, kPipes> m_last_pipe{};
    std::vector<std::pair<int, Access>> m_gm;                     // this lane's accesses (same-core GM dependencies)
    std::map<std::pair<int, int64_t>, int64_t> m_pushes, m_pops;  // (dir, id) -> count so far

    bool a5() const { return m_opt.target == Target::A5; }
    int sub() const { return m_lane.core == 0 ? 0 : m_lane.core - 1; }
    void unsupported(const std::string& why) {
        if (!m_m.unsupported) m_m.why = why;
        m_m.unsupported = true;
    }

    // ---- scalars ----
    Val scal(const ExprPtr& e) {
        return scalar_value(
            e, [&](const Var& v) { return m_env[v.id]; },
            [&](const Expr& c) {
                if (c.op->code == OpCode::GetBlockIdx) return Val::of_int(m_lane.cluster);
                if (c.op->code == OpCode::GetSubblockIdx) return Val::of_int(sub());
                return Val::of_int(0);
            });
    }
    std::vector<int64_t> ints(const ExprPtr& list) {
        std::vector<int64_t> out;
        if (list)
            for (auto& a : list->args) out.push_back(scal(a).as_int());
        return out;
    }

    // ---- control flow ----
    void block(const Block& b) {
        for (const auto& s : b) {
            if (m_returned) return;
            stmt(*s);
        }
    }
    void bind(const std::vector<VarPtr>& targets, const Val& v) {
        if (targets.size() == 1) {
            m_env[targets[0]->id] = v;
            return;
        }
        if (v.k == Val::Tuple)
            for (size_t i = 0; i < targets.size() && i < v.tup->size(); ++i) m_env[targets[i]->id] = (*v.tup)[i];
    }
    Val value(const ExprPtr& e, const Stmt& s) {
        switch (e->kind) {
            case ExprKind::Var:
                return m_env[e->var->id];
            case ExprKind::Call:
                return call(s, *e);
            case ExprKind::Index: {
                Val t = value(e->args[0], s);
                if (t.k == Val::Tuple && e->ival >= 0 && static_cast<size_t>(e->ival) < t.tup->size())
                    return (*t.tup)[e->ival];
                return {};
            }
            case ExprKind::List:
            case ExprKind::Tuple: {
                Val t;
                t.k = Val::Tuple;
                t.tup = std::make_shared<std::vector<Val>>();
                for (auto& a : e->args) t.tup->push_back(value(a, s));
                return t;
            }
            case ExprKind::FuncCall:
                unsupported("a function call inside a lane function");
                return {};
            default:
                return scal(e);
        }
    }
    void stmt(const Stmt& s) {
        switch (s.kind) {
            case StmtKind::Assign:
                bind(s.targets, value(s.value, s));
                return;
            case StmtKind::Eval:
                value(s.value, s);
                return;
            case StmtKind::Return:
                m_returned = true;
                return;
            case StmtKind::Pass:
                return;
            case StmtKind::Yield:
                m_yield.clear();
                for (auto& v : s.values) m_yield.push_back(value(v, s));
                return;
            case StmtKind::If: {
                bool c = scal(s.value).as_num() != 0;
                m_yield.clear();
                block(c ? s.body : s.orelse);
                if (!s.targets.empty() && m_yield.size() == s.targets.size())
                    for (size_t i = 0; i < s.targets.size(); ++i) m_env[s.targets[i]->id] = m_yield[i];
                return;
            }
            case StmtKind::For: {
                if (s.loop_kind == LoopKind::SplitAiv || s.loop_kind == LoopKind::Spmd) {
                    unsupported("a pl.split_aiv / pl.spmd loop inside a lane function");
                    return;
                }
                int64_t lo = s.start ? scal(s.start).as_int() : 0, hi = scal(s.stop).as_int(),
                        st = s.step ? scal(s.step).as_int() : 1;
                if (st == 0) return;
                for (size_t i = 0; i < s.iter_args.size() && i < s.init_values.size(); ++i)
                    m_env[s.iter_args[i]->id] = value(s.init_values[i], s);
                int64_t trips = 0;
                for (int64_t i = lo; st > 0 ? i < hi : i > hi; i += st) {
                    if (++trips > 4096) {
                        unsupported("a loop of more than 4096 trips");
                        return;
                    }
                    m_env[s.loop_var->id] = Val::of_int(i);
                    m_yield.clear();
                    block(s.body);
                    if (m_returned) break;
                    if (!s.iter_args.empty() && m_yield.size() == s.iter_args.size())
                        for (size_t k = 0; k < s.iter_args.size(); ++k) m_env[s.iter_args[k]->id] = m_yield[k];
                }
                for (size_t k = 0; k < s.targets.size() && k < s.iter_args.size(); ++k)
                    m_env[s.targets[k]->id] = m_env[s.iter_args[k]->id];
                return;
            }
        }
    }

    // ---- instructions ----
    // Appends `in` with its implicit predecessors: the scalar unit's last inline instruction (it issued
    // everything after it), the previous instruction of its pipe (in order), or everything (a drain).
    int emit(Ins in, bool drain = false) {
        int idx = static_cast<int>(m_lane.ins.size());
        if (m_last_pipe[kScalar] >= 0) in.deps.push_back(m_last_pipe[kScalar]);
        if (drain) {
            for (int p = 0; p < kPipes; ++p)
                if (m_last_pipe[p] >= 0) in.deps.push_back(m_last_pipe[p]);
        } else if (in.pipe != kScalar && m_last_pipe[in.pipe] >= 0) {
            in.deps.push_back(m_last_pipe[in.pipe]);
        }
        // same-core GM / slot dependencies
        for (const auto& a : in.acc)
            for (const auto& [j, b] : m_gm)
                if (b.res == a.res && (a.write || b.write) && boxes_overlap(a, b)) in.deps.push_back(j);
        for (const auto& a : in.acc) m_gm.push_back({idx, a});
        m_last_pipe[in.pipe] = idx;
        m_lane.ins.push_back(std::move(in));
        return idx;
    }
    static bool boxes_overlap(const Access& a, const Access& b) {
        if (a.lo.size() != b.lo.size()) return true;
        for (size_t d = 0; d < a.lo.size(); ++d)
            if (a.hi[d] <= b.lo[d] || b.hi[d] <= a.lo[d]) return false;
        return true;
    }
    int new_storage() {
        m_st.emplace_back();
        return static_cast<int>(m_st.size() - 1);
    }
    // A tile operand read by `in` (which is about to be emitted at index `idx`).
    void read(Ins& in, int idx, int storage) {
        if (storage < 0) return;
        Storage& st = m_st[storage];
        if (st.writer >= 0) in.deps.push_back(st.writer);
        st.readers.push_back(idx);
        if (st.slot_res >= 0 && !m_lane.replay) {
            Access a;
            a.res = st.slot_res;
            a.lo = st.slot_lo;
            a.hi = st.slot_hi;
            a.slot = true;
            in.acc.push_back(a);
        }
    }
    void write(Ins& in, int idx, int storage) {
        Storage& st = m_st[storage];
        if (st.writer >= 0) in.deps.push_back(st.writer);
        for (int r : st.readers)
            if (r != idx) in.deps.push_back(r);
        st.readers.clear();
        st.writer = idx;
    }
    Val tile_val(const Type& t, int storage) {
        Val v;
        v.k = Val::Tile;
        v.storage = storage;
        v.mem = t.mem;
        v.vr = t.valid.empty() ? t.rows() : (t.valid.size() >= 2 ? t.valid[t.valid.size() - 2] : 1);
        v.vc = t.valid.empty() ? t.cols() : t.valid.back();
        return v;
    }
    Val tile_of(const Expr& c, const std::string& name) {
        const ExprPtr& e = arg(c, name);
        if (!e) return {};
        if (e->kind == ExprKind::Var) return m_env[e->var->id];
        return {};
    }
    std::optional<Access> window(const Val& view, const ExprPtr& offsets, std::vector<int64_t> ext) {
        if (view.k != Val::Tensor) return std::nullopt;
        size_t rank = view.shape.size();
        if (ext.size() < rank) ext.insert(ext.begin(), rank - ext.size(), 1);
        std::vector<int64_t> off = ints(offsets);
        if (off.size() != rank || ext.size() != rank) {
            m_m.oob = true;
            return std::nullopt;
        }
        Access a;
        a.res = view.tensor;
        for (size_t d = 0; d < rank; ++d) {
            if (off[d] < 0 || off[d] + ext[d] > view.shape[d]) {
                m_m.oob = true;
                return std::nullopt;
            }
            a.lo.push_back(view.off[d] + off[d]);
            a.hi.push_back(view.off[d] + off[d] + ext[d]);
        }
        return a;
    }
    // Slot memory of ring (dir, id) in this cluster: a2a3 the hidden GM ring tensor, a5 the consumer's SRAM.
    int slot_resource(int dir, int64_t id, int consumer_lane) {
        std::string name =
            a5() ? (dir == 0 ? fmt::format("__slot_c2v{}_cluster{}_aiv{}", id, m_lane.cluster, consumer_lane)
                             : fmt::format("__slot_v2c{}_cluster{}", id, m_lane.cluster))
                 : fmt::format("__ring_cluster{}", m_lane.cluster);
        for (size_t i = m_ts.tensors.size(); i < m_m.resources.size(); ++i)
            if (m_m.resources[i] == name) return static_cast<int>(i);
        m_m.resources.push_back(name);
        return static_cast<int>(m_m.resources.size() - 1);
    }
    // Slot box: a2a3 [dir][id][slot][half], a5 [slot][half]; half range [h0, h1) of {0, 1}.
    Access slot_access(int dir, int64_t id, int64_t slot, int h0, int h1, int consumer_lane, bool write) {
        Access a;
        a.res = slot_resource(dir, id, consumer_lane);
        if (!a5()) {
            a.lo = {dir, id, slot, h0};
            a.hi = {dir + 1, id + 1, slot + 1, h1};
        } else {
            a.lo = {slot, h0};
            a.hi = {slot + 1, h1};
        }
        a.write = write;
        a.slot = true;
        return a;
    }
    int64_t slot_num(int dir, int64_t id) {
        auto it = m_lane.slot_num.find({dir, id});
        if (it == m_lane.slot_num.end()) {
            unsupported(
                fmt::format("a {} transport on ring {} before its *_initialize_pipe", dir == 0 ? "C2V" : "V2C", id));
            return 1;
        }
        return std::max(1, it->second);
    }
    static uint8_t pipe_of_type(int64_t pt, bool aic) {
        switch (static_cast<PipeType>(pt)) {
            case PipeType::V:
                return aic ? kScalar : kVector;
            case PipeType::M:
                return aic ? kCube : kScalar;
            case PipeType::MTE1:
                return aic ? kMte1 : kScalar;
            case PipeType::MTE2:
                return kMte2;
            case PipeType::MTE3:
                return kMte3;
            case PipeType::FIX:
                return aic ? kFixp : kScalar;
            default:
                return kScalar;
        }
    }
    uint8_t compute_pipe(const Expr& c) {
        bool aic = m_lane.core == 0;
        OpCode code = c.op->code;
        if (is_matmul(code)) return kCube;
        if (code == OpCode::Move) {
            const ExprPtr& x = arg(c, "tile");
            Mem src = x ? x->type.mem : Mem::Vec, dst = c.type.mem;
            if (src == Mem::Acc) return kFixp;
            if (src == Mem::Mat && dst != Mem::Vec) return kMte1;
            if (src == Mem::Vec && dst == Mem::Vec) return kVector;
            return kMte3;
        }
        return aic ? kMte1 : kVector;
    }

    Val call(const Stmt& s, const Expr& c);  // one operation (lanes_call.cpp)
};

}  // namespace cvsim::oracle::detail
