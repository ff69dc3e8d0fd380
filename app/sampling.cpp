// Sampled values of unbound control scalars: see sampling.h.
#include "app/sampling.h"

#include <fmt/format.h>

#include <algorithm>

#include "core/dtype.h"

namespace cvsim::cli {

const std::vector<SampleKind>& sample_kinds() {
    static const std::vector<SampleKind> k = {{1, false}, {2, false}, {0, false}, {0, true}, {1, true}};
    return k;
}

std::vector<Assignment> sample_assignments(const ir::Function& f, const std::vector<std::string>& names) {
    std::vector<Assignment> out;
    for (const SampleKind& kind : sample_kinds()) {
        Assignment a;
        int64_t k = 0;
        for (const auto& n : names) {
            const ir::Var* var = nullptr;
            for (const auto& p : f.params)
                if (p.var->name == n) var = p.var.get();
            if (var && var->type.kind == ir::TypeKind::Tensor) {
                a.emplace_back(n, kind.iota
                                      ? (kind.value == 0 ? std::string("iota") : fmt::format("iota+{}", kind.value))
                                      : std::to_string(kind.value));
                continue;
            }
            const int64_t v = kind.value + (kind.iota ? k++ : 0);
            a.emplace_back(n, var && dtype_is_float(var->type.dtype) ? fmt::format("{}.0", v) : std::to_string(v));
        }
        if (std::find(out.begin(), out.end(), a) == out.end()) out.push_back(std::move(a));
    }
    return out;
}

std::string assignment_text(const Assignment& a) {
    std::string s;
    for (const auto& [n, v] : a) s += (s.empty() ? "" : ", ") + n + "=" + v;
    return s;
}

}  // namespace cvsim::cli
