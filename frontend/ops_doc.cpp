// The op registry as documentation (docs/OPS_TABLE.md, `cvsim ops`) and the ops rejected on purpose.
#include <fmt/format.h>

#include "frontend/ops.h"

namespace cvsim::ir {

namespace {

std::string side_text(const OpDef& d) {
    switch (d.side_rule) {
        case SideRule::Fixed: return std::string(side_name(d.side));
        case SideRule::ResultMem: return "by result memory";
        case SideRule::TileMem: return "by tile memory";
        case SideRule::Move: return "by src/dst memory";
        case SideRule::Syncall: case SideRule::SyncFlag: return "by core_type";
    }
    return "?";
}

std::string pipe_text(const OpDef& d) {
    switch (d.pipe_rule) {
        case PipeRule::Fixed:
            if (d.effect == Effect::View) return "none (view)";
            return std::string(pipe_name(d.pipe));
        case PipeRule::Store: return "MTE3 / FIXP (from L0C)";
        case PipeRule::Move: return "by src/dst memory";
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
        "Generated from the op registry (frontend/ops.cpp) by `cvsim ops`; tests/frontend/ops_registry_test.cpp fails when this\n"
        "file differs from the registry. Side = expander lane, pipe = executing pipe, effect = who implements the data effect\n"
        "(compute/view: the shared numerics of the reference interpreter and the simulator), cost = the formula of\n"
        "the cost table below.\n\n"
        "| op | parameters | side | pipe | effect | cost | doc |\n|---|---|---|---|---|---|---|\n";
    for (const auto& d : all_ops())
        out += fmt::format("| `pl.{}` | {} | {} | {} | {} | {} | {} |\n", d.name(), params_text(d), side_text(d), pipe_text(d),
                           effect_name(d.effect), op_cost_info(d.cost).name, d.doc);
    out += "\n## Cost formulas\n\n| cost | formula | source | confidence |\n|---|---|---|---|\n";
    for (const auto& c : op_cost_table()) out += fmt::format("| {} | {} | {} | {} |\n", c.name, c.formula, c.source, c.confidence);
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
        const char* batch = "batched (3-D) matmul: cvsim's tiles are 2-D; PyPTO lowers batches to per-batch matmuls";
        for (const char* n : {"batch_matmul", "batch_matmul_acc"}) add(n, batch);
        add("alloc", "internal IR allocation op (memory planning): cvsim allocates tile storage itself");
        add("random", "counter-based (Philox) generator: its bit-exact output sequence is not specified to cvsim");
        add("reinterpret_view", "bit reinterpretation of a tile's bytes under another dtype/shape: not modelled yet");
        add("get_block_num", "the launch's block count as a kernel scalar: not modelled yet (pass it as a scalar parameter)");
        add("max", "scalar max of two scalars: not modelled as an op (use a scalar expression)");
        add("min", "scalar min of two scalars: not modelled as an op (use a scalar expression)");
        const char* part = "partial-region ops (valid regions of the two operands differ): not modelled yet";
        for (const char* n : {"part_add", "part_mul", "part_max", "part_min"}) add(n, part);
        add("scatter_update", "index-driven row scatter: not modelled yet");
        // The sort / gather / index family (frontend/ops_sort.cpp) beyond what it models.
        add("gather_compare", "compare-form gather returns a (indices, counts) tuple: tuple-valued tile ops are not modelled");
        add("gatherb", "32-byte block gather by byte offsets: byte-addressed tile reads are not modelled");
        add("gather_row", "GM-row DMA into a sub-region of a tile in place: in-place partial tile writes are not modelled");
        add("mgather", "per-element GM gather: element-granular GM accesses are not modelled by the hazard checker");
        add("mscatter", "per-element GM scatter: element-granular GM accesses are not modelled by the hazard checker");
        return v;
    }();
    return ops;
}

const UnsupportedOp* find_unsupported(std::string_view spelling) {
    for (const auto& u : unsupported_ops())
        if (u.name == spelling || std::string_view(u.name).substr(5) == spelling) return &u;
    return nullptr;
}

}  // namespace cvsim::ir
