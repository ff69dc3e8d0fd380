// GM as one flat byte array with every tensor in its own aligned region behind a guard gap, a shared L2
// in front of it, bandwidth shared by the cores transferring at the same time, and per-write visibility
// (SPEC 4.5). Passive: the pipes call it at the cycle they read or write.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/l2_cache.h"
#include "core/params.h"
#include "frontend/runtime.h"

namespace cvsim {

// Zero bytes whose pages the OS provides on first touch (an anonymous mapping): allocating and clearing cost what
// was touched, not the size (GM spans every tensor of a launch: a 400 MB weight of which a kernel reads 10 MB).
class ZeroBytes {
  public:
    ZeroBytes() = default;
    ZeroBytes(const ZeroBytes&) = delete;
    ZeroBytes& operator=(const ZeroBytes&) = delete;
    ZeroBytes(ZeroBytes&& o) noexcept : m_p(o.m_p), m_n(o.m_n) { o.m_p = nullptr, o.m_n = 0; }
    ZeroBytes& operator=(ZeroBytes&& o) noexcept {
        std::swap(m_p, o.m_p);
        std::swap(m_n, o.m_n);
        return *this;
    }
    ~ZeroBytes();
    // n zero bytes (the previous contents dropped); throws std::bad_alloc when the mapping fails.
    void reset(size_t n);
    uint8_t* data() { return m_p; }
    const uint8_t* data() const { return m_p; }
    size_t size() const { return m_n; }
    uint8_t& operator[](size_t i) { return m_p[i]; }
    const uint8_t& operator[](size_t i) const { return m_p[i]; }

  private:
    uint8_t* m_p = nullptr;
    size_t m_n = 0;
};

class GlobalMemory {
  public:
    GlobalMemory();

    // Place every tensor of `store` (in order) and copy its bytes in (a lazy input's pages are generated when an
    // access first touches them: ensure()). Resets L2, pending writes, statistics.
    // `image_id` names the store's contents (0: unnamed). Loading the image loaded last again, with the
    // same placement, restores only the bytes the last schedule wrote instead of rebuilding the GM.
    void load(const rt::TensorStore& store, const HwParams& hw, uint64_t image_id = 0);
    // Copy every output tensor's visible bytes (and written-element mask) back into `store`. A lazy output gets
    // the pages the run wrote on its generator (rt::ByteStore::patched, the written mask in the pages), not a
    // copy of the whole tensor.
    void store_back(rt::TensorStore& store, uint64_t now);

    uint64_t base(uint32_t tensor) const { return m_base[tensor]; }
    size_t size() const { return m_bytes.size(); }
    // Bytes of lazy input pages generated since the load (the rest of those tensors was never touched).
    uint64_t generated_bytes() const { return m_generated; }

    // Copy the window's rows (row-major) out of GM as seen at cycle `now` by core `reader` (>= 0: a core sees
    // its own writes once they complete, before other cores do: SPEC 4.5's delay is to other cores; -1: none).
    void read(const rt::TensorBuffer& t, uint32_t tensor, const rt::Window& w, uint64_t now, std::vector<uint8_t>& out,
              int reader = -1);
    // The same read compared in place with `expect` (no copy); accounted like read() when they are equal,
    // nothing done otherwise (the caller then reads; also whenever `reader` has a write still pending).
    bool read_equals(const rt::TensorBuffer& t, uint32_t tensor, const rt::Window& w, uint64_t now,
                     const std::vector<uint8_t>& expect, int reader = -1);
    // Whether any write to `tensor` was issued since the load: until one is, its visible bytes are the image's.
    bool written(uint32_t tensor) const { return m_tensor_written[tensor] != 0; }
    // A read of a tensor no write reached (written() is false): its bytes are the image's, so a reader that
    // knows them copies nothing; accounted as read() accounts `bytes`.
    void read_image(uint64_t now, uint64_t bytes) {
        apply_visible(now);
        m_bytes_read += bytes;
    }
    // Write `data` (the window's rows, row-major) becoming visible at `visible_at`. `atomic`: an atomic add
    // (store(..., atomic=Add)): each element is added into GM's visible contents when it becomes visible
    // (read-modify-write at the memory, rounding as atomic_add_element); an Out tensor's element that no
    // write has reached yet counts as 0 (the host zeroes an atomic destination).
    // `writer`: the writing core (-1: none), which reads the write back before it is visible to others.
    // `stable`: `data` stays valid and unchanged until the next load() (the memo's recorded bytes), so the pending
    // write refers to it instead of copying it.
    void write(const rt::TensorBuffer& t, uint32_t tensor, const rt::Window& w, const uint8_t* data,
               uint64_t visible_at, bool atomic = false, int writer = -1, bool stable = false);
    // Raw byte access to a tensor region (ring slots): offset in bytes from the tensor start.
    void read_raw(uint32_t tensor, uint64_t offset, uint64_t n, uint64_t now, uint8_t* out);
    void write_raw(uint32_t tensor, uint64_t offset, const uint8_t* data, uint64_t n, uint64_t visible_at);

