// Machine: elaboration once per process, then one schedule per run() with a full model reset in between.
#include "sim/cluster.h"
#include "frontend/codes.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <new>
#include <string_view>
#include <utility>

#if defined(__SANITIZE_ADDRESS__)
#include <pthread.h>
#include <sanitizer/common_interface_defs.h>
#endif

#include "models/cube_core.h"
#include "models/vector_core.h"
#include "sim/lane_executor.h"

namespace cvsim::sim {

using namespace sc_core;

namespace {

// SystemC's coroutine switches report each stack to ASan (libsystemc calls the weak
// __sanitizer_{start,finish}_switch_fiber hooks), but its main coroutine has no stack of its own: switching
// back to it leaves ASan believing this thread's stack is [0, 0). Every C++ exception thrown on the thread
// afterwards ("ASan is ignoring requested __asan_handle_no_return") leaves stale stack poison behind, and a
// later one is reported as a stack-buffer-overflow: a false positive, but the ASan suite aborts on it (tests
// run sessions and then compile kernels that raise diagnostics in one process). After each sc_start the
// thread's real stack is reported again. Nothing in a build without ASan.
void sc_run(RunControl& ctl, const sc_time& t, sc_starvation_policy p = SC_RUN_TO_TIME) {
    std::string stopped;
    bool no_stack = false;
    try {
        sc_start(t, p);
    } catch (const sc_report& r) {
        no_stack = std::string_view(r.get_msg_type()) == SC_ID_STACK_SETUP_FAILED_;
        // A core's process let an exception out: SystemC wraps it ("uncaught exception ... In process: ...")
        // and its kernel cannot run another schedule. The exception itself goes on (below), so std::bad_alloc
        // is the out-of-memory diagnostic (E-CAPACITY, exit 2) as anywhere else.
        ctl.broken = true;
        stopped = r.what();
    }
#if defined(__SANITIZE_ADDRESS__)
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
        void* addr = nullptr;
        size_t size = 0;
        const bool ok = pthread_attr_getstack(&attr, &addr, &size) == 0;
        pthread_attr_destroy(&attr);
        if (ok) {
            void* fake_stack = nullptr;
            __sanitizer_start_switch_fiber(&fake_stack, addr, size);
            __sanitizer_finish_switch_fiber(fake_stack, nullptr, nullptr);
        }
    }
#endif
    if (!ctl.broken) return;
    if (ctl.error) std::rethrow_exception(std::exchange(ctl.error, nullptr));
    if (no_stack) throw std::bad_alloc();  // SystemC could not allocate a thread's stack (E518): memory too
    throw std::runtime_error(fmt::format("the simulation stopped: {}", stopped));
}

}  // namespace

void init_systemc() {
    static bool done = false;
    if (done) return;
    done = true;
    sc_set_time_resolution(1, SC_NS);
    // "no activity or clock movement" is expected when a schedule ends exactly at a bound.
    sc_report_handler::set_actions(SC_ID_NO_SC_START_ACTIVITY_, SC_DO_NOTHING);
    sc_report_handler::set_actions("/IEEE_Std_1666/deprecated", SC_DO_NOTHING);
}

Machine& Machine::instance(int clusters) {
    static std::unique_ptr<Machine> m;
    if (!m) m.reset(new Machine(clusters));
    if (m->clusters() < clusters)
        throw std::runtime_error(fmt::format(
            "this process elaborated {} clusters; {} requested (run it in a fresh process)", m->clusters(), clusters));
    return *m;
}

Machine::Machine(int clusters) {
    init_systemc();
    for (int c = 0; c < clusters; ++c) {
        auto cm = std::make_unique<ClusterModel>();
        cm->cores[0] = std::make_unique<CubeCore>(fmt::format("cluster{}_aic", c).c_str(), m_ctl);
        cm->cores[1] = std::make_unique<VectorCore>(fmt::format("cluster{}_aiv0", c).c_str(), m_ctl);
        cm->cores[2] = std::make_unique<VectorCore>(fmt::format("cluster{}_aiv1", c).c_str(), m_ctl);
        m_clusters.push_back(std::move(cm));
    }
    for (const char* g : {"mix", "aiv_only", "aic_only"})
        for (const char* mode : {"/hard", "/soft"}) m_barriers[std::string(g) + mode];
    // Finish elaboration so sc_start can run schedules.
    sc_run(m_ctl, SC_ZERO_TIME);
}

