// The op registry as documentation (docs/OPS_TABLE.md, `cvsim ops`) and the ops rejected on purpose.
#include <fmt/format.h>

#include "frontend/ops.h"

namespace cvsim::ir {

namespace {

std::string side_text(const OpDef& d) {
    switch (d.side_rule) {
        case SideRule::Fixed:
            return std::string(side_name(d.side));
        case SideRule::ResultMem:
            return "by result memory";
        case SideRule::TileMem:
            return "by tile memory";
        case SideRule::Move:
            return "by src/dst memory";
        case SideRule::Syncall:
        case SideRule::SyncFlag:
            return "by core_type";
    }
    return "?";
}

std::string pipe_text(const OpDef& d) {
    switch (d.pipe_rule) {
        case PipeRule::Fixed:
            if (d.effect == Effect::View) return "none (view)";
            return std::string(pipe_name(d.pipe));
        case PipeRule::Store:
            return "MTE3 / FIXP (from L0C)";
        case PipeRule::Assemble:
            return "VEC (UB) / FIXP (L0C->L1) / MTE2 (L1)";
        case PipeRule::Move:
            return "by src/dst memory";
    }
    return "?";
}

std::string params_text(const OpDef& d) {
    std::string s;
    for (const auto& p : d.params) {
        if (!s.empty()) s += ", ";
        s += p.name;
        if (!p.required) s += "=?";
    }
    return s;
}

}  // namespace

std::string ops_table_markdown() {
    std::string out =
        "# cvsim op table\n\n"
        "Generated from the op registry (frontend/ops.cpp) by `cvsim ops`; tests/frontend/ops_registry_test.cpp fails "
        "when this\n"
        "file differs from the registry. Side = expander lane, pipe = executing pipe, effect = who implements the data "
        "effect\n"
        "(compute/view: the shared numerics of the reference interpreter and the simulator), cost = the formula of\n"
        "the cost table below.\n\n"
        "| op | parameters | side | pipe | effect | cost | doc |\n|---|---|---|---|---|---|---|\n";
    for (const auto& d : all_ops())
        out += fmt::format("| `pl.{}` | {} | {} | {} | {} | {} | {} |\n", d.name(), params_text(d), side_text(d),
                           pipe_text(d), effect_name(d.effect), op_cost_info(d.cost).name, d.doc);
    out += "\n## Cost formulas\n\n| cost | formula | source | confidence |\n|---|---|---|---|\n";
    for (const auto& c : op_cost_table())
        out += fmt::format("| {} | {} | {} | {} |\n", c.name, c.formula, c.source, c.confidence);
    out += "\n## Scalar functions (lowered to scalar expressions)\n\n| function | doc |\n|---|---|\n";
    for (const auto& f : scalar_functions()) out += fmt::format("| `pl.{}` | {} |\n", f.name, f.doc);
    out += "\n## Ops lowered to registry ops (by sema)\n\n| op | lowering |\n|---|---|\n";
    for (const auto& f : lowered_ops()) out += fmt::format("| `pl.{}` | {} |\n", f.name, f.doc);
    out += "\n## Unsupported PyPTO tile ops (E-UNSUPPORTED)\n\n| op | reason |\n|---|---|\n";
    for (const auto& u : unsupported_ops()) out += fmt::format("| `pl.{}` | {} |\n", u.name, u.reason);
    return out;
}

const std::vector<UnsupportedOp>& unsupported_ops() {
    static const std::vector<UnsupportedOp> ops = [] {
        std::vector<UnsupportedOp> v;
        auto add = [&](const char* n, const char* why) { v.push_back({std::string("tile.") + n, why}); };
        const char* mx = "MX-scaled matmul: the block-scale numerics (FP8E8M0 scales) are not defined in cvsim";
        for (const char* n : {"matmul_mx", "matmul_mx_acc", "matmul_mx_bias"}) add(n, mx);
        add("tget_scale_addr",
            "binds the MX scale tile's address for matmul_mx (A5): part of the MX-scaled matmul cvsim does not define");
        const char* batch =
            "batched matmul: its operands are 3-D or higher ([..., M, K] @ [..., K, N]) and cvsim's tiles are 2-D "
            "(PyPTO's FlattenTileNdTo2D lowers a batch to per-batch 2-D matmuls, which cvsim runs)";
        for (const char* n : {"batch_matmul", "batch_matmul_acc"}) add(n, batch);
        add("alloc",
            "internal IR allocation op of PyPTO's memory planning (no data effect; not printed in kernels): cvsim "
            "allocates tile "
            "storage itself");
        add("random",
            "counter-based (Philox-4x32) generator, A5 only: pto-isa's two definitions of TRANDOM disagree on the "
            "output "
            "sequence (its A5 kernel zips each lane's four Philox words into consecutive columns with vintlv, its CPU "
            "model "
            "writes word w of lane l at column 64w + l) and no test pins the device's (PyPTO's test_random checks "
            "determinism only), so no reference can be bit-exact");
        return v;
    }();
    return ops;
}

const std::vector<ScalarFunction>& scalar_functions() {
    static const std::vector<ScalarFunction> f = {
        {"tile.max", "max(lhs, rhs) of two scalars (as pl.max; an int and a float give FP32)"},
        {"tile.min", "min(lhs, rhs) of two scalars (as pl.min)"},
    };
    return f;
}

const std::vector<LoweredOp>& lowered_ops() {
    static const std::vector<LoweredOp> f = {
        {"tile.gather_row",
         "dst, src, dst_offset, src_offset, shapes, transpose=?, valid_shape=?: PyPTO's per-row paged-gather DMA (GM "
         "window -> a "
         "sub-region of dst, in place) in SSA form: `_load = pl.tile.load(src, src_offset, valid_shape or shapes)` "
         "then "
         "`pl.tile.assemble(dst, _load, dst_offset)` (dst with those elements replaced; same GM window). A UB (Vec) "
         "dst costs "
         "the MTE2 DMA plus one vector copy; an L1 (Mat) dst the MTE2 DMA only (the rows land in place). A run-time "
         "valid_shape loads only its valid window and assemble writes only that. transpose=True (an L1 B-operand "
         "placement) is E-UNSUPPORTED"},
        {"tile.gather_compare",
         "src, kvalue, tmp, cmp_mode=, offset=0, out_cols=, count_dtype=INT32 -> (dst, cdst), pto-isa TGATHER's "
         "compare form: "
         "`d, c = ...` (or the printed `t = ...; d = t[0]; c = t[1]`) becomes `d = pl.tile.gather_compare_dst(...)` "
         "then "
         "`c = pl.tile.gather_compare_cdst(...)` on the same operands. cmp_mode eq / gt only (the ISA has no other "
         "compare "
         "form); a2a3: INT32 with eq only, no INT16"},
    };
    return f;
}

const UnsupportedOp* find_unsupported(std::string_view spelling) {
    for (const auto& u : unsupported_ops())
        if (u.name == spelling || std::string_view(u.name).substr(5) == spelling) return &u;
    return nullptr;
}

}  // namespace cvsim::ir