    // L2 lookups for the lines a window touches; returns (hits, misses).
    L2Result touch(const rt::TensorBuffer& t, uint32_t tensor, const rt::Window& w);
    L2Result touch_raw(uint32_t tensor, uint64_t offset, uint64_t n);
    const L2Cache& l2() const { return m_l2; }

    // Bandwidth sharing: a transfer registers while it runs; the share each active one gets.
    void transfer_begin() { ++m_active; }
    void transfer_end() {
        if (m_active > 0) --m_active;
    }
    int active_transfers() const { return m_active; }

    // Traffic that moves no modelled data (soft-syncall atomics and polls on the GM workspace counter).
    void account(uint64_t read, uint64_t written) {
        m_bytes_read += read;
        m_bytes_written += written;
    }
    uint64_t bytes_read() const { return m_bytes_read; }
    uint64_t bytes_written() const { return m_bytes_written; }

  private:
    // A lazy tensor (rt::ByteStore::lazy(): a seeded input or a poisoned output): its generator and which of its
    // pages GM holds.
    struct LazyTensor {
        rt::ByteStore gen;           // the store's generator (a copy sharing its page cache)
        std::vector<uint8_t> ready;  // per page of rt::ByteStore::kPageBytes (empty: a flat tensor)
    };
    // Generates the pages of a lazy tensor that bytes [offset, offset + n) of it lie on (no-op for flat ones).
    // Every access to m_bytes goes through it first.
    void ensure(uint32_t tensor, uint64_t offset, uint64_t n) {
        if (!m_lazy[tensor].ready.empty() && n > 0) ensure_pages(tensor, offset, n);
    }
    void ensure_pages(uint32_t tensor, uint64_t offset, uint64_t n);
    // store_back of a lazy output: the pages the run wrote, on the tensor's generator.
    void store_back_pages(rt::TensorBuffer& t, uint32_t tensor);
    struct Pending {
        uint64_t visible_at;           // cycle the write becomes visible
        uint64_t addr;                 // byte address
        uint64_t data;                 // offset of its bytes in m_pending_bytes (when `ext` is null)
        uint64_t size;                 // bytes
        int32_t atomic_tensor = -1;    // >= 0: an atomic add into this tensor
        int writer = -1;               // the writing core (reads its own write before it is visible)
        const uint8_t* ext = nullptr;  // its bytes elsewhere (a stable source)
    };
    // Overlays `reader`'s own pending plain writes onto bytes [addr, addr + n) copied into `out`.
    void overlay_own(int reader, uint64_t addr, uint64_t n, uint8_t* out) const;
    bool has_own_pending(int reader) const;
    void apply_visible(uint64_t now);
    void add_pending(uint64_t visible_at, uint64_t addr, const uint8_t* data, uint64_t n, int32_t atomic_tensor = -1,
                     int writer = -1, bool stable = false);
    const uint8_t* pending_data(const Pending& p) const { return p.ext ? p.ext : m_pending_bytes.data() + p.data; }
    void apply(const Pending& p);

    ZeroBytes m_bytes;                 // the flat GM image (visible contents)
    ZeroBytes m_written;               // per byte: 1 once any write (visible or not) covered it
    ZeroBytes m_landed;                // per byte: 1 once a write became visible there (atomic adds onto Out tensors)
    std::vector<LazyTensor> m_lazy;    // per tensor
    uint64_t m_generated = 0;          // lazy input bytes generated since the load
    std::vector<DType> m_dtype;        // element type of each tensor
    std::vector<uint8_t> m_zero_init;  // per tensor: an Out tensor (an atomic add onto an unwritten element adds to 0)
    uint64_t m_image_id = 0;           // the image in m_image (0: none)
    ZeroBytes m_image;  // the flat tensors as loaded (restores what a schedule wrote; lazy ones regenerate)
    std::vector<std::pair<uint64_t, uint64_t>>
        m_dirty;                            // (address, bytes) written since the load (each pending write's range)
    std::vector<uint64_t> m_base;           // byte address of each tensor
    std::vector<uint8_t> m_tensor_written;  // per tensor: a write was issued since the load
    std::vector<uint64_t> m_size;           // bytes of each tensor
    std::vector<Pending> m_pending;         // writes not yet visible, in issue order
    std::vector<uint8_t> m_pending_bytes;   // their data, appended (emptied whenever nothing is pending)
    L2Cache m_l2;                           // tags of the shared L2
    int m_active = 0;                       // DMA transfers in flight (bandwidth sharing)
    uint64_t m_bytes_read = 0;              // statistics
    uint64_t m_bytes_written = 0;
};

}  // namespace cvsim
