// The oracle's lane walker: its own evaluator of scalars, loops and branches over the expanded IR, turning
// each launched lane into instructions with their same-core predecessors (SPEC 4.1). Shares nothing with the
// lane executor: values, windows, pipes and dependencies are computed here from the SPEC.
#include <fmt/format.h>

#include <memory>

#include "frontend/ops.h"
#include "oracle/lanes.h"
#include "oracle/values.h"

namespace cvsim::oracle::detail {

using namespace ir;

namespace {

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

    Val call(const Stmt& s, const Expr& c) {
        using O = OpCode;
        const O code = c.op->code;
        const bool aic = m_lane.core == 0;
        Ins in;
        in.line = s.loc.line;
        in.text = c.op->name();
        int idx = static_cast<int>(m_lane.ins.size());
        switch (code) {
            case O::GetBlockIdx:
                return Val::of_int(m_lane.cluster);
            case O::GetSubblockIdx:
                return Val::of_int(sub());
            case O::ReserveBuffer:
            case O::ImportPeerBuffer:
                return Val::of_int(0);
            case O::SetFfts:
            case O::CacheInvalid:
                return {};
            case O::AicInitializePipe:
            case O::AivInitializePipe: {
                int mask = static_cast<int>(scal(arg(c, "dir_mask")).as_int());
                int64_t id = arg(c, "id") ? scal(arg(c, "id")).as_int() : 0;
                int num = arg(c, "slot_num") ? static_cast<int>(scal(arg(c, "slot_num")).as_int())
                                             : (mask == 3 ? m_opt.slot_num_both : m_opt.slot_num_one_dir);
                for (int d = 0; d < 2; ++d)
                    if (mask & (1 << d)) m_lane.slot_num[{d, id}] = num;
                return {};
            }
            case O::Load: {
                Val view = tile_of(c, "tensor");
                Val out = tile_val(c.type, new_storage());
                if (auto& vs = arg(c, "valid_shape")) {
                    auto v = ints(vs);
                    if (!v.empty()) {
                        out.vr = v.size() >= 2 ? v[v.size() - 2] : 1;
                        out.vc = v.back();
                    }
                }
                if (m_lane.replay) return out;
                auto w = window(view, arg(c, "offsets"), ints(arg(c, "shapes")));
                if (!w) return out;
                in.kind = Kind::Gm;
                in.pipe = kMte2;
                in.acc.push_back(*w);
                write(in, idx, out.storage);
                emit(std::move(in));
                return out;
            }
            case O::Store: {
                Val src = tile_of(c, "tile");
                Val view = tile_of(c, "output_tensor");
                if (m_lane.replay) return view;
                std::vector<int64_t> ext = {src.vr, src.vc};
                if (arg(c, "shapes")) ext = ints(arg(c, "shapes"));
                auto w = window(view, arg(c, "offsets"), ext);
                if (!w || src.k != Val::Tile) return view;
                w->write = true;
                const ExprPtr& at = arg(c, "atomic");
                // pl.AtomicType.Add (1) accumulates; None_ (0) or no argument is a plain store.
                w->atomic = at &&
                            (at->kind == ExprKind::Enum || at->kind == ExprKind::Int || at->kind == ExprKind::Bool) &&
                            at->ival != 0;
                in.kind = Kind::Gm;
                in.pipe = src.mem == Mem::Acc ? kFixp : kMte3;
                read(in, idx, src.storage);
                in.acc.push_back(*w);
                emit(std::move(in));
                return view;
            }
            case O::Mgather:
            case O::Mscatter: {
                // The index tile's values pick the elements (data the oracle does not compute): the whole view,
                // a superset of what the simulator records.
                const bool gather = code == O::Mgather;
                Val view = tile_of(c, gather ? "mem" : "output_tensor");
                Val out = gather ? tile_val(c.type, new_storage()) : view;
                if (m_lane.replay || view.k != Val::Tensor) return out;
                auto whole = [](const Val& v, bool write) {
                    Access a;
                    a.res = v.tensor;
                    for (size_t d = 0; d < v.shape.size(); ++d) {
                        a.lo.push_back(v.off[d]);
                        a.hi.push_back(v.off[d] + v.shape[d]);
                    }
                    a.write = write;
                    return a;
                };
                if (gather && c.type.mem == Mem::Mat) {
                    // The Mat form (cube): the GM index tensor and the table are read, the elem mode's GM scratch
                    // written, each whole.
                    in.kind = Kind::Gm;
                    in.pipe = kMte2;
                    in.acc.push_back(whole(view, false));
                    if (Val ix = tile_of(c, "idx"); ix.k == Val::Tensor) in.acc.push_back(whole(ix, false));
                    if (Val sc = tile_of(c, "scratch"); sc.k == Val::Tensor) in.acc.push_back(whole(sc, true));
                    write(in, idx, out.storage);
                    emit(std::move(in));
                    return out;
                }
                Access w;
                w.res = view.tensor;
                for (size_t d = 0; d < view.shape.size(); ++d) {
                    w.lo.push_back(view.off[d]);
                    w.hi.push_back(view.off[d] + view.shape[d]);
                }
                w.write = !gather;
                in.kind = Kind::Gm;
                in.pipe = gather ? kMte2 : kMte3;
                read(in, idx, tile_of(c, "idx").storage);
                if (!gather) read(in, idx, tile_of(c, "src").storage);
                in.acc.push_back(w);
                if (gather) write(in, idx, out.storage);
                emit(std::move(in));
                return out;
            }
            case O::TensorRead:
            case O::TensorWrite: {
                // One element at `indices`: a read on MTE2 the scalar unit waits for, a write on MTE3 it does not.
                // A replay lane (a2a3 unsplit lane 1) reads too (its control flow may depend on the value), as the
                // simulator's does (docs/DECISIONS.md), and writes nothing.
                if (m_lane.replay && code == O::TensorWrite) return {};
                Val view = tile_of(c, "tensor");
                auto w = window(view, arg(c, "indices"), std::vector<int64_t>(view.shape.size(), 1));
                if (!w) return {};
                w->write = code == O::TensorWrite;
                in.kind = Kind::Gm;
                in.pipe = w->write ? kMte3 : kMte2;
                in.acc.push_back(*w);
                int at = emit(std::move(in));
                if (code == O::TensorRead) {
                    Ins wait;
                    wait.line = s.loc.line;
                    wait.text = "tensor.read wait";
                    wait.deps.push_back(at);
                    emit(std::move(wait));
                }
                return {};
            }
            case O::Slice:
            case O::Reshape:
            case O::SetValidShape:
            case O::TransposeView: {
                Val x = tile_of(c, "tile");
                if (x.k == Val::Tensor && code == O::Slice) {
                    auto off = ints(arg(c, "offset"));
                    for (size_t d = 0; d < off.size() && d < x.off.size(); ++d) x.off[d] += off[d];
                    x.shape = ints(arg(c, "shape"));
                    return x;
                }
                if (x.k != Val::Tile) return tile_val(c.type, new_storage());
                // A tile view aliases its base's storage (on a5 also the ring slot a popped base is bound to).
                Val v = tile_val(c.type, x.storage);
                if (code == O::SetValidShape) {
                    v.vr = scal(arg(c, "rows")).as_int();
                    v.vc = scal(arg(c, "cols")).as_int();
                } else if (code == O::Slice && arg(c, "valid_shape")) {
                    auto vs = ints(arg(c, "valid_shape"));
                    if (!vs.empty()) {
                        v.vr = vs.size() >= 2 ? vs[vs.size() - 2] : 1;
                        v.vc = vs.back();
                    }
                }
                return v;
            }
            case O::ReinterpretView: {
                // The same bytes as another dtype: aliases its source's storage (a5: the slot), as a view does.
                Val x = tile_of(c, "data");
                if (x.k != Val::Tile) return tile_val(c.type, new_storage());
                return tile_val(c.type, x.storage);
            }
            case O::TpushToAiv:
            case O::TpushToAic: {
                int dir = code == O::TpushToAiv ? 0 : 1;
                int64_t id = arg(c, "id") ? scal(arg(c, "id")).as_int() : 0;
                int split = static_cast<int>(scal(arg(c, "split")).as_int());
                int64_t k = m_pushes[{dir, id}]++;
                int64_t slot = k % slot_num(dir, id);
                in.kind = Kind::Push;
                in.pipe = dir == 0 ? kFixp : kMte3;
                in.dir = dir;
                in.id = id;
                if (!m_lane.replay) {
                    Val src = tile_of(c, "tile");
                    read(in, idx, src.storage);
                    if (dir == 0) {
                        if (a5())
                            for (int l = 0; l < m_aiv_lanes; ++l)
                                in.acc.push_back(slot_access(0, id, slot, 0, 2, l, true));
                        else
                            in.acc.push_back(slot_access(0, id, slot, 0, 2, 0, true));
                    } else {
                        int h0 = split == 0 ? 0 : sub(), h1 = split == 0 ? 2 : sub() + 1;
                        Access a = slot_access(1, id, slot, h0, h1, 0, true);
                        a.gather = k;
                        in.acc.push_back(a);
                    }
                }
                emit(std::move(in));
                return {};
            }
            case O::TpopFromAic:
            case O::TpopFromAiv: {
                int dir = code == O::TpopFromAic ? 0 : 1;
                int64_t id = arg(c, "id") ? scal(arg(c, "id")).as_int() : 0;
                int split = arg(c, "split") ? static_cast<int>(scal(arg(c, "split")).as_int()) : 0;
                int64_t k = m_pops[{dir, id}]++;
                int64_t slot = k % slot_num(dir, id);
                in.kind = Kind::PopWait;
                in.pipe = kScalar;
                in.dir = dir;
                in.id = id;
                Val out = tile_val(c.type, new_storage());
                if (dir == 0 && sub() == 1 && split == 3) out.vr -= 1;
                if (dir == 0 && sub() == 1 && split == 4) out.vc -= 1;
                int wait = emit(std::move(in));
                int h0 = 0, h1 = 2;
                if (dir == 0 && split != 0) h0 = sub(), h1 = sub() + 1;
                if (m_lane.replay || a5()) {
                    m_st[out.storage].writer = wait;
                    if (a5() && !m_lane.replay) {
                        Access a = slot_access(dir, id, slot, h0, h1, sub(), false);
                        m_st[out.storage].slot_res = a.res;
                        m_st[out.storage].slot_lo = a.lo;
                        m_st[out.storage].slot_hi = a.hi;
                    }
                    return out;
                }
                Ins cp;
                cp.kind = Kind::PopCopy;
                cp.pipe = kMte2;
                cp.line = s.loc.line;
                cp.text = c.op->name();
                cp.deps.push_back(wait);
                cp.acc.push_back(slot_access(dir, id, slot, h0, h1, 0, false));
                int cidx = static_cast<int>(m_lane.ins.size());
                write(cp, cidx, out.storage);
                emit(std::move(cp));
                return out;
            }
            case O::TfreeToAic:
            case O::TfreeToAiv: {
                Val t = tile_of(c, "tile");
                in.kind = Kind::Free;
                in.pipe = kScalar;
                in.dir = code == O::TfreeToAic ? 0 : 1;
                in.id = arg(c, "id") ? scal(arg(c, "id")).as_int() : 0;
                if (t.k == Val::Tile && t.storage >= 0) {
                    // The slot is released after every reader of the popped tile so far completed.
                    const Storage& st = m_st[t.storage];
                    if (st.writer >= 0) in.deps.push_back(st.writer);
                    for (int r : st.readers) in.deps.push_back(r);
                }
                emit(std::move(in));
                return {};
            }
            case O::Syncall: {
                std::string ct = const_str(arg(c, "core_type")).value_or("mix");
                in.group = ct.rfind("aiv", 0) == 0 ? "aiv" : ct.rfind("aic", 0) == 0 ? "aic" : "mix";
                in.hard = const_str(arg(c, "mode")).value_or("hard") == "hard";
                in.kind = Kind::Arrive;
                Ins dep = in;
                emit(std::move(in), true);
                dep.kind = Kind::Depart;
                emit(std::move(dep));
                return {};
            }
            case O::Fence:
                in.kind = Kind::Fence;
                emit(std::move(in), true);
                return {};
            case O::SyncSet:
            case O::SyncWait: {
                in.kind = code == O::SyncSet ? Kind::Set : Kind::Wait;
                in.id = scal(arg(c, "event_id")).as_int();
                bool all = false;
                if (auto& pa = arg(c, "pipe"); pa && pa->kind == ExprKind::Enum) {
                    all = static_cast<PipeType>(pa->ival) == PipeType::ALL;
                    in.pipe = pipe_of_type(pa->ival, aic);
                }
                emit(std::move(in), all);
                return {};
            }
            case O::AivShard:
            case O::AicGather:
            case O::TensorCreate:
                unsupported(fmt::format("{} inside a lane function", c.op->name()));
                return {};
            default:
                break;
        }
        // Compute and moves: tile operands read, a fresh output (matmul_acc / gemv_acc: the accumulator) written.
        if (m_lane.replay) return c.type.kind == TypeKind::Tile ? tile_val(c.type, new_storage()) : Val{};
        in.kind = Kind::Compute;
        in.pipe = compute_pipe(c);
        Val first;
        for (size_t i = 0; i < c.args.size(); ++i) {
            const ExprPtr& a = c.args[i];
            if (!a || a->type.kind != TypeKind::Tile || a->kind != ExprKind::Var) continue;
            if ((code == O::MatmulAcc || code == O::GemvAcc) && c.op->params[i].name == "acc") continue;
            const Val& v = m_env[a->var->id];
            if (v.k != Val::Tile) continue;
            if (first.k == Val::None) first = v;
            read(in, idx, v.storage);
        }
        if (c.type.kind != TypeKind::Tile) {
            emit(std::move(in));
            return {};
        }
        Val out;
        if (code == O::MatmulAcc || code == O::GemvAcc) {
            Val acc = tile_of(c, "acc");
            int storage = acc.k == Val::Tile ? acc.storage : new_storage();
            if (acc.k == Val::Tile) read(in, idx, storage);
            out = tile_val(c.type, storage);
        } else {
            out = tile_val(c.type, new_storage());
            if (first.k == Val::Tile && c.type.valid.empty() && (code == O::Move || c.type.mem == Mem::Vec) &&
                code != O::Transpose) {
                out.vr = std::min(out.vr, first.vr);
                out.vc = std::min(out.vc, first.vc);
            }
        }
        write(in, idx, out.storage);
        emit(std::move(in));
        return out;
    }
};

}  // namespace

Model build_model(const rt::LaunchPlan& plan, const rt::TensorStore& tensors, const Options& opt) {
    Model m;
    m.blocks = std::max(1, plan.blocks);
    for (const auto& t : tensors.tensors) m.resources.push_back(t.name);
    // Launched lanes (SPEC 4.1): split -> both AIVs; a2a3 unsplit -> lane 1 replays handshakes; a5 unsplit -> lane 0
    // only.
    int aiv_lanes = !plan.aiv ? 0 : (plan.aiv_split || opt.target == Target::A2A3) ? 2 : 1;
    for (int b = 0; b < m.blocks; ++b) {
        if (plan.aic) m.lanes.push_back(Lane{b, 0, false, {}, {}});
        for (int l = 0; l < aiv_lanes; ++l) m.lanes.push_back(Lane{b, 1 + l, l == 1 && !plan.aiv_split, {}, {}});
    }
    for (auto& lane : m.lanes) {
        const rt::LaneProgram& prog = lane.core == 0 ? *plan.aic : *plan.aiv;
        Walker w(m, lane, prog, tensors, opt, aiv_lanes);
        w.run();
    }
    return m;
}

}  // namespace cvsim::oracle::detail
