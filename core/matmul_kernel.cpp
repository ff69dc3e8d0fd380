// matmul's inner kernel: sum += lhs * rhs, register-blocked, bit-identical to the scalar i-k-j loop (declared in
// core/matmul_kernel.h; core/datapath.cpp's matmul calls it).
#include "core/matmul_kernel.h"

#include <vector>

#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#endif

namespace cvsim {

namespace {

// sum[M x N] += lhs[M x K] * rhs[K x N] (all row-major), each element's products added in ascending k as
// s = s + a * b (a product, then a sum, each rounded like the scalar loop's). Register-blocked: a panel of kNr
// columns of rhs is copied into a contiguous buffer, then each kMr x kNr block of sum is held in packet registers
// over all of K (the scalar i-k-j loop stored and reloaded each row of sum K times). Per element the operations
// and their order are exactly the scalar loop's, so the result is bit for bit the same (tests/core/
// matmul_vectorised_test.cpp compares with that loop).
// Columns J_BEGIN.. of sum only (the AVX path below leaves the last N % 8 to it).
void matmul_blocked(const double* lhs, const double* rhs, double* sum, Eigen::Index M, Eigen::Index K, Eigen::Index N,
                    Eigen::Index j_begin) {
    using Packet = Eigen::internal::packet_traits<double>::type;
    constexpr Eigen::Index kPs = Eigen::internal::packet_traits<double>::size;
    constexpr Eigen::Index kNp = 2;  // packets per row of a block
    constexpr Eigen::Index kNr = kNp * kPs, kMr = 4;
    using Eigen::internal::padd;
    using Eigen::internal::ploadu;
    using Eigen::internal::pmul;
    using Eigen::internal::pset1;
    using Eigen::internal::pstoreu;
    std::vector<double> panel(static_cast<size_t>(K * kNr));
    const Eigen::Index n_full = j_begin + (N - j_begin) / kNr * kNr;
    for (Eigen::Index j0 = j_begin; j0 < n_full; j0 += kNr) {
        for (Eigen::Index k = 0; k < K; ++k)
            for (Eigen::Index jj = 0; jj < kNr; ++jj) panel[k * kNr + jj] = rhs[k * N + j0 + jj];
        const double* bp = panel.data();
        Eigen::Index i0 = 0;
        for (; i0 + kMr <= M; i0 += kMr) {
            Packet acc[kMr][kNp];
            for (Eigen::Index ii = 0; ii < kMr; ++ii)
                for (Eigen::Index p = 0; p < kNp; ++p) acc[ii][p] = ploadu<Packet>(sum + (i0 + ii) * N + j0 + p * kPs);
            const double* a0 = lhs + i0 * K;
            for (Eigen::Index k = 0; k < K; ++k) {
                const Packet b0 = ploadu<Packet>(bp + k * kNr), b1 = ploadu<Packet>(bp + k * kNr + kPs);
                for (Eigen::Index ii = 0; ii < kMr; ++ii) {
                    const Packet a = pset1<Packet>(a0[ii * K + k]);
                    acc[ii][0] = padd(acc[ii][0], pmul(a, b0));
                    acc[ii][1] = padd(acc[ii][1], pmul(a, b1));
                }
            }
            for (Eigen::Index ii = 0; ii < kMr; ++ii)
                for (Eigen::Index p = 0; p < kNp; ++p) pstoreu(sum + (i0 + ii) * N + j0 + p * kPs, acc[ii][p]);
        }
        for (; i0 < M; ++i0) {
            Packet acc0 = ploadu<Packet>(sum + i0 * N + j0), acc1 = ploadu<Packet>(sum + i0 * N + j0 + kPs);
            const double* a0 = lhs + i0 * K;
            for (Eigen::Index k = 0; k < K; ++k) {
                const Packet a = pset1<Packet>(a0[k]);
                acc0 = padd(acc0, pmul(a, ploadu<Packet>(bp + k * kNr)));
                acc1 = padd(acc1, pmul(a, ploadu<Packet>(bp + k * kNr + kPs)));
            }
            pstoreu(sum + i0 * N + j0, acc0);
            pstoreu(sum + i0 * N + j0 + kPs, acc1);
        }
    }
    // The last N % kNr columns: the scalar loop itself.
    if (n_full < N)
        for (Eigen::Index i = 0; i < M; ++i)
            for (Eigen::Index j = n_full; j < N; ++j) {
                double s = sum[i * N + j];
                for (Eigen::Index k = 0; k < K; ++k) s = s + lhs[i * K + k] * rhs[k * N + j];
                sum[i * N + j] = s;
            }
}

#if defined(__GNUC__) && defined(__x86_64__)
// matmul_blocked with 4-wide AVX packets (vmulpd then vaddpd: the same two IEEE operations per element as the
// SSE2 and scalar paths, no fused multiply-add, which "avx" does not include), for the columns in whole panels
// of 8; the rest goes to matmul_blocked. Taken when the CPU has AVX (the build targets baseline x86-64).
__attribute__((target("avx"))) void matmul_avx(const double* lhs, const double* rhs, double* sum, Eigen::Index M,
                                               Eigen::Index K, Eigen::Index N) {
    constexpr Eigen::Index kNr = 8, kMr = 4;
    std::vector<double> panel(static_cast<size_t>(K * kNr));
    const Eigen::Index n_full = N / kNr * kNr;
    for (Eigen::Index j0 = 0; j0 < n_full; j0 += kNr) {
        for (Eigen::Index k = 0; k < K; ++k)
            for (Eigen::Index jj = 0; jj < kNr; ++jj) panel[k * kNr + jj] = rhs[k * N + j0 + jj];
        const double* bp = panel.data();
        Eigen::Index i0 = 0;
        for (; i0 + kMr <= M; i0 += kMr) {
            __m256d acc[kMr][2];
            for (Eigen::Index ii = 0; ii < kMr; ++ii)
                for (Eigen::Index p = 0; p < 2; ++p) acc[ii][p] = _mm256_loadu_pd(sum + (i0 + ii) * N + j0 + p * 4);
            const double* a0 = lhs + i0 * K;
            for (Eigen::Index k = 0; k < K; ++k) {
                const __m256d b0 = _mm256_loadu_pd(bp + k * kNr), b1 = _mm256_loadu_pd(bp + k * kNr + 4);
                for (Eigen::Index ii = 0; ii < kMr; ++ii) {
                    const __m256d a = _mm256_set1_pd(a0[ii * K + k]);
                    acc[ii][0] = _mm256_add_pd(acc[ii][0], _mm256_mul_pd(a, b0));
                    acc[ii][1] = _mm256_add_pd(acc[ii][1], _mm256_mul_pd(a, b1));
                }
            }
            for (Eigen::Index ii = 0; ii < kMr; ++ii)
                for (Eigen::Index p = 0; p < 2; ++p) _mm256_storeu_pd(sum + (i0 + ii) * N + j0 + p * 4, acc[ii][p]);
        }
        for (; i0 < M; ++i0) {
            __m256d acc0 = _mm256_loadu_pd(sum + i0 * N + j0), acc1 = _mm256_loadu_pd(sum + i0 * N + j0 + 4);
            const double* a0 = lhs + i0 * K;
            for (Eigen::Index k = 0; k < K; ++k) {
                const __m256d a = _mm256_set1_pd(a0[k]);
                acc0 = _mm256_add_pd(acc0, _mm256_mul_pd(a, _mm256_loadu_pd(bp + k * kNr)));
                acc1 = _mm256_add_pd(acc1, _mm256_mul_pd(a, _mm256_loadu_pd(bp + k * kNr + 4)));
            }
            _mm256_storeu_pd(sum + i0 * N + j0, acc0);
            _mm256_storeu_pd(sum + i0 * N + j0 + 4, acc1);
        }
    }
    matmul_blocked(lhs, rhs, sum, M, K, N, n_full);
}
#endif

}  // namespace

namespace detail {
void matmul_accumulate(const double* lhs, const double* rhs, double* sum, Eigen::Index M, Eigen::Index K,
                       Eigen::Index N, bool wide) {
#if defined(__GNUC__) && defined(__x86_64__)
    static const bool has_avx = __builtin_cpu_supports("avx");
    if (wide && has_avx) return matmul_avx(lhs, rhs, sum, M, K, N);
#endif
    (void)wide;
    matmul_blocked(lhs, rhs, sum, M, K, N, 0);
}
}  // namespace detail

}  // namespace cvsim
