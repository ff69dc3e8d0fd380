// Lazy input pages (docs/DECISIONS.md, "Lazy GM inputs").
#include "frontend/byte_store.h"

#include <algorithm>
#include <cstring>

#include "frontend/runtime.h"

namespace cvsim::rt {

struct ByteStore::Lazy {
    DType dtype = DType::FP32;
    uint64_t key = 0;
    int64_t numel = 0;
    size_t size = 0;
    std::vector<std::unique_ptr<uint8_t[]>> pages;
    size_t generated = 0;

    // Elements per page (a page holds whole elements; a 4-bit page an even number).
    int64_t page_elems() const { return static_cast<int64_t>(kPageBytes * 8 / static_cast<size_t>(dtype_bits(dtype))); }
    const uint8_t* page(size_t p) {
        auto& pg = pages[p];
        if (!pg) {
            const int64_t first = static_cast<int64_t>(p) * page_elems();
            const int64_t n = std::min(page_elems(), numel - first);
            const size_t bytes = storage_bytes(dtype, n);
            pg = std::make_unique<uint8_t[]>(bytes);
            generate_inputs(dtype, key, first, n, pg.get());
            generated += bytes;
        }
        return pg.get();
    }
};

ByteStore ByteStore::lazy_input(DType dtype, uint64_t key, int64_t numel) {
    ByteStore s;
    s.m_lazy = std::make_shared<Lazy>();
    s.m_lazy->dtype = dtype;
    s.m_lazy->key = key;
    s.m_lazy->numel = numel;
    s.m_lazy->size = storage_bytes(dtype, numel);
    s.m_lazy->pages.resize((s.m_lazy->size + kPageBytes - 1) / kPageBytes);
    return s;
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

size_t ByteStore::size() const {
    return m_lazy ? m_lazy->size : m_vec.size();
}

const uint8_t* ByteStore::span(size_t off, size_t n) const {
    if (m_lazy && off / kPageBytes == (off + n - 1) / kPageBytes && off + n <= m_lazy->size)
        return m_lazy->page(off / kPageBytes) + off % kPageBytes;
    return data() + off;
}

void ByteStore::materialise() const {
    if (!m_lazy) return;
    m_vec.assign(m_lazy->size, 0);
    generate_inputs(m_lazy->dtype, m_lazy->key, 0, m_lazy->numel, m_vec.data());
    m_lazy.reset();  // this store only: copies keep the shared pages
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
    m_vec.assign(n, v);
}
void ByteStore::resize(size_t n, uint8_t v) {
    materialise();
    m_vec.resize(n, v);
}

bool operator==(const ByteStore& a, const ByteStore& b) {
    if (a.m_lazy && b.m_lazy && a.m_lazy->dtype == b.m_lazy->dtype && a.m_lazy->key == b.m_lazy->key &&
        a.m_lazy->numel == b.m_lazy->numel)
        return true;  // the same pure function
    return a.vec() == b.vec();
}

}  // namespace cvsim::rt
