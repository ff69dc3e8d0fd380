// The data engine's compute side: latencies from the cost model, numerics from the op registry (shared with
// the reference interpreter), the memo of results across a session's schedules, and indexed transfers
// (pl.tile.mgather / mscatter) whose GM addresses are data.
#include <fmt/format.h>

#include "core/cost_model.h"
#include "core/layout_assemble.h"
#include "core/layout_window.h"
#include "frontend/codes.h"
#include "frontend/ops.h"
#include "frontend/ops_sort.h"
#include "sim/data_engine.h"
#include "sim/data_util.h"

namespace cvsim::sim {

using namespace ir;

bool DataEngine::inputs_clean(const SimInstr& in) const {
    for (const auto& t : in.in)
        if (t && !t->clean) return false;
    return true;
}

MemoEntry* DataEngine::memo_find(const SimInstr& in) {
    return m_st.cfg->memo ? m_st.cfg->memo->find(m_core_index, in.seq, in.call) : nullptr;
}

MemoEntry* DataEngine::memo_record(const SimInstr& in) {
    return m_st.cfg->memo ? m_st.cfg->memo->record(m_core_index, in.seq, in.call) : nullptr;
}

void DataEngine::settle_output(const SimInstr& in, TileBuf& out) {
    // Outputs are clean when they equal the recorded run's (re-convergence after a divergence counts).
    MemoEntry* e = memo_find(in);
    if (e && e->has_out) {
        out.clean = out.bytes == e->out_bytes;
    } else if (MemoEntry* r = e ? e : memo_record(in)) {
        if (!m_st.cfg->memo->recording()) {
            out.clean = false;
            return;
        }
        r->out_bytes = out.bytes;
        r->has_out = true;
        m_st.cfg->memo->charge(out.bytes.size());
        out.clean = true;
    } else {
        out.clean = false;
    }
}

static uint64_t out_bytes(const TileBuf& t) {
    return t.bytes.size();
}

uint64_t DataEngine::compute_latency(const SimInstr& in) {
    // The op's registry cost entry prices it.
    const HwParams& hw = m_st.cfg->hw;
    const OpDef& d = *in.call->op;
    const TileBuf& out = *in.out;
    switch (d.cost) {
        case OpCost::OnChipDma: {
            const TileBuf& src = *in.in[0];
            const uint64_t bytes = std::min<uint64_t>(src.bytes.size(), out_bytes(out));  // an extract moves its window
            DmaPath path = DmaPath::UbToUb;
            if (src.mem == Mem::Mat)
                path = out.mem == Mem::Left    ? DmaPath::L1ToL0A
                       : out.mem == Mem::Right ? DmaPath::L1ToL0B
                                               : DmaPath::L1ToBias;
            else if (src.mem == Mem::Acc)
                path = out.mem == Mem::Vec ? DmaPath::L0cToUb : DmaPath::L0cToL1;
            return jitter(dma_cycles(hw, path, 1, bytes, 0, 0));
        }
        case OpCost::Mad: {
            bool acc = d.variant & 1;
            const TileBuf& l = *in.in[acc ? 1 : 0];
            const TileBuf& r = *in.in[acc ? 2 : 1];
            return jitter(mad_cycles(hw.cube, l.dtype, static_cast<uint64_t>(l.rows), static_cast<uint64_t>(l.cols),
                                     static_cast<uint64_t>(r.cols)));
        }
        case OpCost::VecReduce: {
            const TileBuf& x = *in.in[0];
            uint64_t n = static_cast<uint64_t>(d.valid == ValidRule::ColReduce ? x.rows : x.cols);
            return jitter(vector_kind_cycles(hw.vector, d.cost, x.bytes.size(), n));
        }
        case OpCost::VecUnary:
        case OpCost::VecTileScalar:
        case OpCost::VecBinary:
        case OpCost::VecExp:
        case OpCost::VecSort:
        case OpCost::VecMerge:
        case OpCost::VecGather: {
            // Elementwise: the widest of the result and the operands (a cast reads or writes the wider dtype).
            uint64_t bytes = out.bytes.size();
            for (const auto& t : in.in)
                if (t) bytes = std::max<uint64_t>(bytes, t->bytes.size());
            return jitter(vector_kind_cycles(hw.vector, d.cost, bytes, 0));
        }
        case OpCost::Scalar:
            return hw.sync.issue_cost;
        case OpCost::Assemble: {
            const TileBuf& src = *in.in[1];
            if (out.mem == Mem::Mat) {
                if (src.mem != Mem::Acc) return 0;  // gather_row into L1: the load's DMA wrote the rows in place
                return jitter(dma_cycles(hw, DmaPath::L0cToL1, 1, src.bytes.size(), 0, 0));
            }
            uint64_t bytes = std::max<uint64_t>(out.bytes.size(), src.bytes.size());
            return jitter(vector_kind_cycles(hw.vector, OpCost::VecUnary, bytes, 0));
        }
        default:
            return 0;  // views (slice, reshape, set_validshape, transpose_view) move no data
    }
}

// pl.tile.assemble of a source wholly inside a target of the result's own shape and encoding: the target's bytes
// with the source's region written (core/layout_assemble.h), the result's bytes in p.bytes, instead of the whole
// target decoded and the whole result encoded again (pypto-lib's gather_row loops assemble one row into a 128 x 512
// tile per step: two whole-tile conversions a row were most of a check). The same bytes as the general path; false
// when that is not certain (the general path then runs, and reports a region outside the target).
static bool assemble_in_bytes(SimInstr& in) {
    if (!in.in[0] || !in.in[1] || !in.out) return false;
    const TileBuf &dst = *in.in[0], &src = *in.in[1], &out = *in.out;
    if (dst.dtype != out.dtype || dst.layout != out.layout || dst.acc != out.acc || dst.rows != out.rows ||
        dst.cols != out.cols)
        return false;
    // The offset as the numerics read it (ops_numerics.cpp rc), the source's valid region as they clamp it.
    const int64_t r = in.ints.size() >= 2 ? in.ints[in.ints.size() - 2] : 0, c = in.ints.empty() ? 0 : in.ints.back();
    const TileData s = read_tile(src);
    const int64_t vr = std::min<int64_t>(s.m.rows(), src.vr), vc = std::min<int64_t>(s.m.cols(), src.vc);
    if (vr <= 0 || vc <= 0) return false;
    std::vector<uint8_t> bytes(dst.bytes.data(), dst.bytes.data() + dst.bytes.size());
    if (!assemble_encoded(bytes, out.dtype, out.layout, out.acc, out.rows, out.cols, s.m.topLeftCorner(vr, vc), r, c))
        return false;
    in.p.bytes = std::move(bytes);
    in.p.bytes_out = true;
    return true;
}

// pl.tile.extract and pl.tile.slice read a window of their source: decode just that window (decode is elementwise,
// so the values are those of the registry numerics on the whole decoded source: datapath's window(), the view's
// clamped block) instead of the whole source (an extract of a [64, 512] window of a [128, 512] L1 tile decoded all
// of it). False when the operands are not the numerics' (the general path then runs).
static bool window_in_bytes(SimInstr& in) {
    if (!in.in[0] || !in.out) return false;
    const TileBuf& src = *in.in[0];
    const TileBuf& out = *in.out;
    const int64_t rows = std::max<int64_t>(src.rows, 0), cols = std::max<int64_t>(src.cols, 0);
    int64_t r0 = 0, c0 = 0, wr = out.rows, wc = out.cols;
    if (in.call->op->code == OpCode::Extract) {
        if (in.numbers.size() < 2) return false;
        r0 = static_cast<int64_t>(in.numbers[0]);
        c0 = static_cast<int64_t>(in.numbers[1]);
    } else {  // Slice: the offset clamped into the source, the window clamped to what is left of it
        const auto& v = in.ints;
        r0 = std::clamp<int64_t>(v.size() >= 2 ? v[v.size() - 2] : 0, 0, rows);
        c0 = std::clamp<int64_t>(v.empty() ? 0 : v.back(), 0, cols);
        wr = std::min<int64_t>(out.rows, rows - r0);
        wc = std::min<int64_t>(out.cols, cols - c0);
    }
    if (wr < 0 || wc < 0) return false;
    in.p.data = TileData{src.dtype, decode_window(src.bytes.data(), src.bytes.size(), src.dtype, src.layout, src.acc,
                                                  src.rows, src.cols, r0, c0, wr, wc)};
    return true;
}

void DataEngine::compute_data(SimInstr& in) {
    // The op's registry numerics (shared with the reference interpreter) on the logical operand values.
    Payload& p = in.p;
    const OpDef& d = *in.call->op;
    if (!d.numerics) return;
    if (d.code == OpCode::Assemble && assemble_in_bytes(in)) return;
    if ((d.code == OpCode::Extract || d.code == OpCode::Slice) && window_in_bytes(in)) return;
    const TileBuf& out = *in.out;
    OpOperands o;
    o.op = &d;
    o.call = in.call;
    for (const auto& t : in.in)
        if (t) {
            o.tiles.push_back(read_tile(*t));
            o.valid.emplace_back(t->vr, t->vc);
        }
    o.scalars = in.numbers;
    o.ints = in.ints;
    o.out_dtype = out.dtype;
    o.out_rows = out.rows;
    o.out_cols = out.cols;
    if (auto err = gather_compare_overflow_error(o)) runtime_finding(codes::kOob, *in.stmt, *err);
    if (auto err = assemble_outside_error(o)) runtime_finding(codes::kOob, *in.stmt, *err);
    if (auto err = write_outside_error(o)) {
        runtime_finding(codes::kOob, *in.stmt, *err);
        p.data = o.tiles[0];  // nothing is written
        return;
    }
    p.data = eval_numerics(o);
}

uint64_t DataEngine::begin_indexed(SimInstr& in) {
    // pl.tile.mgather / mscatter (pto-isa MGATHER / MSCATTER): the index tile is ready now, so the transfers are
    // known: one GM access per picked row (row mode) or element, replacing the whole-view access of issue.
    Payload& p = in.p;
    auto& gm = m_st.machine->gm();
    const Expr& c = *in.call;
    const bool gather = c.op->code == OpCode::Mgather;
    const uint32_t tid = p.indexed_tensor;
    const auto& t = m_st.tensors->tensors[tid];
    const auto rank = static_cast<size_t>(in.ints.at(0));
    const std::vector<int64_t> off(in.ints.begin() + 1, in.ints.begin() + 1 + static_cast<std::ptrdiff_t>(rank));
    const std::vector<int64_t> shape(in.ints.begin() + 1 + static_cast<std::ptrdiff_t>(rank),
                                     in.ints.begin() + 1 + static_cast<std::ptrdiff_t>(2 * rank));
    const std::vector<int64_t> reshape(in.ints.begin() + 2 + static_cast<std::ptrdiff_t>(2 * rank), in.ints.end());
    const bool row = gather && mgather_coalesce(c) == 0;
    const int oob = gather ? mgather_oob(c) : 0;
    const int64_t cap = rt::indexed_capacity(shape, row);
    // A view that is not one run of its base: pto-isa addresses it linearly from its first element (elem mode,
    // mscatter; a5's row mode steps rows by the row length), which cvsim's box model does not reproduce.
    if (!rt::box_contiguous(shape, reshape.empty() ? t.shape : reshape) && (!row || m_st.cfg->hw.target == Target::A5))
        runtime_finding(
            codes::kUnsupported, *in.stmt,
            fmt::format(
                "{} {}{} on a view of {} that is not contiguous: pto-isa addresses the view linearly from its first "
                "element{}, which cvsim does not model",
                core_name(m_core_id), c.op->name(), row ? " (row mode, a5)" : "", t.name,
                row ? " (rows a row length apart)" : ""));
    const TileBuf& ib = *in.in[0];
    const Matrix ix = read_tile(ib).m;
    const bool row_vector = arg(c, "idx")->type.shape[0] == 1;
    Matrix vals;
    if (!gather)
        vals = read_tile(*in.in[1]).m;
    else
        p.data = TileData{t.dtype, Matrix::Zero(in.out->rows, in.out->cols)};
    // Transfers in row-major order of the index tile: (destination row, column) and the index value.
    const int64_t R = gather ? in.out->vr : in.in[1]->vr;
    const int64_t C = gather ? (row ? 1 : in.out->vc) : in.in[1]->vc;
    std::vector<GmAccess> acc;
    std::vector<uint8_t> buf;
    const size_t eb = storage_bytes(t.dtype, 1);
    uint32_t hits = 0, misses = 0;
    bool reported = false;
    for (int64_t i = 0; i < R; ++i)
        for (int64_t j = 0; j < C; ++j) {
            const int64_t ir = row && row_vector ? 0 : i, ic = row ? (row_vector ? i : 0) : j;
            const double raw = ir < ix.rows() && ic < ix.cols() ? ix(ir, ic) : 0.0;
            rt::IndexPick pk = rt::pick_index(raw, cap, oob);
            if (pk.zero) continue;
            auto w = pk.oob ? std::nullopt : rt::indexed_window(tid, off, shape, reshape, t.shape, pk.index, row);
            if (!w || rt::check_window(t, *w)) {
                if (!reported)
                    runtime_finding(
                        pk.oob ? codes::kOob : codes::kUnsupported, *in.stmt,
                        pk.oob ? fmt::format("{} {}: index {} is outside the {} {} of tensor {}{}",
                                             core_name(m_core_id), c.op->name(), static_cast<int64_t>(raw), cap,
                                             row ? "rows" : "elements", t.name, gather ? " (gather_oob undefined)" : "")
                               : fmt::format("{} {}: transfer {} of a pl.tensor.view is not one box of tensor {}",
                                             core_name(m_core_id), c.op->name(), pk.index, t.name));
                reported = true;
                continue;
            }
            GmAccess a;
            a.tensor = tid;
            a.window = *w;
            a.write = !gather;
            L2Result l2 = gm.touch(t, tid, a.window);
            hits += l2.hits;
            misses += l2.misses;
            if (gather) {
                gm.read(t, tid, a.window, m_core->now(), buf, m_core_index);
                const Matrix m = decode(buf.data(), buf.size(), t.dtype, Layout::ND, false, 1, a.window.cols());
                if (row)
                    for (int64_t k = 0; k < m.cols() && k < p.data.m.cols(); ++k) p.data.m(i, k) = m(0, k);
                else
                    p.data.m(i, j) = m(0, 0);
            } else {
                const double v = i < vals.rows() && j < vals.cols() ? vals(i, j) : 0.0;
                p.bytes.resize(p.bytes.size() + eb, 0);
                put_element(t.dtype, round_to(t.dtype, v), p.bytes.data() + (p.bytes.size() - eb), 0);
            }
            acc.push_back(std::move(a));
        }
    p.gm = std::move(acc);
    gm.transfer_begin();
    const uint64_t run_bytes = row ? storage_bytes(t.dtype, shape.back()) : eb;
    const uint64_t runs = std::max<uint64_t>(p.gm.size(), 1);
    p.bytes_moved = p.gm.size() * run_bytes;
    return dma_latency(static_cast<int>(gather ? DmaPath::GmToUb : DmaPath::UbToGm), runs, run_bytes, hits, misses);
}

void DataEngine::land_tile(const SimInstr& in, const Payload& p) {
    TileBuf& out = *in.out;
    if (p.data_clean)
        if (MemoEntry* e = memo_find(in); e && e->has_out) {
            out.bytes = e->out_bytes;
            out.clean = true;
            return;
        }
    write_tile(out, values(p.xfer));
    if (p.data_clean)
        settle_output(in, out);
    else
        out.clean = false;
}

}  // namespace cvsim::sim
