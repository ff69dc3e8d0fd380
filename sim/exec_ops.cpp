// Data effects and latencies of instructions (the InstrEngine side of the lane executor).
//
// begin() runs when the pipe starts the instruction: it samples inputs (tile bytes, visible GM bytes),
// computes the result on logical values with the shared datapath, and returns the latency from the cost
// model (jittered by the schedule). end() runs when the latency has elapsed: it writes the result in the
// destination's physical layout, commits GM writes (visible after the visibility delay), raises flags and
// emits the event. Cross-core waits that the hardware performs on a pipe (a tpush waiting for a free
// slot, a sync_wait on its pipe) block inside begin().
#include <fmt/format.h>

#include <cmath>

#include "frontend/codes.h"
#include "frontend/ops.h"
#include "frontend/ops_sort.h"
#include "core/cost_model.h"
#include "core/layout.h"
#include "sim/lane_executor.h"
#include "sim/data_memo.h"
#include "sim/payload.h"

namespace cvsim::sim {

using namespace ir;

namespace {


// a5 (1:1 flags): the AIC's ids [0, s) pair it with AIV0, [s, 2s) with AIV1.
int64_t flag_lane_stride(const HwParams& hw) { return static_cast<int64_t>(hw.chip.flag_counters / kAivsPerCluster); }

TileData read_tile(const TileBuf& t) {
    return TileData{t.dtype, decode(t.bytes.data(), t.bytes.size(), t.dtype, t.layout, t.acc, t.rows, t.cols)};
}

void write_tile(TileBuf& t, const Matrix& m) {
    Matrix full = Matrix::Zero(t.rows, t.cols);
    int64_t r = std::min<int64_t>(t.rows, m.rows()), c = std::min<int64_t>(t.cols, m.cols());
    full.topLeftCorner(r, c) = m.topLeftCorner(r, c);
    t.bytes = encode(full, t.dtype, t.layout, t.acc);
}

int64_t half_extent(int64_t n, int split, int lane) {
    if (split == 3 || split == 4) return lane == 0 ? (n + 1) / 2 : n / 2;
    return n / 2;
}
bool split_rows(int split) { return split == 1 || split == 3; }

// The part of a C2V tile lane `lane` receives.
Matrix c2v_part(const Matrix& full, int split, int lane) {
    if (split == 0) return full;
    bool rows = split_rows(split);
    int64_t n = rows ? full.rows() : full.cols();
    int64_t off = lane == 0 ? 0 : half_extent(n, split, 0);
    int64_t e = half_extent(n, split, lane);
    return rows ? Matrix(full.middleRows(off, e)) : Matrix(full.middleCols(off, e));
}

// What a pop of `sl` gives consumer lane `lane`: C2V its part of the pushed tile, V2C the last push (split 0)
// or the lanes' parts gathered. A whole-tile pop shares the pushed values.
SharedMatrix slot_contents(const CrossCorePipe::Slot& sl, int dir, int lane) {
    if (sl.split == 0) return sl.data ? sl.data : std::make_shared<const Matrix>();
    if (dir == 0) return std::make_shared<const Matrix>(c2v_part(values(sl.data), sl.split, lane));
    bool rows = split_rows(sl.split);
    const Matrix& a = values(sl.parts[0]);
    const Matrix& b = sl.parts.size() > 1 ? values(sl.parts[1]) : values(nullptr);
    auto out = std::make_shared<Matrix>();
    Matrix& m = *out;
    if (rows) {
        m = Matrix::Zero(a.rows() + b.rows(), std::max(a.cols(), b.cols()));
        m.topLeftCorner(a.rows(), a.cols()) = a;
        if (b.size()) m.bottomLeftCorner(b.rows(), b.cols()) = b;
    } else {
        m = Matrix::Zero(std::max(a.rows(), b.rows()), a.cols() + b.cols());
        m.topLeftCorner(a.rows(), a.cols()) = a;
        if (b.size()) m.topRightCorner(b.rows(), b.cols()) = b;
    }
    return out;
}

// The data of a view (slice, reshape, set_validshape, transpose_view) of `x`, as compute_data gives it.
TileData view_data(OpCode code, const TileData& x, int64_t out_rows, int64_t out_cols, const std::vector<int64_t>& ints) {
    switch (code) {
        case OpCode::TransposeView: return transpose(x);
        case OpCode::Slice: {
            int64_t r0 = ints.size() >= 2 ? ints[ints.size() - 2] : 0, c0 = ints.empty() ? 0 : ints.back();
            r0 = std::clamp<int64_t>(r0, 0, x.m.rows());
            c0 = std::clamp<int64_t>(c0, 0, x.m.cols());
            int64_t R = std::min<int64_t>(out_rows, x.m.rows() - r0), C = std::min<int64_t>(out_cols, x.m.cols() - c0);
            return TileData{x.dtype, Matrix(x.m.block(r0, c0, R, C))};
        }
        case OpCode::Reshape: return TileData{x.dtype, Eigen::Map<const Matrix>(x.m.data(), out_rows, out_cols)};
        default: return x;
    }
}

}  // namespace

uint64_t CoreRunner::jitter(uint64_t cycles) {
    const Schedule& sc = m_st.cfg->schedule;
    if (sc.strategy == Strategy::Random && sc.jitter > 0 && cycles > 0) {
        double f = 1.0 + sc.jitter * m_st.rng.unit();
        return static_cast<uint64_t>(std::ceil(static_cast<double>(cycles) * f));
    }
    return cycles;
}

void CoreRunner::pct_point() {
    // Every synchronisation or GM event is a scheduling point. PCT: the core that reaches one of the D-1
    // change points (drawn among the run's events) stalls for a long delay. Sweep: one (core, event) pair,
    // chosen by the seed, stalls.
    const Schedule& sc = m_st.cfg->schedule;
    uint64_t k = m_st.sync_events++;
    uint64_t mine = m_sync_count++;
    if (sc.strategy == Strategy::Pct) {
        for (uint64_t p : m_st.pct_points)
            if (p == k) m_core->wait_cycles(sc.pct_delay);
    } else if (sc.strategy == Strategy::Sweep && m_st.launched_cores > 0) {
        uint64_t idx = sc.seed == 0 ? 0 : sc.seed - 1;
        uint64_t n = static_cast<uint64_t>(m_st.launched_cores);
        if (static_cast<uint64_t>(m_runner_index) == idx % n && mine == idx / n) m_core->wait_cycles(sc.pct_delay);
    }
}

uint64_t CoreRunner::dma_latency(int path, uint64_t rows, uint64_t row_bytes, uint32_t hits, uint32_t misses) {
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

uint64_t CoreRunner::begin(Instr& in) {
    Payload& p = pl(in);
    const HwParams& hw = m_st.cfg->hw;
    GlobalMemory& gm = m_st.machine->gm();
    if (m_st.cfg->fault_abort_at >= 0 && m_st.instructions >= static_cast<uint64_t>(m_st.cfg->fault_abort_at)) std::abort();

    switch (p.kind) {
        case PayloadKind::Scalar: return hw.sync.issue_cost;
        case PayloadKind::Skip: return 0;
        case PayloadKind::PopWait: {
            pct_point();
            CrossCorePipe& r = *p.ring;
            int lane = p.ring_dir == 0 ? m_lane : 0;
            if (!r.ring().can_pop(lane)) {
                uint64_t t = m_core->now();
                m_scalar_wait = fmt::format("{} at {} waits for data in the {} ring (slot {} of {})", in.call->op->name(),
                                            in.stmt->loc.short_str(), p.ring_dir == 0 ? "C2V" : "V2C", r.ring().next_pop_slot(lane), r.slot_num());
                m_core->set_blocked(StallCause::Ring, m_scalar_wait);
                while (!r.ring().can_pop(lane)) m_core->wait_event(r.changed());
                m_core->clear_blocked();
                m_scalar_wait.clear();
                r.consumer_stall_cycles += m_core->now() - t;
                m_core->account_stall(StallCause::Ring, m_core->now() - t, Pipe::Scalar);
            }
            int slot = r.ring().pop(lane);
            p.slot = slot;
            CrossCorePipe::Slot& sl = r.slot(slot);
            // The slot's data is visible when its push's write is (write_visibility_delay: at once for ring traffic).
            if (sl.visible_at > m_core->now()) m_core->wait_cycles(sl.visible_at - m_core->now());
            for (uint64_t tok : sl.ready_token) if (tok) p.acquires.push_back(tok);
            if (m_st.detail) p.detail = fmt::format("{} slot {}", p.ring_dir == 0 ? "C2V" : "V2C", slot);
            if (m_replay) return hw.sync.issue_cost;
            // The data this lane receives.
            SharedMatrix m = slot_contents(sl, p.ring_dir, m_lane);
            bool last_writer_matters = false;  // the values depend on which lane's push landed last
            if (p.ring_dir == 1 && sl.split == 0) {
                // Both real lanes wrote the same slot: the cube gets the last one; differing data is a finding.
                int written = 0;
                for (bool w : sl.part_written) written += w;
                const Matrix& a = sl.parts.size() > 1 ? values(sl.parts[0]) : values(nullptr);
                const Matrix& b = sl.parts.size() > 1 ? values(sl.parts[1]) : values(nullptr);
                if (written > 1 && sl.parts.size() > 1 && sl.parts[0] != sl.parts[1] && (a.rows() != b.rows() || a.cols() != b.cols() || a != b)) {
                    last_writer_matters = true;
                    runtime_finding(codes::kNonuniformGather, *in.stmt,
                                    "both AIV lanes pushed different data into the same V2C slot with split 0; the cube receives whichever landed last");
                }
            }
            p.xfer = std::move(m);
            p.xfer_dtype = sl.dtype;
            // Clean parts make a clean pop only when the result does not depend on which lane landed last
            // (the recorded schedule's last writer may not be this one's).
            p.data_clean = !last_writer_matters;
            for (size_t k = 0; k < sl.part_clean.size(); ++k)
                if (sl.part_written[k] && !sl.part_clean[k]) p.data_clean = false;
            return hw.sync.issue_cost;
        }
        case PayloadKind::PopCopy: {
            // a2a3: GM slot -> landing buffer (V2C: ND -> NZ repack into L1).
            uint64_t bytes = static_cast<uint64_t>(p.type.bytes());
            CrossCorePipe& r = *p.ring;
            CrossCorePipe::Slot& sl = r.slot(p.slot);
            GmAccess a;
            a.tensor = r.gm_tensor;
            a.window.tensor = r.gm_tensor;
            a.window.offsets = {static_cast<int64_t>(sl.gm_offset)};
            a.window.extents = {static_cast<int64_t>(std::max<uint64_t>(bytes, 1))};
            a.write = false;
            a.ring = true;
            a.ring_gen = static_cast<int64_t>(r.ring().slot(p.slot).generation);
            if (r.has_region) p.gm.push_back(a);
            L2Result l2 = gm.touch_raw(r.gm_tensor, sl.gm_offset, bytes);
            p.bytes_moved = bytes;
            int path = static_cast<int>(p.ring_dir == 0 ? DmaPath::GmToUb : DmaPath::GmToL1);
            return dma_latency(path, 1, bytes, l2.hits, l2.misses);
        }
        case PayloadKind::Tfree: {
            TileRef t = in.in[0];
            p.detail = p.ring_dir == 0 ? "C2V" : "V2C";
            if (!t || t->ring < 0 || t->slot < 0)
                runtime_finding(codes::kPipeFree, *in.stmt, fmt::format("{} of a tile that was not popped from a ring", in.call->op->name()));
            return hw.sync.issue_cost;  // the release itself happens in end(), where its event is emitted
        }
        case PayloadKind::Fence: {
            // Every earlier instruction completed (deps); wait until this core's GM writes are visible.
            uint64_t now = m_core->now();
            if (m_max_visible > now) {
                m_scalar_wait = fmt::format("system.fence at {} waits for GM writes to become visible", in.stmt->loc.short_str());
                m_core->wait_cycles(m_max_visible - now);
                m_core->account_stall(StallCause::Fence, m_max_visible - now, Pipe::Scalar);
                m_scalar_wait.clear();
            }
            return hw.sync.issue_cost;
        }
        case PayloadKind::SyncArrive: {
            pct_point();
            // The episode this arrival joins (completed episodes so far); the arrival itself happens in end().
            p.event_id = static_cast<int64_t>(m_st.machine->barrier(p.group).generation);
            return hw.sync.issue_cost;
        }
        case PayloadKind::SyncDepart: {
            Barrier& b = m_st.machine->barrier(p.group);
            uint64_t gen = static_cast<uint64_t>(p.ring_id);
            int per_cluster = p.group == "mix" ? m_st.participants_per_cluster : p.group == "aic_only" ? m_st.aic_per_cluster : m_st.aiv_per_cluster;
            int launched_clusters = m_st.cfg->plan->blocks;
            uint64_t t = m_core->now();
            if (b.generation == gen || m_core->now() < b.release_cycle) {
                m_in_hard_syncall = p.hard;
                m_in_syncall = true;
                m_scalar_wait = fmt::format("system.syncall({}, {}) at {} waits for {} participants ({} arrived{})", p.group,
                                            p.hard ? "hard" : "soft", in.stmt->loc.short_str(), b.expected, b.arrived,
                                            p.hard && b.expected > per_cluster * launched_clusters
                                                ? fmt::format("; a hard barrier waits for every core of the chip's {} clusters, {} launched",
                                                              hw.chip.clusters, launched_clusters)
                                                : "");
                m_core->set_blocked(StallCause::Barrier, m_scalar_wait);
                while (b.generation == gen) m_core->wait_event(b.released);
                if (m_core->now() < b.release_cycle) m_core->wait_cycles(b.release_cycle - m_core->now());
                if (!p.hard) {
                    // Soft: a waiter sees the counter at its next poll of the GM workspace (one 4-byte read each).
                    uint64_t poll = std::max<uint64_t>(hw.sync.soft_poll_interval, 1);
                    uint64_t rem = (m_core->now() - t) % poll;
                    if (rem) m_core->wait_cycles(poll - rem);
                    m_st.machine->gm().account(4 * ((m_core->now() - t) / poll + 1), 0);
                }
                m_core->clear_blocked();
                m_scalar_wait.clear();
                m_in_hard_syncall = false;
                m_in_syncall = false;
                m_core->account_stall(StallCause::Barrier, m_core->now() - t, Pipe::Scalar);
            }
            auto it = b.episode_tokens.find(gen);
            if (it != b.episode_tokens.end())
                for (uint64_t x : it->second) p.acquires.push_back(x);
            if (m_st.detail) p.detail = fmt::format("{} barrier episode {}", p.group, gen);
            return hw.sync.issue_cost;
        }
        case PayloadKind::Op: break;
    }

    if (hw.target == Target::A5 && !m_replay) slot_reads(in);
    const OpCode code = in.call->op->code;
    switch (code) {
        case OpCode::Load:
        case OpCode::TensorRead: {
            pct_point();
            const GmAccess& a = p.gm[0];
            const auto& t = m_st.tensors->tensors[a.tensor];
            // Compared in place with the recorded bytes: copied only when they differ (or are recorded).
            // A core reads its own completed writes before other cores see them (SPEC 4.5: the delay is theirs).
            if (MemoEntry* e = memo_find(in); e && e->has_out && gm.read_equals(t, a.tensor, a.window, m_core->now(), e->gm_bytes, m_core_index)) {
                p.memo_hit = true;
            } else {
                gm.read(t, a.tensor, a.window, m_core->now(), p.bytes, m_core_index);
                if (MemoEntry* r = memo_record(in)) r->gm_bytes = p.bytes;
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
            return merge ? dma_latency(path, 1, rows * row_bytes, l2.hits, l2.misses) : dma_latency(path, rows, row_bytes, l2.hits, l2.misses);
        }
        case OpCode::Store:
        case OpCode::TensorWrite: {
            pct_point();
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
                Matrix m = src.mem == Mem::Acc ? read_tile(src).m
                                               : decode(src.bytes.data(), src.bytes.size(), src.dtype, Layout::ND, false, src.rows, src.cols);
                p.bytes.assign(storage_bytes(t.dtype, R * C), 0);
                for (int64_t r = 0; r < R; ++r)
                    for (int64_t c = 0; c < C; ++c) {
                        double v = r < m.rows() && c < m.cols() ? m(r, c) : 0.0;
                        put_element(t.dtype, round_to(t.dtype, v), p.bytes.data(), r * C + c);  // packed for 4-bit dtypes
                    }
                if (MemoEntry* r = memo_record(in)) r->gm_bytes = p.bytes;
            }
            L2Result l2 = gm.touch(t, a.tensor, a.window);
            gm.transfer_begin();
            uint64_t row_bytes = storage_bytes(t.dtype, C);
            p.bytes_moved = static_cast<uint64_t>(R) * row_bytes;
            if (src.mem == Mem::Acc) return jitter(fixp_to_gm_cycles(hw.mte, static_cast<uint64_t>(R), static_cast<uint64_t>(C), t.dtype) + dma_start_latency(hw.gm, l2.hits, l2.misses));
            bool full_rows = C == t.shape.back();
            return full_rows ? dma_latency(static_cast<int>(DmaPath::UbToGm), 1, static_cast<uint64_t>(R) * row_bytes, l2.hits, l2.misses)
                             : dma_latency(static_cast<int>(DmaPath::UbToGm), static_cast<uint64_t>(R), row_bytes, l2.hits, l2.misses);
        }
        case OpCode::TpushToAiv: case OpCode::TpushToAic: return begin_push(in);
        case OpCode::Mgather: case OpCode::Mscatter: return in.out && in.out->mem == Mem::Mat ? begin_mgather_mat(in) : begin_indexed(in);
        case OpCode::SyncSet: {
            pct_point();
            return hw.sync.issue_cost;
        }
        case OpCode::SyncWait: {
            pct_point();
            wait_flag(in);
            return hw.sync.issue_cost;
        }
        default: break;
    }

    // Compute and on-chip movement: the latency depends on shapes only; the data is taken from the memo
    // when every input is unchanged from the recorded schedule.
    p.bytes_moved = in.out->bytes.size();
    uint64_t lat = compute_latency(in);
    if (inputs_clean(in))
        if (MemoEntry* e = memo_find(in); e && e->has_out) p.memo_hit = true;
    if (!p.memo_hit) compute_data(in);
    return lat;
}

bool CoreRunner::inputs_clean(const Instr& in) const {
    for (const auto& t : in.in)
        if (t && !t->clean) return false;
    return true;
}

MemoEntry* CoreRunner::memo_find(const Instr& in) {
    return m_st.cfg->memo ? m_st.cfg->memo->find(m_core_index, in.seq, in.call) : nullptr;
}

MemoEntry* CoreRunner::memo_record(const Instr& in) {
    return m_st.cfg->memo ? m_st.cfg->memo->record(m_core_index, in.seq, in.call) : nullptr;
}

void CoreRunner::settle_output(const Instr& in, TileBuf& out) {
    // Outputs are clean when they equal the recorded run's (re-convergence after a divergence counts).
    MemoEntry* e = memo_find(in);
    if (e && e->has_out) {
        out.clean = out.bytes == e->out_bytes;
    } else if (MemoEntry* r = e ? e : memo_record(in)) {
        if (!m_st.cfg->memo->recording()) {
            out.clean = false;
            return;
        }
        r->out_bytes = out.bytes;
        r->has_out = true;
        out.clean = true;
    } else {
        out.clean = false;
    }
}

static uint64_t out_bytes(const TileBuf& t) { return t.bytes.size(); }

uint64_t CoreRunner::compute_latency(const Instr& in) {
    // The op's registry cost entry prices it.
    const HwParams& hw = m_st.cfg->hw;
    const OpDef& d = *in.call->op;
    const TileBuf& out = *in.out;
    switch (d.cost) {
        case OpCost::OnChipDma: {
            const TileBuf& src = *in.in[0];
            const uint64_t bytes = std::min<uint64_t>(src.bytes.size(), out_bytes(out));  // an extract moves its window
            DmaPath path = DmaPath::UbToUb;
            if (src.mem == Mem::Mat) path = out.mem == Mem::Left ? DmaPath::L1ToL0A : out.mem == Mem::Right ? DmaPath::L1ToL0B : DmaPath::L1ToBias;
            else if (src.mem == Mem::Acc) path = out.mem == Mem::Vec ? DmaPath::L0cToUb : DmaPath::L0cToL1;
            return jitter(dma_cycles(hw, path, 1, bytes, 0, 0));
        }
        case OpCost::Mad: {
            bool acc = d.variant & 1;
            const TileBuf& l = *in.in[acc ? 1 : 0];
            const TileBuf& r = *in.in[acc ? 2 : 1];
            return jitter(mad_cycles(hw.cube, l.dtype, static_cast<uint64_t>(l.rows), static_cast<uint64_t>(l.cols), static_cast<uint64_t>(r.cols)));
        }
        case OpCost::VecReduce: {
            const TileBuf& x = *in.in[0];
            uint64_t n = static_cast<uint64_t>(d.valid == ValidRule::ColReduce ? x.rows : x.cols);
            return jitter(vector_kind_cycles(hw.vector, d.cost, x.bytes.size(), n));
        }
        case OpCost::VecUnary: case OpCost::VecTileScalar: case OpCost::VecBinary: case OpCost::VecExp:
        case OpCost::VecSort: case OpCost::VecMerge: case OpCost::VecGather: {
            // Elementwise: the widest of the result and the operands (a cast reads or writes the wider dtype).
            uint64_t bytes = out.bytes.size();
            for (const auto& t : in.in)
                if (t) bytes = std::max<uint64_t>(bytes, t->bytes.size());
            return jitter(vector_kind_cycles(hw.vector, d.cost, bytes, 0));
        }
        case OpCost::Scalar: return hw.sync.issue_cost;
        case OpCost::Assemble: {
            const TileBuf& src = *in.in[1];
            if (out.mem == Mem::Mat) {
                if (src.mem != Mem::Acc) return 0;  // gather_row into L1: the load's DMA wrote the rows in place
                return jitter(dma_cycles(hw, DmaPath::L0cToL1, 1, src.bytes.size(), 0, 0));
            }
            uint64_t bytes = std::max<uint64_t>(out.bytes.size(), src.bytes.size());
            return jitter(vector_kind_cycles(hw.vector, OpCost::VecUnary, bytes, 0));
        }
        default:
            return 0;  // views (slice, reshape, set_validshape, transpose_view) move no data
    }
}

void CoreRunner::compute_data(Instr& in) {
    // The op's registry numerics (shared with the reference interpreter) on the logical operand values.
    Payload& p = pl(in);
    const OpDef& d = *in.call->op;
    if (!d.numerics) return;
    const TileBuf& out = *in.out;
    OpOperands o;
    o.op = &d;
    o.call = in.call;
    for (const auto& t : in.in)
        if (t) {
            o.tiles.push_back(read_tile(*t));
            o.valid.emplace_back(t->vr, t->vc);
        }
    o.scalars = in.numbers;
    o.ints = in.ints;
    o.out_dtype = out.dtype;
    o.out_rows = out.rows;
    o.out_cols = out.cols;
    if (auto err = gather_compare_overflow_error(o)) runtime_finding(codes::kOob, *in.stmt, *err);
    if (auto err = assemble_outside_error(o)) runtime_finding(codes::kOob, *in.stmt, *err);
    p.data = eval_numerics(o);
}

uint64_t CoreRunner::begin_indexed(Instr& in) {
    // pl.tile.mgather / mscatter (pto-isa MGATHER / MSCATTER): the index tile is ready now, so the transfers are
    // known: one GM access per picked row (row mode) or element, replacing the whole-view access of issue.
    pct_point();
    Payload& p = pl(in);
    auto& gm = m_st.machine->gm();
    const Expr& c = *in.call;
    const bool gather = c.op->code == OpCode::Mgather;
    const uint32_t tid = p.gm.at(0).tensor;
    const auto& t = m_st.tensors->tensors[tid];
    const auto rank = static_cast<size_t>(in.ints.at(0));
    const std::vector<int64_t> off(in.ints.begin() + 1, in.ints.begin() + 1 + static_cast<std::ptrdiff_t>(rank));
    const std::vector<int64_t> shape(in.ints.begin() + 1 + static_cast<std::ptrdiff_t>(rank), in.ints.begin() + 1 + static_cast<std::ptrdiff_t>(2 * rank));
    const std::vector<int64_t> reshape(in.ints.begin() + 2 + static_cast<std::ptrdiff_t>(2 * rank), in.ints.end());
    const bool row = gather && mgather_coalesce(c) == 0;
    const int oob = gather ? mgather_oob(c) : 0;
    const int64_t cap = rt::indexed_capacity(shape, row);
    // A view that is not one run of its base: pto-isa addresses it linearly from its first element (elem mode,
    // mscatter; a5's row mode steps rows by the row length), which cvsim's box model does not reproduce.
    if (!rt::box_contiguous(shape, reshape.empty() ? t.shape : reshape) && (!row || m_st.cfg->hw.target == Target::A5))
        runtime_finding(codes::kUnsupported, *in.stmt,
                        fmt::format("{} {}{} on a view of {} that is not contiguous: pto-isa addresses the view linearly from its first "
                                    "element{}, which cvsim does not model", core_name(m_core_id), c.op->name(), row ? " (row mode, a5)" : "", t.name,
                                    row ? " (rows a row length apart)" : ""));
    const TileBuf& ib = *in.in[0];
    const Matrix ix = read_tile(ib).m;
    const bool row_vector = arg(c, "idx")->type.shape[0] == 1;
    Matrix vals;
    if (!gather) vals = read_tile(*in.in[1]).m;
    else p.data = TileData{t.dtype, Matrix::Zero(in.out->rows, in.out->cols)};
    // Transfers in row-major order of the index tile: (destination row, column) and the index value.
    const int64_t R = gather ? in.out->vr : in.in[1]->vr;
    const int64_t C = gather ? (row ? 1 : in.out->vc) : in.in[1]->vc;
    std::vector<GmAccess> acc;
    std::vector<uint8_t> buf;
    const size_t eb = storage_bytes(t.dtype, 1);
    uint32_t hits = 0, misses = 0;
    bool reported = false;
    for (int64_t i = 0; i < R; ++i)
        for (int64_t j = 0; j < C; ++j) {
            const int64_t ir = row && row_vector ? 0 : i, ic = row ? (row_vector ? i : 0) : j;
            const double raw = ir < ix.rows() && ic < ix.cols() ? ix(ir, ic) : 0.0;
            rt::IndexPick pk = rt::pick_index(raw, cap, oob);
            if (pk.zero) continue;
            auto w = pk.oob ? std::nullopt : rt::indexed_window(tid, off, shape, reshape, t.shape, pk.index, row);
            if (!w || rt::check_window(t, *w)) {
                if (!reported)
                    runtime_finding(pk.oob ? codes::kOob : codes::kUnsupported, *in.stmt,
                                    pk.oob ? fmt::format("{} {}: index {} is outside the {} {} of tensor {}{}", core_name(m_core_id), c.op->name(),
                                                         static_cast<int64_t>(raw), cap, row ? "rows" : "elements", t.name,
                                                         gather ? " (gather_oob undefined)" : "")
                                           : fmt::format("{} {}: transfer {} of a pl.tensor.view is not one box of tensor {}", core_name(m_core_id),
                                                         c.op->name(), pk.index, t.name));
                reported = true;
                continue;
            }
            GmAccess a;
            a.tensor = tid;
            a.window = *w;
            a.write = !gather;
            L2Result l2 = gm.touch(t, tid, a.window);
            hits += l2.hits;
            misses += l2.misses;
            if (gather) {
                gm.read(t, tid, a.window, m_core->now(), buf, m_core_index);
                const Matrix m = decode(buf.data(), buf.size(), t.dtype, Layout::ND, false, 1, a.window.cols());
                if (row)
                    for (int64_t k = 0; k < m.cols() && k < p.data.m.cols(); ++k) p.data.m(i, k) = m(0, k);
                else
                    p.data.m(i, j) = m(0, 0);
            } else {
                const double v = i < vals.rows() && j < vals.cols() ? vals(i, j) : 0.0;
                p.bytes.resize(p.bytes.size() + eb, 0);
                put_element(t.dtype, round_to(t.dtype, v), p.bytes.data() + (p.bytes.size() - eb), 0);
            }
            acc.push_back(std::move(a));
        }
    p.gm = std::move(acc);
    gm.transfer_begin();
    const uint64_t run_bytes = row ? storage_bytes(t.dtype, shape.back()) : eb;
    const uint64_t runs = std::max<uint64_t>(p.gm.size(), 1);
    p.bytes_moved = p.gm.size() * run_bytes;
    return dma_latency(static_cast<int>(gather ? DmaPath::GmToUb : DmaPath::UbToGm), runs, run_bytes, hits, misses);
}

uint64_t CoreRunner::begin_push(Instr& in) {
    Payload& p = pl(in);
    const HwParams& hw = m_st.cfg->hw;
    CrossCorePipe& r = *p.ring;
    int lane = p.ring_dir == 0 ? 0 : m_lane;
    pct_point();
    if (!r.ring().can_push(lane)) {
        uint64_t t = m_core->now();
        const auto& st = r.ring().slot(r.ring().next_push_slot(lane));
        std::string& w = m_pipe_wait[static_cast<int>(in.pipe)];
        w = fmt::format("{} at {} waits for a free slot in the {} ring (slot {} of {}: {} popped, {} freed)",
                        in.call->op->name(), in.stmt->loc.short_str(), p.ring_dir == 0 ? "C2V" : "V2C",
                        r.ring().next_push_slot(lane), r.slot_num(), st.popped ? "data" : "no data", st.freed ? "partly" : "not");
        m_core->set_blocked(StallCause::Ring, w);
        while (!r.ring().can_push(lane)) m_core->wait_event(r.changed());
        m_core->clear_blocked();
        w.clear();
        r.producer_stall_cycles += m_core->now() - t;
        m_core->account_stall(StallCause::Ring, m_core->now() - t, in.pipe);
    }
    int slot = r.ring().next_push_slot(lane);
    p.slot = slot;
    CrossCorePipe::Slot& sl = r.slot(slot);
    for (uint64_t tok : sl.free_token) if (tok) p.acquires.push_back(tok);
    if (m_st.detail) p.detail = fmt::format("{} slot {}", p.ring_dir == 0 ? "C2V" : "V2C", slot);
    if (m_replay || !in.in[0]) return 0;
    const TileBuf& src = *in.in[0];
    // What the consumer will see. C2V: FIXP converts the accumulator (or L1) boxes correctly. V2C: the
    // transport copies raw bytes; a2a3's pop repacks them as ND, a5's cube reads them in place as NZ, so a
    // vector tile in another layout arrives scrambled.
    SharedMatrix shared;
    Matrix m;
    MemoEntry* hit = src.clean ? memo_find(in) : nullptr;
    if (hit && hit->data) {
        shared = hit->data;
        if (p.ring_dir == 1 && src.layout != (hw.target == Target::A5 ? Layout::NZ : Layout::ND))
            runtime_finding(codes::kV2cLayout, *in.stmt,
                            fmt::format("tpush_to_aic of a {} tile on {}: the V2C transport delivers {} data, so the cube reads it scrambled",
                                        layout_name(src.layout), target_name(hw.target), layout_name(hw.target == Target::A5 ? Layout::NZ : Layout::ND)));
    } else if (p.ring_dir == 0) {
        m = read_tile(src).m;
    } else {
        Layout seen = hw.target == Target::A5 ? Layout::NZ : Layout::ND;
        m = decode(src.bytes.data(), src.bytes.size(), src.dtype, seen, false, src.rows, src.cols);
        if (src.layout != seen)
            runtime_finding(codes::kV2cLayout, *in.stmt,
                            fmt::format("tpush_to_aic of a {} tile on {}: the V2C transport delivers {} data, so the cube reads it scrambled",
                                        layout_name(src.layout), target_name(hw.target), layout_name(seen)));
    }
    if (!shared) {
        m = Matrix(m.topLeftCorner(std::min(src.vr, static_cast<int64_t>(m.rows())), std::min(src.vc, static_cast<int64_t>(m.cols()))));
        if (MemoEntry* e = memo_find(in)) {
            p.data_clean = e->data && e->data->rows() == m.rows() && e->data->cols() == m.cols() && *e->data == m;
            if (p.data_clean) shared = e->data;  // equal values: share the recorded ones
        }
        if (!shared) shared = std::make_shared<const Matrix>(std::move(m));
        if (!memo_find(in))
            if (MemoEntry* r = memo_record(in)) {
                r->data = shared;
                p.data_clean = true;
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
        runtime_finding(codes::kPipeSlot, *in.stmt, fmt::format("pushes {} bytes into slots of {} bytes", bytes, r.slot_size()));
    // The slot write as the checker sees it: on a2a3 the slot lives in the hidden GM ring tensor, on a5 in the
    // consumer's SRAM (named by the same ring tensor; no GM traffic). Lane 1 writes after lane 0's part, whose
    // size is the static tile's (lane 0's is the larger part of an odd split; lane 1's may be one row or column
    // smaller).
    uint64_t part_off = 0;
    if (p.ring_dir == 1 && p.split != 0 && m_lane == 1) part_off = static_cast<uint64_t>(src.rows * src.cols) * dtype_bytes(src.dtype);
    if (r.has_region) {
        GmAccess a;
        a.tensor = r.gm_tensor;
        a.window.tensor = r.gm_tensor;
        a.window.offsets = {static_cast<int64_t>(sl.gm_offset + part_off)};
        a.window.extents = {static_cast<int64_t>(std::max<uint64_t>(bytes, 1))};
        a.write = true;
        a.ring = true;
        a.ring_gen = static_cast<int64_t>(r.ring().slot(slot).generation);
        p.gm.push_back(a);
    }
    if (hw.target == Target::A2A3) {
        L2Result l2 = m_st.machine->gm().touch_raw(r.gm_tensor, sl.gm_offset + part_off, bytes);
        if (p.ring_dir == 0) return jitter(fixp_to_gm_cycles(hw.mte, static_cast<uint64_t>(pushed.rows()), static_cast<uint64_t>(pushed.cols()), src.dtype) + dma_start_latency(hw.gm, l2.hits, l2.misses));
        return dma_latency(static_cast<int>(DmaPath::UbToGm), 1, bytes, l2.hits, l2.misses);
    }
    if (p.ring_dir == 0) return jitter(dma_cycles(hw, DmaPath::L0cToUb, 1, bytes, 0, 0));
    return jitter(dma_cycles(hw, DmaPath::UbToUb, 1, bytes, 0, 0));
}

void CoreRunner::end_push(Instr& in) {
    Payload& p = pl(in);
    CrossCorePipe& r = *p.ring;
    int lane = p.ring_dir == 0 ? 0 : m_lane;
    int slot = r.ring().push(lane);
    CrossCorePipe::Slot& sl = r.slot(slot);
    uint64_t tok = m_st.token();
    p.releases.push_back(tok);
    sl.ready_token[lane] = tok;
    sl.split = p.split;
    for (const GmAccess& a : p.gm)
        if (a.write) sl.visible_at = std::max(sl.visible_at, m_core->now() + write_visibility_delay(a, m_st.visibility_delay));
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

void CoreRunner::refresh_slot_tile(TileBuf& t, CrossCorePipe::Slot& sl) {
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

void CoreRunner::slot_reads(Instr& in) {
    // a5: an instruction reading a popped tile or a view of it reads the ring slot (checked as such).
    Payload& p = pl(in);
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
        GmAccess a;
        a.tensor = r.gm_tensor;
        a.window.tensor = r.gm_tensor;
        a.window.offsets = {static_cast<int64_t>(r.slot(root->slot).gm_offset)};
        a.window.extents = {std::max<int64_t>(r.slot_size(), 1)};
        a.write = false;
        a.ring = true;
        a.ring_gen = root->slot_gen;
        p.gm.push_back(a);
    }
}

void CoreRunner::wait_flag(Instr& in) {
    Payload& p = pl(in);
    FlagBank& fb = m_st.machine->cluster(m_cluster).flags;
    int recv = static_cast<int>(m_core_id);
    auto key = std::make_pair(p.event_id, recv);
    // a2a3: an AIC wait completes only when every AIV lane has set; a5: the one paired lane.
    const bool a5 = m_st.cfg->hw.target == Target::A5;
    int need_from = m_core_id == CoreId::Aic && !a5 ? m_aiv_lanes : 1;
    const int a5_lane = p.event_id >= flag_lane_stride(m_st.cfg->hw) ? 1 : 0;
    const uint64_t lat = m_st.cfg->hw.sync.flag_latency;
    auto ready = [&] {
        auto it = fb.counters.find(key);
        if (it == fb.counters.end()) return false;
        if (m_core_id != CoreId::Aic) return !it->second.tokens.empty();
        if (a5) return std::find(it->second.from.begin(), it->second.from.end(), a5_lane) != it->second.from.end();
        // An AIC wait needs a set from every AIV lane.
        std::set<int> lanes(it->second.from.begin(), it->second.from.end());
        return static_cast<int>(lanes.size()) >= need_from;
    };
    if (!ready()) {
        uint64_t t = m_core->now();
        std::string& w = m_pipe_wait[static_cast<int>(in.pipe)];
        w = fmt::format("system.sync_wait({}) at {} waits for a sync_set", p.event_id, in.stmt->loc.short_str());
        m_core->set_blocked(StallCause::Flag, w);
        while (!ready()) m_core->wait_event(fb.changed);
        m_core->clear_blocked();
        w.clear();
        m_core->account_stall(StallCause::Flag, m_core->now() - t, in.pipe);
    }
    auto& ctr = fb.counters[key];
    if (m_core_id == CoreId::Aic) {
        for (int l = a5 ? a5_lane : 0; l < (a5 ? a5_lane + 1 : need_from); ++l) {
            for (size_t i = 0; i < ctr.from.size(); ++i)
                if (ctr.from[i] == l) {
                    p.acquires.push_back(ctr.tokens[i]);
                    ctr.tokens.erase(ctr.tokens.begin() + static_cast<std::ptrdiff_t>(i));
                    ctr.from.erase(ctr.from.begin() + static_cast<std::ptrdiff_t>(i));
                    break;
                }
        }
    } else {
        p.acquires.push_back(ctr.tokens.front());
        ctr.tokens.pop_front();
        ctr.from.pop_front();
    }
    (void)lat;
    fb.changed.notify(sc_core::SC_ZERO_TIME);
}

void CoreRunner::end(Instr& in) {
    Payload& p = pl(in);
    const HwParams& hw = m_st.cfg->hw;
    GlobalMemory& gm = m_st.machine->gm();
    ++m_st.instructions;
    switch (p.kind) {
        case PayloadKind::SyncArrive: {
            Barrier& b = m_st.machine->barrier(p.group);
            int per_cluster = p.group == "mix" ? m_st.participants_per_cluster : p.group == "aic_only" ? m_st.aic_per_cluster : m_st.aiv_per_cluster;
            int expected = per_cluster * (p.hard ? static_cast<int>(hw.chip.clusters) : m_st.cfg->plan->blocks);
            b.expected = expected;
            uint64_t tok = m_st.token();
            p.releases.push_back(tok);
            uint64_t gen = b.generation;
            b.episode_tokens[gen].push_back(tok);
            if (m_st.detail) p.detail = fmt::format("{} barrier episode {} arrival", p.group, gen);
            if (!p.hard) gm.account(4, 4);  // soft: an atomic add on the GM workspace counter
            if (++b.arrived >= b.expected) {
                b.arrived = 0;
                ++b.generation;
                uint64_t delay = p.hard ? hw.sync.hard_syncall_release : 0;
                b.release_cycle = m_core->now() + delay;
                b.released.notify(sc_core::sc_time(static_cast<double>(delay), sc_core::SC_NS));
            }
            break;
        }
        case PayloadKind::Tfree: {
            TileRef t = in.in[0];
            if (!t || t->ring < 0 || t->slot < 0) break;
            auto res = p.ring->ring().free(t->lane, t->slot);
            if (res == RingBuffer::FreeResult::AlreadyFreed)
                runtime_finding(codes::kPipeFree, *in.stmt, fmt::format("{} frees a slot twice (double tfree)", in.call->op->name()));
            else if (res == RingBuffer::FreeResult::NotPopped)
                runtime_finding(codes::kPipeFree, *in.stmt, fmt::format("{} of a slot this lane did not pop", in.call->op->name()));
            else {
                uint64_t tok = m_st.token();
                p.releases.push_back(tok);
                p.ring->slot(t->slot).free_token[t->lane] = tok;
                if (m_st.detail) p.detail += fmt::format(" slot {}", t->slot);
            }
            p.ring->changed().notify(sc_core::SC_ZERO_TIME);
            break;
        }
        case PayloadKind::PopWait:
            if (!m_replay && hw.target == Target::A5 && in.out) {
                // a5: the tile is bound to the slot in place (it is in the consumer's SRAM already).
                land_tile(in, p);
            }
            break;
        case PayloadKind::PopCopy:
            gm.transfer_end();
            if (in.out) land_tile(in, p);
            break;
        case PayloadKind::Op: {
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
                        z.topLeftCorner(std::min(out.vr, R), std::min(out.vc, C)) = m.topLeftCorner(std::min(out.vr, R), std::min(out.vc, C));
                        m = z;
                    }
                    write_tile(out, m);
                    settle_output(in, out);
                }
            } else if (code == OpCode::Store || code == OpCode::TensorWrite) {
                gm.transfer_end();
                const GmAccess& a = p.gm[0];
                uint64_t visible = m_core->now() + write_visibility_delay(a, m_st.visibility_delay);
                gm.write(m_st.tensors->tensors[a.tensor], a.tensor, a.window, p.store_src ? p.store_src->data() : p.bytes.data(), visible, a.atomic, m_core_index);
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
                FlagBank& fb = m_st.machine->cluster(m_cluster).flags;
                uint64_t tok = m_st.token();
                p.releases.push_back(tok);
                // a2a3: an AIC set reaches both AIVs. a5: flags are 1:1, ids 0-15 pair the AIC with AIV0 and
                // 16-31 with AIV1 (chip.flag_counters = 32 per cluster, one half per AIV).
                std::vector<int> receivers;
                if (m_core_id != CoreId::Aic) receivers.push_back(0);
                else if (hw.target == Target::A5) receivers.push_back(p.event_id >= flag_lane_stride(hw) ? 2 : 1);
                else
                    for (int l = 0; l < m_aiv_lanes; ++l) receivers.push_back(1 + l);
                for (int rcv : receivers) {
                    auto& ctr = fb.counters[{p.event_id, rcv}];
                    ctr.tokens.push_back(tok);
                    ctr.from.push_back(m_core_id == CoreId::Aic ? 0 : m_lane);
                    size_t pending = ctr.tokens.size();
                    if (rcv == 0 && m_aiv_lanes > 0) pending = (pending + m_aiv_lanes - 1) / m_aiv_lanes;
                    if (pending > hw.chip.flag_counter_max)
                        runtime_finding(codes::kFlagOverflow, *in.stmt, fmt::format("sync_set({}) leaves {} pending sets; the 4-bit counter holds {}", p.event_id, pending, hw.chip.flag_counter_max));
                }
                fb.changed.notify(sc_core::sc_time(static_cast<double>(hw.sync.flag_latency), sc_core::SC_NS));
            } else if (in.out && p.memo_hit) {
                in.out->bytes = memo_find(in)->out_bytes;
                in.out->clean = true;
            } else if (in.out && p.data.m.size() > 0) {
                write_tile(*in.out, p.data.m);
                settle_output(in, *in.out);
            }
            break;
        }
        default: break;
    }
    m_st.emit(make_event(in));
}

void CoreRunner::land_tile(const Instr& in, const Payload& p) {
    TileBuf& out = *in.out;
    if (p.data_clean)
        if (MemoEntry* e = memo_find(in); e && e->has_out) {
            out.bytes = e->out_bytes;
            out.clean = true;
            return;
        }
    write_tile(out, values(p.xfer));
    if (p.data_clean) settle_output(in, out);
    else out.clean = false;
}

Event CoreRunner::make_event(Instr& in) {
    // The instruction retires after its event: its lists move into the event instead of being copied.
    Payload& p = pl(in);
    Event e;
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
    if (in.out) e.shape = {in.out->rows, in.out->cols};
    else if (in.in[0]) e.shape = {in.in[0]->rows, in.in[0]->cols};
    e.deps = std::move(in.deps);
    e.scalar_before = in.scalar_before;
    e.drain = p.drain;
    e.fence = p.fence;
    e.acquires = std::move(p.acquires);
    e.releases = std::move(p.releases);
    e.gm = std::move(p.gm);
    e.order = std::move(p.order);
    e.detail = std::move(p.detail);
    if (p.kind == PayloadKind::PopCopy && m_st.detail) e.detail = "pop copy " + e.detail;
    if (p.ring && p.ring->configured() && (p.kind == PayloadKind::PopWait || p.kind == PayloadKind::Tfree ||
                                          (p.kind == PayloadKind::Op && in.call && (in.call->op->code == OpCode::TpushToAiv || in.call->op->code == OpCode::TpushToAic)))) {
        e.ring_dir = p.ring_dir;
        e.ring_occupancy = p.ring->ring().occupancy();
    }
    if (p.event_id >= 0 && in.call && (in.call->op->code == OpCode::SyncSet || in.call->op->code == OpCode::SyncWait)) e.flag_event = p.event_id;
    return e;
}

}  // namespace cvsim::sim
