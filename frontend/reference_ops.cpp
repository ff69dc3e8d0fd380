// The reference interpreter's Lane: the dispatch of a call and the compute and view ops.
#include "frontend/reference_internal.h"

namespace cvsim::ref::detail {

Value Lane::call(const Expr& c) {
    using O = OpCode;
    const O code = c.op->code;
    switch (code) {
        case O::Load:
            return load(c);
        case O::TensorWrite: {
            gm_turn();
            TView v = view(arg(c, "tensor"));
            rt::Window w = window(v, arg(c, "indices"), std::vector<int64_t>(v.shape.size(), 1), c.loc);
            auto& t = m_m.gm.tensors[v.id];
            if (t.written.size() != static_cast<size_t>(t.numel())) t.written.assign(static_cast<size_t>(t.numel()), 0);
            const auto k = static_cast<size_t>(rt::window_row_start(t, w, 0));
            encode_element(t.dtype, round_to(t.dtype, scalar(arg(c, "value")).as_double()),
                           t.bytes.data() + k * dtype_bytes(t.dtype));
            t.written[k] = 1;
            return Value{};
        }
        case O::TensorView: {
            TView v = view(arg(c, "tensor"));
            const auto& t = m_m.gm.tensors[v.id];
            bool whole = v.shape == (v.reshape.empty() ? t.shape : v.reshape);
            for (int64_t o : v.off) whole &= o == 0;
            if (!whole)
                fail(codes::kUnsupported, c.loc,
                     "pl.tensor.view of a part of a tensor (a slice) is not modelled by cvsim");
            v.shape = c.type.shape;
            v.off.assign(v.shape.size(), 0);
            v.reshape = v.shape == t.shape ? std::vector<int64_t>{} : v.shape;
            return Value{v};
        }
        case O::TensorRead: {
            gm_turn();
            TView v = view(arg(c, "tensor"));
            rt::Window w = window(v, arg(c, "indices"), std::vector<int64_t>(v.shape.size(), 1), c.loc);
            const auto& t = m_m.gm.tensors[v.id];
            double x = rt::tensor_element(t, rt::window_row_start(t, w, 0));
            const DType dt = c.type.dtype;
            return Value{dtype_is_int(dt) ? Scalar::of_int(static_cast<int64_t>(x), dt) : Scalar::of_float(x, dt)};
        }
        case O::Store:
            return store(c);
        case O::Mgather:
            return mgather(c);
        case O::Mscatter:
            return mscatter(c);
        case O::Slice:
            if (arg(c, "tile")->type.kind == TypeKind::Tensor) {
                TView v = view(arg(c, "tile"));
                auto off = ints(arg(c, "offset"));
                for (size_t d = 0; d < off.size() && d < v.off.size(); ++d) v.off[d] = rt::sat_add(v.off[d], off[d]);
                v.shape = ints(arg(c, "shape"));
                return Value{v};
            }
            break;
        case O::TensorCreate:
            fail(codes::kUnsupported, c.loc, "pl.tensor.create inside a kernel is not supported");
        case O::GetBlockIdx:
            return Value{Scalar::of_int(m_block)};
        case O::GetBlockNum:
            return Value{Scalar::of_int(m_m.blocks)};
        case O::GetSubblockIdx:
            return Value{Scalar::of_int(m_region_lane >= 0 ? m_region_lane : m_lane)};
        case O::Read: {
            TileP t = tile(arg(c, "tile"));
            auto idx = ints(arg(c, "indices"));
            int64_t r = idx.size() >= 2 ? idx[idx.size() - 2] : 0, col = idx.empty() ? 0 : idx.back();
            if (r < 0 || col < 0 || r >= t->d.m.rows() || col >= t->d.m.cols())
                fail(codes::kOob, c.loc, "pl.tile.read: index outside the tile");
            double v = t->d.m(r, col);
            return Value{dtype_is_int(t->d.dtype) ? Scalar::of_int(static_cast<int64_t>(v), t->d.dtype)
                                                  : Scalar::of_float(v, t->d.dtype)};
        }
        case O::TpushToAiv:
            push(c, 0);
            return {};
        case O::TpushToAic:
            push(c, 1);
            return {};
        case O::TpopFromAic:
            return pop(c, 0, c.type);
        case O::TpopFromAiv:
            return pop(c, 1, c.type);
        case O::TfreeToAic:
        case O::TfreeToAiv:
            tfree(c);
            return {};
        case O::ReserveBuffer:
        case O::ImportPeerBuffer:
            return Value{Scalar::of_int(0, DType::INT32)};
        case O::AicInitializePipe:
        case O::AivInitializePipe:
            return {};
        case O::AivShard: {
            TileP s = tile(arg(c, "tile"));
            int split = shard_split(c);
            return Value{make_tile(part(s->d, split, std::max(0, m_region_lane)), Mem::Vec)};
        }
        case O::AicGather: {
            TileP s = tile(arg(c, "tile"));
            int split = m_region_lane >= 0 ? shard_split(c) : 0;
            if (split == 0) return Value{make_tile(s->d, Mem::Mat, s->vr, s->vc)};
            // In a split_aiv region the lanes run one after the other: lane 0's half waits for lane 1's.
            TileData mine{s->d.dtype, Matrix(s->d.m.topLeftCorner(s->vr, s->vc))};
            if (m_region_lane == 0) {
                m_gather_parts[&c] = mine;
                return Value{make_tile(mine, Mem::Mat)};
            }
            TileData first = std::move(m_gather_parts[&c]);
            m_gather_parts.erase(&c);
            bool rows = split_rows(split);
            const Matrix& a = first.m;
            const Matrix& b = mine.m;
            Matrix m = Matrix::Zero(rows ? a.rows() + b.rows() : std::max(a.rows(), b.rows()),
                                    rows ? std::max(a.cols(), b.cols()) : a.cols() + b.cols());
            m.topLeftCorner(a.rows(), a.cols()) = a;
            if (rows)
                m.bottomLeftCorner(b.rows(), b.cols()) = b;
            else
                m.topRightCorner(b.rows(), b.cols()) = b;
            return Value{make_tile(TileData{first.dtype, m}, Mem::Mat)};
        }
        case O::Syncall: {
            auto ct = const_str(arg(c, "core_type")).value_or("mix");
            std::string group = ct;
            if (m_role == Role::Mixed) group = "mixed";
            barrier(group, c.loc);
            return {};
        }
        case O::SyncSet:
        case O::SyncWait: {
            int64_t id = scalar(arg(c, "event_id")).as_int();
            if (m_role == Role::Mixed) return {};
            if (code == O::SyncSet) {
                if (m_role == Role::Aic)
                    for (int l = 0; l < m_m.aiv_lanes; ++l) ++m_m.flags[{m_block, id, 1 + l}];
                else
                    ++m_m.flags[{m_block, id, 0}];
                m_m.coop.progress();
            } else {
                int need = m_role == Role::Aic ? m_m.aiv_lanes : 1;
                int idx = m_role == Role::Aic ? 0 : 1 + m_lane;
                auto key = std::make_tuple(m_block, id, idx);
                m_m.coop.wait_until(m_task, [&] { return m_m.flags[key] >= need; });
                m_m.flags[key] -= need;
                m_m.coop.progress();
            }
            return {};
        }
        case O::SetFfts:
        case O::Fence:
        case O::CacheInvalid:
            return {};
        case O::PrefetchMakeContext:
        case O::PrefetchAsync:
        case O::PrefetchSession:
            return {};
        case O::PrefetchWait:
            return Value{rt::Scalar::of_int(1, DType::BOOL)};
        default:
            break;
    }
    if (c.op->effect == Effect::Compute || c.op->effect == Effect::View) return compute(c);
    return {};
}

// Compute and view ops: the registry's numerics (shared with the simulator's datapath) on the operands.
Value Lane::compute(const Expr& c) {
    const OpDef& d = *c.op;
    OpOperands o;
    o.op = &d;
    o.call = &c;
    std::vector<TileP> tiles;
    for (const auto& a : c.args)
        if (a && a->type.kind == TypeKind::Tile) {
            tiles.push_back(tile(a));
            o.tiles.push_back(tiles.back()->d);
            o.valid.emplace_back(tiles.back()->vr, tiles.back()->vc);
        }
    for (const ExprPtr* e : value_operands(c)) o.scalars.push_back(scalar(*e).as_double());
    if (d.int_list_param) o.ints = ints(arg(c, d.int_list_param));
    o.out_dtype = c.type.dtype;
    o.out_rows = c.type.rows();
    o.out_cols = c.type.cols();
    if (c.op->code == OpCode::Slice) {
        const TileP& s = tiles.at(0);
        int64_t r0 = o.ints.size() >= 2 ? o.ints[o.ints.size() - 2] : 0, c0 = o.ints.empty() ? 0 : o.ints.back();
        if (!rt::range_inside(r0, o.out_rows, s->d.m.rows()) || !rt::range_inside(c0, o.out_cols, s->d.m.cols()))
            fail(codes::kOob, c.loc, "tile slice is outside the tile");
    }
    if (auto err = gather_compare_overflow_error(o)) fail(codes::kOob, c.loc, *err);
    if (auto err = assemble_outside_error(o)) fail(codes::kOob, c.loc, *err);
    if (auto err = write_outside_error(o)) fail(codes::kOob, c.loc, *err);
    // The work bound (Machine::work): a matmul's products on top of the result's elements (make_tile).
    if (d.code == OpCode::Matmul || d.code == OpCode::MatmulAcc || d.code == OpCode::MatmulBias)
        if (tiles.size() >= 2)
            m_m.work += static_cast<uint64_t>(o.out_rows * o.out_cols) * static_cast<uint64_t>(tiles[0]->d.m.cols());
    TileData res;
    try {
        res = eval_numerics(o);
    } catch (const std::invalid_argument& e) {
        fail(codes::kInternal, c.loc, e.what());
    }
    int64_t vr = -1, vc = -1;
    const RTile* x = tiles.empty() ? nullptr : tiles[0].get();
    switch (d.valid) {
        case ValidRule::Inherit:  // a shape-preserving op keeps its operand's valid region (as the lane executor
                                  // does)
            if (x && x->d.m.rows() == o.out_rows && x->d.m.cols() == o.out_cols) vr = x->vr, vc = x->vc;
            break;
        case ValidRule::Full:
            if (c.type.valid.size() >= 2) vr = c.type.valid[c.type.valid.size() - 2], vc = c.type.valid.back();
            break;
        case ValidRule::Swap:
            if (x) vr = x->vc, vc = x->vr;
            break;
        case ValidRule::RowReduce:
            if (x) vr = x->vr, vc = 1;
            break;
        case ValidRule::ColReduce:
            break;  // the static [1, N] (as the lane executor)
        case ValidRule::Scalars:
            vr = static_cast<int64_t>(o.scalars.at(0)), vc = static_cast<int64_t>(o.scalars.at(1));
            if (vr < 0 || vc < 0 || vr > res.m.rows() || vc > res.m.cols())
                fail(codes::kOob, c.loc,
                     fmt::format("pl.tile.set_validshape: valid shape [{}, {}] is outside the tile [{}, {}]", vr, vc,
                                 res.m.rows(), res.m.cols()));
            break;
    }
    // matmul_acc / gemv_acc write into the accumulator's storage and keep its valid region (pto-isa's
    // TMATMUL_ACC computes the operands' [m, n] into it and leaves the tile's valid region as it was), as the
    // lane executor's result is the accumulator's tile: a printed result type without a TileView (full) does
    // not widen it (pypto-lib's hc_head: an accumulator of valid [16, 4] stored as [16, 16] was E-UNWRITTEN).
    if ((c.op->code == OpCode::MatmulAcc || c.op->code == OpCode::GemvAcc) && x && x->d.m.rows() == o.out_rows &&
        x->d.m.cols() == o.out_cols)
        vr = x->vr, vc = x->vc;
    TileP out = make_tile(std::move(res), c.type.mem, vr, vc);
    if (d.effect == Effect::View && x) out->popped_src = x->popped ? tiles[0] : x->popped_src;
    return Value{out};
}

}  // namespace cvsim::ref::detail
