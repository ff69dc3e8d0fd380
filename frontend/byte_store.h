// The bytes of one GM tensor in a TensorStore: a flat vector, or (a large seeded input or poisoned output) pages
// generated on first access, or (a large output after a run) such a generator with the pages the run wrote
// replaced (docs/DECISIONS.md, "Lazy GM inputs" and "Sparse outputs").
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "core/dtype.h"

namespace cvsim::rt {

// Element i of a lazy input is rt::generate_inputs(dtype, key, i) (of a lazy poisoned output: the dtype's poison
// pattern): the pages of one are a cache of a pure function,
// shared by the copies of the store (the reference interpreter's, the session's) and never written. Every way to
// the bytes keeps that meaning: data(), begin(), operator[], assign() and comparisons first materialise the whole
// tensor (it then holds flat bytes like any other), so a caller that knows nothing of pages reads the right bytes,
// only slower; span() reads one page without materialising the rest (the reference interpreter's element reads).
// The simulator's GM takes the generator itself (lazy_key()) and generates the pages it touches.
class ByteStore {
  public:
    using value_type = uint8_t;
    using iterator = uint8_t*;
    using const_iterator = const uint8_t*;
    static constexpr size_t kPageBytes = size_t{1} << 16;  // whole elements of every dtype (4-bit: an even count)

    ByteStore() = default;
    ByteStore(const std::vector<uint8_t>& v) : m_vec(v) {}        // NOLINT: a vector is a store of its bytes
    ByteStore(std::vector<uint8_t>&& v) : m_vec(std::move(v)) {}  // NOLINT
    ByteStore& operator=(const std::vector<uint8_t>& v) {
        m_lazy.reset();
        m_patch.reset();
        m_vec = v;
        return *this;
    }

    // A lazy input of `numel` elements: element i is what generate_inputs(dtype, key, i, 1) writes.
    static ByteStore lazy_input(DType dtype, uint64_t key, int64_t numel);
    // A lazy output of `numel` poisoned elements (poison_fill).
    static ByteStore lazy_poison(DType dtype, int64_t numel);
    // `numel` zeroed elements, lazily (a large tensor bind_entry places before its inputs are generated).
    static ByteStore lazy_zero(DType dtype, int64_t numel);
    // A pure generator (no page replaced): GM generates the pages it touches from it (fill_page).
    bool lazy() const { return m_lazy != nullptr && m_patch == nullptr; }

    // A patched store: the generator of `base` (lazy()) with some pages replaced (an output after a run: the
    // pages it wrote), each with a per-element written flag. Copies share the pages, which are never written.
    struct PatchPage {
        std::vector<uint8_t> bytes;    // the page's bytes (page_bytes(p) of them)
        std::vector<uint8_t> written;  // per element of the page: 1 when a store wrote the whole element
    };
    using Patch = std::map<size_t, PatchPage>;  // by page index
    static ByteStore patched(const ByteStore& base, Patch pages);
    bool patched() const { return m_patch != nullptr; }
    // The replaced pages (null unless patched()).
    const Patch* patch() const { return m_patch.get(); }
    // Whether a and b are (patches of) the same generator, so that they can differ only on replaced pages.
    static bool same_generator(const ByteStore& a, const ByteStore& b);
    // Pages of a generator-backed store, their bytes and elements (page p holds elements
    // [p * page_elems(), min(numel, (p + 1) * page_elems()))).
    size_t num_pages() const;
    int64_t page_elems() const;
    size_t page_bytes(size_t p) const;
    // The current bytes of page p of a generator-backed store (its replacement, else the generated page).
    const uint8_t* page(size_t p) const;
    // Writes the generator's page p into dst (page_bytes(p) bytes), not cached (GM's own copy).
    void fill_page(size_t p, uint8_t* dst) const;
    DType lazy_dtype() const;
    uint64_t lazy_key() const;
    int64_t lazy_numel() const;
    // Bytes generated so far into pages (0 once materialised or when flat).
    size_t generated_bytes() const;

    size_t size() const;
    bool empty() const { return size() == 0; }
    // The bytes [off, off + n) (n > 0, inside one page for a lazy store, else the whole store is materialised).
    const uint8_t* span(size_t off, size_t n) const;

    // Flat access: materialises a lazy store first.
    uint8_t* data();
    const uint8_t* data() const;
    iterator begin() { return data(); }
    iterator end() { return data() + size(); }
    const_iterator begin() const { return data(); }
    const_iterator end() const { return data() + size(); }
    uint8_t& operator[](size_t i) { return data()[i]; }
    const uint8_t& operator[](size_t i) const { return data()[i]; }
    void assign(size_t n, uint8_t v);
    template <class It>
    void assign(It first, It last) {
        m_lazy.reset();
        m_patch.reset();
        m_vec.assign(first, last);
    }
    void resize(size_t n, uint8_t v = 0);
    void clear() {
        m_lazy.reset();
        m_patch.reset();
        m_vec.clear();
    }
    // Materialises a lazy store (flat from then on).
    void materialise() const;
    const std::vector<uint8_t>& vec() const {
        materialise();
        return m_vec;
    }
    operator const std::vector<uint8_t>&() const { return vec(); }  // NOLINT

    friend bool operator==(const ByteStore& a, const ByteStore& b);
    friend bool operator==(const ByteStore& a, const std::vector<uint8_t>& b) { return a.vec() == b; }

    struct Lazy;  // the generator and its cache of pages (byte_store.cpp)

  private:
    mutable std::vector<uint8_t> m_vec;            // flat bytes (empty while lazy)
    mutable std::shared_ptr<Lazy> m_lazy;          // the generator and its pages (null: flat)
    mutable std::shared_ptr<const Patch> m_patch;  // replaced pages of the generator's (null: none)
};

}  // namespace cvsim::rt
