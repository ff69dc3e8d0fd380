// The vector split (SPEC 5.6): for a function split UP_DOWN / LEFT_RIGHT, each AIV lane works on its half.
//
// Algorithm. On the AIV lane function: bind `subblock_idx = pl.tile.get_subblock_idx()` first; halve every
// Vec tile type on the split axis (rows for UP_DOWN, columns for LEFT_RIGHT); a Vec load or store keeps
// its tensor but moves its window to the lane's half (offset + subblock_idx * half, extent half); Vec
// creation ops get halved shapes; transports get the split code (1 up-down, 2 left-right), so a C2V pop
// receives the lane's half and a V2C push contributes it to the AIC's gathered tile. The AIC's side of the
// same transports carries the same code (split_cube_lane): the ring hands each lane its part by the code
// the pusher wrote. A tile whose split axis has extent 1 (a broadcast row [1, N] under UP_DOWN), or of rank
// 1, is left whole on both lanes, as upstream's SplitVectorKernel leaves it (a store of such a tile keeps
// its offset). Odd extents, and row reductions across a LEFT_RIGHT split, are rejected (E-UNSUPPORTED)
// rather than computed wrongly.
#include <fmt/format.h>

#include <set>

#include "frontend/codes.h"
#include "frontend/diag.h"
#include "frontend/passes/expand_mixed_kernel.h"
#include "frontend/passes/ir_util.h"

namespace cvsim::passes {

using namespace ir;

namespace {

class VectorSplit {
  public:
    VectorSplit(Function& f, SplitMode mode) : m_f(f), m_mode(mode), m_code(mode == SplitMode::UP_DOWN ? 1 : 2) {}

    void run() {
        m_sub = m_f.new_var(m_f.fresh_name("subblock_idx"), Type::scalar(DType::INDEX), m_f.loc);
        for (auto& v : m_f.vars)
            if (v->type.kind == TypeKind::Tile && v->type.mem == Mem::Vec && halve(v->type, v->loc, v->name))
                m_halved.insert(v.get());
        block(m_f.body);
        m_f.body.insert(m_f.body.begin(), make_assign(m_sub, make_call(OpCode::GetSubblockIdx, {}, m_f.loc), m_f.loc));
    }

  private:
    Function& m_f;
    SplitMode m_mode;
    int m_code;
    VarPtr m_sub;
    std::set<const Var*> m_halved;  // Vec tiles split across the lanes (the others are whole on both)

    size_t axis(size_t rank) const { return m_mode == SplitMode::UP_DOWN ? (rank >= 2 ? rank - 2 : 0) : rank - 1; }

    // A tile of rank 1 or with extent 1 on the split axis stays whole (false), unless `whole_ok` is false
    // (a transported tile: the ring splits it by the code).
    static bool unsplit(const std::vector<int64_t>& shape, size_t ax) { return shape.size() < 2 || shape[ax] == 1; }

    bool halve(Type& t, const SourceLoc& loc, const std::string& what, bool whole_ok = true) {
        if (t.shape.empty()) return false;
        size_t ax = axis(t.shape.size());
        if (whole_ok && unsplit(t.shape, ax)) return false;
        if (t.shape[ax] % 2 != 0)
            raise(codes::kUnsupported, loc,
                  fmt::format("'{}' has {} {} ({}): a {} split needs an even extent", what, t.shape[ax],
                              m_mode == SplitMode::UP_DOWN ? "rows" : "columns", shape_str(t.shape),
                              split_mode_name(m_mode)));
        t.shape[ax] /= 2;
        // A valid extent on the split axis: the static type holds lane 0's part (the larger one, so that it
        // bounds both lanes' accesses); lane 1's comes at run time where the op carries it (load, set_validshape).
        if (!t.valid.empty()) t.valid[ax] = std::min(t.valid[ax], t.shape[ax]);
        return true;
    }

    ExprPtr shifted(const ExprPtr& off, int64_t half, const SourceLoc& loc) {
        auto mul = std::make_shared<Expr>();
        mul->kind = ExprKind::Binary;
        mul->sval = "*";
        mul->loc = loc;
        mul->args = {var_ref(m_sub, loc), int_lit(half, loc)};
        mul->type = Type::scalar(DType::INDEX);
        if (auto c = const_int(off); c && *c == 0) return mul;
        auto add = std::make_shared<Expr>();
        add->kind = ExprKind::Binary;
        add->sval = "+";
        add->loc = loc;
        add->args = {off, mul};
        add->type = Type::scalar(DType::INDEX);
        return add;
    }

