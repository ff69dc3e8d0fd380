// Lane placement shared by the trace writers: lane names in dataflow order, non-overlapping slices, and the
// bounded look-ups that let arrows and finding marks point back at the instruction that released a token
// or made a GM access, without keeping the whole trace in memory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "frontend/ops.h"
#include "sim/event.h"
#include "sim/verdict.h"

namespace cvsim::traces {

// Lanes of one cluster, in dataflow order: AIC SCALAR, MTE2, MTE1, CUBE, FIXP, MTE3, then AIV0 SCALAR,
// MTE2, VECTOR, MTE3, then the same for AIV1 (the order of the Ascend profiler's lanes).
constexpr int kLanesPerCluster = 14;
struct Lane {
    sim::CoreId core = sim::CoreId::Aic;  // the core the lane belongs to
    ir::Pipe pipe = ir::Pipe::Scalar;     // its pipe
};
// The lane of (core, pipe) in dataflow order, -1 when the core has no such pipe.
int lane_index(sim::CoreId core, ir::Pipe pipe);
const Lane& lane_at(int index);
std::string_view core_label(sim::CoreId core);  // "AIC", "AIV0", "AIV1"
std::string lane_name(int index);               // "AIC MTE2", "AIV0 VECTOR", ...

// What a sync-token arrow stands for, named after the releasing instruction.
enum class FlowKind : uint8_t { Ring, RingFree, Flag, Barrier, Other };
constexpr int kFlowKinds = 5;
FlowKind flow_kind(std::string_view releaser_op);
std::string_view flow_name(FlowKind k);  // "tpush->tpop", "tfree->tpush", "sync_set->sync_wait", ...

// Slice argument texts shared by the writers: "[16, 128]", and "write q_rot[0:16, 0:128]; read ..." (tensor
// names by index; "tensorN" when unknown).
std::string shape_text(const std::vector<int64_t>& shape);
std::string gm_text(const std::vector<sim::GmAccess>& gm, const std::vector<std::string>& tensor_names);

// Appends `s` as a quoted JSON string. `html_safe` also escapes '<', '>' and '&' so the text can sit inside
// an inline <script> block.
void append_json_string(std::string& out, std::string_view s, bool html_safe = false);

// A map that forgets its oldest entries beyond a fixed capacity: trace memory stays bounded however long
// the run is. An acquire or a finding that refers to an evicted entry loses its arrow (never its slice).
template <typename K, typename V, typename Hash = std::hash<K>>
class BoundedMap {
  public:
    explicit BoundedMap(size_t capacity) : m_capacity(capacity == 0 ? 1 : capacity) {}
    void put(const K& k, const V& v) {
        auto [it, fresh] = m_map.insert_or_assign(k, v);
        (void)it;
        if (!fresh) return;
        m_order.push_back(k);
        if (m_order.size() > m_capacity) {
            m_map.erase(m_order.front());
            m_order.pop_front();
        }
    }
    const V* find(const K& k) const {
        auto it = m_map.find(k);
        return it == m_map.end() ? nullptr : &it->second;
    }
    size_t size() const { return m_map.size(); }

  private:
    size_t m_capacity;                     // entries kept
    std::unordered_map<K, V, Hash> m_map;  // the entries
    std::deque<K> m_order;                 // insertion order, oldest first (eviction order)
};

// Where an instruction was drawn: enough to attach an arrow to it.
struct Anchor {
    uint32_t cluster = 0;             // process
    int lane = 0;                     // lane index in the cluster
    uint64_t ts = 0;                  // slice start as drawn (cycles)
    uint64_t dur = 0;                 // slice duration as drawn (cycles)
    int64_t item = -1;                // writer-specific handle (the HTML writer's instruction index), -1: none
    FlowKind kind = FlowKind::Other;  // for releases: what the token stands for
};

// A GM access as a finding names it: (cluster, core, pipe, read/write, cycle). The cycle is the access's
// own (a read's start, a write's completion), as the hazard checker reports it.
struct AccessKey {
    uint32_t cluster = 0;
    uint8_t core = 0;
    uint8_t pipe = 0;
    bool write = false;
    uint64_t cycle = 0;
    bool operator==(const AccessKey&) const = default;
};
struct AccessKeyHash {
    size_t operator()(const AccessKey& k) const {
        uint64_t h = k.cycle * 0x9E3779B97F4A7C15ull;
        h ^= (uint64_t{k.cluster} << 16 | uint64_t{k.core} << 8 | uint64_t{k.pipe} << 1 | uint64_t{k.write}) +
             0x7F4A7C15ull + (h << 6) + (h >> 2);
        return static_cast<size_t>(h);
    }
};

// One placed instruction.
struct Slice {
    int lane = -1;     // -1: not drawn (a marker event or an unknown pipe)
    uint64_t ts = 0;   // drawn start (cycles)
    uint64_t dur = 0;  // drawn duration (cycles)
};

// Streaming placement of events on lanes, with bounded indexes of token releases and GM accesses.
class Timeline {
  public:
    explicit Timeline(size_t anchor_capacity = size_t{1} << 16);

    // Places an instruction on its lane so that slices never overlap (a start before the lane's last end
    // is moved to that end; events arrive in completion order, so ends never go backwards on a lane).
    Slice place(const sim::Event& e);
    // Records the event's releases and GM accesses under `item` after it was placed.
    void record(const sim::Event& e, const Slice& s, int64_t item);
    // The release anchor of a token, if still indexed.
    const Anchor* release_of(uint64_t token) const { return m_releases.find(token); }
    // The slice of a finding's access, if still indexed.
    std::optional<Anchor> access(const sim::FindingAccess& a) const;

  private:
    std::vector<uint64_t> m_lane_end;                         // per (cluster, lane): end of the last slice drawn
    BoundedMap<uint64_t, Anchor> m_releases;                  // sync token -> the slice that released it
    BoundedMap<AccessKey, Anchor, AccessKeyHash> m_accesses;  // GM access -> its slice
};

}  // namespace cvsim::traces
