// Lazy input pages, lazy poisoned outputs and sparse (patched) outputs (docs/DECISIONS.md, "Lazy GM inputs",
// "Sparse outputs").
#include "frontend/byte_store.h"

#include <algorithm>
#include <cstring>

#include "frontend/runtime.h"

namespace cvsim::rt {

struct ByteStore::Lazy {
    enum class Kind : uint8_t {
        Seeded,
        Poison,
        Zero
    } kind = Kind::Seeded;  // the seeded inputs of `key`, the
                            // dtype's poison pattern, zeros
    DType dtype = DType::FP32;
    uint64_t key = 0;
    int64_t numel = 0;
    size_t size = 0;
    std::vector<std::unique_ptr<uint8_t[]>> pages;
    size_t generated = 0;

    // Elements per page (a page holds whole elements; a 4-bit page an even number).
    int64_t page_elems() const { return static_cast<int64_t>(kPageBytes * 8 / static_cast<size_t>(dtype_bits(dtype))); }
    int64_t page_count(size_t p) const {
        return std::min(page_elems(), numel - static_cast<int64_t>(p) * page_elems());
    }
    void fill(size_t p, uint8_t* dst) const {
        const int64_t first = static_cast<int64_t>(p) * page_elems();
        switch (kind) {
            case Kind::Poison:
                return poison_fill(dtype, dst, page_count(p));
            case Kind::Zero:
                return void(std::memset(dst, 0, storage_bytes(dtype, page_count(p))));
            case Kind::Seeded:
                return generate_inputs(dtype, key, first, page_count(p), dst);
        }
    }
    const uint8_t* page(size_t p) {
        auto& pg = pages[p];
        if (!pg) {
            const size_t bytes = storage_bytes(dtype, page_count(p));
            pg = std::make_unique<uint8_t[]>(bytes);
            fill(p, pg.get());
            generated += bytes;
        }
        return pg.get();
    }
};

namespace {
std::shared_ptr<ByteStore::Lazy> make_lazy(ByteStore::Lazy::Kind kind, DType dtype, uint64_t key, int64_t numel) {
    auto l = std::make_shared<ByteStore::Lazy>();
    l->kind = kind;
    l->dtype = dtype;
    l->key = key;
    l->numel = numel;
    l->size = storage_bytes(dtype, numel);
    l->pages.resize((l->size + ByteStore::kPageBytes - 1) / ByteStore::kPageBytes);
    return l;
}
}  // namespace

ByteStore ByteStore::lazy_input(DType dtype, uint64_t key, int64_t numel) {
    ByteStore s;
    s.m_lazy = make_lazy(Lazy::Kind::Seeded, dtype, key, numel);
    return s;
}

ByteStore ByteStore::lazy_poison(DType dtype, int64_t numel) {
    ByteStore s;
    s.m_lazy = make_lazy(Lazy::Kind::Poison, dtype, 0, numel);
    return s;
}

ByteStore ByteStore::lazy_zero(DType dtype, int64_t numel) {
    ByteStore s;
    s.m_lazy = make_lazy(Lazy::Kind::Zero, dtype, 0, numel);
    return s;
}

ByteStore ByteStore::patched(const ByteStore& base, Patch pages) {
    ByteStore s;
    s.m_lazy = base.m_lazy;
    s.m_patch = std::make_shared<const Patch>(std::move(pages));
    return s;
}

bool ByteStore::same_generator(const ByteStore& a, const ByteStore& b) {
    if (!a.m_lazy || !b.m_lazy) return false;
    if (a.m_lazy == b.m_lazy) return true;
    const Lazy& x = *a.m_lazy;
    const Lazy& y = *b.m_lazy;
    return x.kind == y.kind && x.dtype == y.dtype && x.numel == y.numel &&
           (x.kind != Lazy::Kind::Seeded || x.key == y.key);
}

DType ByteStore::lazy_dtype() const {
    return m_lazy ? m_lazy->dtype : DType::UINT8;
}
uint64_t ByteStore::lazy_key() const {
    return m_lazy ? m_lazy->key : 0;
}
int64_t ByteStore::lazy_numel() const {
    return m_lazy ? m_lazy->numel : 0;
}
size_t ByteStore::generated_bytes() const {
    return m_lazy ? m_lazy->generated : 0;
}

size_t ByteStore::num_pages() const {
    return m_lazy ? m_lazy->pages.size() : 0;
}
int64_t ByteStore::page_elems() const {
    return m_lazy ? m_lazy->page_elems() : 0;
}
size_t ByteStore::page_bytes(size_t p) const {
    return m_lazy ? storage_bytes(m_lazy->dtype, m_lazy->page_count(p)) : 0;
}
const uint8_t* ByteStore::page(size_t p) const {
    if (m_patch)
        if (auto it = m_patch->find(p); it != m_patch->end()) return it->second.bytes.data();
    return m_lazy->page(p);
}
void ByteStore::fill_page(size_t p, uint8_t* dst) const {
    m_lazy->fill(p, dst);
}

size_t ByteStore::size() const {
    return m_lazy ? m_lazy->size : m_vec.size();
}

const uint8_t* ByteStore::span(size_t off, size_t n) const {
    if (m_lazy && off / kPageBytes == (off + n - 1) / kPageBytes && off + n <= m_lazy->size)
        return page(off / kPageBytes) + off % kPageBytes;
    return data() + off;
}

void ByteStore::materialise() const {
    if (!m_lazy) return;
    m_vec.assign(m_lazy->size, 0);
    for (size_t p = 0; p < m_lazy->pages.size(); ++p) {
        uint8_t* dst = m_vec.data() + p * kPageBytes;
        const size_t n = storage_bytes(m_lazy->dtype, m_lazy->page_count(p));
        if (m_patch)
            if (auto it = m_patch->find(p); it != m_patch->end()) {
                std::memcpy(dst, it->second.bytes.data(), n);
                continue;
            }
        if (m_lazy->pages[p])
            std::memcpy(dst, m_lazy->pages[p].get(), n);
        else
            m_lazy->fill(p, dst);
    }
    m_lazy.reset();  // this store only: copies keep the shared pages
    m_patch.reset();
}

uint8_t* ByteStore::data() {
    materialise();
    return m_vec.data();
}
const uint8_t* ByteStore::data() const {
    materialise();
    return m_vec.data();
}

void ByteStore::assign(size_t n, uint8_t v) {
    m_lazy.reset();
    m_patch.reset();
    m_vec.assign(n, v);
}
void ByteStore::resize(size_t n, uint8_t v) {
    materialise();
    m_vec.resize(n, v);
}

bool operator==(const ByteStore& a, const ByteStore& b) {
    if (ByteStore::same_generator(a, b)) {
        if (!a.m_patch && !b.m_patch) return true;  // the same pure function
        // Only replaced pages can differ.
        auto differs = [&](size_t p) { return std::memcmp(a.page(p), b.page(p), a.page_bytes(p)) != 0; };
        if (a.m_patch)
            for (const auto& kv : *a.m_patch)
                if (differs(kv.first)) return false;
        if (b.m_patch)
            for (const auto& kv : *b.m_patch)
                if ((!a.m_patch || !a.m_patch->count(kv.first)) && differs(kv.first)) return false;
        return true;
    }
    return a.vec() == b.vec();
}

}  // namespace cvsim::rt
