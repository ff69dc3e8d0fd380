// Sampled values of unbound control scalars: see sampling.h.
#include "app/sampling.h"

#include <fmt/format.h>

#include "core/dtype.h"

namespace cvsim::cli {

std::vector<Assignment> sample_assignments(const ir::Function& f, const std::vector<std::string>& names) {
    std::vector<Assignment> out;
    for (int v : {1, 2, 0}) {
        Assignment a;
        for (const auto& n : names) {
            bool is_float = false;
            for (const auto& p : f.params)
                if (p.var->name == n) is_float = dtype_is_float(p.var->type.dtype);
            a.emplace_back(n, is_float ? fmt::format("{}.0", v) : std::to_string(v));
        }
        out.push_back(std::move(a));
    }
    return out;
}

std::string assignment_text(const Assignment& a) {
    std::string s;
    for (const auto& [n, v] : a) s += (s.empty() ? "" : ", ") + n + "=" + v;
    return s;
}

}  // namespace cvsim::cli
