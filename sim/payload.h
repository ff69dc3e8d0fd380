// Per-instruction data the lane executor hands to the engine (private to sim/).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/instr.h"

#include "core/datapath.h"
#include "models/cross_core_pipe.h"
#include "sim/event.h"

namespace cvsim::sim {

enum class PayloadKind : uint8_t {
    Op,          // an op call executed by its pipe
    PopWait,     // scalar: wait for a ready slot and take it (tpop); a2a3 then issues PopCopy
    PopCopy,     // MTE2: copy the popped slot into the landing buffer (a2a3)
    Tfree,       // scalar: release a popped slot
    SyncArrive,  // scalar: drain, then arrive at the barrier (the arrival is a release)
    SyncDepart,  // scalar: wait for the barrier's release (acquires every arrival)
    Fence,       // scalar: drain and wait until GM writes are visible
    Scalar,      // scalar bookkeeping op with no data (setup, cacheinvalid, ...)
    Skip,        // replay lane: an op without data (no effect, no cost)
};

struct Payload {
    PayloadKind kind = PayloadKind::Op;
    std::vector<GmAccess> gm;       // GM windows touched
    OrderKeyPtr order;              // sequential-program position (GM accesses)
    CrossCorePipe* ring = nullptr;  // tpush/tpop/tfree
    int ring_dir = 0;               // 0 = C2V, 1 = V2C
    int64_t ring_id = 0;
    int split = 0;                                    // split code of a transport
    int slot = -1;                                    // ring slot
    std::vector<uint64_t> acquires;                   // tokens acquired
    std::vector<uint64_t> releases;                   // tokens released
    std::vector<uint8_t> bytes;                       // GM bytes read at begin (loads) or to write at end (stores)
    const std::vector<uint8_t>* store_src = nullptr;  // stores: the memo's bytes to write instead of `bytes`
    TileData data;                                    // values computed at begin, written at end
    SharedMatrix xfer;                                // pushes: the values sent; pops: the values received
    DType xfer_dtype = DType::FP32;
    bool drain = false;  // waited for all earlier instructions of the core
    bool fence = false;
    bool hard = true;                // syncall mode
    std::string group;               // syncall group
    std::string barrier;             // syncall: the barrier it meets (group, mode, a soft one's GM workspace)
    int64_t event_id = -1;           // sync_set / sync_wait
    uint64_t bytes_moved = 0;        // for events/traces
    std::string detail;              // words for traces and reports
    bool memo_hit = false;           // the result is taken from the memo (inputs identical)
    bool data_clean = false;         // p.data equals the memo's (pushes, pops)
    bool bytes_out = false;          // compute: `bytes` holds the result's encoded bytes (not p.data)
    bool unread = false;             // pops: nothing but a tfree reads the popped tile (a token)
    uint32_t gm_static = 0;          // gm[0, gm_static) are the windows (the rest: run time)
    std::vector<GmAccess> gm_spare;  // run-time windows of earlier schedules, kept for their storage
    uint32_t indexed_tensor = 0;     // mgather / mscatter: the GM tensor the index tile picks from

    // A run-time GM access (a ring slot's), every field to be set by the caller; its window's vectors reuse
    // the storage of an earlier schedule's.
    GmAccess& add_gm() {
        if (gm_spare.empty()) return gm.emplace_back();
        gm.push_back(std::move(gm_spare.back()));
        gm_spare.pop_back();
        return gm.back();
    }
    // Forget what one schedule computed (a recorded instruction runs again in the next schedule).
    void reset_runtime() {
        while (gm.size() > gm_static) {
            gm_spare.push_back(std::move(gm.back()));
            gm.pop_back();
        }
        slot = -1;
        acquires.clear();
        releases.clear();
        bytes.clear();
        store_src = nullptr;
        data = TileData{};
        xfer = nullptr;
        xfer_dtype = DType::FP32;
        bytes_moved = 0;
        detail.clear();
        memo_hit = false;
        data_clean = false;
        bytes_out = false;
        if (kind == PayloadKind::SyncArrive) event_id = -1;
        if (kind == PayloadKind::SyncDepart) ring_id = 0;
    }
    // Free the data a completed instruction holds (its static description stays).
    void release_data() {
        std::vector<uint8_t>().swap(bytes);
        data = TileData{};
        xfer = nullptr;
        store_src = nullptr;
    }
};

// The engine's instruction: the core model's Instr plus its payload, allocated together.
struct SimInstr final : Instr {
    Payload p;
};
inline Payload& pl(PipeInstr& in) {
    return static_cast<SimInstr&>(in).p;
}
inline const Payload& pl(const PipeInstr& in) {
    return static_cast<const SimInstr&>(in).p;
}

}  // namespace cvsim::sim
