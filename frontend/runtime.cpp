// Run-time data: GM tensors, windows, entry binding (inputs and .npy files: runtime_data.cpp; scalar evaluation:
// runtime_eval.cpp).
#include "frontend/runtime.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string_view>

#include "core/fast_round.h"
#include "frontend/codes.h"
#include "frontend/diag.h"

namespace cvsim::rt {

int64_t TensorBuffer::numel() const {
    int64_t n = 1;
    for (auto d : shape) n *= d;
    return n;
}

std::vector<int64_t> TensorBuffer::strides() const {
    std::vector<int64_t> s(shape.size(), 1);
    for (size_t i = shape.size(); i-- > 1;) s[i - 1] = s[i] * shape[i];
    return s;
}

int64_t Window::rows() const {
    int64_t r = 1;
    for (size_t i = 0; i + 1 < extents.size(); ++i) r *= extents[i];
    return r;
}

std::string window_str(const Window& w) {
    std::string s = "[";
    for (size_t i = 0; i < w.offsets.size(); ++i)
        s += fmt::format("{}{}:{}", i ? ", " : "", w.offsets[i], sat_add(w.offsets[i], w.extents[i]));
    return s + "]";
}

std::pair<int64_t, int64_t> clamped_region(const std::vector<int64_t>& valid, int64_t rows, int64_t cols) {
    return {std::clamp<int64_t>(valid_rows(valid), 0, rows),
            std::clamp<int64_t>(valid.empty() ? cols : valid.back(), 0, cols)};
}

int64_t valid_rows(const std::vector<int64_t>& valid) {
    int64_t r = 1;
    for (size_t d = 0; d + 1 < valid.size(); ++d) {
        if (valid[d] <= 0) return 0;
        if (__builtin_mul_overflow(r, valid[d], &r)) return INT64_MAX;
    }
    return r;
}

int64_t window_row_start(const TensorBuffer& t, const Window& w, int64_t r) {
    // Decompose r over the leading extents (row-major), then add the window offsets.
    // The tensor's row-major strides are accumulated on the way (no allocation: this runs per GM row).
    const size_t n = w.extents.size();
    int64_t idx = w.offsets[n - 1], stride = 1, tstride = t.shape[n - 1];
    for (size_t d = n - 1; d-- > 0;) {
        int64_t coord = (r / stride) % w.extents[d];
        stride *= w.extents[d];
        idx += (w.offsets[d] + coord) * tstride;
        tstride *= t.shape[d];
    }
    return idx;
}

namespace {

// The linear range [lo, lo + len) of a row-major group of dimensions `s` as a box (offsets/extents appended
// outermost first), or false when it is not one.
bool range_as_box(int64_t lo, int64_t len, const std::vector<int64_t>& s, std::vector<int64_t>& off,
                  std::vector<int64_t>& ext) {
    std::vector<int64_t> o(s.size()), e(s.size());
    size_t d = s.size();
    while (d-- > 0) {
        const int64_t n = s[d];
        if (lo % n + len <= n) {  // fits in this dimension: the outer ones take one index each
            o[d] = lo % n;
            e[d] = len;
            lo /= n;
            for (size_t k = d; k-- > 0;) o[k] = lo % s[k], e[k] = 1, lo /= s[k];
            off.insert(off.end(), o.begin(), o.end());
            ext.insert(ext.end(), e.begin(), e.end());
            return true;
        }
        if (lo % n != 0 || len % n != 0) return false;
        o[d] = 0, e[d] = n, lo /= n, len /= n;
    }
    return len <= 1 && lo == 0 &&
           (off.insert(off.end(), o.begin(), o.end()), ext.insert(ext.end(), e.begin(), e.end()), true);
}

}  // namespace

int64_t indexed_capacity(const std::vector<int64_t>& shape, bool row) {
    int64_t n = 1;
    for (size_t d = 0; d + (row ? 1 : 0) < shape.size(); ++d)
        n = shape[d] > 0 && n > INT64_MAX / shape[d] ? INT64_MAX : n * shape[d];
    return n;
}

bool box_contiguous(const std::vector<int64_t>& shape, const std::vector<int64_t>& base) {
    if (shape.size() != base.size()) return false;
    size_t d = shape.size();
    while (d > 0 && shape[d - 1] == base[d - 1]) --d;  // whole trailing dimensions
    if (d == 0) return true;
    for (size_t k = 0; k + 1 < d; ++k)  // before the one partial dimension: extent 1 only
        if (shape[k] != 1) return false;
    return true;
}

std::optional<Window> indexed_window(uint32_t tensor, const std::vector<int64_t>& off,
                                     const std::vector<int64_t>& shape, const std::vector<int64_t>& reshape,
                                     const std::vector<int64_t>& tensor_shape, int64_t k, bool row) {
    if (shape.empty() || off.size() != shape.size()) return std::nullopt;
    Window w;
    w.tensor = tensor;
    w.offsets.assign(shape.size(), 0);
    w.extents.assign(shape.size(), 1);
    // Unravel k over the view's dimensions (row mode: all but the last, which the row spans whole).
    size_t last = shape.size() - (row ? 1 : 0);
    for (size_t d = last; d-- > 0;) {
        if (shape[d] <= 0) return std::nullopt;
        w.offsets[d] = k % shape[d];
        k /= shape[d];
    }
    if (row) w.extents.back() = shape.back();
    for (size_t d = 0; d < shape.size(); ++d) w.offsets[d] = sat_add(w.offsets[d], off[d]);
    if (!reshape.empty()) return reshape_window(reshape, w, tensor_shape);
    return w;
}

std::optional<Window> view_range_window(uint32_t tensor, const std::vector<int64_t>& off,
                                        const std::vector<int64_t>& shape, const std::vector<int64_t>& reshape,
                                        const std::vector<int64_t>& tensor_shape, int64_t lo, int64_t len) {
    if (shape.empty() || off.size() != shape.size() || lo < 0 || len <= 0) return std::nullopt;
    Window w;
    w.tensor = tensor;
    if (!range_as_box(lo, len, shape, w.offsets, w.extents)) return std::nullopt;
    for (size_t d = 0; d < shape.size(); ++d) w.offsets[d] = sat_add(w.offsets[d], off[d]);
    if (!reshape.empty()) return reshape_window(reshape, w, tensor_shape);
    return w;
}

IndexPick pick_index(double raw, int64_t capacity, int oob_mode) {
    IndexPick p;
    // The kernels read the INT32 element and index with it unsigned: a negative index is a huge one.
    const auto u = static_cast<uint32_t>(
        static_cast<int32_t>(std::isnan(raw) ? 0.0 : std::clamp(raw, -2147483648.0, 2147483647.0)));
    const auto cap = static_cast<uint64_t>(std::max<int64_t>(capacity, 1));
    uint64_t i = u;
    if (i >= cap) {
        switch (oob_mode) {
            case 1:
                i = cap - 1;
                break;
            case 2:
                i %= cap;
                break;
            case 3:
                p.zero = true;
                break;
            default:
                p.oob = true;
                break;
        }
    }
    p.index = static_cast<int64_t>(i);
    return p;
}

std::optional<Window> reshape_window(const std::vector<int64_t>& from, const Window& w,
                                     const std::vector<int64_t>& to) {
    if (w.offsets.size() != from.size() || w.extents.size() != from.size()) return std::nullopt;
    Window r;
    r.tensor = w.tensor;
    size_t i = 0, j = 0;
    while (i < from.size() || j < to.size()) {
        // The next group: dimensions of `from` and of `to` with the same product.
        const size_t i0 = i, j0 = j;
        int64_t pf = 1, pt = 1;
        if (i < from.size()) pf *= from[i++];
        if (j < to.size()) pt *= to[j++];
        while (pf != pt) {
            if (pf < pt) {
                if (i >= from.size()) return std::nullopt;
                pf *= from[i++];
            } else {
                if (j >= to.size()) return std::nullopt;
                pt *= to[j++];
            }
        }
        // The window's part in the group must be one linear range: dimensions inside the outermost one
        // with an extent above 1 are whole.
        int64_t lo = 0, len = 1;
        bool inner_full = true;
        for (size_t k = i; k-- > i0;) {
            if (!inner_full && w.extents[k] != 1) return std::nullopt;
            len = inner_full ? len * w.extents[k] : len;
            if (w.extents[k] != from[k]) inner_full = false;
        }
        int64_t stride = 1;
        for (size_t k = i; k-- > i0;) lo += w.offsets[k] * stride, stride *= from[k];
        std::vector<int64_t> sizes(to.begin() + static_cast<std::ptrdiff_t>(j0),
                                   to.begin() + static_cast<std::ptrdiff_t>(j));
        if (!range_as_box(lo, len, sizes, r.offsets, r.extents)) return std::nullopt;
    }
    if (r.cols() != w.cols() || r.rows() != w.rows()) return std::nullopt;
    return r;
}

std::optional<Window> partition_window(uint32_t tensor, const std::vector<int64_t>& shape,
                                       const std::vector<int64_t>& off, const std::vector<int64_t>& ext) {
    const size_t n = shape.size();
    if (n < 2 || off.size() != n || ext.size() != n) return std::nullopt;
    for (size_t d = 0; d < n; ++d)
        if (off[d] < 0 || ext[d] <= 0 || shape[d] <= 0) return std::nullopt;
    if (!range_inside(off[n - 1], ext[n - 1], shape[n - 1]))
        return std::nullopt;  // a row would spill into the next one
    // The tensor's rows (all dimensions but the last, row-major): partition row i starts at tensor row
    // sum((off_d + i_d) * w_d), w_d the product of the tensor's extents between d and the last dimension.
    std::vector<int64_t> lead(shape.begin(), shape.end() - 1);
    int64_t total = 1, r0 = 0, w = 1, expect = 1;
    for (int64_t s : lead) {
        if (total > INT64_MAX / s) return std::nullopt;
        total *= s;
    }
    for (size_t d = n - 1; d-- > 0;) {
        if (off[d] > INT64_MAX / w) return std::nullopt;
        r0 = sat_add(r0, off[d] * w);
        // The rows are consecutive when each dimension with more than one index steps by the rows inside it.
        if (ext[d] > 1 && w != expect) return std::nullopt;
        if (expect > INT64_MAX / ext[d]) return std::nullopt;
        expect *= ext[d];
        w *= shape[d];
    }
    if (!range_inside(r0, expect, total)) return std::nullopt;
    Window r;
    r.tensor = tensor;
    if (!range_as_box(r0, expect, lead, r.offsets, r.extents)) return std::nullopt;
    r.offsets.push_back(off[n - 1]);
    r.extents.push_back(ext[n - 1]);
    return r;
}

std::optional<std::string> check_window(const TensorBuffer& t, const Window& w) {
    if (w.offsets.size() != t.shape.size() || w.extents.size() != t.shape.size())
        return fmt::format("window of rank {} on tensor {} of rank {}", w.offsets.size(), t.name, t.shape.size());
    for (size_t d = 0; d < t.shape.size(); ++d)
        if (!window_inside(w.offsets[d], w.extents[d], t.shape[d]))
            return fmt::format("window {} is outside tensor {} of shape {} (dimension {})", window_str(w), t.name,
                               ir::shape_str(t.shape), d);
    // A 4-bit tensor packs two elements per byte: a window row must start and end on a byte (DMA moves bytes).
    if (is_sub_byte(t.dtype) && !t.shape.empty() &&
        (t.shape.back() % 2 || w.offsets.back() % 2 || w.extents.back() % 2))
        return fmt::format(
            "window {} of {} tensor {} of shape {} splits a byte: a 4-bit tensor's last dimension, window column "
            "offset and column extent must be even (two elements per byte)",
            window_str(w), dtype_name(t.dtype), t.name, ir::shape_str(t.shape));
    return std::nullopt;
}

std::optional<uint32_t> TensorStore::find(const std::string& name) const {
    for (uint32_t i = 0; i < tensors.size(); ++i)
        if (tensors[i].name == name) return i;
    return std::nullopt;
}

int64_t tensor_bytes(const std::vector<int64_t>& shape, DType dtype) {
    int64_t n = is_sub_byte(dtype) ? 1 : static_cast<int64_t>(dtype_bytes(dtype));
    for (auto d : shape)
        if (d < 0 || __builtin_mul_overflow(n, d, &n)) return -1;
    return is_sub_byte(dtype) ? (n + 1) / 2 : n;
}

void charge_gm(int64_t& used, int64_t bytes, const std::string& what, const SourceLoc& loc) {
    if (bytes >= 0 && bytes <= kMaxGmBytes - used) {
        used += bytes;
        return;
    }
    raise(
        codes::kCapacity, loc,
        fmt::format("GM for {}: {} bytes; cvsim simulates at most {} MiB of GM per run (all tensors together; {} bytes "
                    "before this one)",
                    what, bytes < 0 ? std::string("more than 2^63") : std::to_string(bytes), kMaxGmBytes >> 20, used),
        "simulate a smaller problem size: the hazards of a kernel do not depend on its tensor sizes beyond a few "
        "tiles");
}

const AliasGroup* alias_group(const LaunchPlan& plan, const std::string& name, const ParamView** view) {
    for (const auto& g : plan.aliases)
        for (const auto& m : g.members)
            if (m.param == name) {
                if (view) *view = &m;
                return &g;
            }
    return nullptr;
}

namespace {
// A tensor's zeroed bytes, before fill_inputs / poison_outputs: a large one lazily (its inputs usually replace
// them: zero-filling a 400 MB weight first was 15 % of a whole-model check).
ByteStore zeroed(DType dtype, int64_t numel) {
    if (storage_bytes(dtype, numel) >= lazy_input_bytes()) return ByteStore::lazy_zero(dtype, numel);
    return ByteStore(std::vector<uint8_t>(storage_bytes(dtype, numel), 0));
}
}  // namespace

void bind_entry(LaunchPlan& plan, TensorStore& store, const std::map<std::string, Scalar>& scalars) {
    plan.entry_args.clear();
    // What the run will hold, checked before any allocation.
    int64_t used = 0;
    for (const auto& t : store.tensors) used += static_cast<int64_t>(t.bytes.size());
    for (const auto& p : plan.entry->params)
        if (p.var->type.kind == ir::TypeKind::Tensor && !alias_group(plan, p.var->name) && !store.find(p.var->name))
            charge_gm(used, tensor_bytes(p.var->type.shape, p.var->type.dtype),
                      fmt::format("tensor '{}' of shape {}", p.var->name, ir::shape_str(p.var->type.shape)),
                      p.var->loc);
    for (const auto& g : plan.aliases)
        if (!store.find(g.name))
            charge_gm(used, tensor_bytes(g.shape, g.dtype),
                      fmt::format("tensor '{}' of shape {}", g.name, ir::shape_str(g.shape)), plan.entry->loc);
    // One tensor per alias group, its parameters views of it.
    std::vector<uint32_t> group_ids;
    for (const auto& g : plan.aliases) {
        if (auto existing = store.find(g.name)) {
            group_ids.push_back(*existing);
            continue;
        }
        TensorBuffer buf;
        buf.name = g.name;
        buf.dtype = g.dtype;
        buf.shape = g.shape;
        buf.dir = g.dir;
        buf.bytes = zeroed(g.dtype, buf.numel());
        group_ids.push_back(store.add(std::move(buf)));
    }
    for (const auto& c : plan.created)
        charge_gm(used, tensor_bytes(c.shape, c.dtype),
                  fmt::format("created tensor '{}' of shape {}", c.name, ir::shape_str(c.shape)), plan.entry->loc);
    for (const auto& p : plan.entry->params) {
        ArgBinding b;
        const ir::Type& t = p.var->type;
        const ParamView* view = nullptr;
        if (const AliasGroup* g = t.kind == ir::TypeKind::Tensor ? alias_group(plan, p.var->name, &view) : nullptr) {
            b.kind = ArgBinding::Kind::Tensor;
            b.tensor = group_ids[static_cast<size_t>(g - plan.aliases.data())];
            b.view_off = view->off;
            b.view_shape = view->shape;
            b.view_reshape = view->reshape;
        } else if (t.kind == ir::TypeKind::Tensor) {
            b.kind = ArgBinding::Kind::Tensor;
            if (auto existing = store.find(p.var->name)) {
                b.tensor = *existing;
            } else {
                TensorBuffer buf;
                buf.name = p.var->name;
                buf.dtype = t.dtype;
                buf.shape = t.shape;
                buf.dir = p.dir;
                // A parameter named __x is added by cvsim itself (the soft-syncall workspace): zeroed, internal.
                buf.hidden = p.var->name.rfind("__", 0) == 0;
                buf.bytes = zeroed(t.dtype, buf.numel());
                b.tensor = store.add(std::move(buf));
            }
        } else if (t.kind == ir::TypeKind::Scalar) {
            b.kind = ArgBinding::Kind::Scalar;
            auto it = scalars.find(p.var->name);
            b.scalar = it != scalars.end() ? it->second : Scalar::of_int(0, t.dtype);
            b.scalar.dtype = t.dtype;
            if (dtype_is_float(t.dtype) && it != scalars.end() && !it->second.is_float())
                b.scalar.f = static_cast<double>(it->second.i);
        } else {
            raise(codes::kUnsupported, p.var->loc,
                  fmt::format("entry parameter '{}' of type {} cannot be bound", p.var->name, ir::type_str(t)));
        }
        plan.entry_args.push_back(b);
    }
    // A view whose offset is a scalar parameter's value (a computed slice offset the launch passes too): add it
    // now that the scalars are bound, and check the box lies in the shared tensor.
    for (size_t i = 0; i < plan.entry->params.size(); ++i) {
        const ParamView* view = nullptr;
        const auto& p = plan.entry->params[i];
        const AliasGroup* g =
            p.var->type.kind == ir::TypeKind::Tensor ? alias_group(plan, p.var->name, &view) : nullptr;
        if (!g || !view || view->off_param.empty()) continue;
        ArgBinding& b = plan.entry_args[i];
        for (size_t k = 0; k < view->off_param.size() && k < b.view_off.size(); ++k) {
            if (view->off_param[k].empty()) continue;
            for (size_t q = 0; q < plan.entry->params.size(); ++q)
                if (plan.entry->params[q].var->name == view->off_param[k])
                    b.view_off[k] += plan.entry_args[q].scalar.as_int();
        }
        const auto& base = view->reshape.empty() ? g->shape : view->reshape;
        for (size_t k = 0; k < b.view_off.size() && k < b.view_shape.size() && k < base.size(); ++k)
            if (b.view_off[k] < 0 || b.view_off[k] > base[k] - b.view_shape[k])
                raise(codes::kUnsupported, p.var->loc,
                      fmt::format("'{}' is a slice at offset {} (from the scalar arguments '{}') of shape {} of a "
                                  "tensor of shape {}: outside it",
                                  p.var->name, ir::shape_str(b.view_off), fmt::join(view->off_param, "', '"),
                                  ir::shape_str(b.view_shape), ir::shape_str(base)));
    }
    plan.created_ids.clear();
    for (const auto& c : plan.created) {
        TensorBuffer buf;
        buf.name = c.name;
        buf.dtype = c.dtype;
        buf.shape = c.shape;
        buf.dir = ir::ParamDir::InOut;
        buf.hidden = true;
        buf.bytes = zeroed(c.dtype, buf.numel());
        plan.created_ids.push_back(store.add(std::move(buf)));
    }
    for (auto* lane : {&plan.aic, &plan.aiv, &plan.mixed_prog}) {
        if (!*lane) continue;
        auto& lp = **lane;
        lp.args.resize(lp.entry_param.size());
        for (size_t i = 0; i < lp.entry_param.size(); ++i) {
            int src = lp.entry_param[i];
            if (src >= 0 && static_cast<size_t>(src) < plan.entry_args.size()) {
                lp.args[i] = plan.entry_args[static_cast<size_t>(src)];
            } else if (src <= kCreatedArg && static_cast<size_t>(kCreatedArg - src) < plan.created_ids.size()) {
                lp.args[i].kind = ArgBinding::Kind::Tensor;
                lp.args[i].tensor = plan.created_ids[static_cast<size_t>(kCreatedArg - src)];
            }
        }
    }
}

std::optional<std::string> valid_shape_error(const std::vector<int64_t>& valid, const std::vector<int64_t>& shape) {
    if (valid.size() != shape.size()) {
        // A 2-D region of an N-D window's tile: compare the merged forms ([rows, last]).
        if (valid.empty() || shape.empty()) return std::nullopt;  // rank rules are the type checker's
        const int64_t sr = valid_rows(shape), vr = valid_rows(valid);
        for (int64_t v : valid)
            if (v < 0) return fmt::format("pl.tile.load: valid_shape {} is negative", ir::shape_str(valid));
        if (vr > sr || valid.back() > shape.back())
            return fmt::format("pl.tile.load: valid_shape {} is outside the loaded shape {} (its tile is [{}, {}])",
                               ir::shape_str(valid), ir::shape_str(shape), sr, shape.back());
        return std::nullopt;
    }
    for (size_t d = 0; d < valid.size(); ++d)
        if (valid[d] < 0 || valid[d] > shape[d])
            return fmt::format("pl.tile.load: valid_shape {} is outside the loaded shape {} (dimension {})",
                               ir::shape_str(valid), ir::shape_str(shape), d);
    return std::nullopt;
}

}  // namespace cvsim::rt