    // The lane's part of a split-axis valid extent v spanning both lanes: min(max(v, idx * half) - idx * half, half)
    // (a saturating subtract, as upstream's LocalizeValidDimForSplit).
    ExprPtr lane_part(ExprPtr v, int64_t half, const SourceLoc& loc) {
        auto bin = [&](const char* op, ExprPtr a, ExprPtr b) {
            auto e = std::make_shared<Expr>();
            e->kind = ExprKind::Binary;
            e->sval = op;
            e->loc = loc;
            e->args = {std::move(a), std::move(b)};
            e->type = Type::scalar(DType::INDEX);
            return e;
        };
        auto off = bin("*", var_ref(m_sub, loc), int_lit(half, loc));
        return bin("min", bin("-", bin("max", std::move(v), off), off), int_lit(half, loc));
    }

    void refresh(const ExprPtr& e) {
        if (!e) return;
        if (e->kind == ExprKind::Var) e->type = e->var->type;
        for (auto& a : e->args) refresh(a);
    }

    void call(Expr& c, const Stmt& s) {
        using O = OpCode;
        for (auto& a : c.args) refresh(a);
        switch (c.op->code) {
            case O::Load: {
                if (c.type.mem != Mem::Vec) return;
                auto& shapes = c.args[2];
                auto& offs = c.args[1];
                size_t ax = axis(shapes->args.size());
                auto ext = const_int(shapes->args[ax]);
                if (shapes->args.size() < 2 || (ext && *ext == 1)) return;  // whole on both lanes
                if (!ext || *ext % 2)
                    raise(codes::kUnsupported, c.loc,
                          fmt::format("a {} split needs an even constant extent on the split axis",
                                      split_mode_name(m_mode)));
                int64_t half = *ext / 2;
                shapes->args[ax] = int_lit(half, c.loc);
                offs->args[ax] = shifted(offs->args[ax], half, c.loc);
                halve(c.type, c.loc, "the loaded tile");
                // valid_shape: the lane's part of the split-axis extent, clamp(v - idx * half, 0, half), as
                // upstream's SplitVectorKernel localizes a load's valid_shape (LocalizeTupleElementForSplit); the
                // static type keeps lane 0's part (the larger), the lane's own comes from the operand at run time.
                if (ExprPtr& vs = c.args[3];
                    vs && (vs->kind == ExprKind::List || vs->kind == ExprKind::Tuple) && ax < vs->args.size()) {
                    auto k = const_int(vs->args[ax]);
                    if (k && *k >= 2 * half)
                        vs->args[ax] = int_lit(half, c.loc);
                    else
                        vs->args[ax] = lane_part(vs->args[ax], half, c.loc);
                }
                return;
            }
            case O::Store: {
                const ExprPtr& tile = c.args[0];
                if (tile->type.mem != Mem::Vec) return;
                if (tile->kind == ExprKind::Var && !m_halved.count(tile->var.get()))
                    return;  // a whole tile: both lanes store it
                auto& offs = c.args[1];
                size_t rank = offs->args.size();
                size_t ax = axis(rank);
                const auto& tshape = tile->type.shape;
                size_t tax = axis(tshape.size());
                int64_t half = tshape[tax];  // already halved
                offs->args[ax] = shifted(offs->args[ax], half, c.loc);
                if (c.args[3])
                    raise(codes::kUnsupported, c.loc, "a store with shapes= in a split function is not supported");
                return;
            }
            case O::TpushToAic: {
                // A tile left whole on both lanes (extent 1 on the split axis) cannot be pushed as two halves: each
                // lane would write its whole tile at its half's offset, past the slot.
                const ExprPtr& tile = c.args[0];
                if (tile && tile->type.kind == TypeKind::Tile && tile->type.mem == Mem::Vec &&
                    tile->kind == ExprKind::Var && !m_halved.count(tile->var.get()))
                    raise(codes::kUnsupported, c.loc,
                          fmt::format("'{}' ({}) is not split between the lanes (extent 1 on the split axis) but "
                                      "crosses to the cube from a {} split "
                                      "function, whose pushes each carry one lane's half",
                                      tile->var->name, shape_str(tile->type.shape), split_mode_name(m_mode)),
                          "give the tile an even extent on the split axis, or move it to the cube outside the split "
                          "function");
                c.args[1] = int_lit(m_code, c.loc);  // (tile, split, id)
                return;
            }
            case O::Read:
            case O::Write: {
                // One element of a halved tile lives on one lane only; the other lane has no copy to read or write.
                const ExprPtr& tile = c.args[0];
                if (tile && tile->kind == ExprKind::Var && m_halved.count(tile->var.get()))
                    raise(codes::kUnsupported, c.loc,
                          fmt::format("pl.{} of '{}' in a {} split function: the element lives on one AIV lane only "
                                      "(each holds half the tile)",
                                      c.op->name(), tile->var->name, split_mode_name(m_mode)),
                          "read the element from GM with pl.tensor.read, or outside the split function");
                return;
            }
            case O::Mgather:
            case O::Mscatter:
                if (c.type.kind == TypeKind::Tile && c.type.mem == Mem::Mat)
                    return;  // the Mat form runs on the cube, whole
                // Which rows or elements each lane's half of the index tile names is not defined by a split.
                raise(codes::kUnsupported, c.loc,
                      fmt::format("pl.{} in a {} split function is not modelled by cvsim (each AIV lane would hold "
                                  "half the index tile)",
                                  c.op->name(), split_mode_name(m_mode)),
                      "gather or scatter outside the split function, or in a function with split=NONE");
            case O::TpopFromAic: {
                c.args[0] = int_lit(m_code, c.loc);  // (split, id, shape, dtype)
                const size_t ax = c.type.shape.empty() ? 0 : axis(c.type.shape.size());
                const int64_t full = c.type.shape.empty() ? 0 : c.type.shape[ax];
                halve(c.type, c.loc, "the popped tile", false);
                // An annotated run-time valid region (pl.TileView(valid_shape=[rows, cols])): the lane's part of its
                // split-axis extent, clamp(v - idx * half, 0, half), as upstream's SplitVectorKernel localizes a
                // halved tile's view (HalvedTileView); the full extent is each lane's half.
                if (ax < c.args2.size() && c.args2[ax] && !c.type.shape.empty()) {
                    const int64_t half = c.type.shape[ax];
                    auto k = const_int(c.args2[ax]);
                    c.args2[ax] = k && *k >= full ? int_lit(half, c.loc) : lane_part(c.args2[ax], half, c.loc);
                }
                return;
            }
            case O::Create:
            case O::Full: {
                if (c.type.mem != Mem::Vec) return;
                auto& shape = c.args[0];
                size_t ax = axis(shape->args.size());
                auto ext = const_int(shape->args[ax]);
                if (shape->args.size() < 2 || (ext && *ext == 1)) return;
                if (ext) shape->args[ax] = int_lit(*ext / 2, c.loc);
                halve(c.type, c.loc, "the created tile");
                return;
            }
            case O::SetValidShape: {
                // The result is the halved operand; a split-axis extent that spans both lanes (the full pre-split
                // extent, or more than a half) becomes the lane's part, clamp(v - idx * half, 0, half), as
                // upstream's SplitVectorKernel localizes it; a smaller one is an extent both lanes share.
                const ExprPtr& tile = c.args[0];
                if (tile->type.kind != TypeKind::Tile || tile->type.mem != Mem::Vec ||
                    (tile->kind == ExprKind::Var && !m_halved.count(tile->var.get())))
                    return;
                const size_t ax = axis(tile->type.shape.size());
                const int64_t half = tile->type.shape[ax];
                ExprPtr& v = c.args[m_mode == SplitMode::UP_DOWN ? 1 : 2];
                Type t = tile->type;
                t.view = c.type.view;
                t.valid.clear();
                auto k = const_int(v);
                if (k && (*k == 2 * half || *k > half)) {
                    v = lane_part(v, half, c.loc);
                    if (auto other = const_int(c.args[m_mode == SplitMode::UP_DOWN ? 2 : 1])) {
                        // Lane 0's region statically (the larger part); the lane's own comes at run time.
                        t.valid = m_mode == SplitMode::UP_DOWN ? std::vector<int64_t>{std::min(*k, half), *other}
                                                               : std::vector<int64_t>{*other, std::min(*k, half)};
                        if (t.valid == t.shape) t.valid.clear();
                    }
                } else if (k) {
                    if (auto other = const_int(c.args[m_mode == SplitMode::UP_DOWN ? 2 : 1])) {
                        t.valid = m_mode == SplitMode::UP_DOWN ? std::vector<int64_t>{*k, *other}
                                                               : std::vector<int64_t>{*other, *k};
                        if (t.valid == t.shape) t.valid.clear();
                    }
                }
                c.type = t;
                return;
            }
            case O::RowSum:
            case O::RowMax:
                if (m_mode == SplitMode::LEFT_RIGHT)
                    raise(codes::kUnsupported, c.loc,
                          "a row reduction across a LEFT_RIGHT split would reduce only half of each row");
                [[fallthrough]];
            default:
                // Of the catalogue ops (issue 12) only those whose operands and result share one shape halve with the
                // split; the others (reductions, broadcasts, masks, generators, transforms) are rejected, not guessed.
                if (c.op->code >= O::RowMin && c.type.kind == TypeKind::Tile && c.type.mem == Mem::Vec) {
                    const bool same_shape = (c.op->code >= O::Expands && c.op->code <= O::Lrelu) ||
                                            c.op->code == O::Fillpad || c.op->code == O::FillpadInplace;
                    if (!same_shape)
                        raise(codes::kUnsupported, c.loc,
                              fmt::format("pl.{} in a {} split function is not supported (its operands and result do "
                                          "not halve alike)",
                                          c.op->code == O::GatherCompareDst || c.op->code == O::GatherCompareCdst
                                              ? "tile.gather_compare"
                                              : c.op->name(),
                                          split_mode_name(m_mode)));
                }
                if (c.op->code == O::Slice || c.op->code == O::Reshape || c.op->code == O::Transpose ||
                    c.op->code == O::TransposeView)
                    if (c.type.mem == Mem::Vec)
                        raise(codes::kUnsupported, c.loc,
                              fmt::format("pl.{} in a {} split function is not supported", c.op->name(),
                                          split_mode_name(m_mode)));
                if (c.type.kind == TypeKind::Tile && c.type.mem == Mem::Vec) {
                    // Shape-preserving vector ops: the result has the halved operand shape.
                    for (auto& a : c.args)
                        if (a && a->type.kind == TypeKind::Tile) {
                            Type t = a->type;
                            t.dtype = c.type.dtype;
                            if (c.op->code == O::RowSum || c.op->code == O::RowMax) t.shape.back() = 1;
                            t.view = c.type.view;
                            c.type = t;
                            break;
                        }
                }
                return;
        }
        (void)s;
    }

