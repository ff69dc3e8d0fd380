// Static check of the ring buffers a kernel reserves (SPEC 4.3): overlapping or out-of-range reservations.
#pragma once

#include "core/params.h"
#include "frontend/ir/ir.h"

namespace cvsim::passes {

// Throws CompileError E-CAPACITY when two reserve_buffer regions of one function overlap, or a region does
// not fit the consumer buffer it lives in (UB for an AIV function's C2V ring, L1 for an AIC function's V2C
// ring). Regions with base=pl.AUTO are placed one after another behind the explicit ones.
void check_ring_buffers(const ir::Program& p, const HwParams& hw);

}  // namespace cvsim::passes
