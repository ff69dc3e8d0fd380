// Findings, output comparison.
#include "sim/verdict.h"
#include "frontend/codes.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <nlohmann/json.hpp>
#include <optional>

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

// One output's elements, flat or as the pages of a generator both sides share (ByteStore::patched).
struct ElementSource {
    const rt::TensorBuffer& t;
    // Element k's bytes (a 4-bit element: its byte pair's base and k) and whether a store wrote it.
    const uint8_t* base = nullptr;  // flat bytes, or the current page's
    int64_t first = 0;              // the first element of `base`
    const std::vector<uint8_t>* page_written = nullptr;

    explicit ElementSource(const rt::TensorBuffer& x) : t(x) {}
    void flat() {
        base = t.bytes.data();
        first = 0;
        page_written = nullptr;
    }
    void page(size_t p) {
        base = t.bytes.page(p);
        first = static_cast<int64_t>(p) * t.bytes.page_elems();
        page_written = nullptr;
        if (const auto* patch = t.bytes.patch())
            if (auto it = patch->find(p); it != patch->end()) page_written = &it->second.written;
    }
    bool written(int64_t k) const {
        if (t.bytes.patched()) return page_written && (*page_written)[static_cast<size_t>(k - first)] != 0;
        // Unwritten: no store wrote it (poison remains), when the run kept no mask.
        return t.written.empty() ? !is_poison_element(t.dtype, base, k - first)
                                 : t.written[static_cast<size_t>(k)] != 0;
    }
};

// A patched output as a flat one with its full written mask (compared with a flat side).
rt::TensorBuffer flattened(const rt::TensorBuffer& t) {
    rt::TensorBuffer c = t;  // shares the pages
    c.written.assign(static_cast<size_t>(t.numel()), 0);
    const int64_t pe = t.bytes.page_elems();
    for (const auto& [p, pg] : *t.bytes.patch())
        std::copy(pg.written.begin(), pg.written.end(), c.written.begin() + static_cast<int64_t>(p) * pe);
    c.bytes.materialise();
    return c;
}

}  // namespace

std::vector<Finding> compare_outputs(const rt::TensorStore& got, const rt::TensorStore& want, const CompareOptions& opt,
                                     const std::string& mismatch_code, const rt::TensorStore* tol) {
    std::vector<Finding> out;
    if (!tol) tol = &want;
    for (size_t i = 0; i < want.tensors.size() && i < got.tensors.size(); ++i) {
        if (!want.tensors[i].is_output()) continue;
        const bool paged = want.tensors[i].bytes.patched() && got.tensors[i].bytes.patched() &&
                           rt::ByteStore::same_generator(want.tensors[i].bytes, got.tensors[i].bytes);
        std::optional<rt::TensorBuffer> wflat, gflat;
        if (!paged && want.tensors[i].bytes.patched()) wflat = flattened(want.tensors[i]);
        if (!paged && got.tensors[i].bytes.patched()) gflat = flattened(got.tensors[i]);
        const auto& w = wflat ? *wflat : want.tensors[i];
        const auto& g = gflat ? *gflat : got.tensors[i];
        // Fast path: identical bytes and identical written elements (the common, clean case).
        if (!paged && w.bytes == g.bytes && (w.written.empty() || g.written.empty() || w.written == g.written))
            continue;
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
        ElementSource ws(w), gs(g);
        auto visit = [&](int64_t k) {
            const int64_t kw = k - ws.first, kg = k - gs.first;
            const uint8_t* pw = ws.base + (packed ? 0 : kw * eb);
            const uint8_t* pg = gs.base + (packed ? 0 : kg * eb);
            // Unwritten: the reference stored this element but no store of the run did (poison remains).
            const bool want_written = ws.written(k);
            const bool got_written = gs.written(k);
            if (want_written && !got_written && mismatch_code == codes::kMismatch) {
                if (unwritten++ == 0) first_unw = k;
                return;
            }
            if (packed ? element_bits(w.dtype, ws.base, kw) == element_bits(w.dtype, gs.base, kg)
                       : std::memcmp(pw, pg, eb) == 0)
                return;
            double a = packed ? get_element(w.dtype, ws.base, kw) : decode_element(w.dtype, pw);
            double b = packed ? get_element(w.dtype, gs.base, kg) : decode_element(w.dtype, pg);
            double diff = std::fabs(a - b);
            bool both_nan = std::isnan(a) && std::isnan(b);
            if (both_nan) return;
            if (atol && diff <= (*atol)[static_cast<size_t>(k)]) return;  // atomic accumulation order
            if (opt.rtol > 0 || opt.atol > 0) {
                if (diff <= opt.atol + opt.rtol * std::fabs(a)) return;
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
        };
        if (paged) {
            // Pages neither side replaced hold the same generated bytes, written by neither: only the replaced
            // ones can hold a difference (docs/DECISIONS.md, "Sparse outputs").
            std::vector<size_t> pages;
            for (const auto& kv : *w.bytes.patch()) pages.push_back(kv.first);
            for (const auto& kv : *g.bytes.patch()) pages.push_back(kv.first);
            std::sort(pages.begin(), pages.end());
            pages.erase(std::unique(pages.begin(), pages.end()), pages.end());
            const int64_t pe = w.bytes.page_elems();
            for (size_t p : pages) {
                ws.page(p);
                gs.page(p);
                const int64_t k0 = static_cast<int64_t>(p) * pe, e = std::min(n, k0 + pe);
                // A page whose bytes and written masks are the same on both sides: visit() returns at once for
                // each of its elements (written alike, bytes equal), so the page is skipped whole.
                if (!packed && ws.first == k0 && gs.first == k0 &&
                    (ws.page_written == gs.page_written ||
                     (ws.page_written && gs.page_written && *ws.page_written == *gs.page_written)) &&
                    std::memcmp(ws.base, gs.base, static_cast<size_t>(e - k0) * eb) == 0)
                    continue;
                for (int64_t k = k0; k < e; ++k) visit(k);
            }
        } else {
            ws.flat();
            gs.flat();
            for (int64_t k = 0; k < n; ++k) visit(k);
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
