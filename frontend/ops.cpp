// The op catalogue (OPS.md): the table and its spellings (queries on a call: ops_query.cpp).
#include "frontend/ops.h"

#include <fmt/format.h>

#include <map>

#include "frontend/diag.h"
#include "frontend/ops_more.h"
#include "frontend/ops_numerics.h"
#include "frontend/ops_sort.h"

namespace cvsim::ir {

namespace {

ParamSpec req(const char* n) {
    return {n, true, true, false};
}
ParamSpec opt(const char* n) {
    return {n, false, false, false};
}
ParamSpec req_kw(const char* n) {
    return {n, true, false, false};
}
ParamSpec val(const char* n) {
    return {n, true, true, true};
}  // required run-time scalar operand
ParamSpec val_kw(const char* n) {
    return {n, true, false, true};
}  // ... printed as keyword

// The registry columns of one op (designated initialisers, in this order).
struct Props {
    Side side = Side::Shared;
    SideRule side_rule = SideRule::Fixed;
    Pipe pipe = Pipe::Scalar;
    PipeRule pipe_rule = PipeRule::Fixed;
    Effect effect = Effect::Scalar;
    NumericsFn numerics = nullptr;
    int variant = 0;
    ValidRule valid = ValidRule::Inherit;
    const char* int_list_param = nullptr;
    OpCost cost = OpCost::None;
    const char* doc = "";
};

namespace N = numerics;

// Common column sets.
Props vec(NumericsFn fn, int variant, OpCost cost, const char* doc, ValidRule valid = ValidRule::Inherit) {
    return {Side::Vector, SideRule::Fixed, Pipe::Vector, PipeRule::Fixed, Effect::Compute,
            fn,           variant,         valid,        nullptr,         cost,
            doc};
}
Props scalar_op(Side side, const char* doc, Effect e = Effect::Scalar) {
    return {side, SideRule::Fixed, Pipe::Scalar, PipeRule::Fixed, e,  nullptr,
            0,    ValidRule::Full, nullptr,      OpCost::Scalar,  doc};
}
Props view_op(NumericsFn fn, int variant, ValidRule valid, const char* ints, const char* doc) {
    return {Side::Shared, SideRule::TileMem, Pipe::Scalar, PipeRule::Fixed, Effect::View, fn, variant, valid,
            ints,         OpCost::None,      doc};
}

// The rest of PyPTO's vector catalogue (issue 12). Parameter names and defaults are PyPTO's (tile_ops.py).
template <class Add>
void add_catalogue(Add& add) {
    using O = OpCode;
    using V = ValidRule;
    const auto B = [](BinaryOp a, BinaryOp b) { return int(a) * 16 + int(b); };
    // reductions ([M, N] -> [M, 1] / [1, N]); tmp_tile is the hardware's scratch (read, not needed by the numerics)
    add(O::RowMin, "tile", "row_min", {req("tile"), req("tmp_tile")},
        vec(N::reduce, int(ReduceOp::RowMin), OpCost::VecReduce, "[M, N] -> [M, 1] minima", V::RowReduce));
    add(O::RowProd, "tile", "row_prod", {req("tile"), req("tmp_tile")},
        vec(N::reduce, int(ReduceOp::RowProd), OpCost::VecReduce, "[M, N] -> [M, 1] products", V::RowReduce));
    add(O::ColSum, "tile", "col_sum", {req("tile"), opt("tmp_tile")},
        vec(N::col_reduce, int(ReduceOp::RowSum), OpCost::VecReduce, "[M, N] -> [1, N] sums (top to bottom)",
            V::ColReduce));
    add(O::ColMax, "tile", "col_max", {req("tile")},
        vec(N::col_reduce, int(ReduceOp::RowMax), OpCost::VecReduce, "[M, N] -> [1, N] maxima", V::ColReduce));
    add(O::ColMin, "tile", "col_min", {req("tile")},
        vec(N::col_reduce, int(ReduceOp::RowMin), OpCost::VecReduce, "[M, N] -> [1, N] minima", V::ColReduce));
    add(O::ColProd, "tile", "col_prod", {req("tile")},
        vec(N::col_reduce, int(ReduceOp::RowProd), OpCost::VecReduce, "[M, N] -> [1, N] products", V::ColReduce));
    // broadcasts
    add(O::RowExpand, "tile", "row_expand", {req("target"), req("row_vec")},
        vec(N::row_expand, int(RowExpandOp::Copy), OpCost::VecUnary, "row_vec[i, 0] broadcast to target's shape"));
    add(O::RowExpandDiv, "tile", "row_expand_div", {req("tile"), req("row_vec")},
        vec(N::row_expand, int(RowExpandOp::Div), OpCost::VecBinary, "x[i, j] / row_vec[i, 0]"));
    add(O::RowExpandMax, "tile", "row_expand_max", {req("tile"), req("row_vec")},
        vec(N::row_expand, int(RowExpandOp::Max), OpCost::VecBinary, "max(x[i, j], row_vec[i, 0])"));
    add(O::RowExpandMin, "tile", "row_expand_min", {req("tile"), req("row_vec")},
        vec(N::row_expand, int(RowExpandOp::Min), OpCost::VecBinary, "min(x[i, j], row_vec[i, 0])"));
    add(O::RowExpandExpdif, "tile", "row_expand_expdif", {req("tile"), req("row_vec")},
        vec(N::row_expand, int(RowExpandOp::Expdif), OpCost::VecExp,
            "exp(x[i, j] - row_vec[i, 0]) (difference rounded first)"));
    add(O::ColExpand, "tile", "col_expand", {req("target"), req("col_vec")},
        vec(N::col_expand, int(RowExpandOp::Copy), OpCost::VecUnary, "col_vec[0, j] broadcast to target's shape"));
    add(O::ColExpandMul, "tile", "col_expand_mul", {req("tile"), req("col_vec")},
        vec(N::col_expand, int(RowExpandOp::Mul), OpCost::VecBinary, "x[i, j] * col_vec[0, j]"));
    add(O::ColExpandDiv, "tile", "col_expand_div", {req("tile"), req("col_vec")},
        vec(N::col_expand, int(RowExpandOp::Div), OpCost::VecBinary, "x[i, j] / col_vec[0, j]"));
    add(O::ColExpandSub, "tile", "col_expand_sub", {req("tile"), req("col_vec")},
        vec(N::col_expand, int(RowExpandOp::Sub), OpCost::VecBinary, "x[i, j] - col_vec[0, j]"));
    add(O::ColExpandAdd, "tile", "col_expand_add", {req("tile"), req("col_vec")},
        vec(N::col_expand, int(RowExpandOp::Add), OpCost::VecBinary, "x[i, j] + col_vec[0, j]"));
    add(O::ColExpandMax, "tile", "col_expand_max", {req("tile"), req("col_vec")},
        vec(N::col_expand, int(RowExpandOp::Max), OpCost::VecBinary, "max(x[i, j], col_vec[0, j])"));
    add(O::ColExpandMin, "tile", "col_expand_min", {req("tile"), req("col_vec")},
        vec(N::col_expand, int(RowExpandOp::Min), OpCost::VecBinary, "min(x[i, j], col_vec[0, j])"));
    add(O::ColExpandExpdif, "tile", "col_expand_expdif", {req("tile"), req("col_vec")},
        vec(N::col_expand, int(RowExpandOp::Expdif), OpCost::VecExp,
            "exp(x[i, j] - col_vec[0, j]) (difference rounded first)"));
    add(O::Expands, "tile", "expands", {req("target"), val("scalar")},
        vec(N::fill, 1, OpCost::VecUnary, "target's shape filled with the scalar"));
    // tile-scalar and bitwise
    add(O::Maximums, "tile", "maximums", {req("lhs"), val("rhs")},
        vec(N::scalar, int(BinaryOp::Maximum), OpCost::VecTileScalar, "max(tile, scalar) (NaN propagates)"));
    add(O::Minimums, "tile", "minimums", {req("lhs"), val("rhs")},
        vec(N::scalar, int(BinaryOp::Minimum), OpCost::VecTileScalar, "min(tile, scalar) (NaN propagates)"));
    add(O::Rem, "tile", "rem", {req("lhs"), req("rhs"), req("tmp")},
        vec(N::binary, int(BinaryOp::Rem), OpCost::VecBinary,
            "a - floor(a/b)*b (divisor's sign; integer x rem 0 = 0)"));
    add(O::Rems, "tile", "rems", {req("lhs"), val("rhs"), req("tmp")},
        vec(N::scalar, int(BinaryOp::Rem), OpCost::VecTileScalar, "rem with a scalar divisor"));
    add(O::Fmod, "tile", "fmod", {req("lhs"), req("rhs")},
        vec(N::binary, int(BinaryOp::Fmod), OpCost::VecBinary, "C fmod (dividend's sign; integer x fmod 0 = 0)"));
    add(O::Fmods, "tile", "fmods", {req("lhs"), val("rhs")},
        vec(N::scalar, int(BinaryOp::Fmod), OpCost::VecTileScalar, "fmod with a scalar divisor"));
    add(O::And, "tile", "and_", {req("lhs"), req("rhs")},
        vec(N::binary, int(BinaryOp::And), OpCost::VecBinary, "bitwise and (integer tiles)"));
    add(O::Ands, "tile", "ands", {req("lhs"), val("rhs")},
        vec(N::scalar, int(BinaryOp::And), OpCost::VecTileScalar, "bitwise and with a scalar"));
    add(O::Or, "tile", "or_", {req("lhs"), req("rhs")},
        vec(N::binary, int(BinaryOp::Or), OpCost::VecBinary, "bitwise or (integer tiles)"));
    add(O::Ors, "tile", "ors", {req("lhs"), val("rhs")},
        vec(N::scalar, int(BinaryOp::Or), OpCost::VecTileScalar, "bitwise or with a scalar"));
    add(O::Xor, "tile", "xor", {req("lhs"), req("rhs"), req("tmp")},
        vec(N::binary, int(BinaryOp::Xor), OpCost::VecBinary, "bitwise xor (integer tiles)"));
    add(O::Xors, "tile", "xors", {req("lhs"), val("rhs"), req("tmp")},
        vec(N::scalar, int(BinaryOp::Xor), OpCost::VecTileScalar, "bitwise xor with a scalar"));
    add(O::Shl, "tile", "shl", {req("lhs"), req("rhs")},
        vec(N::binary, int(BinaryOp::Shl), OpCost::VecBinary, "left shift, wrapping to the dtype width"));
    add(O::Shls, "tile", "shls", {req("lhs"), val("rhs")},
        vec(N::scalar, int(BinaryOp::Shl), OpCost::VecTileScalar, "left shift by a scalar"));
    add(O::Shr, "tile", "shr", {req("lhs"), req("rhs")},
        vec(N::binary, int(BinaryOp::Shr), OpCost::VecBinary, "right shift (arithmetic for signed dtypes)"));
    add(O::Shrs, "tile", "shrs", {req("lhs"), val("rhs")},
        vec(N::scalar, int(BinaryOp::Shr), OpCost::VecTileScalar, "right shift by a scalar"));
    add(O::Sin, "tile", "sin", {req("tile")}, vec(N::unary, int(UnaryOp::Sin), OpCost::VecExp, "sine (radians, FP32)"));
    add(O::Cos, "tile", "cos", {req("tile")},
        vec(N::unary, int(UnaryOp::Cos), OpCost::VecExp, "cosine (radians, FP32)"));
    add(O::Not, "tile", "not_", {req("tile")},
        vec(N::unary, int(UnaryOp::Not), OpCost::VecUnary, "bitwise not (integer tiles)"));
    // ternary, activations, predicates
    add(O::Addc, "tile", "addc", {req("lhs"), req("rhs"), req("rhs2")},
        vec(N::ternary, B(BinaryOp::Add, BinaryOp::Add), OpCost::VecBinary, "(lhs + rhs) + rhs2, each step rounded"));
    add(O::Subc, "tile", "subc", {req("lhs"), req("rhs"), req("rhs2")},
        vec(N::ternary, B(BinaryOp::Sub, BinaryOp::Add), OpCost::VecBinary,
            "(lhs - rhs) + rhs2 (the ISA's TSUBC), each step rounded"));
    add(O::Addsc, "tile", "addsc", {req("lhs"), val("rhs"), req("rhs2")},
        vec(N::ternary_scalar, B(BinaryOp::Add, BinaryOp::Add), OpCost::VecBinary, "(lhs + scalar) + rhs2"));
    add(O::Subsc, "tile", "subsc", {req("lhs"), val("rhs"), req("rhs2")},
        vec(N::ternary_scalar, B(BinaryOp::Sub, BinaryOp::Add), OpCost::VecBinary,
            "(lhs - scalar) + rhs2 (the ISA's TSUBSC)"));
    add(O::Prelu, "tile", "prelu", {req("tile"), req("slope"), req("tmp")},
        vec(N::prelu, 0, OpCost::VecBinary, "x > 0 ? x : x * slope[i, j]"));
    add(O::Lrelu, "tile", "lrelu", {req("tile"), val("slope")},
        vec(N::lrelu, 0, OpCost::VecTileScalar, "x > 0 ? x : x * slope"));
    add(O::Cmp, "tile", "cmp", {req("lhs"), req("rhs"), opt("cmp_type")},
        vec(N::cmp, 0, OpCost::VecBinary, "packed UINT8 predicate mask of lhs (cmp_type EQ NE LT LE GT GE) rhs",
            V::Full));
    add(O::Cmps, "tile", "cmps", {req("lhs"), val("rhs"), opt("cmp_type")},
        vec(N::cmp, 1, OpCost::VecTileScalar, "packed UINT8 predicate mask of tile (cmp_type) scalar", V::Full));
    add(O::Sel, "tile", "sel", {req("mask"), req("lhs"), req("rhs"), req("tmp")},
        vec(N::sel, 0, OpCost::VecBinary, "mask bit ? lhs : rhs"));
    add(O::Sels, "tile", "sels", {req("mask"), req("src"), req("tmp"), val("scalar")},
        vec(N::sel, 1, OpCost::VecTileScalar, "mask bit ? src : scalar"));
    // fills and generators
    add(O::Fillpad, "tile", "fillpad", {req("tile"), opt("pad_value")},
        vec(N::fillpad, 0, OpCost::VecUnary,
            "outside the valid region = pad_value (zero, max, min or a number); all valid after", V::Full));
    add(O::FillpadInplace, "tile", "fillpad_inplace", {req("tile"), opt("pad_value")},
        vec(N::fillpad, 0, OpCost::VecUnary, "fillpad of the same tile (the result is the padded tile)", V::Full));
    add(O::FillpadExpand, "tile", "fillpad_expand", {req("tile"), req("shape"), opt("pad_value")},
        vec(N::fillpad, 0, OpCost::VecUnary, "valid region copied into a larger tile, the rest = pad_value", V::Full));
    add(O::Ci, "tile", "ci", {val("start"), req("shape"), opt("dtype"), opt("descending")},
        vec(N::ci, 0, OpCost::VecUnary, "start + k (start - k descending) in row-major order", V::Full));
    add(O::Tri, "tile", "tri", {val("diagonal"), req("shape"), opt("valid_shape"), opt("dtype"), opt("upper")},
        vec(N::tri, 0, OpCost::VecUnary, "1 on/below (upper: on/above) the diagonal, else 0", V::Full));
    // transforms
    add(O::Concat, "tile", "concat", {req("src0"), req("src1")},
        vec(N::concat, 0, OpCost::VecUnary, "src0's valid columns then src1's, along the columns", V::Full));
    add(O::Extract, "tile", "extract",
        {req("src"), val("index_row"), val("index_col"), req("shape"), req_kw("target_memory")},
        {Side::Shared, SideRule::Move, Pipe::Mte1, PipeRule::Move, Effect::Compute, N::extract, 0, V::Full, nullptr,
         OpCost::OnChipDma, "shape window of src at (index_row, index_col) into target_memory (TEXTRACT)"});
    add(O::Read, "tile", "read", {req("tile"), req("indices")},
        scalar_op(Side::Vector, "scalar element of a tile (the scalar unit waits for the tile's writer)"));
    add(O::Write, "tile", "write", {req("tile"), req("indices"), val("value")},
        {Side::Vector, SideRule::TileMem, Pipe::Scalar, PipeRule::Fixed, Effect::Compute, N::write, 0, V::Inherit,
         "indices", OpCost::Scalar, "the tile with one element set by the scalar unit"});
    add(O::Assemble, "tile", "assemble", {req("target"), req("source"), req("offset")},
        {Side::Vector, SideRule::ResultMem, Pipe::Vector, PipeRule::Assemble, Effect::Compute, N::assemble, 0,
         V::Inherit, "offset", OpCost::Assemble,
         "target with the source's valid region written at offset (UB: a vector copy; L1: L0C->L1 by FIXPIPE, or "
         "L1->L1 in place, free: a gather_row's DMA wrote the rows)"});
}

std::vector<OpDef> build_ops() {
    using O = OpCode;
    std::vector<OpDef> v;
    auto add = [&](O c, const char* ns, const char* n, std::vector<ParamSpec> p, const Props& x) {
        OpDef d;
        d.code = c;
        d.ns = ns;
        d.short_name = n;
        d.params = std::move(p);
        d.qname = std::string(ns) + "." + n;
        d.side = x.side;
        d.side_rule = x.side_rule;
        d.pipe = x.pipe;
        d.pipe_rule = x.pipe_rule;
        d.effect = x.effect;
        d.numerics = x.numerics;
        d.variant = x.variant;
        d.valid = x.valid;
        d.int_list_param = x.int_list_param;
        d.cost = x.cost;
        d.doc = x.doc;
        v.push_back(std::move(d));
    };
    using S = Side;
    using E = Effect;
    using V = ValidRule;
    // memory movement
    // clamp=True narrows the read to the source's edge: sema writes the clamped region into valid_shape
    // (sema_load_clamp.cpp) and keeps the keyword.
    add(O::Load, "tile", "load",
        {req("tensor"), req("offsets"), req("shapes"), opt("valid_shape"), opt("target_memory"), opt("clamp")},
        {S::Shared, SideRule::ResultMem, Pipe::Mte2, PipeRule::Fixed, E::GmLoad, nullptr, 0, V::Full, nullptr,
         OpCost::GmDma, "GM window -> UB (Vec) or L1 (Mat, ND->NZ repack); valid_shape zero-fills the rest"});
    add(O::Store, "tile", "store", {req("tile"), req("offsets"), req("output_tensor"), opt("shapes"), opt("atomic")},
        {S::Shared, SideRule::TileMem, Pipe::Mte3, PipeRule::Store, E::GmStore, nullptr, 0, V::Full, nullptr,
         OpCost::GmDma,
         "tile -> GM window (MTE3 from UB, FIXP from L0C with dtype conversion); atomic=Add accumulates"});
    add(O::Move, "tile", "move", {req("tile"), req_kw("target_memory"), opt("blayout"), opt("slayout")},
        {S::Shared, SideRule::Move, Pipe::Mte1, PipeRule::Move, E::Compute, N::move, 0, V::Inherit, nullptr,
         OpCost::OnChipDma, "copy a tile to another on-chip memory (L1->L0A/L0B/Bias, L0C->L1/UB, UB->UB/L1)"});
    add(O::Slice, "tile", "slice", {req("tile"), req("shape"), req("offset"), opt("valid_shape")},
        view_op(N::view, 0, V::Full, "offset", "view of a sub-window of a tile (or a tensor window)"));
    add(O::Reshape, "tile", "reshape", {req("tile"), req("shape")},
        view_op(N::view, 1, V::Full, "shape", "same elements, new row-major shape"));
    add(O::Transpose, "tile", "transpose", {req("tile"), req("axis1"), req("axis2"), opt("tmp_tile")},
        {S::Shared, SideRule::TileMem, Pipe::Vector, PipeRule::Fixed, E::Compute, N::transpose, 0, V::Swap, nullptr,
         OpCost::VecUnary, "2-D transpose into a new UB tile"});
    add(O::TransposeView, "tile", "transpose_view", {req("tile")},
        view_op(N::view, 2, V::Swap, nullptr, "transposed view (ND<->DN, NZ<->ZN) of the same bytes"));
    add(O::SetValidShape, "tile", "set_validshape", {req("tile"), val("rows"), val("cols")},
        view_op(N::view, 3, V::Scalars, nullptr, "same tile, new valid region [rows, cols]"));
    add(O::TensorCreate, "tensor", "create", {req("shape"), req("dtype")},
        scalar_op(S::Shared, "GM tensor allocation (orchestration; rejected inside a kernel run)"));
    // creation and indices
    add(O::Create, "tile", "create",
        {req("shape"), req_kw("dtype"), opt("target_memory"), opt("transpose"), opt("flat_layout")},
        {S::Shared, SideRule::ResultMem, Pipe::Scalar, PipeRule::Fixed, E::Compute, N::fill, 0, V::Full, nullptr,
         OpCost::None, "allocate a tile (zero-initialised in cvsim)"});
    add(O::Full, "tile", "full", {req("shape"), req_kw("dtype"), val_kw("value")},
        {S::Shared, SideRule::ResultMem, Pipe::Vector, PipeRule::Fixed, E::Compute, N::fill, 1, V::Full, nullptr,
         OpCost::VecUnary, "UB tile with every element = value (rounded to dtype)"});
    add(O::GetBlockIdx, "tile", "get_block_idx", {}, scalar_op(S::Shared, "the cluster (block) index"));
    // A kernel's scalar read of one GM element (block tables, per-row weights): what PyPTO leaves of
    // pl.tensor.read at the ExpandMixedKernel boundary. An MTE2 read of the element's bytes the scalar unit
    // waits for; the checker sees it as a GM read. (In an Orchestration function it is a host statement.)
    add(O::TensorRead, "tensor", "read", {req("tensor"), req("indices")},
        {S::Shared, SideRule::Fixed, Pipe::Mte2, PipeRule::Fixed, E::Scalar, nullptr, 0, V::Full, nullptr,
         OpCost::Scalar, "scalar element of a GM tensor (the scalar unit waits for the read)"});
    // pl.tensor.write in a kernel (PTO's store_scalar): one element written to GM, issued on MTE3 like a [1, 1]
    // store (the scalar unit does not wait). SHARED as upstream classifies it: a mixed kernel writes on both lanes.
    add(O::TensorWrite, "tensor", "write", {req("tensor"), req("indices"), val("value")},
        {S::Shared, SideRule::Fixed, Pipe::Mte3, PipeRule::Fixed, E::GmStore, nullptr, 0, V::Full, nullptr,
         OpCost::Scalar, "write one scalar element of a GM tensor"});
    // pl.tensor.view in a kernel: a zero-copy reshape of a whole contiguous GM tensor (accesses through it are
    // mapped back to boxes of the tensor; a window that is not one is E-UNSUPPORTED at run time).
    add(O::TensorView, "tensor", "view", {req("tensor"), opt("shape"), opt("valid_shape")},
        {S::Shared, SideRule::Fixed, Pipe::Scalar, PipeRule::Fixed, E::Scalar, nullptr, 0, V::Full, nullptr,
         OpCost::None, "the GM tensor under another row-major shape (same bytes)"});
    add(O::GetSubblockIdx, "tile", "get_subblock_idx", {}, scalar_op(S::Vector, "the AIV lane index (0/1)"));
    // cube
    auto mm = [&](O c, const char* n, std::vector<ParamSpec> p, int bits, const char* doc) {
        add(c, "tile", n, std::move(p),
            {S::Cube, SideRule::Fixed, Pipe::Cube, PipeRule::Fixed, E::Compute, N::matmul, bits, V::Full, nullptr,
             OpCost::Mad, doc});
    };
    mm(O::Matmul, "matmul", {req("lhs"), req("rhs")}, 0, "L0C = L0A @ L0B (FP32 for float, INT32 for INT8 operands)");
    // init_cond (PyPTO's optional 4th operand, a BOOL scalar): where it holds, acc is overwritten with lhs @ rhs
    // (PyPTO's codegen branches between pto.tmatmul and pto.tmatmul.acc on it).
    mm(O::MatmulAcc, "matmul_acc", {req("acc"), req("lhs"), req("rhs"), ParamSpec{"init_cond", false, true, true}}, 1,
       "L0C = acc + L0A @ L0B (init_cond true: L0C = L0A @ L0B)");
    mm(O::MatmulBias, "matmul_bias", {req("lhs"), req("rhs"), req("bias")}, 2, "L0C = L0A @ L0B + bias row");
    // acc_phase (unspecified / partial / final): pto-isa's AccPhase, the MAD's unit flag that lets FIXPIPE start on
    // a finished accumulation without a pipe flag. It orders the cube's own pipes, which cvsim orders by data
    // dependences anyway: checked and kept, no effect on values or GM accesses.
    mm(O::Gemv, "gemv", {req("lhs"), req("rhs"), opt("acc_phase")}, 4,
       "1 x K @ K x N into a 16 x N L0C tile (valid row 0)");
    mm(O::GemvAcc, "gemv_acc", {req("acc"), req("lhs"), req("rhs"), opt("acc_phase")}, 5,
       "gemv accumulating into acc's row 0");
    mm(O::GemvBias, "gemv_bias", {req("lhs"), req("rhs"), req("bias"), opt("acc_phase")}, 6, "gemv plus bias row");
    // vector
    const char* bin[] = {"add", "sub", "mul", "div", "maximum", "minimum"};
    const char* bin_doc[] = {"elementwise lhs + rhs",
                             "elementwise lhs - rhs",
                             "elementwise lhs * rhs",
                             "elementwise lhs / rhs (integers truncate, x/0 = 0)",
                             "elementwise max (NaN propagates)",
                             "elementwise min (NaN propagates)"};
    // div's high_precision: PyPTO's keyword selecting PTOAS's high-precision TDIV (A5; ignored on A2/A3). cvsim's
    // numerics are the correctly rounded quotient either way (read and checked, not a different value).
    for (int i = 0; i < 6; ++i)
        add(static_cast<O>(int(O::Add) + i), "tile", bin[i],
            static_cast<O>(int(O::Add) + i) == O::Div
                ? std::vector<ParamSpec>{req("lhs"), req("rhs"), opt("high_precision")}
                : std::vector<ParamSpec>{req("lhs"), req("rhs")},
            vec(N::binary, i, OpCost::VecBinary, bin_doc[i]));
    const char* sc[] = {"adds", "subs", "muls", "divs"};
    const char* sc_doc[] = {"tile + scalar", "tile - scalar", "tile * scalar", "tile / scalar"};
    for (int i = 0; i < 4; ++i)
        add(static_cast<O>(int(O::Adds) + i), "tile", sc[i], {req("lhs"), val("rhs")},
            vec(N::scalar, i, OpCost::VecTileScalar, sc_doc[i]));
    const char* un[] = {"exp", "log", "sqrt", "rsqrt", "recip", "abs", "neg", "relu"};
    const char* un_doc[] = {"e^x", "natural log", "square root", "1/sqrt(x)", "1/x", "|x|", "-x", "max(x, 0)"};
    // rsqrt's optional tmp: PyPTO's scratch tile selecting the high-precision lowering (read; the numerics
    // compute 1/sqrt(x) in double either way). log's and recip's high_precision keyword likewise selects PTOAS's
    // high-precision TLOG / TRECIP (A5; ignored on A2/A3): the numerics are the correctly rounded value either way.
    auto unary_params = [](O c) {
        if (c == O::Rsqrt) return std::vector<ParamSpec>{req("tile"), opt("tmp")};
        if (c == O::Log || c == O::Recip) return std::vector<ParamSpec>{req("tile"), opt("high_precision")};
        return std::vector<ParamSpec>{req("tile")};
    };
    for (int i = 0; i < 8; ++i)
        add(static_cast<O>(int(O::Exp) + i), "tile", un[i], unary_params(static_cast<O>(int(O::Exp) + i)),
            vec(N::unary, i, i == 0 ? OpCost::VecExp : OpCost::VecUnary, un_doc[i]));
    add(O::Cast, "tile", "cast", {req("tile"), req("target_type"), opt("mode")},
        vec(N::cast, 0, OpCost::VecUnary, "dtype conversion (float->int by mode round/floor/ceil/trunc, saturating)"));
    // tmp_tile: PyPTO's scratch operand (optional here: cvsim's own kernels omit it; the numerics do not need it).
    add(O::RowSum, "tile", "row_sum", {req("tile"), opt("tmp_tile")},
        vec(N::reduce, 0, OpCost::VecReduce, "[M, N] -> [M, 1] sums", V::RowReduce));
    add(O::RowMax, "tile", "row_max", {req("tile"), opt("tmp_tile")},
        vec(N::reduce, 1, OpCost::VecReduce, "[M, N] -> [M, 1] maxima", V::RowReduce));
    const char* rex[] = {"row_expand_mul", "row_expand_add", "row_expand_sub"};
    const char* rex_doc[] = {"x[i, j] * row_vec[i, 0]", "x[i, j] + row_vec[i, 0]", "x[i, j] - row_vec[i, 0]"};
    // row_expand_add's optional tmp: PyPTO's PTOAS scratch tile (a2a3's TROWEXPANDADD writes it while it writes dst;
    // a5 ignores it). Read and checked; the numerics do not need it.
    for (int i = 0; i < 3; ++i)
        add(static_cast<O>(int(O::RowExpandMul) + i), "tile", rex[i],
            static_cast<O>(int(O::RowExpandMul) + i) == O::RowExpandAdd
                ? std::vector<ParamSpec>{req("tile"), req("row_vec"), ParamSpec{"tmp", false, true, false}}
                : std::vector<ParamSpec>{req("tile"), req("row_vec")},
            vec(N::row_expand, i, OpCost::VecBinary, rex_doc[i]));
    // cross-core transport
    auto tr = [&](O c, const char* ns, const char* n, std::vector<ParamSpec> p, S side, Pipe pipe, const char* doc) {
        add(c, ns, n, std::move(p),
            {side, SideRule::Fixed, pipe, PipeRule::Fixed, E::Transport, nullptr, 0, V::Full, nullptr,
             OpCost::Transport, doc});
    };
    tr(O::TpushToAiv, "tile", "tpush_to_aiv", {req("tile"), req_kw("split"), opt("id")}, S::Cube, Pipe::Fixp,
       "push a cube tile into the C2V ring");
    tr(O::TpushToAic, "tile", "tpush_to_aic", {req("tile"), req_kw("split"), opt("id")}, S::Vector, Pipe::Mte3,
       "push a UB tile into the V2C ring");
    tr(O::TpopFromAic, "tile", "tpop_from_aic", {opt("split"), opt("id"), opt("shape"), opt("dtype")}, S::Vector,
       Pipe::Mte2, "pop the next C2V slot (this lane's part)");
    tr(O::TpopFromAiv, "tile", "tpop_from_aiv", {opt("split"), opt("id"), opt("shape"), opt("dtype")}, S::Cube,
       Pipe::Mte2, "pop the next V2C slot (the lanes' parts gathered)");
    // split= is accepted and ignored as upstream does (its StampTfreeSplit takes it from the pop).
    tr(O::TfreeToAic, "system", "tfree_to_aic", {req("tile"), opt("split"), opt("id")}, S::Vector, Pipe::Scalar,
       "release a popped C2V slot");
    tr(O::TfreeToAiv, "system", "tfree_to_aiv", {req("tile"), opt("split"), opt("id")}, S::Cube, Pipe::Scalar,
       "release a popped V2C slot");
    add(O::ReserveBuffer, "system", "reserve_buffer", {req_kw("name"), req_kw("size"), opt("base")},
        scalar_op(S::Shared, "reserve a consumer buffer for a ring (address)", E::Transport));
    add(O::ImportPeerBuffer, "system", "import_peer_buffer", {req_kw("name"), req_kw("peer_func")},
        scalar_op(S::Shared, "import the peer function's reserved buffer (address)", E::Transport));
    for (auto [c, n, s] : {std::tuple{O::AicInitializePipe, "aic_initialize_pipe", S::Cube},
                           std::tuple{O::AivInitializePipe, "aiv_initialize_pipe", S::Vector}})
        // The consumer buffers default to 0 (as PyPTO's op builder does; sema fills them in).
        add(c, "system", n,
            {{"c2v_consumer_buf", false, true},
             {"v2c_consumer_buf", false, true},
             req_kw("dir_mask"),
             req_kw("slot_size"),
             opt("slot_num"),
             opt("local_slot_num"),
             opt("id")},
            scalar_op(s, "configure this core's end of the cross-core rings", E::Transport));
    add(O::AivShard, "tile", "aiv_shard", {req("tile"), opt("split")},
        {S::BoundaryC2V, SideRule::Fixed, Pipe::Scalar, PipeRule::Fixed, E::Transport, nullptr, 0, V::Full, nullptr,
         OpCost::Transport, "mixed-kernel boundary: the AIV lane's part of a cube tile"});
    add(O::AicGather, "tile", "aic_gather", {req("tile"), opt("split")},
        {S::BoundaryV2C, SideRule::Fixed, Pipe::Scalar, PipeRule::Fixed, E::Transport, nullptr, 0, V::Full, nullptr,
         OpCost::Transport, "mixed-kernel boundary: the lanes' vector tiles joined on the cube"});
    // synchronisation
    add(O::Syncall, "system", "syncall", {opt("core_type"), opt("mode"), opt("gm_workspace"), opt("used_cores")},
        {S::Shared, SideRule::Syncall, Pipe::Scalar, PipeRule::Fixed, E::Sync, nullptr, 0, V::Full, nullptr,
         OpCost::Scalar, "barrier over the launched cores (hard: every core of the chip)"});
    add(O::SyncSet, "system", "sync_set", {req("event_id"), opt("pipe"), opt("ffts_mode"), opt("core_type")},
        {S::Shared, SideRule::SyncFlag, Pipe::Scalar, PipeRule::Fixed, E::Sync, nullptr, 0, V::Full, nullptr,
         OpCost::Scalar, "raise a cross-core flag after the pipe's earlier work"});
    add(O::SyncWait, "system", "sync_wait", {req("event_id"), opt("pipe"), opt("core_type")},
        {S::Shared, SideRule::SyncFlag, Pipe::Scalar, PipeRule::Fixed, E::Sync, nullptr, 0, V::Full, nullptr,
         OpCost::Scalar, "wait for (and consume) a cross-core flag"});
    add(O::SetFfts, "system", "set_ffts", {req("workspace")},
        scalar_op(S::Shared, "set the FFTS workspace address", E::Sync));
    add(O::Fence, "system", "fence", {}, scalar_op(S::Shared, "wait until this core's GM writes are visible", E::Sync));
    add(O::CacheInvalid, "system", "cacheinvalid", {opt("tensor")},
        scalar_op(S::Shared, "invalidate cached GM lines", E::Sync));
    // pl.prefetch.*: PyPTO gives them VECTOR affinity (TPREFETCH_ASYNC's SDMA scratch is a UB tile). They change
    // no tensor value, so they record no GM access; the L2 warm-up is not modelled (docs/DECISIONS.md).
    add(O::PrefetchMakeContext, "prefetch", "make_context", {},
        scalar_op(S::Vector, "an async-prefetch context (pl.PrefetchAsyncContext)"));
    add(O::PrefetchAsync, "prefetch", "async_prefetch", {req("src"), req("ctx")},
        scalar_op(S::Vector,
                  "start an SDMA GM->L2 prefetch of a flat GM tensor (a cache hint: no value changes; L2 effect not "
                  "modelled)"));
    add(O::PrefetchSession, "prefetch", "session", {req("ctx")},
        scalar_op(S::Vector, "the async session of a prefetch context"));
    add(O::PrefetchWait, "prefetch", "wait", {req("event"), req("session")},
        scalar_op(S::Vector, "wait for a prefetch event: True (the prefetch is modelled as complete at once)"));
    add_catalogue(add);
    add_sort_ops(v);
    add_more_ops(v);
    add_gm_index_ops(v);
    return v;
}

const std::map<std::string, std::vector<const OpDef*>, std::less<>>& spelling_table() {
    static const auto table = [] {
        std::map<std::string, std::vector<const OpDef*>, std::less<>> t;
        for (const auto& op : all_ops()) {
            t[op.name()].push_back(&op);
            auto& shorts = t[op.short_name];
            shorts.push_back(&op);
        }
        // `pl.create_tensor` is the short spelling of tensor.create; `pl.create` stays tile.create.
        t["create_tensor"] = {&op_def(OpCode::TensorCreate)};
        t["create"] = {&op_def(OpCode::Create)};
        // Unified ops: pl.add(tile, tile) is tile.add, pl.add(tile, scalar) is tile.adds.
        const std::pair<const char*, OpCode> unified[] = {
            {"add", OpCode::Adds},   {"sub", OpCode::Subs},         {"mul", OpCode::Muls},
            {"div", OpCode::Divs},   {"maximum", OpCode::Maximums}, {"minimum", OpCode::Minimums},
            {"fmod", OpCode::Fmods}, {"rem", OpCode::Rems},         {"cmp", OpCode::Cmps},
            {"and_", OpCode::Ands},  {"or_", OpCode::Ors},          {"xor", OpCode::Xors},
            {"shl", OpCode::Shls},   {"shr", OpCode::Shrs}};
        for (auto [n, c] : unified) {
            t[n].push_back(&op_def(c));
            t[std::string("tile.") + n].push_back(&op_def(c));
        }
        // PyPTO's IR names of the Python-keyword ops (printed programs): tile.and / tile.or / tile.not.
        for (auto [n, c] :
             {std::pair{"and", OpCode::And}, std::pair{"or", OpCode::Or}, std::pair{"not", OpCode::Not}}) {
            t[n].push_back(&op_def(c));
            t[std::string("tile.") + n].push_back(&op_def(c));
        }
        // `pl.tile.create_tile` is tile.create's alias, `pl.tile.arange` tile.ci's.
        for (auto [n, c] : {std::pair{"create_tile", OpCode::Create}, std::pair{"arange", OpCode::Ci}}) {
            t[n] = {&op_def(c)};
            t[std::string("tile.") + n] = {&op_def(c)};
        }
        // pl.tile.mrgsort: format 1 with block_len=, else format 2 (the dispatch above: a tile second operand).
        t["mrgsort"] = {&op_def(OpCode::MrgSort1), &op_def(OpCode::MrgSort2)};
        t["tile.mrgsort"] = t["mrgsort"];
        return t;
    }();
    return table;
}

}  // namespace

const std::vector<OpDef>& all_ops() {
    static const std::vector<OpDef> ops = build_ops();
    return ops;
}

const OpDef& op_def(OpCode code) {
    static const auto index = [] {
        std::vector<const OpDef*> v(256, nullptr);
        for (const auto& op : all_ops()) v[static_cast<size_t>(op.code)] = &op;
        return v;
    }();
    return *index[static_cast<size_t>(code)];
}

std::vector<const OpDef*> lookup_ops(std::string_view spelling) {
    const auto& t = spelling_table();
    auto it = t.find(spelling);
    if (it == t.end()) return {};
    return it->second;
}

}  // namespace cvsim::ir
