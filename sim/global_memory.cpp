// GM image, placement, L2 tags, visibility.
#include "sim/global_memory.h"

#include <sys/mman.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <new>

namespace cvsim {

namespace {

// The element offsets of a window's rows in its tensor, row after row: rt::window_row_start's result for
// r = 0, 1, ... without decomposing each row index again (an odometer over the leading extents).
class RowWalk {
  public:
    RowWalk(const rt::TensorBuffer& t, const rt::Window& w) : m_t(t), m_w(w) {
        const size_t n = w.extents.size();
        m_general = n > kMaxRank + 1;
        if (m_general || n < 2) {
            m_idx = rt::window_row_start(t, w, 0);
            return;
        }
        m_lead = n - 1;
        int64_t ts = t.shape[n - 1];
        m_idx = w.offsets[n - 1];
        for (size_t d = n - 1; d-- > 0;) {
            m_stride[d] = ts;
            m_coord[d] = 0;
            m_idx += w.offsets[d] * ts;
            ts *= t.shape[d];
        }
    }
    int64_t start() const { return m_idx; }
    void next() {
        ++m_row;
        if (m_general) {
            m_idx = rt::window_row_start(m_t, m_w, m_row);
            return;
        }
        if (m_lead == 0) return;
        size_t d = m_lead - 1;
        ++m_coord[d];
        m_idx += m_stride[d];
        while (d > 0 && m_coord[d] == m_w.extents[d]) {
            m_idx -= m_coord[d] * m_stride[d];
            m_coord[d] = 0;
            --d;
            ++m_coord[d];
            m_idx += m_stride[d];
        }
    }

