// Private to core/params*.cpp: the table every parameter is declared in (core/params_table.cpp).
#pragma once

#include <cstdint>
#include <vector>

#include "core/params.h"

namespace cvsim::detail {

inline constexpr int64_t kMaxExact = int64_t{1} << 53;  // largest integer a double holds exactly

const std::vector<ParamInfo>& param_table_rows();

}  // namespace cvsim::detail
