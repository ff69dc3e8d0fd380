// The reference interpreter's Lane: GM loads, stores (atomic adds with their order tolerance), gathers, scatters.
#include "frontend/reference_internal.h"

namespace cvsim::ref::detail {

// Before a GM access of an original multi-block launch: every block earlier in program order (statement
// positions and loop iterations; on a tie the lower block) goes first. Ordering by the rank of the access
// instead misordered blocks where a branch on the block index skips accesses (false E-MISMATCH).
void Lane::gm_turn() {
    if (!m_m.lockstep) return;
    m_m.coop.progress();  // this block moved: a block waiting for it may go on
    m_m.coop.wait_until(m_task, [&] {
        for (size_t t = 0; t < m_m.pos.size(); ++t) {
            if (static_cast<int>(t) == m_task || m_m.done[t] || !m_m.pos[t]) continue;
            const auto& o = *m_m.pos[t];
            if (o < m_pos || (o == m_pos && static_cast<int>(t) < m_task)) return false;
        }
        return true;
    });
}

Value Lane::load(const Expr& c) {
    gm_turn();
    TView v = view(arg(c, "tensor"));
    std::vector<int64_t> ext = ints(arg(c, "shapes"));
    int64_t R = 1;  // rows: the product of all extents but the last (as a window's)
    for (size_t d = 0; d + 1 < ext.size(); ++d) R *= ext[d];
    const int64_t C = ext.empty() ? 1 : ext.back();
    int64_t vr = R, vc = C;
    if (auto& vs = arg(c, "valid_shape")) {
        auto vv = ints(vs);
        vr = rt::valid_rows(vv);  // the valid window's rows, as PyPTO merges an N-D valid_shape
        vc = vv.empty() ? 1 : vv.back();
        // A run-time valid region larger than the tile (or negative) names memory the tile does not have.
        if (auto err = rt::valid_shape_error(vv, ext)) fail(codes::kOob, c.loc, *err);
        // Only the valid region is read from GM (pl.tile.load).
        if (vv.size() == ext.size())
            for (size_t d = 0; d < ext.size(); ++d) ext[d] = std::min(ext[d], vv[d]);
    }
    rt::Window w = window(v, arg(c, "offsets"), ext, c.loc);
    const auto& t = m_m.gm.tensors[v.id];
    TileData d{t.dtype, Matrix::Zero(R, C)};
    vr = std::min(vr, w.rows());
    vc = std::min(vc, w.cols());
    for (int64_t r = 0; r < std::min(R, vr); ++r) {
        int64_t base = rt::window_row_start(t, w, r);
        for (int64_t col = 0; col < std::min(C, vc); ++col) d.m(r, col) = rt::tensor_element(t, base + col);
    }
    return Value{make_tile(std::move(d), c.type.mem, vr, vc)};
}

Value Lane::store(const Expr& c) {
    gm_turn();
    TileP src = tile(arg(c, "tile"));
    m_m.work += static_cast<uint64_t>(src->d.m.size());
    TView v = view(arg(c, "output_tensor"));
    std::vector<int64_t> ext = {src->vr, src->vc};
    if (auto& sh = arg(c, "shapes")) {
        ext = ints(sh);  // an N-D window over the tile's rows (as the lane executor)
        if (rt::valid_rows(ext) > src->d.m.rows() || (ext.empty() ? 1 : ext.back()) > src->d.m.cols())
            fail(codes::kOob, c.loc,
                 fmt::format("pl.tile.store: window {} is larger than the tile [{}, {}]", shape_str(ext),
                             src->d.m.rows(), src->d.m.cols()));
    }
    rt::Window w = window(v, arg(c, "offsets"), ext, c.loc, arg(c, "shapes") != nullptr);
    auto& t = m_m.gm.tensors[v.id];
    const size_t eb = dtype_bytes(t.dtype);
    if (t.written.size() != static_cast<size_t>(t.numel())) t.written.assign(static_cast<size_t>(t.numel()), 0);
    const bool atomic = is_atomic_add_store(c);
    auto ti = m_m.atomic_terms.find(v.id);
    if (atomic && dtype_is_float(t.dtype) && ti == m_m.atomic_terms.end()) {
        ti = m_m.atomic_terms.emplace(v.id, Machine::AtomicTerms{}).first;
        ti->second.n.assign(static_cast<size_t>(t.numel()), 0);
        ti->second.abs.assign(static_cast<size_t>(t.numel()), 0);
    }
    Machine::AtomicTerms* terms = ti == m_m.atomic_terms.end() ? nullptr : &ti->second;
    uint8_t addend[8];
    for (int64_t r = 0; r < w.rows(); ++r) {
        int64_t base = rt::window_row_start(t, w, r);
        for (int64_t col = 0; col < w.cols(); ++col) {
            const size_t k = static_cast<size_t>(base + col);
            if (is_sub_byte(t.dtype)) {  // packed (atomic add takes no 4-bit dtype: sema)
                put_element(t.dtype, src->d.m(r, col), t.bytes.data(), base + col);
                t.written[k] = 1;
                continue;
            }
            uint8_t* dst = t.bytes.data() + k * eb;
            if (!atomic) {
                encode_element(t.dtype, round_to(t.dtype, src->d.m(r, col)), dst);
                if (terms) terms->n[k] = 0, terms->abs[k] = 0;  // a plain store starts a new sum
            } else {
                // Read-modify-write in the tensor's dtype; an Out element no store wrote yet counts as 0.
                const bool zero = t.dir == ParamDir::Out && !t.written[k];
                encode_element(t.dtype, round_to(t.dtype, src->d.m(r, col)), addend);
                if (terms) {
                    double old = zero ? 0.0 : decode_element(t.dtype, dst), add = decode_element(t.dtype, addend);
                    if (terms->n[k] == 0 && old != 0) ++terms->n[k], terms->abs[k] += std::fabs(old);
                    if (add != 0) ++terms->n[k], terms->abs[k] += std::fabs(add);
                }
                atomic_add_element(t.dtype, dst, addend, zero);
            }
            t.written[k] = 1;
        }
    }
    return Value{v};
}

// pl.tile.mgather (Vec form): row r of the result = table row idx[r] (row mode), or element (i, j) =
// table.flat[idx[i, j]] (elem mode); a zero-mode out-of-range index gives 0, an undefined-mode one is E-OOB.
Value Lane::mgather(const Expr& c) {
    if (c.type.mem == Mem::Mat) return mgather_mat(c);
    gm_turn();
    TView v = view(arg(c, "mem"));
    TileP idx = tile(arg(c, "idx"));
    const auto& t = m_m.gm.tensors[v.id];
    const bool row = mgather_coalesce(c) == 0;
    const int oob = mgather_oob(c);
    const int64_t cap = rt::indexed_capacity(v.shape, row);
    if (!row && !rt::box_contiguous(v.shape, v.reshape.empty() ? t.shape : v.reshape))
        fail(codes::kUnsupported, c.loc,
             fmt::format("pl.tile.mgather in elem mode on a view of {} that is not contiguous: pto-isa indexes the "
                         "view's memory linearly from its first element, which cvsim does not model (gather from "
                         "the whole tensor "
                         "or a contiguous slice and offset the indices)",
                         t.name));
    TileData d{t.dtype, Matrix::Zero(c.type.rows(), c.type.cols())};
    auto read = [&](int64_t k, double raw) -> std::optional<int64_t> {
        rt::IndexPick p = rt::pick_index(raw, cap, oob);
        if (p.oob)
            fail(codes::kOob, c.loc,
                 fmt::format("pl.tile.mgather: index {} is outside the {} {} of tensor {} (gather_oob undefined)",
                             static_cast<int64_t>(raw), cap, row ? "rows" : "elements", t.name));
        if (p.zero) return std::nullopt;
        auto w = rt::indexed_window(v.id, v.off, v.shape, v.reshape, t.shape, p.index, row);
        if (!w || rt::check_window(t, *w))
            fail(
                codes::kUnsupported, c.loc,
                fmt::format("pl.tile.mgather: transfer {} of a pl.tensor.view is not one box of tensor {}", k, t.name));
        return rt::window_row_start(t, *w, 0);
    };
    int64_t vr = 0, vc = 0;
    if (row) {
        const bool row_vector = arg(c, "idx")->type.shape[0] == 1;
        vr = std::min<int64_t>(row_vector ? idx->vc : idx->vr, d.m.rows());
        vc = d.m.cols();
        for (int64_t r = 0; r < vr; ++r)
            if (auto base = read(r, row_vector ? idx->d.m(0, r) : idx->d.m(r, 0)))
                for (int64_t col = 0; col < vc; ++col) d.m(r, col) = rt::tensor_element(t, *base + col);
    } else {
        vr = std::min<int64_t>(idx->vr, d.m.rows());
        vc = std::min<int64_t>(idx->vc, d.m.cols());
        for (int64_t i = 0; i < vr; ++i)
            for (int64_t j = 0; j < vc; ++j)
                if (auto k = read(i * vc + j, idx->d.m(i, j))) d.m(i, j) = rt::tensor_element(t, *k);
    }
    return Value{make_tile(std::move(d), Mem::Vec, vr, vc)};
}

// pl.tile.mgather's Mat form (pto-isa MGatherGm2L1RowImpl / MGatherGm2L1ElemImpl, a2a3 and a5 alike): the cube's
// scalar reads the GM index tensor; row mode copies valid_cols elements of table row idx.flat[r] into row r of
// the NZ tile for each valid row r; elem mode writes table.flat[idx[r, c]] of each valid (r, c) into the GM
// scratch at its NZ offset (the whole Rows x Cols scratch zeroed first) and copies the scratch into L1. Elements
// nothing wrote are 0 (row mode: the hardware leaves them as they were; zero mode pre-zeroes the tile).
Value Lane::mgather_mat(const Expr& c) {
    gm_turn();
    TView v = view(arg(c, "mem")), iv = view(arg(c, "idx"));
    const auto& t = m_m.gm.tensors[v.id];
    const auto& it = m_m.gm.tensors[iv.id];
    const bool row = mgather_coalesce(c) == 0;
    const int oob = mgather_oob(c);
    const int64_t rows = c.type.rows(), cols = c.type.cols();
    const int64_t vr = c.type.valid.empty() ? rows : c.type.valid[0],
                  vc = c.type.valid.empty() ? cols : c.type.valid[1];
    auto lead = [](std::vector<int64_t> x) {
        if (!x.empty()) x.pop_back();
        return x;
    };
    const std::vector<int64_t>& vbase = v.reshape.empty() ? t.shape : v.reshape;
    if (row ? !rt::box_contiguous(lead(v.shape), lead(vbase)) : !rt::box_contiguous(v.shape, vbase))
        fail(codes::kUnsupported, c.loc,
             fmt::format("pl.tile.mgather (Mat) on a view of {} that is not contiguous: pto-isa addresses the table "
                         "linearly from its first element, which cvsim does not model",
                         t.name));
    if (!rt::box_contiguous(iv.shape, iv.reshape.empty() ? it.shape : iv.reshape))
        fail(codes::kUnsupported, c.loc,
             fmt::format("pl.tile.mgather (Mat): the index tensor view of {} is not contiguous (pto-isa reads it "
                         "linearly)",
                         it.name));
    const int64_t cap = rt::indexed_capacity(v.shape, row);
    auto element = [&](const TView& x, const rt::TensorBuffer& xt, int64_t k) {
        auto w = rt::indexed_window(x.id, x.off, x.shape, x.reshape, xt.shape, k, false);
        if (!w || rt::check_window(xt, *w))
            fail(
                codes::kUnsupported, c.loc,
                fmt::format("pl.tile.mgather: element {} of a pl.tensor.view is not one box of tensor {}", k, xt.name));
        return rt::window_row_start(xt, *w, 0);
    };
    auto pick = [&](double raw) -> std::optional<int64_t> {
        rt::IndexPick p = rt::pick_index(raw, cap, oob);
        if (p.oob)
            fail(codes::kOob, c.loc,
                 fmt::format("pl.tile.mgather: index {} is outside the {} {} of tensor {} (gather_oob undefined)",
                             static_cast<int64_t>(raw), cap, row ? "rows" : "elements", t.name));
        if (p.zero) return std::nullopt;
        return p.index;
    };
    const int64_t idx_cols = iv.shape.back();
    TileData d{t.dtype, Matrix::Zero(rows, cols)};
    for (int64_t r = 0; r < vr; ++r)
        for (int64_t col = 0; col < (row ? 1 : vc); ++col) {
            const double raw = rt::tensor_element(it, element(iv, it, row ? r : r * idx_cols + col));
            auto k = pick(raw);
            if (!k) continue;
            if (row) {
                auto w = rt::indexed_window(v.id, v.off, v.shape, v.reshape, t.shape, *k, true);
                if (!w || rt::check_window(t, *w))
                    fail(codes::kUnsupported, c.loc,
                         fmt::format("pl.tile.mgather: row {} of a pl.tensor.view is not one box of tensor {}", *k,
                                     t.name));
                const int64_t base = rt::window_row_start(t, *w, 0);
                for (int64_t j = 0; j < vc; ++j) d.m(r, j) = rt::tensor_element(t, base + j);
            } else {
                d.m(r, col) = rt::tensor_element(t, element(v, t, *k));
            }
        }
    if (!row) {
        // The scratch: Rows x Cols elements from its first, NZ order, zero where nothing was gathered.
        TView sv = view(arg(c, "scratch"));
        auto& st = m_m.gm.tensors[sv.id];
        if (!rt::box_contiguous(sv.shape, sv.reshape.empty() ? st.shape : sv.reshape))
            fail(codes::kUnsupported, c.loc,
                 fmt::format("pl.tile.mgather (Mat): the scratch view of {} is not contiguous", st.name));
        auto w = rt::view_range_window(sv.id, sv.off, sv.shape, sv.reshape, st.shape, 0, rows * cols);
        if (!w || rt::check_window(st, *w))
            fail(codes::kUnsupported, c.loc,
                 fmt::format("pl.tile.mgather (Mat): the scratch's first {} elements are not one box of tensor {}",
                             rows * cols, st.name));
        if (st.written.size() != static_cast<size_t>(st.numel())) st.written.assign(static_cast<size_t>(st.numel()), 0);
        const int64_t c0 = 32 / static_cast<int64_t>(dtype_bytes(t.dtype));
        std::vector<double> lin(static_cast<size_t>(rows * cols), 0.0);
        for (int64_t r = 0; r < rows; ++r)
            for (int64_t col = 0; col < cols; ++col)
                lin[static_cast<size_t>(rt::nz_offset(r, col, rows, c0))] = d.m(r, col);
        for (int64_t r = 0, i = 0; r < w->rows(); ++r) {
            const int64_t base = rt::window_row_start(st, *w, r);
            for (int64_t j = 0; j < w->cols(); ++j, ++i) {
                put_element(st.dtype, round_to(st.dtype, lin[static_cast<size_t>(i)]), st.bytes.data(), base + j);
                st.written[static_cast<size_t>(base + j)] = 1;
            }
        }
    }
    return Value{make_tile(std::move(d), Mem::Mat, vr, vc)};
}

// pl.tile.mscatter: output.flat[idx[i, j]] = src[i, j] over src's valid region in row-major order (the last
// write wins); an index outside the tensor is E-OOB.
Value Lane::mscatter(const Expr& c) {
    gm_turn();
    TileP src = tile(arg(c, "src"));
    TileP idx = tile(arg(c, "idx"));
    TView v = view(arg(c, "output_tensor"));
    auto& t = m_m.gm.tensors[v.id];
    if (t.written.size() != static_cast<size_t>(t.numel())) t.written.assign(static_cast<size_t>(t.numel()), 0);
    const int64_t cap = rt::indexed_capacity(v.shape, false);
    if (!rt::box_contiguous(v.shape, v.reshape.empty() ? t.shape : v.reshape))
        fail(codes::kUnsupported, c.loc,
             fmt::format("pl.tile.mscatter into a view of {} that is not contiguous: pto-isa indexes the view's "
                         "memory linearly from its first element, which cvsim does not model (scatter into the "
                         "whole tensor or a "
                         "contiguous slice and offset the indices)",
                         t.name));
    const size_t eb = dtype_bytes(t.dtype);
    for (int64_t i = 0; i < src->vr; ++i)
        for (int64_t j = 0; j < src->vc; ++j) {
            const double raw = i < idx->d.m.rows() && j < idx->d.m.cols() ? idx->d.m(i, j) : 0.0;
            rt::IndexPick p = rt::pick_index(raw, cap, 0);
            auto w =
                p.oob ? std::nullopt : rt::indexed_window(v.id, v.off, v.shape, v.reshape, t.shape, p.index, false);
            if (p.oob || !w || rt::check_window(t, *w))
                fail(codes::kOob, c.loc,
                     fmt::format("pl.tile.mscatter: index {} at ({}, {}) is outside the {} elements of tensor {}",
                                 static_cast<int64_t>(raw), i, j, cap, t.name));
            const auto k = static_cast<size_t>(rt::window_row_start(t, *w, 0));
            encode_element(t.dtype, round_to(t.dtype, src->d.m(i, j)), t.bytes.data() + k * eb);
            t.written[k] = 1;
        }
    return Value{v};
}

}  // namespace cvsim::ref::detail
