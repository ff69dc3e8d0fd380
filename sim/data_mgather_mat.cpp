// The data engine: pl.tile.mgather's Mat (L1) form on the cube core: pto-isa's MGATHER GM -> L1
// (include/pto/npu/a2a3/MGather.hpp and a5/MGather.hpp, MGatherGm2L1RowImpl / MGatherGm2L1ElemImpl, the same on
// both targets). The cube's scalar reads the GM INT32 index tensor; row mode DMAs valid_cols elements of table
// row idx.flat[r] into row r of the NZ tile for each valid row; elem mode zeroes Rows x Cols elements of the GM
// scratch, writes each valid table.flat[idx[r, c]] there at its NZ offset, flushes, and DMAs the scratch into
// L1. The lane walker issues it (sim/lane_mgather_mat.cpp) with the whole views as its GM accesses; begin reads
// the index values and records exactly the elements read (index, table) and written (scratch) instead; end
// writes the tile and commits the scratch. The reference interpreter (frontend/reference.cpp, mgather_mat)
// computes the same values.
#include <fmt/format.h>

#include <algorithm>

#include "core/cost_model.h"
#include "frontend/codes.h"
#include "frontend/ops.h"
#include "sim/data_engine.h"
#include "sim/data_util.h"

namespace cvsim::sim {

using namespace ir;

namespace {

// A run-time GM access of `p` (the storage of an earlier schedule's reused).
GmAccess& add_access(Payload& p, uint32_t tensor, const rt::Window& w, bool write) {
    GmAccess& a = p.add_gm();
    a.tensor = tensor;
    a.window.tensor = w.tensor;
    a.window.offsets.assign(w.offsets.begin(), w.offsets.end());
    a.window.extents.assign(w.extents.begin(), w.extents.end());
    a.write = write;
    a.atomic = false;
    a.ring = false;
    a.ring_gen = -1;
    return a;
}

// A GM view as the lane walker wrote it into in.ints (sim/lane_mgather_mat.cpp, push_view).
struct IntsView {
    uint32_t tensor = 0;
    std::vector<int64_t> off, shape, reshape;
};

IntsView pop_view(const std::vector<int64_t>& ints, size_t& k) {
    IntsView v;
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

uint64_t DataEngine::begin_mgather_mat(SimInstr& in) {
    Payload& p = in.p;
    auto& gm = m_st.machine->gm();
    const Expr& c = *in.call;
    const bool row = mgather_coalesce(c) == 0;
    const int oob = mgather_oob(c);
    size_t k = 0;
    const IntsView v = pop_view(in.ints, k), iv = pop_view(in.ints, k);
    const IntsView sv = row ? IntsView{} : pop_view(in.ints, k);
    const auto& t = m_st.tensors->tensors[v.tensor];
    const auto& it = m_st.tensors->tensors[iv.tensor];
    const TileBuf& out = *in.out;
    const int64_t rows = out.rows, cols = out.cols, vr = out.vr, vc = out.vc;
    p.data = TileData{t.dtype, Matrix::Zero(rows, cols)};
    while (!p.gm.empty()) {  // the whole views (their storage kept for the run-time accesses)
        p.gm_spare.push_back(std::move(p.gm.back()));
        p.gm.pop_back();
    }
    const std::string who = fmt::format("{} pl.tile.mgather (Mat)", core_name(m_core_id));
    // pto-isa addresses the table, the index tensor and the scratch linearly from their first element.
    const auto& vbase = v.reshape.empty() ? t.shape : v.reshape;
    if (row ? !rt::box_contiguous(leading(v.shape), leading(vbase)) : !rt::box_contiguous(v.shape, vbase)) {
        runtime_finding(codes::kUnsupported, *in.stmt,
                        fmt::format("{} on a view of {} that is not contiguous: pto-isa addresses the table linearly "
                                    "from its first element, which cvsim does not model",
                                    who, t.name));
        return 0;
    }
    if (!rt::box_contiguous(iv.shape, iv.reshape.empty() ? it.shape : iv.reshape)) {
        runtime_finding(
            codes::kUnsupported, *in.stmt,
            fmt::format("{}: the index tensor view of {} is not contiguous (pto-isa reads it linearly)", who, it.name));
        return 0;
    }
    const int64_t cap = rt::indexed_capacity(v.shape, row);
    const size_t eb = storage_bytes(t.dtype, 1);
    uint32_t hits = 0, misses = 0;
    std::vector<uint8_t> buf;
    // One GM element or row as seen now; recorded for the checker.
    auto read = [&](const rt::TensorBuffer& tb, uint32_t tid, const rt::Window& w) {
        add_access(p, tid, w, false);
        L2Result l2 = gm.touch(tb, tid, w);
        hits += l2.hits;
        misses += l2.misses;
        gm.read(tb, tid, w, m_core->now(), buf, m_core_index);
        return decode(buf.data(), buf.size(), tb.dtype, Layout::ND, false, 1, w.cols());
    };
    auto element_window = [&](const IntsView& x, const rt::TensorBuffer& xt, int64_t e) {
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
                runtime_finding(
                    codes::kUnsupported, *in.stmt,
                    fmt::format("{}: an index element of a pl.tensor.view is not one box of tensor {}", who, it.name));
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
                    runtime_finding(
                        pk.oob ? codes::kOob : codes::kUnsupported, *in.stmt,
                        pk.oob ? fmt::format("{}: index {} is outside the {} {} of tensor {} (gather_oob undefined)",
                                             who, static_cast<int64_t>(raw), cap, row ? "rows" : "elements", t.name)
                               : fmt::format("{}: transfer {} of a pl.tensor.view is not one box of tensor {}", who,
                                             pk.index, t.name));
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
        runtime_finding(
            codes::kUnsupported, *in.stmt,
            fmt::format("{}: the scratch's first {} elements are not one box of tensor {}", who, rows * cols, st.name));
        return 0;
    }
    const int64_t c0 = 32 / static_cast<int64_t>(std::max<size_t>(eb, 1));
    std::vector<double> lin(static_cast<size_t>(rows * cols), 0.0);
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t col = 0; col < cols; ++col)
            lin[static_cast<size_t>(rt::nz_offset(r, col, rows, c0))] = p.data.m(r, col);
    p.bytes.assign(storage_bytes(st.dtype, rows * cols), 0);
    for (size_t i = 0; i < lin.size(); ++i)
        put_element(st.dtype, round_to(st.dtype, lin[i]), p.bytes.data(), static_cast<int64_t>(i));
    add_access(p, sv.tensor, *sw, true);
    L2Result l2 = gm.touch(st, sv.tensor, *sw);
    gm.transfer_begin();
    p.bytes_moved = transfers * eb + 2 * p.bytes.size();
    // The scalar work (zeroing, an index read, a table read and a scratch write per element) counted as element
    // runs on the GM -> L1 path, then the one scratch -> L1 copy.
    const uint64_t scalar_runs = transfers + table_reads + static_cast<uint64_t>(rows * cols);
    return dma_latency(path, std::max<uint64_t>(scalar_runs, 1), eb, hits, misses) +
           dma_latency(path, 1, p.bytes.size(), l2.hits, l2.misses);
}

void DataEngine::end_mgather_mat(SimInstr& in) {
    // Elem mode: the scratch write (the access begin recorded last) becomes visible like a store's.
    Payload& p = in.p;
    if (p.gm.empty() || !p.gm.back().write) return;
    const GmAccess& a = p.gm.back();
    uint64_t visible = m_core->now() + write_visibility_delay(a, m_st.visibility_delay);
    m_st.machine->gm().write(m_st.tensors->tensors[a.tensor], a.tensor, a.window, p.bytes.data(), visible, false,
                             m_core_index);
    m_max_visible = std::max(m_max_visible, visible);
}

}  // namespace cvsim::sim
