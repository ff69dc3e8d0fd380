// The slot bookkeeping of one cross-core ring (SPEC 4.3) without SystemC: round-robin heads, gather and
// broadcast.
//
// A ring has `slot_num` slots, P producer lanes and C consumer lanes (C2V: 1 AIC producer, 1-2 AIV consumers;
// V2C: 1-2 AIV producers, 1 AIC consumer). Each lane has its own head advancing modulo slot_num. A slot
// cycles
//   free --(every producer lane pushed)--> ready --(every consumer lane popped and freed)--> free
//   (generation+1).
// Per-lane bitmasks, not head distances, decide whether a lane may touch a slot, so a lane that laps the ring
// (index aliasing) can neither push twice into a slot that is still filling nor pop the same generation
// twice. CrossCorePipe adds the waiting: it blocks while can_push / can_pop is false and wakes on push /
// free.
#pragma once

#include <cstdint>
#include <vector>

namespace cvsim {

class RingBuffer {
  public:
    static constexpr int kMaxLanes = 8;

    // What one slot holds right now. Bit L of a mask = lane L of that side.
    struct SlotState {
        uint32_t pushed = 0;      // producer lanes that wrote this generation's data
        uint32_t popped = 0;      // consumer lanes that popped it
        uint32_t freed = 0;       // consumer lanes that released it
        bool ready = false;       // every producer lane has pushed: consumers may pop
        uint64_t generation = 0;  // completed free->ready->free cycles of this slot
    };

    enum class FreeResult {
        Ok,            // the lane's release was recorded (the slot is free once every consumer lane released it)
        NotPopped,     // the lane holds no popped data in this slot (never popped it, or slot out of range)
        AlreadyFreed,  // the lane already released this slot's data: a double tfree
    };

    // slot_num >= 1, 1 <= producers, consumers <= kMaxLanes; otherwise std::invalid_argument.
    RingBuffer(int slot_num, int producers, int consumers);

    int slot_num() const { return static_cast<int>(m_slots.size()); }
    int producers() const { return m_producers; }
    int consumers() const { return m_consumers; }

    // Lane arguments out of range throw std::out_of_range; push/pop without can_push/can_pop throw
    // std::logic_error. Both are caller bugs; user protocol errors surface only through free().
    bool can_push(int lane) const;
    int push(int lane);  // returns the slot written
    bool can_pop(int lane) const;
    int pop(int lane);  // returns the slot read
    FreeResult free(int lane, int slot);

    int next_push_slot(int lane) const;
    int next_pop_slot(int lane) const;
    const SlotState& slot(int index) const;  // std::out_of_range for a bad index

    int occupancy() const;  // slots not free (filling, ready or being consumed)
    int max_occupancy() const { return m_max_occupancy; }
    uint64_t push_count() const { return m_push_count; }  // successful push() calls, all lanes
    uint64_t pop_count() const { return m_pop_count; }    // successful pop() calls, all lanes
    uint64_t free_count() const { return m_free_count; }  // free() calls that returned Ok

    // Back to the constructed state (all slots free, heads at 0, statistics cleared), as initialize_pipe
    // does.
    void reset();

  private:
    void check_lane(int lane, int lanes, const char* what) const;

    int m_producers;                 // producer lanes (2 = a V2C gather)
    int m_consumers;                 // consumer lanes (2 = a C2V broadcast/split to both AIVs)
    std::vector<SlotState> m_slots;  // the ring's slots
    std::vector<int> m_push_head;    // per producer lane: the slot it writes next
    std::vector<int> m_pop_head;     // per consumer lane: the slot it reads next
    // [slot][consumer lane]: the generation the lane last freed (-1: never), to tell a double free from a
    // free of data the lane never popped once the slot has been recycled.
    std::vector<std::vector<int64_t>> m_last_free_gen;
    int m_max_occupancy = 0;  // high-water mark of occupancy()
    uint64_t m_push_count = 0;
    uint64_t m_pop_count = 0;
    uint64_t m_free_count = 0;
};

}  // namespace cvsim
