// Lane walker: the cross-core and synchronisation op calls (see lane_walker.h): ring setup, tpush/tpop/tfree,
// syncall, fence and flags become their handshakes; a replay lane issues them too.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <algorithm>
#include <optional>
#include <tuple>

#include "core/layout.h"
#include "frontend/codes.h"
#include "frontend/ops.h"
#include "frontend/passes/ir_util.h"
#include "sim/lane_walker.h"

namespace cvsim::sim {

using namespace ir;
using rt::Scalar;

static ir::Pipe pipe_of(PipeType p) {
    switch (p) {
        case PipeType::S:
        case PipeType::ALL:
            return ir::Pipe::Scalar;
        case PipeType::V:
            return ir::Pipe::Vector;
        case PipeType::M:
            return ir::Pipe::Cube;
        case PipeType::MTE1:
            return ir::Pipe::Mte1;
        case PipeType::MTE2:
            return ir::Pipe::Mte2;
        case PipeType::MTE3:
            return ir::Pipe::Mte3;
        case PipeType::FIX:
            return ir::Pipe::Fixp;
    }
    return ir::Pipe::Scalar;
}

std::optional<LValue> LaneWalker::issue_sync_call(const Stmt& s, const Expr& c) {
    using O = OpCode;
    const O code = c.op->code;
    auto result_tile = [&](const Type& t) { return new_tile(t); };
    switch (code) {
        case O::AicInitializePipe:
        case O::AivInitializePipe: {
            int dir_mask = static_cast<int>(scalar(arg(c, "dir_mask")).as_int());
            int64_t slot_size = scalar(arg(c, "slot_size")).as_int();
            const auto& sync = m_cx.cfg->hw.sync;
            int64_t slot_num = arg(c, "slot_num")
                                   ? scalar(arg(c, "slot_num")).as_int()
                                   : static_cast<int64_t>(dir_mask == 3 ? sync.slot_num_both : sync.slot_num_one_dir);
            int64_t id = arg(c, "id") ? scalar(arg(c, "id")).as_int() : 0;
            for (int dir = 0; dir < 2; ++dir)
                if (dir_mask & (1 << dir)) {
                    m_rings_set_up.insert({dir, id});
                    m_sink.configure_ring(dir, id, slot_num, slot_size, s);
                }
            auto in = make(Pipe::Scalar, s, &c);
            in->p.kind = PayloadKind::Scalar;
            issue(std::move(in));
            return LValue{};
        }
        case O::TpushToAiv:
        case O::TpushToAic: {
            int dir = code == O::TpushToAiv ? 0 : 1;
            check_ring_setup(s, c, dir, arg(c, "id") ? scalar(arg(c, "id")).as_int() : 0);
            CrossCorePipe* r = ring_for(c, dir, s);
            TileRef src = tile(arg(c, "tile"));
            auto in = make(dir == 0 ? Pipe::Fixp : Pipe::Mte3, s, &c);
            Payload& p = in->p;
            p.ring = r;
            p.ring_dir = dir;
            p.split = static_cast<int>(scalar(arg(c, "split")).as_int());
            if (src && !m_cx.replay) dep_read(*in, src);
            in->in[0] = src;
            issue(std::move(in));
            return LValue{};
        }
        case O::TpopFromAic:
        case O::TpopFromAiv: {
            int dir = code == O::TpopFromAic ? 0 : 1;
            check_ring_setup(s, c, dir, arg(c, "id") ? scalar(arg(c, "id")).as_int() : 0);
            CrossCorePipe* r = ring_for(c, dir, s);
            TileRef out = result_tile(c.type);
            if (!c.args2.empty()) {  // the annotation's run-time valid region (the codegen allocates the tile so)
                std::vector<int64_t> vv;
                for (const auto& a : c.args2) vv.push_back(scalar(a).as_int());
                std::tie(out->vr, out->vc) = rt::clamped_region(vv, out->rows, out->cols);
            }
            auto wait = make(Pipe::Scalar, s, &c);
            Payload& p = wait->p;
            p.kind = PayloadKind::PopWait;
            p.ring = r;
            p.ring_dir = dir;
            p.split = arg(c, "split") ? static_cast<int>(scalar(arg(c, "split")).as_int()) : 0;
            p.unread = dir == 1 && p.split == 0 && pop_unread(s);
            const int p_split = p.split;
            wait->out = out;
            // What the popped tile is: its ring and lane now, its slot (and on a5 the slot's bytes in place) once the
            // wait completed (DataEngine::end_pop); lane 1's part of an odd C2V split is a run-time valid region.
            out->ring = dir;
            out->lane = dir == 0 ? m_cx.lane : 0;
            out->ring_id = arg(c, "id") ? scalar(arg(c, "id")).as_int() : 0;
            const uint32_t w = m_sink.issued();
            issue(std::move(wait));
            if (m_cx.replay) return LValue{out};
            if (m_cx.cfg->hw.target == Target::A5) out->slot_bound = true;
            if (dir == 0 && (p_split == 3 || p_split == 4)) m_sink.needs_live("an odd C2V split");
            if (m_cx.cfg->hw.target == Target::A2A3) {
                // The copy to the landing buffer takes the slot and the data when it is issued (DataEngine::issued).
                auto copy = make(Pipe::Mte2, s, &c);
                Payload& cp = copy->p;
                cp.kind = PayloadKind::PopCopy;
                cp.ring = r;
                cp.ring_dir = dir;
                copy->deps.push_back(w);
                dep_write(*copy, out);
                copy->out = out;
                issue(std::move(copy));
            } else {
                out->writer = w;
            }
            return LValue{out};
        }
        case O::TfreeToAic:
        case O::TfreeToAiv: {
            TileRef t = tile(arg(c, "tile"));
            // Freeing a view of a popped tile frees the popped tile's slot (docs/DECISIONS.md, "a5 slot memory";
            // on a2a3 the view is of the landing buffer, and the free is the same).
            while (t && t->ring < 0 && (t->view_src || t->popped_src)) t = t->view_src ? t->view_src : t->popped_src;
            const int dir = code == O::TfreeToAic ? 0 : 1;
            const int64_t id = arg(c, "id") ? scalar(arg(c, "id")).as_int() : 0;
            if (t && t->ring >= 0 && (t->ring != dir || t->ring_id != id)) {
                // The slot belongs to another ring: nothing is freed (freeing it there would release a slot of a
                // ring the tile never came from, or of one nobody set up).
                const ExprPtr& x = arg(c, "tile");
                m_sink.finding(
                    codes::kPipeFree, s,
                    fmt::format("{} names the {} ring id {}{}, but {} was popped from the {} ring id {}: no slot is "
                                "freed",
                                c.op->name(), dir == 0 ? "C2V" : "V2C", id,
                                m_rings_set_up.count({dir, id}) ? "" : " (which this core never initialised)",
                                x && x->kind == ExprKind::Var && x->var ? "'" + x->var->name + "'" : "the tile",
                                t->ring == 0 ? "C2V" : "V2C", t->ring_id));
                return LValue{};
            }
            check_ring_setup(s, c, dir, id);
            auto in = make(Pipe::Scalar, s, &c);
            Payload& p = in->p;
            p.kind = PayloadKind::Tfree;
            p.ring = &m_cx.machine->ring(m_cx.cluster, dir, id);
            p.ring_dir = dir;
            if (t) {
                // The slot is released only after every reader of the popped tile completed.
                if (t->writer >= 0) in->deps.push_back(static_cast<uint32_t>(t->writer));
                for (uint32_t r : t->readers) in->deps.push_back(r);
            }
            in->in[0] = t;
            issue(std::move(in));
            return LValue{};
        }
        case O::Syncall: {
            // Two scalar instructions: the arrival (after draining the core) releases, the departure acquires.
            std::string ct = const_str(arg(c, "core_type")).value_or("mix");
            bool hard = const_str(arg(c, "mode")).value_or("hard") == "hard";
            // Which barrier: a hard (FFTS) barrier and a soft one are different mechanisms, and a soft barrier
            // counts in its GM workspace, so arrivals in another mode or at another workspace never complete it.
            std::string key = ct + (hard ? "/hard" : "/soft");
            if (ExprPtr ws = arg(c, "gm_workspace"); !hard && ws && ws->type.kind == TypeKind::Tensor) {
                TView w = view(ws);
                key += fmt::format("@{}:{}", w.tensor, fmt::join(w.off, ","));
                if (!w.reshape.empty()) key += fmt::format("/{}", fmt::join(w.reshape, ","));
            }
            auto arrive = make(Pipe::Scalar, s, &c);
            Payload& pa = arrive->p;
            pa.kind = PayloadKind::SyncArrive;
            pa.drain = true;
            pa.group = ct;
            pa.hard = hard;
            pa.barrier = key;
            dep_drain(*arrive);
            issue(std::move(arrive));
            auto depart = make(Pipe::Scalar, s, &c);
            Payload& pd = depart->p;
            pd.kind = PayloadKind::SyncDepart;
            pd.group = ct;
            pd.hard = hard;
            pd.barrier = key;
            issue(std::move(depart));
            return LValue{};
        }
        case O::Fence: {
            auto in = make(Pipe::Scalar, s, &c);
            Payload& p = in->p;
            p.kind = PayloadKind::Fence;
            p.drain = true;
            p.fence = true;
            dep_drain(*in);
            issue(std::move(in));
            return LValue{};
        }
        case O::SyncSet:
        case O::SyncWait: {
            PipeType pt = PipeType::S;
            if (auto& pa = arg(c, "pipe"); pa && pa->kind == ExprKind::Enum) pt = static_cast<PipeType>(pa->ival);
            ir::Pipe pipe = pipe_of(pt);
            if (!m_sink.has_pipe(pipe)) pipe = ir::Pipe::Scalar;
            auto in = make(pipe, s, &c);
            Payload& p = in->p;
            p.event_id = scalar(arg(c, "event_id")).as_int();
            if (pt == PipeType::ALL) {
                p.drain = true;
                dep_drain(*in);
            }
            issue(std::move(in));
            return LValue{};
        }
        default:
            return std::nullopt;
    }
}

void LaneWalker::check_ring_setup(const Stmt& s, const Expr& c, int dir, int64_t id) {
    if (m_rings_set_up.count({dir, id}) || !m_setup_reported.insert({dir, id}).second) return;
    const bool aic = m_cx.core == CoreId::Aic;
    m_sink.finding(codes::kPipeSetup, s,
                   fmt::format("{} uses the {} ring id {}, which the {} never initialised: no {}_initialize_pipe "
                               "with dir_mask {} (or 3) and id {} ran on it before",
                               c.op->name(), dir == 0 ? "C2V" : "V2C", id, aic ? "AIC" : "AIV", aic ? "aic" : "aiv",
                               dir == 0 ? 1 : 2, id));
}

void LaneWalker::check_peer_buffer(const Stmt& s, const Expr& c) {
    const auto name = const_str(arg(c, "name"));
    const auto peer_name = const_str(arg(c, "peer_func"));
    const rt::LaunchPlan* plan = m_cx.cfg ? m_cx.cfg->plan : nullptr;
    if (!name || !peer_name || !plan || !plan->program) return;
    const auto peer = plan->program->find(*peer_name);
    if (!peer) return;
    std::vector<std::string> reserved;
    bool found = false;
    passes::walk(peer->body, [&](const StmtPtr& st) {
        const Expr* r = passes::stmt_call(*st);
        if (!r || r->op->code != OpCode::ReserveBuffer) return;
        const auto n = const_str(arg(*r, "name"));
        if (!n)
            found = true;  // a name cvsim cannot read: assume it matches
        else if (*n == *name)
            found = true;
        else
            reserved.push_back("'" + *n + "'");
    });
    if (found) return;
    std::string list;
    for (const auto& r : reserved) list += (list.empty() ? "" : ", ") + r;
    m_sink.finding(codes::kPipeSetup, s,
                   fmt::format("import_peer_buffer of '{}' from '{}', which reserves no buffer of that name ({}): the "
                               "producer's ring is not the consumer's",
                               *name, *peer_name, list.empty() ? "it reserves none" : "it reserves " + list));
}

}  // namespace cvsim::sim
