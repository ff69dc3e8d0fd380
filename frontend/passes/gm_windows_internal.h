// The affine helpers gm_windows*.cpp share (WindowAnalysis is declared in gm_windows.h); private to them.
#pragma once

#include <cstdint>

#include "frontend/passes/gm_windows.h"

namespace cvsim::passes::gm_windows_detail {

inline constexpr int kMaxDepth = 24;

inline Affine unknown() {
    Affine a;
    a.ok = false;
    return a;
}

inline Affine add(const Affine& x, const Affine& y, int64_t sy) {
    if (!x.ok || !y.ok) return unknown();
    Affine r = x;
    r.c += sy * y.c;
    for (auto [v, k] : y.terms) {
        int64_t& t = r.terms[v];
        t += sy * k;
        if (t == 0) r.terms.erase(v);
    }
    return r;
}

inline Affine scale(const Affine& x, int64_t k) {
    if (!x.ok) return x;
    Affine r;
    if (k == 0) return r;
    r.c = x.c * k;
    for (auto [v, c] : x.terms) r.terms[v] = c * k;
    return r;
}

inline bool same(const Affine& a, const Affine& b) {
    return a.ok && b.ok && a.c == b.c && a.terms == b.terms;
}

inline int64_t floor_div(int64_t a, int64_t b) {
    int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
    return q;
}
inline int64_t ceil_div(int64_t a, int64_t b) {
    return -floor_div(-a, b);
}

}  // namespace cvsim::passes::gm_windows_detail
