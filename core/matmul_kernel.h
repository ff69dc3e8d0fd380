// matmul's inner kernel (core/matmul_kernel.cpp), declared for the test that runs each of its paths.
#pragma once

#include <Eigen/Core>

namespace cvsim::detail {

// SUM[M x N] += LHS[M x K] * RHS[K x N], row-major, each element's products added in ascending k (s = s + a * b).
// WIDE: the AVX path when the CPU has it; else the SSE2 one (the results are the same bit for bit).
void matmul_accumulate(const double* lhs, const double* rhs, double* sum, Eigen::Index M, Eigen::Index K,
                       Eigen::Index N, bool wide);

}  // namespace cvsim::detail
