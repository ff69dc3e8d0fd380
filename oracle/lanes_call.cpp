// The oracle's lane walker, one operation: its instruction (pipe, reads, writes, ring and flag effects) and
// its value (SPEC 4.1; oracle/walker_internal.h declares the walker).
#include <fmt/format.h>

#include "oracle/walker_internal.h"

namespace cvsim::oracle::detail {

Val Walker::call(const Stmt& s, const Expr& c) {
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
            w->atomic = at && (at->kind == ExprKind::Enum || at->kind == ExprKind::Int || at->kind == ExprKind::Bool) &&
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
                        for (int l = 0; l < m_aiv_lanes; ++l) in.acc.push_back(slot_access(0, id, slot, 0, 2, l, true));
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

}  // namespace cvsim::oracle::detail
