// Pipe names (core/pipe.h).
#include "core/pipe.h"

namespace cvsim::ir {

std::string_view pipe_name(Pipe p) {
    static constexpr std::string_view names[] = {"SCALAR", "MTE1", "MTE2", "MTE3", "CUBE", "FIXP", "VECTOR"};
    return names[static_cast<int>(p)];
}

}  // namespace cvsim::ir
