// Which scalar parameters of an entry decide what runs: the ones `check` must not leave at a made-up value.
#pragma once

#include <string>
#include <vector>

#include "frontend/ir/ir.h"

namespace cvsim {

// The parameters of F, in parameter order, whose value can change which statements run or which GM or tile
// windows they touch: a scalar parameter, or a tensor parameter's data, that reaches (directly, or through
// scalar arithmetic, loop carries, branch results, tiles and GM tensors it is written into and read back
// from) a loop bound, a branch condition, an op argument that is neither a numeric operand (`value`
// parameters, e.g. the scalar of pl.tile.adds) nor a tile/tensor operand (an offset, shape, index, valid
// region), or an argument of a call to a function of P (self.f(...)) whose own parameter counts. An
// Orchestration function's scalar parameters all count (its host walk turns them into launches). Tensor
// parameters so named are control data (positions, lengths, block tables, offsets). The analysis
// over-approximates: a parameter it names may not matter, one it leaves out cannot.
std::vector<std::string> control_scalar_params(const ir::Program& p, const ir::Function& f);

}  // namespace cvsim
