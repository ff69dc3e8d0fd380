// Helpers of the data engine's files (sim-private): tile bytes <-> logical values, C2V parts and V2C
// gathers of ring slots, the data of views.
#pragma once

#include <algorithm>
#include <vector>

#include "core/datapath.h"
#include "core/layout.h"
#include "core/params.h"
#include "frontend/ops.h"
#include "models/cross_core_pipe.h"
#include "sim/event.h"
#include "sim/instr.h"

namespace cvsim::sim {

// a5 (1:1 flags): the AIC's ids [0, s) pair it with AIV0, [s, 2s) with AIV1.
inline int64_t flag_lane_stride(const HwParams& hw) {
    return static_cast<int64_t>(hw.chip.flag_counters / kAivsPerCluster);
}

inline TileData read_tile(const TileBuf& t) {
    return TileData{t.dtype, decode(t.bytes.data(), t.bytes.size(), t.dtype, t.layout, t.acc, t.rows, t.cols)};
}

inline void write_tile(TileBuf& t, const Matrix& m) {
    Matrix full = Matrix::Zero(t.rows, t.cols);
    int64_t r = std::min<int64_t>(t.rows, m.rows()), c = std::min<int64_t>(t.cols, m.cols());
    full.topLeftCorner(r, c) = m.topLeftCorner(r, c);
    t.bytes = encode(full, t.dtype, t.layout, t.acc);
}

inline int64_t half_extent(int64_t n, int split, int lane) {
    if (split == 3 || split == 4) return lane == 0 ? (n + 1) / 2 : n / 2;
    return n / 2;
}
inline bool split_rows(int split) {
    return split == 1 || split == 3;
}

// The part of a C2V tile lane `lane` receives.
inline Matrix c2v_part(const Matrix& full, int split, int lane) {
    if (split == 0) return full;
    bool rows = split_rows(split);
    int64_t n = rows ? full.rows() : full.cols();
    int64_t off = lane == 0 ? 0 : half_extent(n, split, 0);
    int64_t e = half_extent(n, split, lane);
    return rows ? Matrix(full.middleRows(off, e)) : Matrix(full.middleCols(off, e));
}

// What a pop of `sl` gives consumer lane `lane`: C2V its part of the pushed tile, V2C the last push (split 0)
// or the lanes' parts gathered. A whole-tile pop shares the pushed values.
inline SharedMatrix slot_contents(const CrossCorePipe::Slot& sl, int dir, int lane) {
    if (sl.split == 0) return sl.data ? sl.data : std::make_shared<const Matrix>();
    if (dir == 0) return std::make_shared<const Matrix>(c2v_part(values(sl.data), sl.split, lane));
    bool rows = split_rows(sl.split);
    const Matrix& a = values(sl.parts[0]);
    const Matrix& b = sl.parts.size() > 1 ? values(sl.parts[1]) : values(nullptr);
    auto out = std::make_shared<Matrix>();
    Matrix& m = *out;
    if (rows) {
        m = Matrix::Zero(a.rows() + b.rows(), std::max(a.cols(), b.cols()));
        m.topLeftCorner(a.rows(), a.cols()) = a;
        if (b.size()) m.bottomLeftCorner(b.rows(), b.cols()) = b;
    } else {
        m = Matrix::Zero(std::max(a.rows(), b.rows()), a.cols() + b.cols());
        m.topLeftCorner(a.rows(), a.cols()) = a;
        if (b.size()) m.topRightCorner(b.rows(), b.cols()) = b;
    }
    return out;
}

// The data of a view (slice, reshape, set_validshape, transpose_view) of `x`, as compute_data gives it.
inline TileData view_data(ir::OpCode code, const TileData& x, int64_t out_rows, int64_t out_cols,
                          const std::vector<int64_t>& ints) {
    switch (code) {
        case ir::OpCode::TransposeView:
            return transpose(x);
        case ir::OpCode::Slice: {
            int64_t r0 = ints.size() >= 2 ? ints[ints.size() - 2] : 0, c0 = ints.empty() ? 0 : ints.back();
            r0 = std::clamp<int64_t>(r0, 0, x.m.rows());
            c0 = std::clamp<int64_t>(c0, 0, x.m.cols());
            int64_t R = std::min<int64_t>(out_rows, x.m.rows() - r0), C = std::min<int64_t>(out_cols, x.m.cols() - c0);
            return TileData{x.dtype, Matrix(x.m.block(r0, c0, R, C))};
        }
        case ir::OpCode::Reshape:
            return TileData{x.dtype, Eigen::Map<const Matrix>(x.m.data(), out_rows, out_cols)};
        default:
            return x;
    }
}

}  // namespace cvsim::sim
