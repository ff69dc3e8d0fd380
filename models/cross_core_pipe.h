// The cross-core tpush/tpop ring of one direction (SPEC 4.3): the SystemC-free RingBuffer protocol plus
// the event producers and consumers wait on, the slot contents, the sync tokens of each flag, and the
// ring's statistics.
#pragma once

#include <systemc>

#include <cstdint>
#include <optional>
#include <vector>

#include "core/datapath.h"
#include "core/ring_buffer.h"

namespace cvsim {

class CrossCorePipe {
  public:
    // Bind the ring (aic/aiv_initialize_pipe): slot geometry and participating lanes. Every slot free.
    void configure(bool c2v, int slot_num, int64_t slot_size, int producers, int consumers);
    void reset();  // unconfigured, every slot free, statistics cleared
    bool configured() const { return m_configured; }

    bool c2v() const { return m_c2v; }
    int slot_num() const { return m_configured ? m_ring->slot_num() : 0; }
    int64_t slot_size() const { return m_slot_size; }
    RingBuffer& ring() { return *m_ring; }
    const RingBuffer& ring() const { return *m_ring; }
    sc_core::sc_event& changed() { return m_changed; }  // any push, pop or free

    // Slot contents as the consumer will see them: the logical tile (full geometry), written part by part.
    struct Slot {
        DType dtype = DType::FP32;  // the slot's logical contents (shared with the push and the memo)
        SharedMatrix data;
        std::vector<bool> part_written;     // per producer lane: wrote data (replay lanes write none)
        std::vector<SharedMatrix> parts;    // per producer lane: the part it wrote (for the gather check)
        std::vector<bool> part_clean;       // per producer lane: that part equals the memo's recorded push
        int split = 0;                      // split code of the push
        std::vector<uint64_t> ready_token;  // per producer lane: token of its ready flag
        std::vector<uint64_t> free_token;   // per consumer lane: token of its free
        uint64_t gm_offset = 0;             // byte offset of the slot in the ring tensor (a5: names the SRAM slot)
        uint64_t visible_at = 0;            // cycle the last push's data becomes visible to the pop
        uint64_t writes = 0;                // pushes that wrote data into the slot (a5: popped tiles refresh from it)
    };
    Slot& slot(int i) { return m_slots[i]; }

    // Statistics for `cvsim run`.
    uint64_t producer_stall_cycles = 0;  // cycles producers waited for a free slot
    uint64_t consumer_stall_cycles = 0;  // cycles consumers waited for a ready slot
    uint32_t gm_tensor = 0;              // a2a3: the hidden ring tensor (index in the TensorStore)
    uint64_t gm_base = 0;                // this ring's byte offset in it
    bool has_region = false;             // the launch gave this ring a region of the ring tensor

  private:
    bool m_c2v = true;                 // direction
    int64_t m_slot_size = 0;           // bytes per slot
    std::optional<RingBuffer> m_ring;  // protocol state (slots, heads, ready/free); kept across schedules
    bool m_configured = false;         // configured in this schedule
    std::vector<Slot> m_slots;         // slot contents and tokens
    sc_core::sc_event m_changed;       // notified on every state change
};

}  // namespace cvsim
