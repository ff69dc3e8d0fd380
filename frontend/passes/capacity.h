// Static buffer capacity check (SPEC 4.2): the tiles live at one point must fit their buffer.
#pragma once

#include "core/params.h"
#include "frontend/ir/ir.h"

namespace cvsim::passes {

// Throws CompileError E-CAPACITY at the first statement where the live tiles of one memory space exceed its
// capacity, naming the buffer, the bytes needed, the limit and the live tiles.
void check_capacity(const ir::Program& p, const HwParams& hw);

}  // namespace cvsim::passes