CrossCorePipe& Machine::ring(int cluster, int dir, int64_t id) {
    auto& slot = m_clusters[cluster]->rings[{dir, id}];
    if (!slot) slot = std::make_unique<CrossCorePipe>();
    return *slot;
}

void Machine::reset_models() {
    for (auto& cm : m_clusters) {
        for (auto& c : cm->cores) c->reset();
        for (auto& [k, r] : cm->rings) r->reset();
        cm->ring_setups.clear();
        cm->flags.reset();
    }
    for (auto& [g, b] : m_barriers) b.reset();
}

// "AIC", "AIV0", or "cluster 3 AIV1" when several clusters run.
static std::string core_label(const CoreBase& c, int blocks) {
    std::string n = c.basename();  // "clusterN_aic"
    auto us = n.find('_');
    std::string core = n.substr(us + 1);
    for (auto& ch : core) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    return blocks > 1 ? fmt::format("cluster {} {}", n.substr(7, us - 7), core) : core;
}

static uint64_t now_abs() {
    return static_cast<uint64_t>(sc_time_stamp().value() / sc_time(1, SC_NS).value());
}

// Every ring both sides use must be bound by both (SPEC 4.3: each side's *_initialize_pipe binds its rings): one
// the AIC bound and the AIV never did (or the reverse, e.g. dir_mask 3 on one side and 1 on the other) is set up
// inconsistently. Checked when every core finished (a deadlock may have stopped a side before its setup), and
// only when no use without setup was reported already (the same missing setup).
void Machine::check_ring_setups(const rt::LaunchPlan& plan, RunState& st, uint64_t end_cycle) {
    for (const Finding& f : st.findings)
        if (f.code == codes::kPipeSetup) return;
    for (int b = 0; b < plan.blocks; ++b)
        for (const auto& [key, sides] : m_clusters[b]->ring_setups) {
            if ((sides[0] == nullptr) == (sides[1] == nullptr)) continue;
            const int side = sides[0] ? 0 : 1;
            const ir::Stmt& s = *sides[side];
            Finding f;
            f.code = codes::kPipeSetup;
            f.loc = s.loc;
            f.cycle = end_cycle;
            f.message = fmt::format(
                "{}: the {} binds the {} ring id {} here, but the {} never does (no {}_initialize_pipe with that "
                "direction and id ran): the two sides set up different rings",
                s.loc.short_str(), side == 0 ? "AIC" : "AIV", key.first == 0 ? "C2V" : "V2C", key.second,
                side == 0 ? "AIV" : "AIC", side == 0 ? "aiv" : "aic");
            f.key = f.code + ":" + s.loc.str();
            st.add_finding(std::move(f));
        }
}

