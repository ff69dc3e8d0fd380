// A vector core (AIV): scalar unit plus MTE2, MTE3 and VECTOR pipes; buffer UB (Vec).
#pragma once

#include "models/core_base.h"

namespace cvsim {

class VectorCore : public CoreBase {
  public:
    VectorCore(sc_core::sc_module_name name, RunControl& ctl);
};

}  // namespace cvsim
