// Instructions as the simulator sees them: the core model's PipeInstr (models/pipe_instr.h) plus the operands
// the engine interprets. Tile storage lives here too: tiles are bytes in their physical layout.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "core/dtype.h"
#include "frontend/ops.h"
#include "models/pipe_instr.h"

namespace cvsim {

// A tile's physical bytes, shared copy-on-write: a memoised result and every tile holding it share one
// immutable buffer (a memo hit costs a reference, not a copy). A buffer of zeros is materialised on first
// read, so a fresh tile that is overwritten before it is read never allocates one.
class TileBytes {
  public:
    TileBytes() = default;
    TileBytes(std::vector<uint8_t> v)
        : m_size(v.size()), m_buf(std::make_shared<const std::vector<uint8_t>>(std::move(v))) {}
    TileBytes& operator=(std::vector<uint8_t>&& v) { return *this = TileBytes(std::move(v)); }
    // n bytes of `value` (zeros are materialised lazily).
    void assign(size_t n, uint8_t value) {
        m_size = n;
        m_buf.reset();
        if (value != 0) m_buf = std::make_shared<const std::vector<uint8_t>>(n, value);
    }
    const uint8_t* data() const {
        if (!m_buf && m_size) m_buf = std::make_shared<const std::vector<uint8_t>>(m_size, 0);
        return m_buf ? m_buf->data() : nullptr;
    }
    size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    bool operator==(const TileBytes& o) const {
        if (m_size != o.m_size) return false;
        if (m_buf == o.m_buf) return true;
        return m_size == 0 || std::memcmp(data(), o.data(), m_size) == 0;
    }
    bool operator!=(const TileBytes& o) const { return !(*this == o); }

  private:
    size_t m_size = 0;
    mutable std::shared_ptr<const std::vector<uint8_t>> m_buf;  // null: m_size zero bytes
};

// One tile's storage in a core buffer, physically laid out (SPEC 4.2).
struct TileBuf {
    DType dtype = DType::FP32;
    Mem mem = Mem::Vec;
    Layout layout = Layout::ND;
    bool acc = false;            // Acc boxes (16x16 fp32)
    int64_t rows = 0, cols = 0;  // logical shape
    int64_t vr = 0, vc = 0;      // valid region
    TileBytes bytes;             // physical bytes (shared with the memo)
    bool replay = false;         // placeholder of an a2a3 lane-1 replay (no data)
    bool clean = false;          // bytes equal the memo's recorded result (see sim/data_memo.h)
    // Issue-order bookkeeping on the owning core (for intra-core dependencies):
    int64_t writer = -1;            // seq of the last instruction writing this storage
    std::vector<uint32_t> readers;  // seqs reading it since that write
    // For popped tiles: which ring slot they came from (for tfree).
    int ring = -1;          // ring index in the cluster, -1 if not popped
    int slot = -1;          // slot index
    int lane = 0;           // consumer lane that popped it
    int64_t ring_id = 0;    // id of that ring
    int64_t slot_gen = -1;  // the slot's generation it popped
    bool freed = false;
    // a5: a popped tile is bound to its slot in place, and a view of it (slice, reshape, set_validshape,
    // transpose_view) reads the same bytes: reads of either are reads of the slot, and a push that reuses the
    // slot rewrites them (a tfree before the last use really corrupts the data).
    bool slot_bound = false;            // the popped tile itself
    std::shared_ptr<TileBuf> view_src;  // for a view of a slot-bound tile: the tile it views
    // For a view of a popped tile that is not slot memory (a2a3's landing buffer, a replay's placeholder): the
    // popped tile, whose slot a tfree of the view frees.
    std::shared_ptr<TileBuf> popped_src;
    ir::OpCode view_code = ir::OpCode::Slice;
    std::vector<int64_t> view_ints;  // the view's offsets (slice) or shape (reshape)
    uint64_t slot_writes = 0;        // the slot's push count its bytes reflect (CrossCorePipe::Slot::writes)
    // A recorded stream's tile (sim/lane_stream.h): the instructions of the stream using it (directly or through
    // a view of it), and how many of them have not completed in this schedule (its bytes are dropped at 0).
    uint32_t uses = 0;
    uint32_t uses_left = 0;
};
using TileRef = std::shared_ptr<TileBuf>;

// The slot-bound popped tile a tile is (or views), nullptr when it is not slot memory.
inline TileBuf* slot_root(TileBuf* t) {
    while (t && !t->slot_bound) t = t->view_src.get();
    return t;
}

// One instruction issued by a core's scalar unit to one of its pipes: the core model's part (seq, pipe,
// dependencies, timing) and the operands. The engine derives its own instruction type with a typed payload
// (sim/payload.h), so an instruction is one allocation; every instruction a core runs is one of these.
struct Instr : PipeInstr {
    const ir::Expr* call = nullptr;  // the op call (nullptr for synthetic instructions)
    const ir::Stmt* stmt = nullptr;  // the statement
    // Operands resolved at issue time (the engine interprets them by op):
    TileRef in[5];  // tile operands in argument order (a 4-list mrgsort has 5)
    TileRef out;
    std::vector<int64_t> ints;    // scalar operands (offsets, event ids, ...)
    double number = 0;            // tile-scalar operand (the first of `numbers`)
    std::vector<double> numbers;  // the op's scalar operands (OpDef params marked `value`), in order
    int aux = 0;                  // engine-specific (ring index, split code, ...)
    int aux2 = 0;
};

}  // namespace cvsim
