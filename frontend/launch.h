// From a parsed program to a launch: entry selection, expansion of mixed kernels, the launch plan.
#pragma once

#include <memory>
#include <string>

#include "frontend/ir/ir.h"
#include "frontend/passes/expand_mixed_kernel.h"
#include "frontend/runtime.h"

namespace cvsim {

struct CompileOptions {
    std::string entry;             // --entry NAME ("" = the only Group, else the only InCore function)
    passes::ExpandOptions expand;  // policy, target, blocks
};

struct Compiled {
    std::shared_ptr<ir::Program> original;  // as parsed
    std::shared_ptr<ir::Program> expanded;  // after ExpandMixedKernel (the original when nothing was mixed)
    passes::ExpandStats stats;
    bool mixed = false;   // the entry was a mixed InCore function
    rt::LaunchPlan plan;  // over `expanded`; plan.mixed = the original function (reference)
};

// Throws CompileError (E-ENTRY when no entry can be chosen; the expander's diagnostics otherwise).
Compiled compile(std::shared_ptr<ir::Program> program, const CompileOptions& opt);

// Bytes the a2a3 hidden ring tensor of one cluster needs (C2V half, V2C half), from the lane programs'
// *_initialize_pipe calls (0 when no ring is used).
int64_t ring_tensor_bytes(const rt::LaunchPlan& plan);  // -1 when it overflows int64

}  // namespace cvsim
