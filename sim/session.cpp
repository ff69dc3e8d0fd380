// Session: compile once, reference once, many checked schedules.
#include "sim/session.h"

#include <fmt/format.h>

#include <cstdlib>

#include "frontend/codes.h"
#include "frontend/diag.h"
#include "frontend/pipeline.h"
#include "frontend/sema.h"
#include "sim/check/hazard_checker.h"
#include "sim/lane_stream.h"

namespace cvsim::sim {

bool ScheduleResult::clean() const {
    return findings.empty();
}

passes::ExpandOptions expand_options(Target target, passes::V2CPolicy v2c, int blocks, const HwParams& hw) {
    passes::ExpandOptions eo;
    eo.v2c = v2c;
    eo.target = target;
    eo.blocks = blocks;
    eo.chip_clusters = static_cast<int>(hw.chip.clusters);
    eo.flag_lane_stride = static_cast<int>(hw.chip.flag_counters / kAivsPerCluster);
    eo.auto_slot_num = static_cast<int>(hw.sync.auto_slot_num);
    eo.visibility_delay = hw.gm.visibility_delay;
    return eo;
}

HwParams session_params(const SessionOptions& o) {
    HwParams hw = load_params(o.target, o.config_files, o.param_sets);
    if (o.visibility_delay) {
        // --visibility-delay is the gm.visibility_delay parameter, given on the command line.
        set_param(hw, "gm.visibility_delay", std::to_string(*o.visibility_delay), "--visibility-delay");
        validate(hw);
    }
    return hw;
}

passes::ExpandOptions session_expand_options(const SessionOptions& o, const HwParams& hw) {
    passes::ExpandOptions eo = expand_options(o.target, o.v2c, o.blocks, hw);
    eo.c2v = o.c2v;
    eo.visibility_delay = std::max(eo.visibility_delay, o.max_visibility_delay);
    return eo;
}

std::map<std::string, int64_t> dims_from_inputs(const std::shared_ptr<SourceFile>& file,
                                                const std::map<std::string, int64_t>& dims,
                                                const std::map<std::string, std::string>& input_files) {
    if (input_files.empty()) return dims;
    // Which symbols are unbound, then a probe with each at a value of its own, to see where each one lands in
    // the parameter types (a program the probe cannot analyse binds nothing; the real analysis reports it).
    std::vector<std::string> unbound;
    std::vector<std::pair<std::string, int64_t>> defaulted;
    std::shared_ptr<ir::Program> probe;
    std::map<int64_t, std::string> symbol_of;
    try {
        SemaOptions sema{dims, kDefaultDim, &defaulted};
        std::vector<std::pair<std::string, int64_t>> inferred;  // an --input shape wins over the program's own
        sema.inferred = &inferred;
        sema.keep_unread = true;
        sema.reuse = true;
        load_program(file, sema);
        for (const auto& [n, v] : defaulted) unbound.push_back(n);
        for (const auto& [n, v] : inferred) unbound.push_back(n);
        if (unbound.empty()) return dims;
        auto marked = dims;
        int64_t mark = 999'983;  // odd values no kernel writes as a size
        for (const auto& name : unbound) {
            marked[name] = mark;
            symbol_of[mark] = name;
            mark -= 2;
        }
        SemaOptions marked_sema{marked, kDefaultDim};
        marked_sema.keep_unread = true;
        marked_sema.reuse = true;
        probe = load_program(file, marked_sema);
    } catch (const std::exception&) {
        return dims;
    }
    auto out = dims;
    for (const auto& [name, path] : input_files) {
        auto shape = rt::npy_shape(path);
        if (!shape) continue;  // read_npy reports it
        for (const auto& f : probe->functions)
            for (const auto& p : f->params) {
                const ir::Type& t = p.var->type;
                if (p.var->name != name || t.kind != ir::TypeKind::Tensor || t.shape.size() != shape->size()) continue;
                for (size_t i = 0; i < t.shape.size(); ++i) {
                    // A 4-bit tensor's file holds its packed bytes: the last dimension is half the tensor's.
                    const int64_t n = is_sub_byte(t.dtype) && i + 1 == t.shape.size() ? 2 * (*shape)[i] : (*shape)[i];
                    if (auto s = symbol_of.find(t.shape[i]); s != symbol_of.end() && n > 0) out.emplace(s->second, n);
                }
            }
    }
    return out;
}

Session::Session(std::shared_ptr<SourceFile> file, SessionOptions opt)
    : m_opt(std::move(opt)), m_file(std::move(file)) {
    m_opt.dims = dims_from_inputs(m_file, m_opt.dims, m_opt.input_files);
    if (const char* live = std::getenv("CVSIM_LIVE_WALK"); live && *live && std::string_view(live) != "0")
        m_opt.streams = false;
    // Test hook: out of memory at that instruction (CVSIM_FAULT_OUT_OF_MEMORY_ENTRY: only in that entry's sessions).
    if (const char* oom = std::getenv("CVSIM_FAULT_OUT_OF_MEMORY_AT"); oom && *oom) {
        const char* only = std::getenv("CVSIM_FAULT_OUT_OF_MEMORY_ENTRY");
        if (!only || !*only || m_opt.entry == only) m_opt.fault_out_of_memory_at = std::strtoll(oom, nullptr, 10);
    }
    static uint64_t next_image_id = 0;
    m_gm_image_id = ++next_image_id;
    m_hw = session_params(m_opt);
    // The one pass pipeline (frontend/pipeline.h), on the entry's launch: `expand` runs the same passes.
    PipelineOptions po;
    std::vector<std::pair<std::string, int64_t>> defaulted, inferred;
    std::vector<std::string> specialised;
    po.sema = SemaOptions{m_opt.dims, kDefaultDim, &defaulted};  // unbound pl.dynamic: the documented default
    po.sema.inferred = &inferred;
    po.sema.specialised = &specialised;
    po.sema.keep_unread = true;  // a launch that reaches an unread function is refused
    po.sema.reuse = true;        // the program is only read here
    po.entry = m_opt.entry;
    po.reached_only = true;  // a kernel's capacity is its own (whole-model files: hundreds of kernels)
    po.hw = m_hw;
    po.expand = session_expand_options(m_opt, m_hw);
    PipelineResult piped = run_pipeline(m_file, po);
    m_compiled = std::move(piped.launches.at(0));
    m_passes = std::move(piped.passes);
    // The sizes cvsim chose, as the commands print them (the verdict is about these sizes).
    for (const auto& [n, v] : inferred) m_dim_notes.push_back(inferred_dim_note(n, v));
    for (const auto& sp : specialised) m_dim_notes.push_back("note: " + sp + "\n");
    for (const auto& [n, v] : defaulted) m_dim_notes.push_back(defaulted_dim_note(n, v));
    for (const auto& g : m_compiled.plan.aliases)
        m_dim_notes.push_back(
            fmt::format("note: {}: {} share one GM tensor '{}' of shape {} (each sees it through its "
                        "own shape; races between them are checked)\n",
                        m_compiled.plan.entry->name, g.origin, g.name, ir::shape_str(g.shape)));

    // GM: the entry's tensors (inputs generated or read, outputs poisoned), then hidden ring tensors.
    // --input NAME=VALUE must name a scalar parameter of the entry (a typo is not silently a default 0).
    for (const auto& [name, value] : m_opt.scalars) {
        const ir::Param* found = nullptr;
        std::string names;
        for (const auto& p : m_compiled.plan.entry->params) {
            if (p.var->name == name) found = &p;
            if (p.var->type.kind == ir::TypeKind::Scalar) names += (names.empty() ? "" : ", ") + p.var->name;
        }
        if (!found)
            throw std::invalid_argument(fmt::format("--input {}=...: {} has no parameter '{}' (scalar parameters: {})",
                                                    name, m_compiled.plan.entry->name, name,
                                                    names.empty() ? "none" : names));
    }
    // --input T=VALUE of a tensor parameter fills every element with VALUE (what check's sampling of control
    // data gives: docs/DECISIONS.md, "Unbound control scalars are sampled").
    std::map<std::string, rt::Scalar> scalars, fills;
    for (const auto& [name, value] : m_opt.scalars) {
        bool tensor = false;
        for (const auto& p : m_compiled.plan.entry->params)
            if (p.var->name == name) tensor = p.var->type.kind == ir::TypeKind::Tensor;
        (tensor ? fills : scalars)[name] = value;
    }
    rt::bind_entry(m_compiled.plan, m_gm, scalars);
    rt::fill_inputs(m_gm, m_opt.input_seed);
    // A parameter that views another's tensor (LaunchPlan::aliases) has no tensor of its name: a fill or an iota
    // of it is one of that whole tensor (the same values everywhere, or ascending in its row-major order); a file
    // would have to be cut into it, which cvsim does not do.
    auto tensor_of = [&](const std::string& name) -> std::optional<uint32_t> {
        if (const rt::AliasGroup* g = rt::alias_group(m_compiled.plan, name)) return m_gm.find(g->name);
        return m_gm.find(name);
    };
    for (const auto& [name, path] : m_opt.input_files)
        if (const rt::AliasGroup* g = rt::alias_group(m_compiled.plan, name); g && g->name != name)
            throw std::invalid_argument(fmt::format(
                "--input {}={}: '{}' shares the GM bytes of '{}' (its launch passes {}); give that tensor's data", name,
                path, name, g->name, g->origin));
    for (const auto& [name, value] : fills) {
        auto idx = tensor_of(name);
        if (!idx) continue;
        rt::TensorBuffer& t = m_gm.tensors[*idx];
        const double v = value.is_float() ? value.f : static_cast<double>(value.i);
        for (int64_t i = 0, n = t.numel(); i < n; ++i) put_element(t.dtype, v, t.bytes.data(), i);
    }
    for (const auto& [name, base] : m_opt.iotas) {
        auto idx = tensor_of(name);
        if (!idx)
            throw std::invalid_argument(
                fmt::format("--input {}=iota: the kernel has no tensor parameter '{}'", name, name));
        rt::TensorBuffer& t = m_gm.tensors[*idx];
        for (int64_t i = 0, n = t.numel(); i < n; ++i)
            put_element(t.dtype, static_cast<double>(base + i), t.bytes.data(), i);
    }
    for (auto& [name, path] : m_opt.input_files) {
        auto idx = m_gm.find(name);
        if (!idx)
            throw std::runtime_error(fmt::format("--input {}: the kernel has no tensor parameter '{}'", name, name));
        rt::read_npy(m_gm.tensors[*idx], path);
    }
    rt::poison_outputs(m_gm);
    // One hidden ring tensor per cluster: on a2a3 the rings' GM buffer; on a5 it only names the rings'
    // consumer-SRAM slots for the hazard checker (no GM traffic goes to it).
    // The pipeline's gm-budget pass charged them (E-CAPACITY before anything is allocated).
    const RingLayout& layout = piped.rings.at(0);
    m_ring_bases = layout.base;
    const int64_t ring_bytes = layout.bytes;
    if (ring_bytes > 0) {
        for (int b = 0; b < m_compiled.plan.blocks; ++b) {
            rt::TensorBuffer t;
            t.name = fmt::format("__ring_cluster{}", b);
            t.dtype = DType::UINT8;
            t.shape = {ring_bytes};
            t.hidden = true;
            t.bytes.assign(static_cast<size_t>(ring_bytes), 0);
            m_ring_tensors.push_back(m_gm.add(std::move(t)));
        }
    }
}

Session::~Session() = default;

bool Session::replays_streams() const {
    return m_streams && m_streams->state == StreamCache::State::Ready;
}

std::string Session::streams_off_reason() const {
    if (!m_opt.streams) return "off";
    if (!m_streams || m_streams->state == StreamCache::State::Unknown) return "no schedule ran yet";
    return m_streams->why;
}

ref::Options Session::ref_options() const {
    ref::Options o;
    o.max_wall_seconds = m_opt.max_wall_seconds;  // the reference is a phase of its own, bounded like a schedule
    o.max_work = m_opt.max_ref_work;
    return o;
}

const ref::Result& Session::reference() {
    if (!m_ref) {
        m_ref = ref::interpret(m_compiled.plan, m_gm, ref_options());
        // Large outputs on a generator: the pages the reference wrote (a run's outputs come back that way).
        for (size_t i = 0; i < m_ref->gm.tensors.size() && i < m_gm.tensors.size(); ++i)
            if (m_ref->gm.tensors[i].is_output()) rt::sparsify_output(m_ref->gm.tensors[i], m_gm.tensors[i]);
    }
    return *m_ref;
}

const ref::Result& Session::expanded_reference() {
    if (!m_ref_expanded) m_ref_expanded = ref::interpret_lanes(m_compiled.plan, m_gm, ref_options());
    return *m_ref_expanded;
}

ScheduleResult Session::run(const Schedule& unresolved, const std::vector<EventSink*>& sinks, int fault_abort_at) {
    Machine& m = Machine::instance(clusters_needed());
    // One resolved schedule record: the model, the checker and the result (hence the replay line) read it.
    const Schedule sched = resolve(unresolved);
    const uint64_t vis = sched.visibility_delay;
    if (sched.strategy == Strategy::Pct && sched.pct_events == 0 && m_nominal_events == 0)
        run(Schedule{});  // measure PCT's k on the nominal schedule first
    // One checker per session, emptied for each schedule (it keeps its storage).
    if (!m_checker || m_checker->clusters() != m.clusters())
        m_checker = std::make_shared<HazardChecker>(m.clusters(), &m_gm, vis);
    else
        m_checker->reset(vis);
    HazardChecker& checker = *m_checker;
    RunConfig cfg;
    cfg.plan = &m_compiled.plan;
    cfg.gm = &m_gm;
    cfg.hw = m_hw;
    cfg.hw.gm.visibility_delay = vis;
    cfg.schedule = sched;
    if (sched.strategy == Strategy::Pct && sched.pct_events == 0) cfg.schedule.pct_events = m_nominal_events;
    cfg.visibility_delay = vis;
    cfg.max_cycles = m_opt.max_cycles;
    cfg.max_wall_seconds = m_opt.max_wall_seconds;
    cfg.max_instructions = m_opt.max_instructions;
    cfg.sinks.push_back(&checker);
    for (auto* s : sinks) cfg.sinks.push_back(s);
    cfg.ring_tensors = m_ring_tensors;
    cfg.ring_bases = m_ring_bases;
    cfg.fault_abort_at = fault_abort_at;
    cfg.fault_out_of_memory_at = m_opt.fault_out_of_memory_at;
    m_memo.set_budget(m_opt.memo_budget);
    cfg.memo = m_opt.memo ? &m_memo : nullptr;
    cfg.gm_image_id = m_gm_image_id;
    // Streams pay off over many schedules (a session that records the memo); one schedule walks live.
    if (m_opt.streams && m_opt.memo) {
        if (!m_streams) m_streams = std::make_unique<StreamCache>();
        cfg.streams = m_streams.get();
    }
    ScheduleResult r;
    r.schedule = sched;
    r.outcome = m.run(cfg);
    m_memo.stop_recording();
    r.findings = r.outcome.findings;
    for (const auto& f : checker.findings()) r.findings.push_back(f);
    if (r.outcome.completed) {
        const ref::Result& want = reference();
        if (!want.error) {
            for (auto& f : compare_outputs(r.outcome.gm_final, want.gm, m_opt.compare)) r.findings.push_back(f);
        } else {
            // No reference, no comparison: the outputs are unchecked, which is never a pass.
            Finding f;
            f.code = codes::kUnchecked;
            f.message =
                fmt::format("outputs not compared: the reference interpreter could not run this kernel ({}: {})",
                            want.error->code, want.error->message);
            f.loc = want.error->loc;
            if (want.error->loc.valid()) f.details.push_back("reference stopped at " + want.error->loc.short_str());
            f.key = codes::kUnchecked;
            r.findings.push_back(f);
        }
        if (sched.strategy == Strategy::Nominal && sched.seed == 0) {
            m_nominal_out = r.outcome.gm_final;
            m_nominal_events = r.outcome.sync_events;
        } else if (m_nominal_out) {
            const ref::Result& want = reference();
            for (auto& f : compare_outputs(r.outcome.gm_final, *m_nominal_out, m_opt.compare, codes::kNondet,
                                           want.error ? nullptr : &want.gm))
                r.findings.push_back(f);
        }
    }
    return r;
}

}  // namespace cvsim::sim
