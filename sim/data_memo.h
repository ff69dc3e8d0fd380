// Memo of instruction results across the schedules of one session.
//
// Control flow never depends on tile data, so the k-th instruction a core issues is the same static
// instruction in every schedule. Its result is also the same whenever its inputs are: the datapath is
// deterministic. The first schedule of a session records each instruction's inputs and outputs; later
// schedules reuse an output when the inputs are provably identical (input tiles marked clean, or GM bytes
// equal to the recorded ones) instead of recomputing it, and mark the output clean. A schedule whose loads
// see different bytes (a race read stale data) diverges from that point and computes for real, so results
// are exactly what full computation gives. This is what makes thousands of schedules per second affordable.
#pragma once

#include <cstdint>
#include <vector>

#include "core/datapath.h"
#include "core/layout.h"
#include "sim/instr.h"

namespace cvsim::sim {

struct MemoEntry {
    const void* key = nullptr;  // the op call this entry belongs to (a sanity check on the index)
    bool valid = false;
    bool has_out = false;           // out_bytes was recorded
    TileBytes out_bytes;            // the output tile's physical bytes (shared with the tiles that hold them)
    std::vector<uint8_t> gm_bytes;  // loads: the GM bytes read; stores: the GM bytes written
    bool image_read = false;        // loads: no write had reached the tensor (the bytes are the session's GM image)
    SharedMatrix data;              // pushes: the values the slot receives (shared with the slots)
};

class DataMemo {
  public:
    // The entry of instruction `seq` of core `core` (cluster * 3 + core id), created when recording.
    MemoEntry* find(int core, uint32_t seq, const void* key) {
        if (core >= static_cast<int>(m_entries.size()) || seq >= m_entries[core].size()) return nullptr;
        MemoEntry& e = m_entries[core][seq];
        return e.valid && e.key == key ? &e : nullptr;
    }
    // nullptr when not recording, or when the recorded bytes reached the budget: the instruction is then
    // computed in every schedule (its output is never clean, so what reads it computes too), which is what a
    // memo miss does. Real kernels of 10^5 instructions would otherwise keep every result of the session
    // (pypto-lib's sparse attention: ~40 KB per instruction, 16 GB).
    MemoEntry* record(int core, uint32_t seq, const void* key) {
        if (!m_recording || m_bytes >= m_budget) return nullptr;
        if (core >= static_cast<int>(m_entries.size())) m_entries.resize(static_cast<size_t>(core) + 1);
        if (seq >= m_entries[core].size()) m_entries[core].resize(seq + 1);
        MemoEntry& e = m_entries[core][seq];
        e.key = key;
        e.valid = true;
        return &e;
    }
    bool recording() const { return m_recording; }
    // What an entry holds, counted against the budget once it is recorded.
    void charge(size_t bytes) { m_bytes += bytes; }
    size_t bytes() const { return m_bytes; }
    void set_budget(size_t bytes) { m_budget = bytes; }
    void stop_recording() { m_recording = false; }
    void clear() {
        m_entries.clear();
        m_recording = true;
        m_bytes = 0;
    }
    static constexpr size_t kDefaultBudget = size_t{256} << 20;  // bytes of recorded results per session

  private:
    std::vector<std::vector<MemoEntry>> m_entries;  // [core][seq]
    bool m_recording = true;                        // the first schedule records
    size_t m_bytes = 0;                             // bytes the entries hold (tiles, GM bytes, slot values)
    size_t m_budget = kDefaultBudget;
};

}  // namespace cvsim::sim