  private:
    static constexpr size_t kMaxRank = 8;
    const rt::TensorBuffer& m_t;
    const rt::Window& m_w;
    bool m_general = false;  // rank beyond kMaxRank + 1: rt::window_row_start per row
    size_t m_lead = 0;       // leading (row) dimensions
    int64_t m_row = 0;
    int64_t m_idx = 0;  // element offset of the current row's first element
    std::array<int64_t, kMaxRank> m_coord{};
    std::array<int64_t, kMaxRank> m_stride{};  // tensor stride of each leading dimension
};

// storage_bytes(dtype, n) with the dtype's facts looked up once (it runs per row of every access).
struct ElemBytes {
    bool sub;
    size_t eb;
    explicit ElemBytes(DType t) : sub(is_sub_byte(t)), eb(dtype_bytes(t)) {}
    size_t operator()(int64_t n) const {
        if (n <= 0) return 0;
        return sub ? static_cast<size_t>((n + 1) / 2) : static_cast<size_t>(n) * eb;
    }
};

}  // namespace

ZeroBytes::~ZeroBytes() {
    if (m_p) munmap(m_p, m_n);
}

void ZeroBytes::reset(size_t n) {
    if (m_p && n == m_n) {
        // Drop the pages: they read as zero again, and only the ones touched cost anything.
        if (madvise(m_p, m_n, MADV_DONTNEED) == 0) return;
        std::memset(m_p, 0, m_n);
        return;
    }
    if (m_p) munmap(m_p, m_n);
    m_p = nullptr;
    m_n = 0;
    if (n == 0) return;
    void* p = mmap(nullptr, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    m_p = static_cast<uint8_t*>(p);
    m_n = n;
}

GlobalMemory::GlobalMemory() : m_l2(192ull << 20, 512, 16) {}

void GlobalMemory::ensure_pages(uint32_t tensor, uint64_t offset, uint64_t n) {
    LazyTensor& lt = m_lazy[tensor];
    constexpr uint64_t kPage = rt::ByteStore::kPageBytes;
    for (uint64_t p = offset / kPage, last = (offset + n - 1) / kPage; p <= last && p < lt.ready.size(); ++p) {
        if (lt.ready[p]) continue;
        lt.gen.fill_page(p, m_bytes.data() + m_base[tensor] + p * kPage);
        m_generated += lt.gen.page_bytes(p);
        lt.ready[p] = 1;
    }
}

void GlobalMemory::load(const rt::TensorStore& store, const HwParams& hw, uint64_t image_id) {
    uint64_t align = std::max<uint64_t>(hw.gm.tensor_alignment, 1);
    uint64_t guard = hw.gm.guard_gap;
    std::vector<uint64_t> base, size;
    uint64_t addr = align;  // keep address 0 unused: a zero base is never a valid tensor
    for (const auto& t : store.tensors) {
        addr = (addr + align - 1) / align * align;
        base.push_back(addr);
        size.push_back(t.bytes.size());
        addr += t.bytes.size() + guard;
    }
    // A lazy tensor (a seeded input or a poisoned output) stays lazy: GM generates the pages it touches.
    auto lazy_in = [](const rt::TensorBuffer& t) { return t.bytes.lazy(); };
    if (image_id != 0 && image_id == m_image_id && base == m_base && size == m_size && addr == m_bytes.size()) {
        // The same image again: undo the last schedule's writes only (a lazy tensor's pages they wrote are
        // generated again when next touched).
        for (auto [a, n] : m_dirty) {
            const size_t i =
                static_cast<size_t>(std::upper_bound(m_base.begin(), m_base.end(), a) - m_base.begin()) - 1;
            if (!m_lazy[i].ready.empty()) {
                constexpr uint64_t kPage = rt::ByteStore::kPageBytes;
                for (uint64_t p = (a - m_base[i]) / kPage;
                     p <= (a - m_base[i] + n - 1) / kPage && p < m_lazy[i].ready.size(); ++p)
                    m_lazy[i].ready[p] = 0;
            } else {
                std::memcpy(m_bytes.data() + a, m_image.data() + a, n);
            }
            std::memset(m_written.data() + a, 0, n);
            std::memset(m_landed.data() + a, 0, n);
        }
    } else {
        m_base = std::move(base);
        m_size = std::move(size);
        m_dtype.clear();
        m_zero_init.clear();
        m_lazy.assign(store.tensors.size(), LazyTensor{});
        for (size_t i = 0; i < store.tensors.size(); ++i) {
            const auto& t = store.tensors[i];
            m_dtype.push_back(t.dtype);
            m_zero_init.push_back(!t.hidden && t.dir == ir::ParamDir::Out);
            if (lazy_in(t)) {
                LazyTensor& lt = m_lazy[i];
                lt.gen = t.bytes;
                lt.ready.assign((m_size[i] + rt::ByteStore::kPageBytes - 1) / rt::ByteStore::kPageBytes, 0);
            }
        }
        m_bytes.reset(addr);
        m_written.reset(addr);
        m_landed.reset(addr);
        m_image_id = image_id;
        m_image.reset(image_id != 0 ? addr : 0);
        for (size_t i = 0; i < store.tensors.size(); ++i) {
            const auto& t = store.tensors[i];
            if (t.bytes.empty() || lazy_in(t)) continue;
            std::memcpy(m_bytes.data() + m_base[i], t.bytes.data(), t.bytes.size());
            if (image_id != 0) std::memcpy(m_image.data() + m_base[i], t.bytes.data(), t.bytes.size());
        }
    }
    m_generated = 0;
    m_dirty.clear();
    m_tensor_written.assign(store.tensors.size(), 0);
    m_pending.clear();
    m_pending_bytes.clear();
    if (m_l2.size_bytes() != hw.l2.size_bytes || m_l2.line_bytes() != hw.l2.line_bytes || m_l2.ways() != hw.l2.ways)
        m_l2 = L2Cache(hw.l2.size_bytes, hw.l2.line_bytes, hw.l2.ways);
    m_l2.reset();
    m_active = 0;
    m_bytes_read = m_bytes_written = 0;
}

namespace {
// The written flags of N elements of DTYPE from the per-byte mask W: an element counts as written when every one
// of its bytes was (4-bit: two elements per byte; windows are byte-aligned, so a byte is written whole).
void written_elements(DType dtype, const uint8_t* w, size_t n, uint8_t* out) {
    if (is_sub_byte(dtype)) {
        for (size_t k = 0; k < n; ++k) out[k] = w[k / 2] != 0;
        return;
    }
    const size_t eb = dtype_bytes(dtype);
    for (size_t k = 0; k < n; ++k) {
        bool all = true;
        for (size_t b = 0; b < eb; ++b) all &= w[k * eb + b] != 0;
        out[k] = all;
    }
}
}  // namespace

void GlobalMemory::store_back(rt::TensorStore& store, uint64_t now) {
    apply_visible(now);
    for (size_t i = 0; i < store.tensors.size() && i < m_base.size(); ++i) {
        auto& t = store.tensors[i];
        if (!t.is_output()) continue;  // callers read outputs only
        if (!m_lazy[i].ready.empty()) {
            store_back_pages(t, static_cast<uint32_t>(i));
            continue;
        }
        t.bytes.assign(m_bytes.data() + m_base[i], m_bytes.data() + m_base[i] + m_size[i]);
        const uint8_t* w = m_written.data() + m_base[i];
        const size_t n = static_cast<size_t>(t.numel());
        const size_t nb = storage_bytes(t.dtype, t.numel());
        if (nb <= m_size[i] && std::memchr(w, 0, nb) == nullptr) {  // the common case: all written
            t.written.assign(n, 1);
            continue;
        }
        t.written.assign(n, 0);
        written_elements(t.dtype, w, n, t.written.data());
    }
}

void GlobalMemory::store_back_pages(rt::TensorBuffer& t, uint32_t tensor) {
    constexpr uint64_t kPage = rt::ByteStore::kPageBytes;
    const rt::ByteStore& gen = m_lazy[tensor].gen;
    const uint64_t lo = m_base[tensor], hi = m_base[tensor] + m_size[tensor];
    // The pages a write of this load touched (each was generated before the write landed on it).
    std::vector<size_t> pages;
    for (auto [a, n] : m_dirty) {
        const uint64_t s = std::max(a, lo), e = std::min(a + n, hi);
        if (s >= e) continue;
        for (uint64_t p = (s - lo) / kPage; p <= (e - 1 - lo) / kPage; ++p) pages.push_back(p);
    }
    std::sort(pages.begin(), pages.end());
    pages.erase(std::unique(pages.begin(), pages.end()), pages.end());
    rt::ByteStore::Patch patch;
    for (size_t p : pages) {
        rt::ByteStore::PatchPage pg;
        const size_t nb = gen.page_bytes(p);
        const uint8_t* src = m_bytes.data() + lo + p * kPage;
        const uint8_t* w = m_written.data() + lo + p * kPage;
        pg.bytes.assign(src, src + nb);
        const int64_t first = static_cast<int64_t>(p) * gen.page_elems();
        const size_t elems = static_cast<size_t>(std::min(gen.page_elems(), t.numel() - first));
        pg.written.assign(elems, 0);
        written_elements(t.dtype, w, elems, pg.written.data());
        patch.emplace(p, std::move(pg));
    }
    t.written.clear();
    t.bytes = rt::ByteStore::patched(gen, std::move(patch));
}

void GlobalMemory::apply_visible(uint64_t now) {
    if (m_pending.empty()) return;
    // Apply in visibility order (stable: same cycle keeps issue order), drop what was applied.
    std::stable_sort(m_pending.begin(), m_pending.end(),
                     [](const Pending& a, const Pending& b) { return a.visible_at < b.visible_at; });
    size_t n = 0;
    while (n < m_pending.size() && m_pending[n].visible_at <= now) {
        apply(m_pending[n]);
        ++n;
    }
    m_pending.erase(m_pending.begin(), m_pending.begin() + static_cast<std::ptrdiff_t>(n));
    if (m_pending.empty()) m_pending_bytes.clear();
}

void GlobalMemory::apply(const Pending& p) {
    const uint8_t* src = pending_data(p);
    if (p.atomic_tensor < 0) {
        std::memcpy(m_bytes.data() + p.addr, src, p.size);
    } else {
        const DType dt = m_dtype[static_cast<size_t>(p.atomic_tensor)];
        const bool zero_init = m_zero_init[static_cast<size_t>(p.atomic_tensor)] != 0;
        const size_t eb = dtype_bytes(dt);
        for (uint64_t k = 0; k + eb <= p.size; k += eb)
            atomic_add_element(dt, m_bytes.data() + p.addr + k, src + k, zero_init && !m_landed[p.addr + k]);
    }
    std::fill_n(m_landed.data() + p.addr, p.size, uint8_t{1});  // in m_dirty since its write
}

void GlobalMemory::add_pending(uint64_t visible_at, uint64_t addr, const uint8_t* data, uint64_t n,
                               int32_t atomic_tensor, int writer, bool stable) {
    if (stable) {
        m_pending.push_back({visible_at, addr, 0, n, atomic_tensor, writer, data});
        return;
    }
    uint64_t off = m_pending_bytes.size();
    m_pending_bytes.insert(m_pending_bytes.end(), data, data + n);
    m_pending.push_back({visible_at, addr, off, n, atomic_tensor, writer, nullptr});
}
bool GlobalMemory::has_own_pending(int reader) const {
    if (reader < 0) return false;
    for (const Pending& p : m_pending)
        if (p.writer == reader) return true;
    return false;
}
void GlobalMemory::overlay_own(int reader, uint64_t addr, uint64_t n, uint8_t* out) const {
    if (reader < 0) return;
    for (const Pending& p : m_pending) {                           // issue order: a later write of the core wins
        if (p.writer != reader || p.atomic_tensor >= 0) continue;  // an atomic add lands at the memory only
        const uint64_t lo = std::max(addr, p.addr), hi = std::min(addr + n, p.addr + p.size);
        if (lo < hi) std::memcpy(out + (lo - addr), pending_data(p) + (lo - p.addr), hi - lo);
    }
}

void GlobalMemory::read(const rt::TensorBuffer& t, uint32_t tensor, const rt::Window& w, uint64_t now,
                        std::vector<uint8_t>& out, int reader) {
    apply_visible(now);
    // Byte math by element bits: a 4-bit window row is cols / 2 whole bytes (rows start on a byte: check_window).
    const int64_t rows = w.rows(), cols = w.cols();
    const size_t row_bytes = storage_bytes(t.dtype, cols);
    out.resize(static_cast<size_t>(rows) * row_bytes);
    const ElemBytes bytes_of(t.dtype);
    RowWalk walk(t, w);
    for (int64_t r = 0; r < rows; ++r, walk.next()) {
        uint64_t addr = m_base[tensor] + bytes_of(walk.start());
        ensure(tensor, addr - m_base[tensor], row_bytes);
        std::memcpy(out.data() + static_cast<size_t>(r) * row_bytes, m_bytes.data() + addr, row_bytes);
        overlay_own(reader, addr, row_bytes, out.data() + static_cast<size_t>(r) * row_bytes);
    }
    m_bytes_read += out.size();
}

bool GlobalMemory::read_equals(const rt::TensorBuffer& t, uint32_t tensor, const rt::Window& w, uint64_t now,
                               const std::vector<uint8_t>& expect, int reader) {
    apply_visible(now);
    if (has_own_pending(reader)) return false;  // read() overlays them
    const int64_t rows = w.rows(), cols = w.cols();
    const size_t row_bytes = storage_bytes(t.dtype, cols);
    if (expect.size() != static_cast<size_t>(rows) * row_bytes) return false;
    const ElemBytes bytes_of(t.dtype);
    RowWalk walk(t, w);
    for (int64_t r = 0; r < rows; ++r, walk.next()) {
        uint64_t addr = m_base[tensor] + bytes_of(walk.start());
        ensure(tensor, addr - m_base[tensor], row_bytes);
        if (std::memcmp(expect.data() + static_cast<size_t>(r) * row_bytes, m_bytes.data() + addr, row_bytes) != 0)
            return false;
    }
    m_bytes_read += expect.size();
    return true;
}

void GlobalMemory::write(const rt::TensorBuffer& t, uint32_t tensor, const rt::Window& w, const uint8_t* data,
                         uint64_t visible_at, bool atomic, int writer, bool stable) {
    m_tensor_written[tensor] = 1;
    const int64_t rows = w.rows(), cols = w.cols();
    const size_t row_bytes = storage_bytes(t.dtype, cols);
    const ElemBytes bytes_of(t.dtype);
    // Rows that follow each other in GM go as one run (the same bytes, applied in the same order).
    uint64_t run_addr = 0, run_bytes = 0;
    size_t run_src = 0;
    auto flush = [&] {
        if (run_bytes == 0) return;
        // The pages under the write hold the image first (a partial page write lands on generated bytes).
        ensure(tensor, run_addr - m_base[tensor], run_bytes);
        add_pending(visible_at, run_addr, data + run_src, run_bytes, atomic ? static_cast<int32_t>(tensor) : -1, writer,
                    stable);
        std::fill_n(m_written.data() + run_addr, run_bytes, uint8_t{1});
        m_dirty.push_back({run_addr, run_bytes});
        run_bytes = 0;
    };
    RowWalk walk(t, w);
    for (int64_t r = 0; r < rows; ++r, walk.next()) {
        uint64_t addr = m_base[tensor] + bytes_of(walk.start());
        if (run_bytes > 0 && addr != run_addr + run_bytes) flush();
        if (run_bytes == 0) {
            run_addr = addr;
            run_src = static_cast<size_t>(r) * row_bytes;
        }
        run_bytes += row_bytes;
    }
    flush();
    m_bytes_written += static_cast<uint64_t>(rows) * row_bytes;
}

void GlobalMemory::read_raw(uint32_t tensor, uint64_t offset, uint64_t n, uint64_t now, uint8_t* out) {
    apply_visible(now);
    ensure(tensor, offset, n);
    std::memcpy(out, m_bytes.data() + m_base[tensor] + offset, n);
    m_bytes_read += n;
}

void GlobalMemory::write_raw(uint32_t tensor, uint64_t offset, const uint8_t* data, uint64_t n, uint64_t visible_at) {
    m_tensor_written[tensor] = 1;
    ensure(tensor, offset, n);
    m_dirty.push_back({m_base[tensor] + offset, n});
    add_pending(visible_at, m_base[tensor] + offset, data, n);
    m_bytes_written += n;
}

L2Result GlobalMemory::touch(const rt::TensorBuffer& t, uint32_t tensor, const rt::Window& w) {
    L2Result total;
    const int64_t rows = w.rows();
    const uint64_t row_bytes = storage_bytes(t.dtype, w.cols());
    const ElemBytes bytes_of(t.dtype);
    RowWalk walk(t, w);
    for (int64_t r = 0; r < rows; ++r, walk.next()) {
        uint64_t addr = m_base[tensor] + bytes_of(walk.start());
        L2Result x = m_l2.access(addr, row_bytes);
        total.hits += x.hits;
        total.misses += x.misses;
    }
    return total;
}

L2Result GlobalMemory::touch_raw(uint32_t tensor, uint64_t offset, uint64_t n) {
    return m_l2.access(m_base[tensor] + offset, n);
}

}  // namespace cvsim