    void block(Block& b) {
        for (auto& sp : b) {
            Stmt& s = *sp;
            if (s.value && s.value->kind == ExprKind::Call)
                call(*s.value, s);
            else
                refresh(s.value);
            for (auto& v : s.values) refresh(v);
            for (auto& v : s.init_values) refresh(v);
            block(s.body);
            block(s.orelse);
        }
    }
};

}  // namespace

void split_vector_lane(Function& aiv, SplitMode mode) {
    if (mode == SplitMode::NONE) return;
    VectorSplit(aiv, mode).run();
}

void split_cube_lane(Function& aic, SplitMode mode) {
    if (mode == SplitMode::NONE) return;
    int code = mode == SplitMode::UP_DOWN ? 1 : 2;
    walk(aic.body, [&](const StmtPtr& s) {
        if (!s->value || s->value->kind != ExprKind::Call) return;
        Expr& c = *s->value;
        if (c.op->code == OpCode::TpushToAiv)
            c.args[1] = int_lit(code, c.loc);  // (tile, split, id)
        else if (c.op->code == OpCode::TpopFromAiv)
            c.args[0] = int_lit(code, c.loc);  // (split, id, shape, dtype)
    });
}

namespace {

// PyPTO's SplitVectorKernel halves a split AIV function unless it carries split_aiv (LowerAutoVectorSplit's
// mark on a body already in per-lane form); a get_subblock_idx the author wrote does not make it one.
bool per_lane_form(const Function& f) {
    const Attr* a = f.attr("split_aiv");
    return a && (!a->value || a->value->kind != ExprKind::Bool || a->value->ival != 0);
}

}  // namespace

bool split_hand_written_lanes(Program& p, bool apply) {
    bool any = false;
    for (auto& f : p.functions)
        // A distributed function is never run (launch.cpp refuses it), so it is not split either.
        if (f->type == FuncType::AIV && f->split_mode() != SplitMode::NONE && !per_lane_form(*f) &&
            f->distributed.what.empty() && !f->is_unread()) {
            any = true;
            if (apply) split_vector_lane(*f, f->split_mode());
        }
    if (!any || !apply) return any;
    // The AIC side of the halved lanes: transports written with split 0 carry the function's code.
    for (auto& f : p.functions) {
        if (f->type != FuncType::AIC || f->split_mode() == SplitMode::NONE) continue;
        const int code = f->split_mode() == SplitMode::UP_DOWN ? 1 : 2;
        walk(f->body, [&](const StmtPtr& s) {
            if (!s->value || s->value->kind != ExprKind::Call) return;
            Expr& c = *s->value;
            // (tile, split, id) / (split, id, shape, dtype)
            ExprPtr* split = c.op->code == OpCode::TpushToAiv    ? &c.args[1]
                             : c.op->code == OpCode::TpopFromAiv ? &c.args[0]
                                                                 : nullptr;
            if (split && *split && const_int(*split).value_or(-1) == 0) *split = int_lit(code, c.loc);
        });
    }
    return any;
}

}  // namespace cvsim::passes
