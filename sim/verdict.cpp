// Findings, output comparison.
#include "sim/verdict.h"
#include "frontend/codes.h"

#include <fmt/format.h>

#include <cmath>
#include <nlohmann/json.hpp>

namespace cvsim::sim {

std::string format_finding(const Finding& f) {
    std::string s = fmt::format("{}[{}]: {}\n", f.is_error() ? "error" : "warning", f.code, f.message);
    for (const auto& d : f.details) s += "    " + d + "\n";
    return s;
}

nlohmann::json finding_json(const Finding& f) {
    nlohmann::json j;
    j["code"] = f.code;
    j["message"] = f.message;
    if (!f.details.empty()) j["details"] = f.details;
    if (f.loc.valid()) j["location"] = f.loc.str();
    if (f.loc2.valid()) j["location2"] = f.loc2.str();
    j["cycle"] = f.cycle;
    return j;
}

namespace {

std::string index_str(const rt::TensorBuffer& t, int64_t flat) {
    std::vector<int64_t> idx(t.shape.size());
    for (size_t d = t.shape.size(); d-- > 0;) {
        idx[d] = flat % t.shape[d];
        flat /= t.shape[d];
    }
    std::string s = "[";
    for (size_t d = 0; d < idx.size(); ++d) s += (d ? ", " : "") + std::to_string(idx[d]);
    return s + "]";
}

}  // namespace

std::vector<Finding> compare_outputs(const rt::TensorStore& got, const rt::TensorStore& want, const CompareOptions& opt,
                                     const std::string& mismatch_code, const rt::TensorStore* tol) {
    std::vector<Finding> out;
    if (!tol) tol = &want;
    for (size_t i = 0; i < want.tensors.size() && i < got.tensors.size(); ++i) {
        const auto& w = want.tensors[i];
        const auto& g = got.tensors[i];
        if (!w.is_output()) continue;
        // Fast path: identical bytes and identical written elements (the common, clean case).
        if (w.bytes == g.bytes && (w.written.empty() || g.written.empty() || w.written == g.written)) continue;
        const size_t eb = dtype_bytes(w.dtype);
        int64_t n = w.numel();
        const std::vector<double>* atol =
            i < tol->tensors.size() && tol->tensors[i].atomic_tol.size() == static_cast<size_t>(n)
                ? &tol->tensors[i].atomic_tol
                : nullptr;
        int64_t mismatches = 0, unwritten = 0, first_mis = -1, first_unw = -1;
        double max_diff = 0;
        double first_got = 0, first_want = 0;
        const bool packed = is_sub_byte(w.dtype);  // 4-bit: element k is a nibble of byte k / 2
        for (int64_t k = 0; k < n; ++k) {
            const uint8_t* pw = w.bytes.data() + (packed ? 0 : k * eb);
            const uint8_t* pg = g.bytes.data() + (packed ? 0 : k * eb);
            // Unwritten: the reference stored this element but no store of the run did (poison remains).
            bool want_written = w.written.empty() ? !is_poison_element(w.dtype, w.bytes.data(), k)
                                                  : w.written[static_cast<size_t>(k)] != 0;
            bool got_written = g.written.empty() ? !is_poison_element(w.dtype, g.bytes.data(), k)
                                                 : g.written[static_cast<size_t>(k)] != 0;
            if (want_written && !got_written && mismatch_code == codes::kMismatch) {
                if (unwritten++ == 0) first_unw = k;
                continue;
            }
            if (packed ? element_bits(w.dtype, w.bytes.data(), k) == element_bits(w.dtype, g.bytes.data(), k)
                       : std::memcmp(pw, pg, eb) == 0)
                continue;
            double a = packed ? get_element(w.dtype, w.bytes.data(), k) : decode_element(w.dtype, pw);
            double b = packed ? get_element(w.dtype, g.bytes.data(), k) : decode_element(w.dtype, pg);
            double diff = std::fabs(a - b);
            bool both_nan = std::isnan(a) && std::isnan(b);
            if (both_nan) continue;
            if (atol && diff <= (*atol)[static_cast<size_t>(k)]) continue;  // atomic accumulation order
            if (opt.rtol > 0 || opt.atol > 0) {
                if (diff <= opt.atol + opt.rtol * std::fabs(a)) continue;
            }
            if (mismatches++ == 0) {
                first_mis = k;
                first_want = a;
                first_got = b;
            }
            if (!std::isnan(diff))
                max_diff = std::max(max_diff, diff);
            else
                max_diff = std::numeric_limits<double>::infinity();
        }
        if (unwritten > 0) {
            Finding f;
            f.code = codes::kUnwritten;
            f.message = fmt::format(
                "output {}: {} of {} elements were never written (first at {}), but the reference writes them", w.name,
                unwritten, n, index_str(w, first_unw));
            f.key = "E-UNWRITTEN:" + w.name;
            out.push_back(f);
        }
        if (mismatches > 0) {
            Finding f;
            f.code = mismatch_code;
            const char* against = mismatch_code == codes::kMismatch ? "the reference" : "the nominal schedule";
            f.message = fmt::format(
                "output {}: {} of {} elements differ from {} (first at {}: got {} want {}; max abs diff {})", w.name,
                mismatches, n, against, index_str(w, first_mis), first_got, first_want, max_diff);
            f.key = mismatch_code + ":" + w.name;
            out.push_back(f);
        }
    }
    return out;
}

}  // namespace cvsim::sim
