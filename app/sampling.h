// Values `check` gives the scalars that decide what a kernel runs when nobody gave them (docs/DECISIONS.md,
// "Unbound control scalars are sampled").
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "frontend/ir/ir.h"

namespace cvsim::cli {

// One assignment: (parameter name, value as --input takes it) per sampled parameter.
using Assignment = std::vector<std::pair<std::string, std::string>>;

// The values each of NAMES (control scalar parameters of F nobody bound) is checked at, in the order they are
// tried: every one at 1, then every one at 2, then every one at 0 (SPEC's default). 1 runs each loop and
// enables each `x > 0` branch once; 2 runs loop-carried pairs (iteration i against i + 1); 0 is what `run`
// uses. Floats take 1.0, 2.0, 0.0.
std::vector<Assignment> sample_assignments(const ir::Function& f, const std::vector<std::string>& names);

// "n=1, flag=1"
std::string assignment_text(const Assignment& a);

}  // namespace cvsim::cli
