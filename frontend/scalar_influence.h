// Which scalar parameters of a kernel cannot influence anything a launch of it does (docs/DECISIONS.md, "Scalars
// that cannot matter"): check may then launch it with any value of them instead of leaving it unchecked.
#pragma once

#include <cstddef>

#include "frontend/ir/ir.h"

namespace cvsim {

// True when no value derived from parameter INDEX of F (a scalar) reaches anything with an effect, so every value
// of it gives the same run: the parameter and what is computed from it (assignments of plain scalar arithmetic:
// +, -, *, &, |, ^, pl.min/pl.max, unary -/not/~/abs, scalar pl.cast, comparisons, boolean operators, tuple
// elements; loop init values, carried values, yields and loop results to a fixed point, as with a 0-trip loop
// whose init value is its result; branch results) is read nowhere else: not by an op (a numeric operand
// included), an offset, a shape, a loop bound or step, a branch condition, a division, modulo, power or shift, a
// returned value, a call's attrs, nor by an argument of a call of a function of P unless the callee's own
// parameter cannot matter either (the same analysis, through Spmd and Group wrappers and their AIC/AIV functions).
// False for a parameter that is not a scalar, for a function cvsim could not read, for an Orchestration or Opaque
// function, and for a recursive call: the answer errs towards "it may matter".
bool scalar_param_cannot_matter(const ir::Program& p, const ir::Function& f, size_t index);

}  // namespace cvsim
