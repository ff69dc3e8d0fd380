// The data engine: begin's dispatch (with the scheduling point and the a5 slot reads every kind shares),
// loads, stores and compute, end, the event, and the instruction life cycle (issued, retired).
#include "sim/data_engine.h"

#include <fmt/format.h>

#include <cmath>
#include <new>

#include "core/cost_model.h"
#include "core/layout.h"
#include "core/layout_window.h"
#include "frontend/codes.h"
#include "frontend/ops.h"
#include "sim/data_util.h"

namespace cvsim::sim {

using namespace ir;

void RunState::add_finding(Finding f) {
    if (f.key.empty()) f.key = f.code + ":" + f.loc.str() + ":" + f.message;
    if (!finding_keys.insert(f.key).second) return;
    findings.push_back(std::move(f));
}

void RunState::emit(const Event& e) {
    for (EventSink* s : cfg->sinks) s->on_event(e);
}

DataEngine::DataEngine(RunState& st, int cluster, CoreId core, bool replay, int lane, int aiv_lanes, bool owns)
    : m_st(st),
      m_cluster(cluster),
      m_core_id(core),
      m_replay(replay),
      m_lane(lane),
      m_aiv_lanes(aiv_lanes),
      m_owns(owns) {
    m_core = st.machine->cluster(cluster).cores[static_cast<int>(core)].get();
    m_core_index = cluster * kCoresPerCluster + static_cast<int>(core);
}

std::vector<std::string> DataEngine::blocked() const {
    std::vector<std::string> out;
    if (!m_scalar_wait.empty()) out.push_back(describe(m_scalar_wait));
    for (int p = 0; p < kNumPipes; ++p)
        if (!m_pipe_wait[p].empty()) out.push_back(describe(m_pipe_wait[p]));
    if (out.empty())
        for (auto& w : m_core->pipe_waits()) out.push_back(w);
    return out;
}

// ---------------------------------------------------------------- life cycle

void DataEngine::issued(PipeInstr& pin) {
    SimInstr& in = static_cast<SimInstr&>(pin);
    Payload& p = in.p;
    if (!m_owns) {
        // A recorded instruction again: what the last schedule computed goes.
        in.phase = 0;
        in.pct_left = 0;
        in.done = false;
        p.reset_runtime();
    }
    if (p.kind == PayloadKind::PopCopy) {
        // The tpop's wait ran just before: its slot and data go to the copy to the landing buffer.
        p.slot = m_pop.slot;
        p.xfer = std::move(m_pop.xfer);
        p.xfer_dtype = m_pop.dtype;
        p.data_clean = m_pop.clean;
        m_pop = PopHandoff{};
    } else if (p.kind == PayloadKind::SyncDepart) {
        p.ring_id = m_arrive_episode;  // the episode the arrival joined
    }
}

void DataEngine::retire(PipeInstr& pin) {
    SimInstr& in = static_cast<SimInstr&>(pin);
    if (m_owns) {
        delete &in;
        return;
    }
    in.p.release_data();
    // A tile's bytes go with the last instruction of the stream using it (or a view of it).
    auto used = [](TileBuf* t) {
        for (; t; t = t->view_src.get())
            if (t->uses_left > 0 && --t->uses_left == 0) t->bytes = TileBytes();
    };
    for (const TileRef& t : in.in) used(t.get());
    used(in.out.get());
}

// ---------------------------------------------------------------- effects between instructions

void DataEngine::runtime_finding(const std::string& code, const Stmt& s, const std::string& msg) {
    Finding f;
    f.code = code;
    f.message = fmt::format("{}: {}", s.loc.short_str(), msg);
    f.loc = s.loc;
    f.cycle = m_core->now();
    f.key = code + ":" + s.loc.str();
    m_st.add_finding(std::move(f));
}

void DataEngine::configure_ring(int dir, int64_t id, int64_t slot_num, int64_t slot_size, const Stmt& s) {
    CrossCorePipe& r = m_st.machine->ring(m_cluster, dir, id);
    const ir::Stmt*& side = m_st.machine->cluster(m_cluster).ring_setups[{dir, id}][m_core_id == CoreId::Aic ? 0 : 1];
    if (!side) side = &s;
    if (!r.configured()) {
        bool c2v = dir == 0;
        r.configure(c2v, static_cast<int>(slot_num), slot_size, c2v ? 1 : m_aiv_lanes, c2v ? m_aiv_lanes : 1);
    } else if (r.slot_num() != slot_num || r.slot_size() != slot_size) {
        runtime_finding(
            codes::kPipeSetup, s,
            fmt::format(
                "the {} ring is initialised with {} slots of {} bytes here but {} slots of {} bytes by the peer",
                dir == 0 ? "C2V" : "V2C", slot_num, slot_size, r.slot_num(), r.slot_size()));
    }
}

bool DataEngine::ring_ready(CrossCorePipe& r, const Expr& c, const Stmt& s, int dir) {
    if (r.configured()) return true;
    m_scalar_wait = WaitNote{WaitNote::Kind::Ring, nullptr, &c, &s, dir};
    return false;
}

bool DataEngine::dispatch_ready(int after, int chip) {
    Machine& m = *m_st.machine;
    if (m.blocks_done() >= after) return true;
    m_scalar_wait = WaitNote{WaitNote::Kind::Dispatch, nullptr, nullptr, nullptr, after, chip};
    m_core->set_blocked(StallCause::Barrier);
    return false;
}

void DataEngine::dispatch_wait_done() {
    m_core->clear_blocked();
    m_scalar_wait = {};
}

std::string DataEngine::describe(const WaitNote& n) const {
    using K = WaitNote::Kind;
    const SimInstr* in = n.in;
    switch (n.kind) {
        case K::None:
            return {};
        case K::Pop:
            return fmt::format("{} at {} waits for data in the {} ring (slot {} of {})", in->call->op->name(),
                               in->stmt->loc.short_str(), in->p.ring_dir == 0 ? "C2V" : "V2C", n.a, n.b);
        case K::Push:
            return fmt::format("{} at {} waits for a free slot in the {} ring (slot {} of {}: {} popped, {} freed)",
                               in->call->op->name(), in->stmt->loc.short_str(), in->p.ring_dir == 0 ? "C2V" : "V2C",
                               n.a, n.b, n.c ? "data" : "no data", n.d ? "partly" : "not");
        case K::Flag:
            return fmt::format("system.sync_wait({}) at {} waits for a sync_set", in->p.event_id,
                               in->stmt->loc.short_str());
        case K::Fence:
            return fmt::format("system.fence at {} waits for GM writes to become visible", in->stmt->loc.short_str());
        case K::Syncall: {
            const Payload& p = in->p;
            const int64_t launched_clusters = m_st.cfg->plan->blocks;
            return fmt::format(
                "system.syncall({}, {}) at {} waits for {} participants ({} arrived{})", p.group,
                p.hard ? "hard" : "soft", in->stmt->loc.short_str(), n.a, n.b,
                p.hard && n.a > n.c * launched_clusters
                    ? fmt::format(
                          "; a hard barrier waits for every core of the chip's {} {}, {} launched", m_st.capacity,
                          m_st.capacity == static_cast<int>(m_st.cfg->hw.chip.clusters) ? "clusters" : "AIV cores",
                          launched_clusters)
                    : "");
        }
        case K::Ring:
            return fmt::format("{} at {} waits for the {} pipe to be initialised (no *_initialize_pipe ran)",
                               n.call->op->name(), n.stmt->loc.short_str(), n.a == 0 ? "C2V" : "V2C");
        case K::Dispatch:
            return fmt::format(
                "block {} not dispatched: the chip's {} clusters are busy (a launch of {} blocks runs in waves; it "
                "starts "
                "once {} block(s) finished)",
                m_cluster, n.b, m_st.blocks, n.a);
    }
    return {};
}

// ---------------------------------------------------------------- begin

Step DataEngine::begin(SimInstr& in) {
    Payload& p = in.p;
    const HwParams& hw = m_st.cfg->hw;
    if (in.phase == 0) {
        if (m_st.cfg->fault_abort_at >= 0 && m_st.instructions >= static_cast<uint64_t>(m_st.cfg->fault_abort_at))
            std::abort();
        if (m_st.cfg->fault_out_of_memory_at >= 0 &&
            m_st.instructions >= static_cast<uint64_t>(m_st.cfg->fault_out_of_memory_at))
            throw std::bad_alloc();
        in.phase = 1;
        // Every synchronisation or GM event is a scheduling point (PCT, sweep); an a5 read of slot memory is
        // recorded before it.
        bool point = p.kind == PayloadKind::PopWait || p.kind == PayloadKind::SyncArrive;
        if (p.kind == PayloadKind::Op) {
            if (hw.target == Target::A5 && !m_replay) slot_reads(in);
            switch (in.call->op->code) {
                case OpCode::Load:
                case OpCode::TensorRead:
                case OpCode::Store:
                case OpCode::TensorWrite:
                case OpCode::TpushToAiv:
                case OpCode::TpushToAic:
                case OpCode::Mgather:
                case OpCode::Mscatter:
                case OpCode::SyncSet:
                case OpCode::SyncWait:
                    point = true;
                    break;
                default:
                    break;
            }
        }
        if (point) in.pct_left = pct_point();
    }
    if (in.phase == 1) {
        const uint64_t delay = m_st.cfg->schedule.pct_delay;
        while (in.pct_left > 0) {
            --in.pct_left;
            if (delay > 0) return Step::cycles(delay);
            if (m_st.machine->control().aborted) throw AbortRun{};
        }
        in.phase = 2;
    }
    switch (p.kind) {
        case PayloadKind::Scalar:
            return Step::done(hw.sync.issue_cost);
        case PayloadKind::Skip:
            return Step::done(0);
        case PayloadKind::PopWait:
            return begin_pop(in);
        case PayloadKind::PopCopy:
            return Step::done(begin_pop_copy(in));
        case PayloadKind::Tfree: {
            const TileRef& t = in.in[0];
            p.detail = p.ring_dir == 0 ? "C2V" : "V2C";
            if (!t || t->ring < 0 || t->slot < 0)
                runtime_finding(codes::kPipeFree, *in.stmt,
                                fmt::format("{} of a tile that was not popped from a ring", in.call->op->name()));
            return Step::done(hw.sync.issue_cost);  // the release itself happens in end(), where its event is emitted
        }
        case PayloadKind::Fence:
            return begin_fence(in);
        case PayloadKind::SyncArrive:
            // The episode this arrival joins (completed episodes so far); the arrival itself happens in end().
            p.event_id = static_cast<int64_t>(m_st.machine->barrier(p.barrier).generation);
            m_arrive_episode = p.event_id;
            return Step::done(hw.sync.issue_cost);
        case PayloadKind::SyncDepart:
            return begin_depart(in);
        case PayloadKind::Op:
            break;
    }
    return begin_op(in);
}

Step DataEngine::begin_op(SimInstr& in) {
    Payload& p = in.p;
    const HwParams& hw = m_st.cfg->hw;
    switch (in.call->op->code) {
        case OpCode::Load:
        case OpCode::TensorRead:
            return Step::done(begin_load(in));
        case OpCode::Store:
        case OpCode::TensorWrite:
            return Step::done(begin_store(in));
        case OpCode::TpushToAiv:
        case OpCode::TpushToAic:
            return begin_push(in);
        case OpCode::Mgather:
        case OpCode::Mscatter:
            return Step::done(in.out && in.out->mem == Mem::Mat ? begin_mgather_mat(in) : begin_indexed(in));
        case OpCode::SyncSet:
            return Step::done(hw.sync.issue_cost);
        case OpCode::SyncWait: {
            Step w = wait_flag(in);
            return w.waits() ? w : Step::done(hw.sync.issue_cost);
        }
        default:
            break;
    }
    // Compute and on-chip movement: the latency depends on shapes only; the data is taken from the memo
    // when every input is unchanged from the recorded schedule.
    p.bytes_moved = in.out->bytes.size();
    uint64_t lat = compute_latency(in);
    if (inputs_clean(in))
        if (MemoEntry* e = memo_find(in); e && e->has_out) p.memo_hit = true;
    if (!p.memo_hit) compute_data(in);
    return Step::done(lat);
}

uint64_t DataEngine::begin_load(SimInstr& in) {
    Payload& p = in.p;
    GlobalMemory& gm = m_st.machine->gm();
    const GmAccess& a = p.gm[0];
    const auto& t = m_st.tensors->tensors[a.tensor];
    // The recorded bytes again: certainly when the recorded read and this one both see the session's image (no
    // write reached the tensor), else compared in place; copied only when they differ (or are recorded).
    // A core reads its own completed writes before other cores see them (SPEC 4.5: the delay is theirs).
    MemoEntry* e = memo_find(in);
    if (e && e->has_out && e->image_read && !gm.written(a.tensor)) {
        gm.read_image(m_core->now(), e->gm_bytes.size());
        p.memo_hit = true;
    } else if (e && e->has_out && gm.read_equals(t, a.tensor, a.window, m_core->now(), e->gm_bytes, m_core_index)) {
        p.memo_hit = true;
    } else {
        const bool image = !gm.written(a.tensor);
        gm.read(t, a.tensor, a.window, m_core->now(), p.bytes, m_core_index);
        if (MemoEntry* r = memo_record(in)) {
            r->gm_bytes = p.bytes;
            r->image_read = image;
            m_st.cfg->memo->charge(p.bytes.size());
        }
    }
    L2Result l2 = gm.touch(t, a.tensor, a.window);
    gm.transfer_begin();
    uint64_t row_bytes = storage_bytes(t.dtype, a.window.cols());
    uint64_t rows = static_cast<uint64_t>(a.window.rows());
    p.bytes_moved = rows * row_bytes;
    // GM -> UB copies a full-width window (rows contiguous in GM) as one run. GM -> L1 repacks ND
    // into NZ fractals row by row, so every source row is its own access even when the rows are
    // contiguous: rows narrower than the access granule pay for it (the device-measured 16-25%).
    bool to_l1 = in.out->mem == Mem::Mat;
    bool merge = !to_l1 && a.window.extents.back() == t.shape.back();
    int path = static_cast<int>(to_l1 ? DmaPath::GmToL1 : DmaPath::GmToUb);
    return merge ? dma_latency(path, 1, rows * row_bytes, l2.hits, l2.misses)
                 : dma_latency(path, rows, row_bytes, l2.hits, l2.misses);
}

uint64_t DataEngine::begin_store(SimInstr& in) {
    Payload& p = in.p;
    const HwParams& hw = m_st.cfg->hw;
    GlobalMemory& gm = m_st.machine->gm();
    const GmAccess& a = p.gm[0];
    const auto& t = m_st.tensors->tensors[a.tensor];
    const TileBuf& src = *in.in[0];
    // MTE3 copies UB bytes as they are laid out (a non-ND tile lands scrambled); FIXP converts
    // the accumulator's NZ boxes and quantises to the tensor's dtype.
    int64_t R = a.window.rows(), C = a.window.cols();
    MemoEntry* hit = src.clean ? memo_find(in) : nullptr;
    if (hit) {
        p.store_src = &hit->gm_bytes;  // the memo does not move outside its recording schedule
    } else {
        // The window's R x C elements of the tile (zero past its edge), decoding no more of it than that.
        const bool fixp = src.mem == Mem::Acc;
        const Matrix m = decode_window(src.bytes.data(), src.bytes.size(), src.dtype, fixp ? src.layout : Layout::ND,
                                       fixp && src.acc, src.rows, src.cols, 0, 0, R, C);
        p.bytes.assign(storage_bytes(t.dtype, R * C), 0);
        for (int64_t r = 0; r < R; ++r)
            for (int64_t c = 0; c < C; ++c)  // packed for 4-bit dtypes
                put_element(t.dtype, round_to(t.dtype, m(r, c)), p.bytes.data(), r * C + c);
        if (MemoEntry* r = memo_record(in)) {
            r->gm_bytes = p.bytes;
            m_st.cfg->memo->charge(p.bytes.size());
        }
    }
    L2Result l2 = gm.touch(t, a.tensor, a.window);
    gm.transfer_begin();
    uint64_t row_bytes = storage_bytes(t.dtype, C);
    p.bytes_moved = static_cast<uint64_t>(R) * row_bytes;
    if (src.mem == Mem::Acc)
        return jitter(fixp_to_gm_cycles(hw.mte, static_cast<uint64_t>(R), static_cast<uint64_t>(C), t.dtype) +
                      dma_start_latency(hw.gm, l2.hits, l2.misses));
    bool full_rows = C == t.shape.back();
    return full_rows ? dma_latency(static_cast<int>(DmaPath::UbToGm), 1, static_cast<uint64_t>(R) * row_bytes, l2.hits,
                                   l2.misses)
                     : dma_latency(static_cast<int>(DmaPath::UbToGm), static_cast<uint64_t>(R), row_bytes, l2.hits,
                                   l2.misses);
}

// ---------------------------------------------------------------- end

void DataEngine::end(SimInstr& in) {
    Payload& p = in.p;
    ++m_st.instructions;
    switch (p.kind) {
        case PayloadKind::SyncArrive:
            end_arrive(in);
            break;
        case PayloadKind::Tfree:
            end_tfree(in);
            break;
        case PayloadKind::PopWait:
            if (!m_replay && m_st.cfg->hw.target == Target::A5 && in.out) {
                // a5: the tile is bound to the slot in place (it is in the consumer's SRAM already).
                land_tile(in, p);
            }
            break;
        case PayloadKind::PopCopy:
            m_st.machine->gm().transfer_end();
            if (in.out) land_tile(in, p);
            break;
        case PayloadKind::Op:
            end_op(in);
            break;
        default:
            break;
    }
    m_st.emit(make_event(in));
    if (p.kind == PayloadKind::PopWait) end_pop(in);
}

void DataEngine::end_op(SimInstr& in) {
    Payload& p = in.p;
    GlobalMemory& gm = m_st.machine->gm();
    const OpCode code = in.call->op->code;
    if (code == OpCode::Load || code == OpCode::TensorRead) {
        gm.transfer_end();
        TileBuf& out = *in.out;
        const GmAccess& a = p.gm[0];
        const auto& t = m_st.tensors->tensors[a.tensor];
        int64_t R = a.window.rows(), C = a.window.cols();
        if (p.memo_hit) {
            out.bytes = memo_find(in)->out_bytes;
            out.clean = true;
        } else {
            Matrix m = decode(p.bytes.data(), p.bytes.size(), t.dtype, Layout::ND, false, R, C);
            // The window is the valid region when the load has one: the rest of the tile is zero.
            if (out.vr < R || out.vc < C || out.rows != R || out.cols != C) {
                Matrix z = Matrix::Zero(out.rows, out.cols);
                z.topLeftCorner(std::min(out.vr, R), std::min(out.vc, C)) =
                    m.topLeftCorner(std::min(out.vr, R), std::min(out.vc, C));
                m = z;
            }
            write_tile(out, m);
            settle_output(in, out);
        }
    } else if (code == OpCode::Store || code == OpCode::TensorWrite) {
        gm.transfer_end();
        const GmAccess& a = p.gm[0];
        uint64_t visible = m_core->now() + write_visibility_delay(a, m_st.visibility_delay);
        // The memo's bytes stay put for the session: the pending write refers to them.
        gm.write(m_st.tensors->tensors[a.tensor], a.tensor, a.window,
                 p.store_src ? p.store_src->data() : p.bytes.data(), visible, a.atomic, m_core_index,
                 p.store_src != nullptr);
        m_max_visible = std::max(m_max_visible, visible);
    } else if (code == OpCode::Mgather) {
        // Never memoised: the picked addresses (and what other cores wrote there) differ by schedule.
        gm.transfer_end();
        write_tile(*in.out, p.data.m);
        in.out->clean = false;
        if (in.out->mem == Mem::Mat) end_mgather_mat(in);  // elem mode: the GM scratch write
    } else if (code == OpCode::Mscatter) {
        gm.transfer_end();
        const auto& t = m_st.tensors->tensors[p.gm.empty() ? 0 : p.gm[0].tensor];
        const size_t eb = storage_bytes(t.dtype, 1);
        for (size_t k = 0; k < p.gm.size(); ++k) {
            const GmAccess& a = p.gm[k];
            uint64_t visible = m_core->now() + write_visibility_delay(a, m_st.visibility_delay);
            gm.write(t, a.tensor, a.window, p.bytes.data() + k * eb, visible, false, m_core_index);
            m_max_visible = std::max(m_max_visible, visible);
        }
    } else if (code == OpCode::TpushToAiv || code == OpCode::TpushToAic) {
        end_push(in);
    } else if (code == OpCode::SyncSet) {
        end_sync_set(in);
    } else if (in.out && p.memo_hit) {
        in.out->bytes = memo_find(in)->out_bytes;
        in.out->clean = true;
    } else if (in.out && p.bytes_out) {
        in.out->bytes = std::move(p.bytes);  // the result's bytes (an assemble written in place)
        settle_output(in, *in.out);
    } else if (in.out && p.data.m.size() > 0) {
        write_tile(*in.out, p.data.m);
        settle_output(in, *in.out);
    }
}

Event& DataEngine::make_event(SimInstr& in) {
    // One event object reused by every instruction (sinks read it during on_event only): its lists keep their
    // storage, so filling it allocates nothing once they have grown.
    static thread_local Event e;
    Payload& p = in.p;
    e.kind = EventKind::Instr;
    e.cluster = static_cast<uint16_t>(m_cluster);
    e.core = m_core_id;
    e.pipe = in.pipe;
    e.seq = in.seq;
    e.pipe_seq = in.pipe_seq;
    e.op = in.call ? std::string_view(in.call->op->name()) : std::string_view("?");
    e.loc = in.stmt ? in.stmt->loc : SourceLoc{};
    e.start = in.start;
    e.end = m_core->now();
    e.bytes = p.bytes_moved;
    if (in.out)
        e.shape.assign({in.out->rows, in.out->cols});
    else if (in.in[0])
        e.shape.assign({in.in[0]->rows, in.in[0]->cols});
    else
        e.shape.clear();
    e.deps.assign(in.deps.begin(), in.deps.end());
    e.scalar_before = in.scalar_before;
    e.drain = p.drain;
    e.fence = p.fence;
    e.acquires.assign(p.acquires.begin(), p.acquires.end());
    e.releases.assign(p.releases.begin(), p.releases.end());
    e.gm.resize(p.gm.size());
    for (size_t i = 0; i < p.gm.size(); ++i) e.gm[i] = p.gm[i];
    e.order = p.order;
    e.detail = p.detail;
    if (p.kind == PayloadKind::PopCopy && m_st.detail) e.detail = "pop copy " + e.detail;
    e.ring_dir = -1;
    e.ring_occupancy = -1;
    e.flag_event = -1;
    if (p.ring && p.ring->configured() &&
        (p.kind == PayloadKind::PopWait || p.kind == PayloadKind::Tfree ||
         (p.kind == PayloadKind::Op && in.call &&
          (in.call->op->code == OpCode::TpushToAiv || in.call->op->code == OpCode::TpushToAic)))) {
        e.ring_dir = p.ring_dir;
        e.ring_occupancy = p.ring->ring().occupancy();
    }
    if (p.event_id >= 0 && in.call && (in.call->op->code == OpCode::SyncSet || in.call->op->code == OpCode::SyncWait))
        e.flag_event = p.event_id;
    return e;
}

}  // namespace cvsim::sim
