// The data engine's cross-core side: scheduling points (PCT, sweep), DMA latency, ring pushes and pops (and
// a5's reads of slot memory); flags, barriers and fences are in data_flags.cpp. A wait on another core is a
// Step the core performs; the instruction's phase says where begin() resumes after it.
#include <fmt/format.h>

#include <cmath>

#include "core/cost_model.h"
#include "frontend/codes.h"
#include "sim/data_engine.h"
#include "sim/data_util.h"

namespace cvsim::sim {

using namespace ir;

uint64_t DataEngine::jitter(uint64_t cycles) {
    return m_st.policy->latency(m_st.cfg->schedule, m_st.rng, cycles);
}

uint8_t DataEngine::pct_point() {
    // Every synchronisation or GM event is a scheduling point; the policy says how many stalls this core
    // takes at this one (PCT: a change point drawn here; sweep: the seed's (core, event) pair).
    const uint64_t global = m_st.sync_events++;
    const uint64_t mine = m_sync_count++;
    return m_st.policy->stalls(m_st.cfg->schedule, m_st.pct_points, global, mine, m_runner_index, m_st.launched_cores);
}

uint64_t DataEngine::dma_latency(int path, uint64_t rows, uint64_t row_bytes, uint32_t hits, uint32_t misses) {
    const HwParams& hw = m_st.cfg->hw;
    uint64_t cyc = dma_cycles(hw, static_cast<DmaPath>(path), rows, row_bytes, hits, misses);
    // Bandwidth shared by concurrent GM transfers: beyond the HBM cap each transfer slows down.
    int active = m_st.machine->gm().active_transfers();
    double bw = path_bandwidth(hw.mte, static_cast<DmaPath>(path));
    if (active > 1 && path_touches_gm(static_cast<DmaPath>(path)) && hw.gm.hbm_bandwidth / active < bw) {
        double bytes = charged_bytes(hw.gm, rows, row_bytes);
        double extra = bytes / (hw.gm.hbm_bandwidth / active) - bytes / bw;
        cyc += ceil_cycles(extra);
    }
    return jitter(cyc);
}

// ---------------------------------------------------------------- pops

Step DataEngine::begin_pop(SimInstr& in) {
    Payload& p = in.p;
    const HwParams& hw = m_st.cfg->hw;
    CrossCorePipe& r = *p.ring;
    const int lane = p.ring_dir == 0 ? m_lane : 0;
    if (in.phase == 2) {
        in.phase = 4;
        if (!r.ring().can_pop(lane)) {
            in.wait_from = m_core->now();
            m_scalar_wait =
                WaitNote{WaitNote::Kind::Pop, &in, nullptr, nullptr, r.ring().next_pop_slot(lane), r.slot_num()};
            m_core->set_blocked(StallCause::Ring);
            in.phase = 3;
        }
    }
    if (in.phase == 3) {
        if (!r.ring().can_pop(lane)) return Step::event(r.changed());
        m_core->clear_blocked();
        m_scalar_wait = {};
        const uint64_t t = in.wait_from;
        r.consumer_stall_cycles += m_core->now() - t;
        m_core->account_stall(StallCause::Ring, m_core->now() - t, Pipe::Scalar);
        in.phase = 4;
    }
    if (in.phase == 4) {
        p.slot = r.ring().pop(lane);
        in.phase = 5;
        // The slot's data is visible when its push's write is (write_visibility_delay: at once for ring traffic).
        const CrossCorePipe::Slot& sl = r.slot(p.slot);
        if (sl.visible_at > m_core->now()) return Step::cycles(sl.visible_at - m_core->now());
    }
    CrossCorePipe::Slot& sl = r.slot(p.slot);
    for (uint64_t tok : sl.ready_token)
        if (tok) p.acquires.push_back(tok);
    if (m_st.detail) p.detail = fmt::format("{} slot {}", p.ring_dir == 0 ? "C2V" : "V2C", p.slot);
    if (m_replay) return Step::done(hw.sync.issue_cost);
    // The data this lane receives.
    SharedMatrix m = slot_contents(sl, p.ring_dir, m_lane);
    bool last_writer_matters = false;  // the values depend on which lane's push landed last
    if (p.ring_dir == 1 && sl.split == 0) {
        // Both real lanes wrote the same slot: the cube gets the last one; differing data is a finding.
        int written = 0;
        for (bool w : sl.part_written) written += w;
        const Matrix& a = sl.parts.size() > 1 ? values(sl.parts[0]) : values(nullptr);
        const Matrix& b = sl.parts.size() > 1 ? values(sl.parts[1]) : values(nullptr);
        if (written > 1 && sl.parts.size() > 1 && sl.parts[0] != sl.parts[1] &&
            (a.rows() != b.rows() || a.cols() != b.cols() || a != b)) {
            last_writer_matters = true;
            // A token (cvsim's own V2C fence under a split region) is never read: which lane landed last
            // cannot change anything.
            if (!p.unread)
                runtime_finding(codes::kNonuniformGather, *in.stmt,
                                "both AIV lanes pushed different data into the same V2C slot with split 0; the cube "
                                "receives whichever landed last");
        }
    }
    p.xfer = std::move(m);
    p.xfer_dtype = sl.dtype;
    // Clean parts make a clean pop only when the result does not depend on which lane landed last
    // (the recorded schedule's last writer may not be this one's).
    p.data_clean = !last_writer_matters;
    for (size_t k = 0; k < sl.part_clean.size(); ++k)
        if (sl.part_written[k] && !sl.part_clean[k]) p.data_clean = false;
    return Step::done(hw.sync.issue_cost);
}

void DataEngine::end_pop(SimInstr& in) {
    // What the popped tile is from now on (the walker saw it when the pop returned): its slot; on a5 the slot's
    // bytes in place (refreshed when a push reuses it); lane 1's smaller part of an odd C2V split as a run-time
    // valid region. On a2a3 the copy to the landing buffer (issued next) takes the slot and the data.
    Payload& p = in.p;
    if (!in.out) return;
    TileBuf& out = *in.out;
    out.slot = p.slot;
    if (m_replay) return;
    CrossCorePipe& r = *p.ring;
    if (m_st.cfg->hw.target == Target::A5 && out.slot >= 0) {
        out.slot_gen = static_cast<int64_t>(r.ring().slot(out.slot).generation);
        out.slot_writes = r.slot(out.slot).writes;
    }
    if (p.ring_dir == 0 && (p.split == 3 || p.split == 4)) {
        const Matrix& part = values(p.xfer);
        if (p.split == 3)
            out.vr = std::min<int64_t>(out.vr, part.rows());
        else
            out.vc = std::min<int64_t>(out.vc, part.cols());
    }
    if (m_st.cfg->hw.target == Target::A2A3) m_pop = PopHandoff{p.slot, std::move(p.xfer), p.xfer_dtype, p.data_clean};
}

uint64_t DataEngine::begin_pop_copy(SimInstr& in) {
    // a2a3: GM slot -> landing buffer (V2C: ND -> NZ repack into L1).
    Payload& p = in.p;
    GlobalMemory& gm = m_st.machine->gm();
    uint64_t bytes = static_cast<uint64_t>(in.call->type.bytes());
    CrossCorePipe& r = *p.ring;
    CrossCorePipe::Slot& sl = r.slot(p.slot);
    if (r.has_region) {
        GmAccess& a = p.add_gm();
        a.tensor = r.gm_tensor;
        a.window.tensor = r.gm_tensor;
        a.window.offsets.assign({static_cast<int64_t>(sl.gm_offset)});
        a.window.extents.assign({static_cast<int64_t>(std::max<uint64_t>(bytes, 1))});
        a.write = false;
        a.atomic = false;
        a.ring = true;
        a.ring_gen = static_cast<int64_t>(r.ring().slot(p.slot).generation);
    }
    L2Result l2 = gm.touch_raw(r.gm_tensor, sl.gm_offset, bytes);
    p.bytes_moved = bytes;
    int path = static_cast<int>(p.ring_dir == 0 ? DmaPath::GmToUb : DmaPath::GmToL1);
    return dma_latency(path, 1, bytes, l2.hits, l2.misses);
}

void DataEngine::end_tfree(SimInstr& in) {
    Payload& p = in.p;
    const TileRef& t = in.in[0];
    if (!t || t->ring < 0 || t->slot < 0) return;
    // The walker frees only on the ring the tile was popped from (LaneWalker, tfree): that ring is configured.
    if (!p.ring || !p.ring->configured()) return;
    auto res = p.ring->ring().free(t->lane, t->slot);
    if (res == RingBuffer::FreeResult::AlreadyFreed)
        runtime_finding(codes::kPipeFree, *in.stmt,
                        fmt::format("{} frees a slot twice (double tfree)", in.call->op->name()));
    else if (res == RingBuffer::FreeResult::NotPopped)
        runtime_finding(codes::kPipeFree, *in.stmt,
                        fmt::format("{} of a slot this lane did not pop", in.call->op->name()));
    else {
        uint64_t tok = m_st.token();
        p.releases.push_back(tok);
        p.ring->slot(t->slot).free_token[t->lane] = tok;
        if (m_st.detail) p.detail += fmt::format(" slot {}", t->slot);
    }
    p.ring->changed().notify(sc_core::SC_ZERO_TIME);
}

// ---------------------------------------------------------------- pushes

Step DataEngine::begin_push(SimInstr& in) {
    Payload& p = in.p;
    CrossCorePipe& r = *p.ring;
    const int lane = p.ring_dir == 0 ? 0 : m_lane;
    if (in.phase == 2) {
        in.phase = 4;
        if (!r.ring().can_push(lane)) {
            in.wait_from = m_core->now();
            const auto& st = r.ring().slot(r.ring().next_push_slot(lane));
            m_pipe_wait[static_cast<int>(in.pipe)] =
                WaitNote{WaitNote::Kind::Push,          &in,          nullptr,           nullptr,
                         r.ring().next_push_slot(lane), r.slot_num(), st.popped ? 1 : 0, st.freed ? 1 : 0};
            m_core->set_blocked(StallCause::Ring);
            in.phase = 3;
        }
    }
    if (in.phase == 3) {
        if (!r.ring().can_push(lane)) return Step::event(r.changed());
        m_core->clear_blocked();
        m_pipe_wait[static_cast<int>(in.pipe)] = {};
        const uint64_t t = in.wait_from;
        r.producer_stall_cycles += m_core->now() - t;
        m_core->account_stall(StallCause::Ring, m_core->now() - t, in.pipe);
    }
    return Step::done(push_data(in));
}

uint64_t DataEngine::push_data(SimInstr& in) {
    Payload& p = in.p;
    const HwParams& hw = m_st.cfg->hw;
    CrossCorePipe& r = *p.ring;
    const int lane = p.ring_dir == 0 ? 0 : m_lane;
    int slot = r.ring().next_push_slot(lane);
    p.slot = slot;
    CrossCorePipe::Slot& sl = r.slot(slot);
    for (uint64_t tok : sl.free_token)
        if (tok) p.acquires.push_back(tok);
    if (m_st.detail) p.detail = fmt::format("{} slot {}", p.ring_dir == 0 ? "C2V" : "V2C", slot);
    if (m_replay || !in.in[0]) return 0;
    const TileBuf& src = *in.in[0];
    // What the consumer will see. C2V: FIXP converts the accumulator (or L1) boxes correctly. V2C: the
    // transport copies raw bytes; a2a3's pop repacks them as ND, a5's cube reads them in place as NZ, so a
    // vector tile in another layout arrives scrambled.
    SharedMatrix shared;
    Matrix m;
    MemoEntry* hit = src.clean ? memo_find(in) : nullptr;
    const Layout seen = hw.target == Target::A5 ? Layout::NZ : Layout::ND;
    if (hit && hit->data) {
        shared = hit->data;
        if (p.ring_dir == 1 && src.layout != seen)
            runtime_finding(codes::kV2cLayout, *in.stmt,
                            fmt::format("tpush_to_aic of a {} tile on {}: the V2C transport delivers {} data, so the "
                                        "cube reads it scrambled",
                                        layout_name(src.layout), target_name(hw.target), layout_name(seen)));
    } else if (p.ring_dir == 0) {
        m = read_tile(src).m;
    } else {
        m = decode(src.bytes.data(), src.bytes.size(), src.dtype, seen, false, src.rows, src.cols);
        if (src.layout != seen)
            runtime_finding(codes::kV2cLayout, *in.stmt,
                            fmt::format("tpush_to_aic of a {} tile on {}: the V2C transport delivers {} data, so the "
                                        "cube reads it scrambled",
                                        layout_name(src.layout), target_name(hw.target), layout_name(seen)));
    }
    if (!shared) {
        m = Matrix(m.topLeftCorner(std::min(src.vr, static_cast<int64_t>(m.rows())),
                                   std::min(src.vc, static_cast<int64_t>(m.cols()))));
        if (MemoEntry* e = memo_find(in)) {
            p.data_clean = e->data && e->data->rows() == m.rows() && e->data->cols() == m.cols() && *e->data == m;
            if (p.data_clean) shared = e->data;  // equal values: share the recorded ones
        }
        if (!shared) shared = std::make_shared<const Matrix>(std::move(m));
        if (!memo_find(in))
            if (MemoEntry* rec = memo_record(in)) {
                rec->data = shared;
                p.data_clean = true;
                m_st.cfg->memo->charge(static_cast<size_t>(shared->size()) * sizeof(double));
            }
    } else {
        p.data_clean = true;
    }
    uint64_t bytes = static_cast<uint64_t>(shared->size()) * dtype_bytes(src.dtype);
    p.xfer = std::move(shared);
    p.xfer_dtype = src.dtype;
    const Matrix& pushed = *p.xfer;
    p.bytes_moved = bytes;
    if (static_cast<int64_t>(bytes) > r.slot_size())
        runtime_finding(codes::kPipeSlot, *in.stmt,
                        fmt::format("pushes {} bytes into slots of {} bytes", bytes, r.slot_size()));
    // The slot write as the checker sees it: on a2a3 the slot lives in the hidden GM ring tensor, on a5 in the
    // consumer's SRAM (named by the same ring tensor; no GM traffic). Lane 1 writes after lane 0's part, whose
    // size is the static tile's (lane 0's is the larger part of an odd split; lane 1's may be one row or column
    // smaller).
    uint64_t part_off = 0;
    if (p.ring_dir == 1 && p.split != 0 && m_lane == 1)
        part_off = static_cast<uint64_t>(src.rows * src.cols) * dtype_bytes(src.dtype);
    if (r.has_region) {
        GmAccess& a = p.add_gm();
        a.tensor = r.gm_tensor;
        a.window.tensor = r.gm_tensor;
        a.window.offsets.assign({static_cast<int64_t>(sl.gm_offset + part_off)});
        a.window.extents.assign({static_cast<int64_t>(std::max<uint64_t>(bytes, 1))});
        a.write = true;
        a.atomic = false;
        a.ring = true;
        a.ring_gen = static_cast<int64_t>(r.ring().slot(slot).generation);
    }
    if (hw.target == Target::A2A3) {
        L2Result l2 = m_st.machine->gm().touch_raw(r.gm_tensor, sl.gm_offset + part_off, bytes);
        if (p.ring_dir == 0)
            return jitter(fixp_to_gm_cycles(hw.mte, static_cast<uint64_t>(pushed.rows()),
                                            static_cast<uint64_t>(pushed.cols()), src.dtype) +
                          dma_start_latency(hw.gm, l2.hits, l2.misses));
        return dma_latency(static_cast<int>(DmaPath::UbToGm), 1, bytes, l2.hits, l2.misses);
    }
    if (p.ring_dir == 0) return jitter(dma_cycles(hw, DmaPath::L0cToUb, 1, bytes, 0, 0));
    return jitter(dma_cycles(hw, DmaPath::UbToUb, 1, bytes, 0, 0));
}

void DataEngine::end_push(SimInstr& in) {
    Payload& p = in.p;
    CrossCorePipe& r = *p.ring;
    int lane = p.ring_dir == 0 ? 0 : m_lane;
    int slot = r.ring().push(lane);
    CrossCorePipe::Slot& sl = r.slot(slot);
    uint64_t tok = m_st.token();
    p.releases.push_back(tok);
    sl.ready_token[lane] = tok;
    sl.split = p.split;
    for (const GmAccess& a : p.gm)
        if (a.write)
            sl.visible_at = std::max(sl.visible_at, m_core->now() + write_visibility_delay(a, m_st.visibility_delay));
    if (!m_replay && in.in[0]) {
        // The instruction retires after end(): its data moves into the slot. The parts are kept for the
        // V2C gather (C2V has one producer and pops its part from `data`).
        if (p.ring_dir == 1) sl.parts[lane] = p.xfer;
        sl.data = std::move(p.xfer);  // the last writer wins for split 0
        sl.dtype = p.xfer_dtype;
        sl.part_written[lane] = true;
        sl.part_clean[lane] = p.data_clean;
    } else if (m_replay) {
        sl.part_written[lane] = false;
        sl.part_clean[lane] = true;
        sl.parts[lane] = nullptr;
    }
    if (!m_replay && in.in[0]) ++sl.writes;
    r.changed().notify(sc_core::SC_ZERO_TIME);
}

// ---------------------------------------------------------------- a5 slot memory

void DataEngine::refresh_slot_tile(TileBuf& t, CrossCorePipe::Slot& sl) {
    // a5: a push reused the slot since `t` (a popped tile or a view of one) last took its bytes from it, so
    // what `t` reads now is the new data (its tfree came too early): rebuild it, views from what they view.
    if (t.slot_writes == sl.writes || t.bytes.empty()) return;
    TileBytes before = t.bytes;
    if (t.slot_bound) {
        write_tile(t, *slot_contents(sl, t.ring, t.lane));
    } else if (t.view_src) {
        refresh_slot_tile(*t.view_src, sl);
        if (t.view_code == OpCode::ReinterpretView) {
            // The same bytes read as t's dtype (as n_reinterpret does: the source's physical layout).
            const TileBuf& src = *t.view_src;
            const auto raw = encode(read_tile(src).m, src.dtype, src.layout, src.acc);
            write_tile(t, decode(raw.data(), raw.size(), t.dtype, src.layout, false, t.rows, t.cols));
        } else {
            write_tile(t, view_data(t.view_code, read_tile(*t.view_src), t.rows, t.cols, t.view_ints).m);
        }
    }
    t.slot_writes = sl.writes;
    if (t.bytes != before) t.clean = false;
}

void DataEngine::slot_reads(SimInstr& in) {
    // a5: an instruction reading a popped tile or a view of it reads the ring slot (checked as such).
    Payload& p = in.p;
    for (const TileRef& t : in.in) {
        TileBuf* root = t ? slot_root(t.get()) : nullptr;
        if (!root) continue;
        CrossCorePipe& r = m_st.machine->ring(m_cluster, root->ring, root->ring_id);
        if (!r.configured() || root->slot < 0 || root->slot >= r.slot_num()) continue;
        CrossCorePipe::Slot& sl = r.slot(root->slot);
        refresh_slot_tile(*t, sl);
        // A view made now reflects the slot as it is now.
        if (in.out && in.out->view_src == t) in.out->slot_writes = sl.writes;
        if (!r.has_region) continue;
        GmAccess& a = p.add_gm();
        a.tensor = r.gm_tensor;
        a.window.tensor = r.gm_tensor;
        a.window.offsets.assign({static_cast<int64_t>(r.slot(root->slot).gm_offset)});
        a.window.extents.assign({std::max<int64_t>(r.slot_size(), 1)});
        a.write = false;
        a.atomic = false;
        a.ring = true;
        a.ring_gen = root->slot_gen;
    }
}

}  // namespace cvsim::sim
