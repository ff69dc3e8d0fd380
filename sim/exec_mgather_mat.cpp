// pl.tile.mgather's Mat (L1) form on the cube core: pto-isa's MGATHER GM -> L1 (include/pto/npu/a2a3/MGather.hpp
// and a5/MGather.hpp, MGatherGm2L1RowImpl / MGatherGm2L1ElemImpl, the same on both targets). The cube's scalar
// reads the GM INT32 index tensor; row mode DMAs valid_cols elements of table row idx.flat[r] into row r of the
// NZ tile for each valid row; elem mode zeroes Rows x Cols elements of the GM scratch, writes each valid
// table.flat[idx[r, c]] there at its NZ offset, flushes, and DMAs the scratch into L1. One MTE2 instruction:
// issue orders it against the core's accesses to the three whole views (the addresses are data); begin reads the
// index values and records exactly the elements read (index, table) and written (scratch); end commits the
// scratch. The reference interpreter (frontend/reference.cpp, mgather_mat) computes the same values.
#include <fmt/format.h>

#include <algorithm>

#include "core/cost_model.h"
#include "frontend/codes.h"
#include "frontend/ops.h"
#include "sim/lane_executor.h"
#include "sim/payload.h"

namespace cvsim::sim {

using namespace ir;

namespace {

// The whole of a view as one window of its tensor (a pl.tensor.view: the whole tensor).
rt::Window whole_view(const TView& v, const std::vector<int64_t>& tensor_shape) {
    rt::Window w;
    w.tensor = v.tensor;
    w.offsets = v.reshape.empty() ? v.off : std::vector<int64_t>(tensor_shape.size(), 0);
    w.extents = v.reshape.empty() ? v.shape : tensor_shape;
    return w;
}

void push_view(std::vector<int64_t>& ints, const TView& v) {
    ints.push_back(v.tensor);
    ints.push_back(static_cast<int64_t>(v.shape.size()));
    ints.insert(ints.end(), v.off.begin(), v.off.end());
    ints.insert(ints.end(), v.shape.begin(), v.shape.end());
    ints.push_back(static_cast<int64_t>(v.reshape.size()));
    ints.insert(ints.end(), v.reshape.begin(), v.reshape.end());
}

TView pop_view(const std::vector<int64_t>& ints, size_t& k) {
    TView v;
    v.tensor = static_cast<uint32_t>(ints.at(k++));
    const auto rank = static_cast<size_t>(ints.at(k++));
    v.off.assign(ints.begin() + static_cast<std::ptrdiff_t>(k), ints.begin() + static_cast<std::ptrdiff_t>(k + rank));
    k += rank;
    v.shape.assign(ints.begin() + static_cast<std::ptrdiff_t>(k), ints.begin() + static_cast<std::ptrdiff_t>(k + rank));
    k += rank;
    const auto rr = static_cast<size_t>(ints.at(k++));
    v.reshape.assign(ints.begin() + static_cast<std::ptrdiff_t>(k), ints.begin() + static_cast<std::ptrdiff_t>(k + rr));
    k += rr;
    return v;
}

std::vector<int64_t> leading(std::vector<int64_t> x) {
    if (!x.empty()) x.pop_back();
    return x;
}

}  // namespace

LValue CoreRunner::issue_mgather_mat(const Stmt& s, const Expr& c) {
    const bool elem = mgather_coalesce(c) == 1;
    TView v = view(arg(c, "mem")), iv = view(arg(c, "idx"));
    TView sv;
    if (elem) sv = view(arg(c, "scratch"));
    TileRef out = new_tile(c.type);  // the valid region is the type's (valid_shape)
    auto in = make(Pipe::Mte2, s, &c);
    const auto& ts = m_st.tensors->tensors;
    dep_gm(*in, v.tensor, whole_view(v, ts[v.tensor].shape), false);
    dep_gm(*in, iv.tensor, whole_view(iv, ts[iv.tensor].shape), false);
    if (elem) dep_gm(*in, sv.tensor, whole_view(sv, ts[sv.tensor].shape), true);
    pl(*in).order = order_key(s);
    push_view(in->ints, v);
    push_view(in->ints, iv);
    if (elem) push_view(in->ints, sv);
    dep_write(*in, out);
    in->out = out;
    m_core->issue(std::move(in));
    return LValue{out};
}

uint64_t CoreRunner::begin_mgather_mat(Instr& in) {
    pct_point();
    Payload& p = pl(in);
    auto& gm = m_st.machine->gm();
    const Expr& c = *in.call;
    const bool row = mgather_coalesce(c) == 0;
    const int oob = mgather_oob(c);
    size_t k = 0;
    const TView v = pop_view(in.ints, k), iv = pop_view(in.ints, k);
    const TView sv = row ? TView{} : pop_view(in.ints, k);
    const auto& t = m_st.tensors->tensors[v.tensor];
    const auto& it = m_st.tensors->tensors[iv.tensor];
    const TileBuf& out = *in.out;
    const int64_t rows = out.rows, cols = out.cols, vr = out.vr, vc = out.vc;
    p.data = TileData{t.dtype, Matrix::Zero(rows, cols)};
    p.gm.clear();
    const std::string who = fmt::format("{} pl.tile.mgather (Mat)", core_name(m_core_id));
    // pto-isa addresses the table, the index tensor and the scratch linearly from their first element.
    const auto& vbase = v.reshape.empty() ? t.shape : v.reshape;
    if (row ? !rt::box_contiguous(leading(v.shape), leading(vbase)) : !rt::box_contiguous(v.shape, vbase)) {
        runtime_finding(codes::kUnsupported, *in.stmt, fmt::format("{} on a view of {} that is not contiguous: pto-isa addresses the table linearly "
                                                               "from its first element, which cvsim does not model", who, t.name));
        return 0;
    }
    if (!rt::box_contiguous(iv.shape, iv.reshape.empty() ? it.shape : iv.reshape)) {
        runtime_finding(codes::kUnsupported, *in.stmt, fmt::format("{}: the index tensor view of {} is not contiguous (pto-isa reads it linearly)", who, it.name));
        return 0;
    }
    const int64_t cap = rt::indexed_capacity(v.shape, row);
    const size_t eb = storage_bytes(t.dtype, 1);
    uint32_t hits = 0, misses = 0;
    std::vector<uint8_t> buf;
    // One GM element or row as seen now; recorded for the checker.
    auto read = [&](const rt::TensorBuffer& tb, uint32_t tid, const rt::Window& w) {
        GmAccess a;
        a.tensor = tid;
        a.window = w;
        L2Result l2 = gm.touch(tb, tid, w);
        hits += l2.hits;
        misses += l2.misses;
        gm.read(tb, tid, w, m_core->now(), buf, m_core_index);
        p.gm.push_back(std::move(a));
        return decode(buf.data(), buf.size(), tb.dtype, Layout::ND, false, 1, w.cols());
    };
    auto element_window = [&](const TView& x, const rt::TensorBuffer& xt, int64_t e) {
        auto w = rt::indexed_window(x.tensor, x.off, x.shape, x.reshape, xt.shape, e, false);
        return w && !rt::check_window(xt, *w) ? w : std::nullopt;
    };
    const int64_t idx_cols = iv.shape.back();
    uint64_t transfers = 0, table_reads = 0;
    bool reported = false;
    for (int64_t r = 0; r < vr; ++r)
        for (int64_t col = 0; col < (row ? 1 : vc); ++col) {
            auto iw = element_window(iv, it, row ? r : r * idx_cols + col);
            if (!iw) {
                runtime_finding(codes::kUnsupported, *in.stmt, fmt::format("{}: an index element of a pl.tensor.view is not one box of tensor {}", who, it.name));
                return 0;
            }
            const double raw = read(it, iv.tensor, *iw)(0, 0);
            ++transfers;
            rt::IndexPick pk = rt::pick_index(raw, cap, oob);
            if (pk.zero) continue;
            std::optional<rt::Window> w;
            if (!pk.oob) {
                w = rt::indexed_window(v.tensor, v.off, v.shape, v.reshape, t.shape, pk.index, row);
                if (w && row) w->extents.back() = std::min(w->extents.back(), vc);  // valid_cols elements of the row
                if (w && rt::check_window(t, *w)) w.reset();
            }
            if (!w) {
                if (!reported)
                    runtime_finding(pk.oob ? codes::kOob : codes::kUnsupported, *in.stmt,
                                    pk.oob ? fmt::format("{}: index {} is outside the {} {} of tensor {} (gather_oob undefined)", who,
                                                         static_cast<int64_t>(raw), cap, row ? "rows" : "elements", t.name)
                                           : fmt::format("{}: transfer {} of a pl.tensor.view is not one box of tensor {}", who, pk.index, t.name));
                reported = true;
                continue;
            }
            const Matrix m = read(t, v.tensor, *w);
            ++transfers;
            ++table_reads;
            if (row)
                for (int64_t j = 0; j < m.cols() && j < cols; ++j) p.data.m(r, j) = m(0, j);
            else
                p.data.m(r, col) = m(0, 0);
        }
    const auto path = static_cast<int>(DmaPath::GmToL1);
    if (row) {
        gm.transfer_begin();
        p.bytes_moved = transfers * storage_bytes(t.dtype, vc);
        return dma_latency(path, std::max<uint64_t>(transfers, 1), storage_bytes(t.dtype, vc), hits, misses);
    }
    // Elem mode: the scratch's first Rows x Cols elements, NZ order, zero where nothing was gathered.
    const auto& st = m_st.tensors->tensors[sv.tensor];
    std::optional<rt::Window> sw;
    if (rt::box_contiguous(sv.shape, sv.reshape.empty() ? st.shape : sv.reshape))
        sw = rt::view_range_window(sv.tensor, sv.off, sv.shape, sv.reshape, st.shape, 0, rows * cols);
    if (!sw || rt::check_window(st, *sw)) {
        runtime_finding(codes::kUnsupported, *in.stmt, fmt::format("{}: the scratch's first {} elements are not one box of tensor {}", who, rows * cols, st.name));
        return 0;
    }
    const int64_t c0 = 32 / static_cast<int64_t>(std::max<size_t>(eb, 1));
    std::vector<double> lin(static_cast<size_t>(rows * cols), 0.0);
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t col = 0; col < cols; ++col) lin[static_cast<size_t>(rt::nz_offset(r, col, rows, c0))] = p.data.m(r, col);
    p.bytes.assign(storage_bytes(st.dtype, rows * cols), 0);
    for (size_t i = 0; i < lin.size(); ++i) put_element(st.dtype, round_to(st.dtype, lin[i]), p.bytes.data(), static_cast<int64_t>(i));
    GmAccess a;
    a.tensor = sv.tensor;
    a.window = *sw;
    a.write = true;
    L2Result l2 = gm.touch(st, sv.tensor, *sw);
    p.gm.push_back(std::move(a));
    gm.transfer_begin();
    p.bytes_moved = transfers * eb + 2 * p.bytes.size();
    // The scalar work (zeroing, an index read, a table read and a scratch write per element) counted as element
    // runs on the GM -> L1 path, then the one scratch -> L1 copy.
    const uint64_t scalar_runs = transfers + table_reads + static_cast<uint64_t>(rows * cols);
    return dma_latency(path, std::max<uint64_t>(scalar_runs, 1), eb, hits, misses) + dma_latency(path, 1, p.bytes.size(), l2.hits, l2.misses);
}

void CoreRunner::end_mgather_mat(Instr& in) {
    // Elem mode: the scratch write (the access begin recorded last) becomes visible like a store's.
    Payload& p = pl(in);
    if (p.gm.empty() || !p.gm.back().write) return;
    const GmAccess& a = p.gm.back();
    uint64_t visible = m_core->now() + write_visibility_delay(a, m_st.visibility_delay);
    m_st.machine->gm().write(m_st.tensors->tensors[a.tensor], a.tensor, a.window, p.bytes.data(), visible, false, m_core_index);
    m_max_visible = std::max(m_max_visible, visible);
}

}  // namespace cvsim::sim
