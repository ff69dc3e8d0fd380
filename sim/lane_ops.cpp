// Lane walker: the op calls (see lane_walker.h). Data movement and compute ops become instructions; the
// cross-core and synchronisation ops (lane_sync_ops.cpp) become their handshakes (ring pushes and pops, frees,
// barriers, fences, flags); a replay lane issues the handshakes only.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <algorithm>
#include <tuple>

#include "core/layout.h"
#include "core/layout_window.h"
#include "frontend/codes.h"
#include "frontend/ops.h"
#include "frontend/passes/ir_util.h"
#include "sim/lane_walker.h"

namespace cvsim::sim {

using namespace ir;
using rt::Scalar;

LValue LaneWalker::issue_call(const Stmt& s, const Expr& c) {
    using O = OpCode;
    const O code = c.op->code;
    auto result_tile = [&](const Type& t) { return new_tile(t); };

    // A replay lane runs handshakes only: data ops produce placeholders and cost nothing.
    bool handshake = is_cross_core(code) || code == O::Syncall || code == O::SyncSet || code == O::SyncWait ||
                     code == O::Fence || code == O::ReserveBuffer || code == O::ImportPeerBuffer ||
                     code == O::GetBlockIdx || code == O::GetBlockNum || code == O::GetSubblockIdx || code == O::Read ||
                     code == O::TensorRead || code == O::TensorView;
    if (m_cx.replay && !handshake) {
        if (c.type.kind == TypeKind::Tile) {
            TileRef out = result_tile(c.type);
            // A view of a popped tile: a tfree of it frees the popped tile's slot (the replay frees it too).
            if (c.op->effect == Effect::View && !c.args.empty() && c.args[0] && c.args[0]->type.kind == TypeKind::Tile)
                if (TileRef x = tile(c.args[0]); x && (x->ring >= 0 || x->popped_src))
                    out->popped_src = x->ring >= 0 ? x : x->popped_src;
            return LValue{out};
        }
        if (c.type.kind == TypeKind::Tensor) return LValue{view(arg(c, "output_tensor"))};
        return {};
    }

    switch (code) {
        case O::GetBlockIdx:
            return LValue{Scalar::of_int(m_cx.cluster)};
        case O::GetBlockNum:
            return LValue{Scalar::of_int(m_cx.blocks)};
        case O::GetSubblockIdx:
            return LValue{Scalar::of_int(m_cx.lane)};
        case O::Read: {
            // The scalar unit reads UB: it waits until the tile's writer completed, then decodes the element.
            m_sink.needs_live("pl.tile.read");
            TileRef t = tile(arg(c, "tile"));
            if (t->writer >= 0) m_sink.wait_instrs({static_cast<uint32_t>(t->writer)});
            // a5: a popped tile (or a view of it) is its ring slot. The read is issued as one of the slot's
            // readers (the checker sees it, a tfree waits for it) and reads the slot's current contents.
            if (m_cx.cfg->hw.target == Target::A5 && !m_cx.replay && slot_root(t.get())) {
                auto in = make(Pipe::Scalar, s, &c);
                in->in[0] = t;
                dep_read(*in, t);
                TileRef out = new_tile(Type::tile({1, 1}, t->dtype, Mem::Vec));
                dep_write(*in, out);
                in->out = out;
                const uint32_t seq = m_sink.issued();
                issue(std::move(in));
                m_sink.wait_instrs({seq});
            }
            std::vector<int64_t> idx;
            for (auto& a : arg(c, "indices")->args) idx.push_back(scalar(a).as_int());
            int64_t r = idx.size() >= 2 ? idx[idx.size() - 2] : 0, col = idx.empty() ? 0 : idx.back();
            double v = 0;
            if (r < 0 || col < 0 || r >= t->rows || col >= t->cols)
                m_sink.finding(codes::kOob, s, "pl.tile.read: index outside the tile");
            else if (!t->bytes.empty())
                v = decode_window(t->bytes.data(), t->bytes.size(), t->dtype, t->layout, t->acc, t->rows, t->cols, r,
                                  col, 1, 1)(0, 0);
            return LValue{dtype_is_int(t->dtype) ? Scalar::of_int(static_cast<int64_t>(v), t->dtype)
                                                 : Scalar::of_float(v, t->dtype)};
        }
        case O::TensorRead: {
            // One GM element through MTE2 into a scratch [1, 1] tile; the scalar unit waits for it (a replay
            // lane reads too: its control flow and addresses may depend on the value).
            m_sink.needs_live("pl.tensor.read");
            TView v = view(arg(c, "tensor"));
            const DType dt = c.type.dtype;
            auto zero = [&] { return LValue{dtype_is_int(dt) ? Scalar::of_int(0, dt) : Scalar::of_float(0, dt)}; };
            auto w = window(v, arg(c, "indices"), std::vector<int64_t>(v.shape.size(), 1), s);
            if (!w) return zero();
            TileRef out = new_tile(Type::tile({1, 1}, m_cx.tensors->tensors[v.tensor].dtype, Mem::Vec));
            auto in = make(Pipe::Mte2, s, &c);
            dep_gm(*in, v.tensor, *w, false);
            in->p.order = order_key(s);
            dep_write(*in, out);
            in->out = out;
            const uint32_t seq = m_sink.issued();
            issue(std::move(in));
            m_sink.wait_instrs({seq});
            if (out->bytes.empty()) return zero();
            double x = decode(out->bytes.data(), out->bytes.size(), out->dtype, out->layout, false, 1, 1)(0, 0);
            return LValue{dtype_is_int(dt) ? Scalar::of_int(static_cast<int64_t>(x), dt) : Scalar::of_float(x, dt)};
        }
        case O::TensorWrite: {
            // One GM element from a scratch [1, 1] tile the scalar unit fills, through MTE3 (not waited for).
            TView v = view(arg(c, "tensor"));
            auto w = window(v, arg(c, "indices"), std::vector<int64_t>(v.shape.size(), 1), s);
            if (!w) return {};
            const DType dt = m_cx.tensors->tensors[v.tensor].dtype;
            TileRef src = new_tile(Type::tile({1, 1}, dt, Mem::Vec));
            if (!src->bytes.empty()) {
                std::vector<uint8_t> b(src->bytes.size(), 0);
                encode_element(dt, round_to(dt, scalar(arg(c, "value")).as_double()), b.data());
                src->bytes = std::move(b);
            }
            auto in = make(Pipe::Mte3, s, &c);
            in->in[0] = src;
            dep_gm(*in, v.tensor, *w, true);
            in->p.order = order_key(s);
            issue(std::move(in));
            return {};
        }
        case O::TensorView: {
            // A reshape of the whole tensor (or of such a view): accesses are mapped back in window().
            TView v = view(arg(c, "tensor"));
            const auto& t = m_cx.tensors->tensors[v.tensor];
            bool whole = true;
            for (int64_t o : v.off) whole &= o == 0;
            whole &= v.shape == (v.reshape.empty() ? t.shape : v.reshape);
            if (!whole) {
                m_sink.finding(codes::kUnsupported, s,
                               "pl.tensor.view of a part of a tensor (a slice) is not modelled by cvsim");
                return LValue{v};
            }
            v.shape = c.type.shape;
            v.off.assign(v.shape.size(), 0);
            v.reshape = v.shape == t.shape ? std::vector<int64_t>{} : v.shape;
            return LValue{v};
        }
        case O::ImportPeerBuffer:
            check_peer_buffer(s, c);
            return LValue{Scalar::of_int(0, DType::INT32)};
        case O::ReserveBuffer:
            return LValue{Scalar::of_int(0, DType::INT32)};
        case O::SetFfts:
        case O::CacheInvalid:
            return {};
        case O::PrefetchMakeContext:
        case O::PrefetchAsync:
        case O::PrefetchSession:
            return {};
        case O::PrefetchWait:
            return LValue{rt::Scalar::of_int(1, DType::BOOL)};
        case O::Create:
            return LValue{result_tile(c.type)};
        case O::Load: {
            TView v = view(arg(c, "tensor"));
            std::vector<int64_t> ext;
            for (auto& a : arg(c, "shapes")->args) ext.push_back(scalar(a).as_int());
            TileRef out = result_tile(c.type);
            if (auto& vs = arg(c, "valid_shape")) {
                std::vector<int64_t> vv;
                for (auto& a : vs->args) vv.push_back(scalar(a).as_int());
                // The tile's region is the valid window's rows (the product of all but the last extent, as
                // PyPTO merges an N-D valid_shape) by its last extent.
                out->vr = rt::valid_rows(vv);
                out->vc = vv.empty() ? 1 : vv.back();
                if (auto err = rt::valid_shape_error(vv, ext)) {
                    m_sink.finding(codes::kOob, s, fmt::format("{} {}", core_name(m_cx.core), *err));
                    out->vr = std::clamp<int64_t>(out->vr, 0, out->rows);
                    out->vc = std::clamp<int64_t>(out->vc, 0, out->cols);
                }
                // Only the valid region is read from GM (pl.tile.load).
                if (vs->args.size() == ext.size())
                    for (size_t d = 0; d < ext.size(); ++d) ext[d] = std::min(ext[d], scalar(vs->args[d]).as_int());
            }
            auto w = window(v, arg(c, "offsets"), ext, s);
            if (!w) return LValue{out};
            auto in = make(Pipe::Mte2, s, &c);
            dep_gm(*in, v.tensor, *w, false);
            in->p.order = order_key(s);
            dep_write(*in, out);
            in->out = out;
            issue(std::move(in));
            return LValue{out};
        }
        case O::Store: {
            TileRef src = tile(arg(c, "tile"));
            TView v = view(arg(c, "output_tensor"));
            std::vector<int64_t> ext = {src ? src->vr : 1, src ? src->vc : 1};
            if (auto& sh = arg(c, "shapes")) {
                ext.clear();
                for (auto& a : sh->args) ext.push_back(scalar(a).as_int());
            }
            if (src && arg(c, "shapes")) {
                // The window covers the tile's rows in row-major order: more rows or columns than the tile has
                // would store bytes the tile does not hold.
                const int64_t wr = rt::valid_rows(ext), wc = ext.empty() ? 1 : ext.back();
                if (wr > src->rows || wc > src->cols) {
                    m_sink.finding(codes::kOob, s,
                                   fmt::format("{} pl.tile.store: window {} is larger than the tile [{}, {}]",
                                               core_name(m_cx.core), shape_str(ext), src->rows, src->cols));
                    return LValue{v};
                }
            }
            auto w = window(v, arg(c, "offsets"), ext, s, arg(c, "shapes") != nullptr);
            if (!w || !src) return LValue{v};
            auto in = make(src->mem == Mem::Acc ? Pipe::Fixp : Pipe::Mte3, s, &c);
            dep_read(*in, src);
            in->in[0] = src;
            dep_gm(*in, v.tensor, *w, true, is_atomic_add_store(c));
            in->p.order = order_key(s);
            issue(std::move(in));
            return LValue{v};
        }
        case O::Mgather:
        case O::Mscatter: {
            if (code == O::Mgather && c.type.mem == Mem::Mat) return issue_mgather_mat(s, c);  // lane_mgather_mat.cpp
            // GM elements an index tile picks (pl.tile.mgather / mscatter): the addresses are data, so the
            // same-core GM ordering takes the whole view; begin() replaces it by the transfers the index values
            // name (what the checker sees). in.ints carries the view: rank, offsets, shape, reshape rank, reshape.
            const bool gather = code == O::Mgather;
            TView v = view(arg(c, gather ? "mem" : "output_tensor"));
            TileRef idx = tile(arg(c, "idx"));
            TileRef src = gather ? nullptr : tile(arg(c, "src"));
            TileRef out = gather ? result_tile(c.type) : nullptr;
            if (out) {
                // The run-time valid region follows the index tile's (PyPTO's type rule).
                const bool row = mgather_coalesce(c) == 0;
                const bool row_vector = arg(c, "idx")->type.shape[0] == 1;
                out->vr = std::min(out->rows, row ? (row_vector ? idx->vc : idx->vr) : idx->vr);
                out->vc = row ? out->cols : std::min(out->cols, idx->vc);
            }
            rt::Window whole;
            whole.tensor = v.tensor;
            const auto& tshape = m_cx.tensors->tensors[v.tensor].shape;
            whole.offsets = v.reshape.empty() ? v.off : std::vector<int64_t>(tshape.size(), 0);
            whole.extents = v.reshape.empty() ? v.shape : tshape;
            bool empty = false;
            for (int64_t e : whole.extents) empty |= e <= 0;
            if (empty || !idx || (!gather && !src)) return gather ? LValue{out} : LValue{v};
            auto in = make(gather ? Pipe::Mte2 : Pipe::Mte3, s, &c);
            in->in[0] = idx;
            in->in[1] = src;
            dep_read(*in, idx);
            if (src) dep_read(*in, src);
            dep_gm(*in, v.tensor, whole, !gather);
            in->p.order = order_key(s);
            in->p.gm_static = 0;  // replaced by the transfers the index values name (DataEngine::begin_indexed)
            in->p.indexed_tensor = v.tensor;
            in->ints.push_back(static_cast<int64_t>(v.shape.size()));
            in->ints.insert(in->ints.end(), v.off.begin(), v.off.end());
            in->ints.insert(in->ints.end(), v.shape.begin(), v.shape.end());
            in->ints.push_back(static_cast<int64_t>(v.reshape.size()));
            in->ints.insert(in->ints.end(), v.reshape.begin(), v.reshape.end());
            if (out) {
                dep_write(*in, out);
                in->out = out;
            }
            issue(std::move(in));
            return gather ? LValue{out} : LValue{v};
        }
        case O::Slice: {
            const ExprPtr& x = arg(c, "tile");
            std::vector<int64_t> shape, off;
            for (auto& a : arg(c, "shape")->args) shape.push_back(scalar(a).as_int());
            for (auto& a : arg(c, "offset")->args) off.push_back(scalar(a).as_int());
            if (x->type.kind == TypeKind::Tensor) {
                TView v = view(x);
                for (size_t d = 0; d < off.size() && d < v.off.size(); ++d) v.off[d] = rt::sat_add(v.off[d], off[d]);
                v.shape = shape;
                return LValue{v};
            }
            [[fallthrough]];
        }
        default:
            break;
    }

    // Cross-core and synchronisation ops (lane_sync_ops.cpp).
    if (auto r = issue_sync_call(s, c)) return *r;

    // Compute and movement ops: inputs read, a fresh (or in-place) output written.
    Pipe pipe = call_pipe(c);
    if (!m_sink.has_pipe(pipe)) pipe = m_cx.core == CoreId::Aic ? Pipe::Mte1 : Pipe::Vector;
    if (code == O::Slice || code == O::Reshape || code == O::SetValidShape || code == O::TransposeView) {
        const ExprPtr& x = arg(c, "tile");
        pipe = x->type.mem == Mem::Vec ? Pipe::Vector : x->type.mem == Mem::Acc ? Pipe::Fixp : Pipe::Mte1;
        if (!m_sink.has_pipe(pipe)) pipe = m_cx.core == CoreId::Aic ? Pipe::Mte1 : Pipe::Vector;
    }
    auto in = make(pipe, s, &c);
    int k = 0;
    for (size_t i = 0; i < c.args.size() && k < static_cast<int>(std::size(in->in)); ++i) {
        const ExprPtr& a = c.args[i];
        if (a && a->type.kind == TypeKind::Tile) {
            TileRef t = tile(a);
            in->in[k++] = t;
        }
    }
    TileRef out;
    if (code == O::MatmulAcc || code == O::GemvAcc) {
        out = tile(arg(c, "acc"));  // the result reuses the accumulator's storage
        for (int j = 1; j < 3; ++j) dep_read(*in, in->in[j]);
        dep_write(*in, out);
    } else {
        for (int j = 0; j < k; ++j) dep_read(*in, in->in[j]);
        out = result_tile(c.type);
        dep_write(*in, out);
        // A run-time valid region (a load's valid_shape, lane 1's part of an odd split) carries through moves
        // and shape-preserving vector ops, as in the reference interpreter.
        const TileRef& x = in->in[0];
        // The result's static valid region (empty, or the operand's own, e.g. lane 0's part of a split boundary
        // tile) is then bounded by the operand's run-time one.
        bool shaping =
            c.op->valid != ValidRule::Inherit;  // the registry's valid-region rule (slice, reshape, fillpad, ...)
        const ExprPtr& x0 = c.args.empty() ? nullptr : c.args[0];
        bool inherits =
            c.type.valid.empty() || (x0 && x0->type.kind == TypeKind::Tile && x0->type.valid == c.type.valid);
        if (k > 0 && x && !shaping && (code == O::Move || c.type.mem == Mem::Vec) && inherits && x->rows == out->rows &&
            x->cols == out->cols) {
            out->vr = std::min(out->vr, x->vr);
            out->vc = std::min(out->vc, x->vc);
        }
    }
    for (const ExprPtr* sv : value_operands(c)) in->numbers.push_back(scalar(*sv).as_double());
    if (!in->numbers.empty()) in->number = in->numbers[0];
    if (code == O::SetValidShape) {
        out->vr = scalar(arg(c, "rows")).as_int();
        out->vc = scalar(arg(c, "cols")).as_int();
        // A run-time region outside the tile names memory the tile does not have (as a load's valid_shape).
        if (out->vr < 0 || out->vc < 0 || out->vr > out->rows || out->vc > out->cols) {
            m_sink.finding(codes::kOob, s,
                           fmt::format("{} pl.tile.set_validshape: valid shape [{}, {}] is outside the tile [{}, {}]",
                                       core_name(m_cx.core), out->vr, out->vc, out->rows, out->cols));
            out->vr = std::clamp<int64_t>(out->vr, 0, out->rows);
            out->vc = std::clamp<int64_t>(out->vc, 0, out->cols);
        }
    }
    if (c.op->int_list_param)  // slice offsets, reshape shape, write indices, assemble offset
        for (auto& a : arg(c, c.op->int_list_param)->args) in->ints.push_back(scalar(a).as_int());
    if ((code == O::Slice || code == O::Reshape || code == O::SetValidShape || code == O::TransposeView ||
         code == O::ReinterpretView) &&
        in->in[0]) {
        if (slot_root(in->in[0].get())) {
            // a5: a view of slot memory is slot memory too (rewritten with it, read as it).
            out->view_src = in->in[0];
            out->view_code = code;
            out->view_ints = in->ints;
        } else if (in->in[0]->ring >= 0 || in->in[0]->popped_src) {
            // a2a3: a view of a popped tile's landing buffer; a tfree of it frees the popped tile's slot.
            out->popped_src = in->in[0]->ring >= 0 ? in->in[0] : in->in[0]->popped_src;
        }
    }
    in->out = out;
    issue(std::move(in));
    return LValue{out};
}

}  // namespace cvsim::sim
