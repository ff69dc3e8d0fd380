// Cube core pipes.
#include "models/cube_core.h"

namespace cvsim {

CubeCore::CubeCore(sc_core::sc_module_name name, RunControl& ctl)
    : CoreBase(name, {ir::Pipe::Scalar, ir::Pipe::Mte1, ir::Pipe::Mte2, ir::Pipe::Mte3, ir::Pipe::Cube, ir::Pipe::Fixp},
               ctl) {}

}  // namespace cvsim
