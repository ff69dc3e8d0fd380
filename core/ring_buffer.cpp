// Cross-core ring slot bookkeeping: push/pop/free with per-lane round-robin heads and per-slot lane masks.
#include "core/ring_buffer.h"

#include <stdexcept>
#include <string>

namespace cvsim {

namespace {
uint32_t bit(int lane) {
    return 1u << lane;
}
uint32_t all_lanes(int lanes) {
    return (1u << lanes) - 1;
}
}  // namespace

RingBuffer::RingBuffer(int slot_num, int producers, int consumers) : m_producers(producers), m_consumers(consumers) {
    if (slot_num < 1) throw std::invalid_argument("RingBuffer: slot_num must be >= 1, got " + std::to_string(slot_num));
    if (producers < 1 || producers > kMaxLanes || consumers < 1 || consumers > kMaxLanes)
        throw std::invalid_argument("RingBuffer: lanes must be in 1.." + std::to_string(kMaxLanes) + ", got " +
                                    std::to_string(producers) + " producers, " + std::to_string(consumers) +
                                    " consumers");
    m_slots.resize(static_cast<size_t>(slot_num));
    reset();
}

void RingBuffer::reset() {
    for (SlotState& s : m_slots) s = SlotState{};
    m_push_head.assign(static_cast<size_t>(m_producers), 0);
    m_pop_head.assign(static_cast<size_t>(m_consumers), 0);
    m_last_free_gen.resize(m_slots.size());
    for (auto& gens : m_last_free_gen) gens.assign(static_cast<size_t>(m_consumers), -1);
    m_max_occupancy = 0;
    m_push_count = m_pop_count = m_free_count = 0;
}

void RingBuffer::check_lane(int lane, int lanes, const char* what) const {
    if (lane < 0 || lane >= lanes)
        throw std::out_of_range(std::string("RingBuffer: ") + what + " lane " + std::to_string(lane) +
                                " out of range (" + std::to_string(lanes) + " lanes)");
}

int RingBuffer::next_push_slot(int lane) const {
    check_lane(lane, m_producers, "producer");
    return m_push_head[static_cast<size_t>(lane)];
}

int RingBuffer::next_pop_slot(int lane) const {
    check_lane(lane, m_consumers, "consumer");
    return m_pop_head[static_cast<size_t>(lane)];
}

const RingBuffer::SlotState& RingBuffer::slot(int index) const {
    if (index < 0 || index >= slot_num())
        throw std::out_of_range("RingBuffer: slot " + std::to_string(index) + " out of range");
    return m_slots[static_cast<size_t>(index)];
}

bool RingBuffer::can_push(int lane) const {
    // The slot is not free while it is ready or being consumed; while it is filling, only lanes that have
    // not yet contributed this generation may write (the other lane of a gather).
    const SlotState& s = m_slots[static_cast<size_t>(next_push_slot(lane))];
    return !s.ready && (s.pushed & bit(lane)) == 0;
}

int RingBuffer::push(int lane) {
    if (!can_push(lane))
        throw std::logic_error("RingBuffer: push on producer lane " + std::to_string(lane) + " into slot " +
                               std::to_string(next_push_slot(lane)) + " that is not free");
    int& head = m_push_head[static_cast<size_t>(lane)];
    const int index = head;
    SlotState& s = m_slots[static_cast<size_t>(index)];
    s.pushed |= bit(lane);
    if (s.pushed == all_lanes(m_producers)) s.ready = true;
    head = (head + 1) % slot_num();
    ++m_push_count;
    const int occ = occupancy();
    if (occ > m_max_occupancy) m_max_occupancy = occ;
    return index;
}

bool RingBuffer::can_pop(int lane) const {
    const SlotState& s = m_slots[static_cast<size_t>(next_pop_slot(lane))];
    return s.ready && (s.popped & bit(lane)) == 0;
}

int RingBuffer::pop(int lane) {
    if (!can_pop(lane))
        throw std::logic_error("RingBuffer: pop on consumer lane " + std::to_string(lane) + " from slot " +
                               std::to_string(next_pop_slot(lane)) + " that is not ready");
    int& head = m_pop_head[static_cast<size_t>(lane)];
    const int index = head;
    m_slots[static_cast<size_t>(index)].popped |= bit(lane);
    head = (head + 1) % slot_num();
    ++m_pop_count;
    return index;
}

RingBuffer::FreeResult RingBuffer::free(int lane, int index) {
    check_lane(lane, m_consumers, "consumer");
    if (index < 0 || index >= slot_num()) return FreeResult::NotPopped;
    SlotState& s = m_slots[static_cast<size_t>(index)];
    int64_t& last_free = m_last_free_gen[static_cast<size_t>(index)][static_cast<size_t>(lane)];
    if ((s.popped & bit(lane)) == 0) {
        // With one consumer the first free already recycled the slot (popped mask cleared, generation
        // advanced), so a double free shows up as "freed the previous generation and not popped since".
        const bool freed_previous = last_free >= 0 && static_cast<uint64_t>(last_free) + 1 == s.generation;
        return freed_previous ? FreeResult::AlreadyFreed : FreeResult::NotPopped;
    }
    if (s.freed & bit(lane)) return FreeResult::AlreadyFreed;
    s.freed |= bit(lane);
    last_free = static_cast<int64_t>(s.generation);
    ++m_free_count;
    if (s.freed == all_lanes(m_consumers)) {
        const uint64_t generation = s.generation + 1;
        s = SlotState{};
        s.generation = generation;
    }
    return FreeResult::Ok;
}

int RingBuffer::occupancy() const {
    int n = 0;
    for (const SlotState& s : m_slots) n += s.pushed != 0 ? 1 : 0;
    return n;
}

}  // namespace cvsim
