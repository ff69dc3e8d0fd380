// Lane walker: pl.tile.mgather's Mat (L1) form on the cube core (pto-isa MGATHER GM -> L1; see
// sim/data_mgather_mat.cpp for what it does). One MTE2 instruction: the addresses are data (the cube's scalar
// reads a GM INT32 index tensor), so issue orders it against the core's accesses to the three whole views (the
// table and the index read, elem mode's scratch written); the data engine replaces them by the elements the
// index values name when the instruction runs. in.ints carries the views (table, index, elem mode's scratch),
// each as: tensor, rank, offsets, shape, reshape rank, reshape.
#include "frontend/ops.h"
#include "sim/lane_walker.h"

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

}  // namespace

LValue LaneWalker::issue_mgather_mat(const Stmt& s, const Expr& c) {
    const bool elem = mgather_coalesce(c) == 1;
    const TView v = view(arg(c, "mem")), iv = view(arg(c, "idx"));
    const TView sv = elem ? view(arg(c, "scratch")) : TView{};
    TileRef out = new_tile(c.type);  // the valid region is the type's (valid_shape)
    auto in = make(Pipe::Mte2, s, &c);
    const auto& ts = m_cx.tensors->tensors;
    dep_gm(*in, v.tensor, whole_view(v, ts[v.tensor].shape), false);
    dep_gm(*in, iv.tensor, whole_view(iv, ts[iv.tensor].shape), false);
    if (elem) dep_gm(*in, sv.tensor, whole_view(sv, ts[sv.tensor].shape), true);
    in->p.order = order_key(s);
    in->p.gm_static = 0;  // replaced by the transfers the index values name (DataEngine::begin_mgather_mat)
    push_view(in->ints, v);
    push_view(in->ints, iv);
    if (elem) push_view(in->ints, sv);
    dep_write(*in, out);
    in->out = out;
    issue(std::move(in));
    return LValue{out};
}

}  // namespace cvsim::sim
