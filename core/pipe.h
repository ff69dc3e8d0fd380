// The hardware pipes that execute instructions (SPEC 4.1), shared by the op table (frontend/ops.h) and the core
// models. Kept in namespace ir, where the op table has always named it.
#pragma once

#include <cstdint>
#include <string_view>

namespace cvsim::ir {

// Hardware pipe that executes an instruction (SPEC 4.1).
enum class Pipe : uint8_t { Scalar, Mte1, Mte2, Mte3, Cube, Fixp, Vector };
constexpr int kNumPipes = 7;
std::string_view pipe_name(Pipe p);  // "SCALAR", "MTE2", ...

}  // namespace cvsim::ir
