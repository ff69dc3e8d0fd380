// The cube core (AIC): scalar unit plus MTE1, MTE2, MTE3, CUBE and FIXP pipes; buffers L1/L0A/L0B/L0C/Bias.
#pragma once

#include "models/core_base.h"

namespace cvsim {

class CubeCore : public CoreBase {
  public:
    CubeCore(sc_core::sc_module_name name, RunControl& ctl);
};

}  // namespace cvsim