RunOutcome Machine::run(const RunConfig& cfg) {
    const rt::LaunchPlan& plan = *cfg.plan;
    if (plan.blocks > clusters())
        throw std::runtime_error(
            fmt::format("launch of {} clusters on a machine elaborated with {}", plan.blocks, clusters()));
    if (m_ctl.broken)
        throw std::runtime_error(
            "the simulation kernel stopped at an error in an earlier schedule (run in a fresh process)");
    reset_models();
    m_ctl.aborted = false;
    m_ctl.timed_out = false;
    m_ctl.work_exceeded = false;
    m_ctl.instructions = 0;
    m_ctl.max_instructions = cfg.max_instructions;
    m_ctl.t0 = now_abs();
    auto wall_start = std::chrono::steady_clock::now();
    m_ctl.wall_exceeded = [wall_start, limit = cfg.max_wall_seconds] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count() > limit;
    };

    RunState st;
    st.cfg = &cfg;
    st.detail = std::any_of(cfg.sinks.begin(), cfg.sinks.end(), [](const EventSink* s) { return s->wants_detail(); });
    st.machine = this;
    st.tensors = cfg.gm;
    st.rng = ScheduleRng(cfg.schedule.seed);
    // The schedule arrives resolved (Session::run); a bare RunConfig takes its fixed delay.
    st.visibility_delay = resolve_schedule(cfg.schedule, cfg.visibility_delay).visibility_delay;
    m_gm.load(*cfg.gm, cfg.hw, cfg.gm_image_id);

    // Which cores run what.
    bool a2a3 = cfg.hw.target == Target::A2A3;
    int aiv_launched = !plan.aiv                                                                        ? 0
                       : (plan.aiv_split || (a2a3 && plan.aiv_lane1_replay) || plan.aiv_lane1_launched) ? 2
                                                                                                        : 1;
    if (plan.aiv && !plan.aiv_split && !a2a3) aiv_launched = plan.aiv_lane1_launched ? 2 : 1;
    if (plan.aiv && !plan.aiv_split && a2a3) aiv_launched = plan.aiv_lane1_replay || plan.aiv_lane1_launched ? 2 : 1;
    st.aiv_lanes = std::max(aiv_launched, 1);
    st.blocks = plan.blocks;
    st.capacity = static_cast<int>(cfg.hw.chip.clusters) *
                  (!plan.aic && aiv_launched == 1 ? static_cast<int>(kAivsPerCluster) : 1);
    st.aic_per_cluster = plan.aic ? 1 : 0;
    st.aiv_per_cluster = aiv_launched;
    st.participants_per_cluster = st.aic_per_cluster + st.aiv_per_cluster;
    // The strategy's decisions drawn up front (PCT's change points), then each core's start delay (below).
    st.policy = &schedule_policy(cfg.schedule.strategy);
    st.pct_points = st.policy->change_points(cfg.schedule, st.rng);

    // Ring tensors: every (direction, id) ring of a cluster has its own region of that cluster's hidden ring
    // tensor (set before the rings are configured, which places the slots).
    std::vector<std::unique_ptr<CoreRunner>> runners;
    // However the run ends (an exception out of a live walk included), every instruction goes back to its engine.
    struct RetireAll {
        std::vector<std::unique_ptr<CoreRunner>>& runners;
        ~RetireAll() {
            for (auto& r : runners) r->model().retire_all();
        }
    } retire_guard{runners};
    // Waves: a launch wider than the chip runs its first C blocks, then one more each time a block finishes (C: the
    // blocks the chip holds, RunState::capacity).
    const int chip = st.capacity;
    m_blocks_done = 0;
    m_dispatch_ev.cancel();
    m_cores_left.assign(static_cast<size_t>(plan.blocks), 0);
    // The lanes each block runs: (core, program, a2a3 lane-1 replay, lane).
    auto for_each_lane = [&](auto&& f) {
        if (plan.aic) f(CoreId::Aic, *plan.aic, false, 0);
        if (plan.aiv) {
            f(CoreId::Aiv0, *plan.aiv, false, 0);
            if (aiv_launched == 2) f(CoreId::Aiv1, *plan.aiv, !plan.aiv_split && a2a3 && plan.aiv_lane1_replay, 1);
        }
    };
    // A session's first schedule records every lane's instruction stream (sim/lane_stream.h); when each lane
    // can be recorded, every schedule replays them in method mode, else every schedule walks live.
    StreamCache* streams = cfg.streams;
    if (streams && streams->state == StreamCache::State::Unknown) {
        streams->state = StreamCache::State::Ready;
        for (int b = 0; b < plan.blocks && streams->state == StreamCache::State::Ready; ++b)
            for_each_lane([&](CoreId id, const rt::LaneProgram& prog, bool replay, int lane) {
                if (streams->state != StreamCache::State::Ready) return;
                WalkContext cx;
                cx.cfg = &cfg;
                cx.machine = this;
                cx.tensors = cfg.gm;
                cx.blocks = plan.blocks;
                cx.cluster = b;
                cx.core = id;
                cx.lane = lane;
                cx.aiv_lanes = st.aiv_lanes;
                cx.replay = replay;
                if (!record_stream(cx, prog, *m_clusters[b]->cores[static_cast<int>(id)],
                                   streams->lanes[{b, static_cast<int>(id)}], streams->why)) {
                    streams->state = StreamCache::State::Unsupported;
                    streams->lanes.clear();
                }
            });
    }
    const bool replaying = streams && streams->state == StreamCache::State::Ready;
    for (int b = 0; b < plan.blocks; ++b) {
        ClusterModel& cm = *m_clusters[b];
        for (auto& [key, r] : cm.rings) r->has_region = false;
        if (b < static_cast<int>(cfg.ring_tensors.size()))
            for (auto& [key, base] : cfg.ring_bases) {
                CrossCorePipe& r = ring(b, key.first, key.second);
                r.gm_tensor = cfg.ring_tensors[b];
                r.gm_base = static_cast<uint64_t>(base);
                r.has_region = true;
            }
        auto add = [&](CoreId id, const rt::LaneProgram& prog, bool replay, int lane) {
            LaneStream* stream = replaying ? &streams->lanes.at({b, static_cast<int>(id)}) : nullptr;
            auto runner = std::make_unique<CoreRunner>(st, b, id, prog, replay, lane, st.aiv_lanes, stream);
            runner->set_runner_index(static_cast<int>(runners.size()));
            CoreBase& core = *cm.cores[static_cast<int>(id)];
            core.set_queue_depth(cfg.hw.core.pipe_queue_depth);
            core.set_scalar_cost(cfg.hw.core.scalar_cycles_per_stmt);
            ++m_cores_left[static_cast<size_t>(b)];
            const int after = b >= chip && chip > 0 ? b - chip + 1 : 0;  // blocks that must finish first
            runner->install(after, chip);
            core.set_on_finish([this, b] {
                if (--m_cores_left[static_cast<size_t>(b)] == 0) {
                    ++m_blocks_done;
                    m_dispatch_ev.notify(SC_ZERO_TIME);
                }
            });
            core.launch(st.policy->start_delay(cfg.schedule, st.rng));
            runners.push_back(std::move(runner));
        };
        for_each_lane(add);
    }
    st.launched_cores = static_cast<int>(runners.size());
    // Run until every core finished, nothing can move (deadlock), or a bound is hit.
    sc_run(m_ctl, sc_time(static_cast<double>(cfg.max_cycles), SC_NS), SC_EXIT_ON_STARVATION);

    RunOutcome out;
    bool all_done = true;
    for (auto& r : runners)
        if (!r->model().finished()) all_done = false;
    out.end_cycle = now_abs() - m_ctl.t0;
    out.completed = all_done;
    if (all_done && plan.aic && plan.aiv) check_ring_setups(plan, st, out.end_cycle);
    if (!all_done) {
        // sc_start stops at the last event before the bound, not at the bound: activity still pending at a
        // future time means something was in flight when the bound hit (a timeout, not a deadlock).
        out.timeout = m_ctl.timed_out || out.end_cycle >= cfg.max_cycles || sc_pending_activity();
        out.deadlock = !out.timeout;
        Finding f;
        bool occupancy = false, waves = false;
        for (auto& r : runners)
            if (!r->model().finished()) {
                // A hard barrier hangs for want of cores only when the launch leaves some of the chip's clusters
                // empty; blocked in one on a launch that fills the chip is a plain deadlock (a branch only some
                // blocks take, a ring nobody feeds), E-DEADLOCK alone (found by the twenty-fifth session's hunt).
                // Any barrier (hard or soft) of a launch wider than the chip waits for blocks of a later wave.
                if (r->blocked_in_syncall() && plan.blocks > chip)
                    waves = true;
                else if (r->blocked_in_hard_syncall())
                    occupancy |= plan.blocks < chip;
            }
        if (out.deadlock) {
            f.code = codes::kDeadlock;
            f.message = fmt::format("deadlock at cycle {}: every unfinished core is blocked and nothing is in flight",
                                    out.end_cycle);
        } else {
            f.code = codes::kTimeout;
            f.message =
                m_ctl.work_exceeded
                    ? fmt::format("the schedule exceeded the work bound of {} instructions", cfg.max_instructions)
                : m_ctl.timed_out
                    ? fmt::format("the schedule exceeded the wall-time bound of {} s", cfg.max_wall_seconds)
                    : fmt::format("the schedule exceeded the simulated-time bound of {} cycles", cfg.max_cycles);
        }
        for (auto& r : runners) {
            CoreBase& c = r->model();
            std::string label = core_label(c, plan.blocks);
            if (c.finished()) {
                f.details.push_back(fmt::format("{}: finished at cycle {}", label, c.end_cycle()));
                continue;
            }
            auto waits = r->blocked();
            if (waits.empty()) waits.push_back("blocked (no single instruction identified)");
            for (auto& w : waits) f.details.push_back(fmt::format("{}: {}", label, w));
            if (f.loc.line == 0) {
                // Primary location: the first blocked core's oldest unfinished statement.
                for (uint32_t q = 0; q < c.issued(); ++q)
                    if (!c.instr_done(q) && static_cast<const Instr&>(c.instr(q)).stmt) {
                        f.loc = static_cast<const Instr&>(c.instr(q)).stmt->loc;
                        break;
                    }
            }
        }
        f.cycle = out.end_cycle;
        f.key = f.code;
        auto occupancy_finding = [&](std::string message, std::string hint) {
            Finding o;
            o.code = codes::kOccupancy;
            o.message = std::move(message);
            o.details.push_back(std::move(hint));
            o.key = codes::kOccupancy;
            o.cycle = out.end_cycle;
            st.add_finding(o);
        };
        if (waves)
            occupancy_finding(
                fmt::format(
                    "a syncall over the launch's {} blocks waits for blocks that never start: the chip holds {} "
                    "{}, so the blocks run in waves and the later ones are dispatched only when earlier ones "
                    "finish; on hardware this hangs",
                    plan.blocks, chip, chip == static_cast<int>(cfg.hw.chip.clusters) ? "clusters" : "AIV cores"),
                "launch at most " + std::to_string(chip) +
                    " blocks (loop over the work inside a block), or order the accesses without a barrier");
        if (occupancy)
            occupancy_finding(
                fmt::format(
                    "a hard syncall waits for every core of the chip ({} {}) but the kernel was launched on {}; "
                    "on hardware this hangs (AICore error 507018)",
                    chip, chip == static_cast<int>(cfg.hw.chip.clusters) ? "clusters" : "AIV cores", plan.blocks),
                "launch with --blocks " + std::to_string(chip) + " or use syncall(mode=\"soft\")");
        st.add_finding(f);
        // Unwind every thread back to its idle loop.
        m_ctl.aborted = true;
        m_ctl.abort_ev.notify(SC_ZERO_TIME);
        for (auto& cm : m_clusters)
            for (auto& c : cm->cores) c->abort_waits();
        sc_run(m_ctl, SC_ZERO_TIME);
        while (sc_pending_activity_at_current_time()) sc_run(m_ctl, SC_ZERO_TIME);
    }
    // Flush pending events (delayed notifications) so the next schedule starts clean.
    for (auto& r : runners) {
        CoreReport cr;
        CoreBase& c = r->model();
        cr.cluster = r->engine().cluster();
        cr.core = r->engine().core_id();
        cr.launched = true;
        cr.replay = r->replay();
        cr.finished = c.finished();
        cr.start = c.start_cycle();
        cr.end = c.finished() ? c.end_cycle() : out.end_cycle;
        for (ir::Pipe p : c.pipes()) cr.pipes.push_back({p, c.stats(p)});
        if (!c.finished()) cr.blocked = r->blocked();
        out.cores.push_back(std::move(cr));
    }
    for (int b = 0; b < plan.blocks; ++b)
        for (auto& [k, r] : m_clusters[b]->rings) {
            if (!r->configured()) continue;
            RingReport rr;
            rr.cluster = b;
            rr.c2v = k.first == 0;
            rr.id = k.second;
            rr.slot_num = r->slot_num();
            rr.slot_size = r->slot_size();
            rr.max_occupancy = r->ring().max_occupancy();
            rr.pushes = r->ring().push_count();
            rr.producer_stall_cycles = r->producer_stall_cycles;
            out.rings.push_back(rr);
        }
    out.findings = std::move(st.findings);
    out.sync_events = st.sync_events;
    out.instructions = st.instructions;
    // Only outputs travel back (inputs are unchanged by definition; hidden tensors are internal).
    out.gm_final.tensors.reserve(cfg.gm->tensors.size());
    for (const auto& t : cfg.gm->tensors) {
        rt::TensorBuffer b;
        b.name = t.name;
        b.dtype = t.dtype;
        b.shape = t.shape;
        b.dir = t.dir;
        b.hidden = t.hidden;
        out.gm_final.tensors.push_back(std::move(b));
    }
    m_gm.store_back(out.gm_final, UINT64_MAX);
    out.l2_hit_rate = m_gm.l2().hit_rate();
    out.gm_bytes_read = m_gm.bytes_read();
    out.gm_bytes_written = m_gm.bytes_written();
    for (EventSink* s : cfg.sinks) s->on_end(out.end_cycle);
    m_ctl.aborted = false;
    for (auto& r : runners) r->model().retire_all();
    runners.clear();
    for (auto& cm : m_clusters)
        for (auto& c : cm->cores) {
            c->set_engine(nullptr);
            c->clear_program();
        }
    return out;
}

}  // namespace cvsim::sim
