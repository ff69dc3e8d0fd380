// Cross-core ring: configuration and reset (waiting lives in the engine that uses changed()).
#include "models/cross_core_pipe.h"

namespace cvsim {

void CrossCorePipe::configure(bool c2v, int slot_num, int64_t slot_size, int producers, int consumers) {
    m_c2v = c2v;
    m_slot_size = slot_size;
    // The last schedule's ring and slots again when the geometry is the same (their storage is reused).
    if (m_ring && m_ring->slot_num() == slot_num && m_ring->producers() == producers &&
        m_ring->consumers() == consumers)
        m_ring->reset();
    else
        m_ring.emplace(slot_num, producers, consumers);
    m_configured = true;
    m_slots.resize(static_cast<size_t>(slot_num));
    for (int i = 0; i < slot_num; ++i) {
        Slot& s = m_slots[static_cast<size_t>(i)];
        s.dtype = DType::FP32;
        s.data = nullptr;
        s.part_written.assign(static_cast<size_t>(producers), false);
        s.parts.assign(static_cast<size_t>(producers), nullptr);
        s.part_clean.assign(static_cast<size_t>(producers), false);
        s.split = 0;
        s.ready_token.assign(static_cast<size_t>(producers), 0);
        s.free_token.assign(static_cast<size_t>(consumers), 0);
        s.gm_offset = gm_base + static_cast<uint64_t>(i) * static_cast<uint64_t>(slot_size);
        s.visible_at = 0;
        s.writes = 0;
    }
    producer_stall_cycles = consumer_stall_cycles = 0;
    m_changed.notify(sc_core::SC_ZERO_TIME);
}

void CrossCorePipe::reset() {
    m_configured = false;
    for (Slot& s : m_slots) {  // the data goes; the slots' storage stays for the next configure
        s.data = nullptr;
        for (auto& part : s.parts) part = nullptr;
    }
    m_slot_size = 0;
    producer_stall_cycles = consumer_stall_cycles = 0;
    m_changed.cancel();
}

}  // namespace cvsim
