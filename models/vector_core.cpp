// Vector core pipes.
#include "models/vector_core.h"

namespace cvsim {

VectorCore::VectorCore(sc_core::sc_module_name name, RunControl& ctl)
    : CoreBase(name, {ir::Pipe::Scalar, ir::Pipe::Mte2, ir::Pipe::Mte3, ir::Pipe::Vector}, ctl) {}

}  // namespace cvsim
