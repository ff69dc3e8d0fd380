// The entries check and explore take from one kernel file: its launches, sampled scalars and sizes (cli_internal.h).
#include <fmt/format.h>

#include <functional>
#include <iostream>
#include <map>
#include <set>

#include "app/cli_internal.h"
#include "app/report.h"
#include "app/sampling.h"
#include "frontend/codes.h"
#include "frontend/control_scalars.h"
#include "frontend/launch.h"
#include "frontend/passes/ir_util.h"
#include "frontend/printer.h"
#include "frontend/sema.h"

namespace cvsim::cli {

passes::TimingScope timing_scope_of(const CommonOptions& c, const std::string& kernel) {
    // (a kernel entry: the functions it reaches, not every kernel of a whole-model file)
    auto program = expand_kernel_file(c, kernel, false, /*launches=*/false, /*reached_only=*/true).printed;
    // A kernel an orchestration launches is checked on its launch's scalars, which the host walk computed: the
    // orchestration's own control flow is not part of that check's scope.
    if (auto e = c.entry.empty() ? nullptr : program->find(c.entry); e && e->type != ir::FuncType::Orchestration) {
        auto only = std::make_shared<ir::Program>(*program);
        std::erase_if(only->functions, [](const auto& f) { return f->type == ir::FuncType::Orchestration; });
        return passes::analyse_timing_scope(*only);
    }
    return passes::analyse_timing_scope(*program);
}

namespace {
// attrs={"core_num": X} at a launch where X is computed at run time (docs/DECISIONS.md): cvsim launches
// --blocks; say so, naming the launch and the expression.
// `launches`: the host walk's launches; a kernel whose every binding has an evaluated core_num is launched with
// that width (LaunchBinding::blocks), so it gets no note.
// `skip`: functions whose launches are another entry's (the other Orchestration functions of a file check takes
// one by one).
void note_runtime_core_num(const ir::Program& p, int blocks, const std::vector<KernelLaunch>& launches,
                           const std::set<std::string>& skip = {}) {
    // The widths the walk evaluated for `name` ("" when some binding has none).
    auto evaluated = [&](const std::string& name) {
        std::set<int> widths;
        for (const auto& k : launches)
            if (k.name == name && !k.bindings.empty())
                for (const auto& b : k.bindings) {
                    if (b.blocks <= 0) return std::string();
                    widths.insert(b.blocks);
                }
        std::string w;
        for (int x : widths) w += (w.empty() ? "" : ", ") + std::to_string(x);
        return w;
    };
    for (const auto& f : p.functions) {
        if (skip.count(f->name)) continue;
        passes::walk(f->body, [&](const ir::StmtPtr& s) {
            const ir::ExprPtr& v = s->value;
            if (!v || v->kind != ir::ExprKind::FuncCall) return;
            const ir::ExprPtr* val = core_num_attr(*v);
            if (!val || (*val)->kind == ir::ExprKind::Int) return;
            // The kernel launched (a pl.spmd_submit's / pl.submit's first argument): the walk's launches name it.
            const std::string& kernel = launched_kernel(*v);
            if (std::string w = evaluated(kernel); !w.empty()) {
                std::cerr << fmt::format(
                    "note: {}:{}: the launch of '{}' sets core_num at run time; the host walk evaluates it to {} "
                    "block(s), which cvsim launches\n",
                    f->name, s->loc.line, kernel, w);
                return;
            }
            std::cerr << fmt::format(
                "note: {}:{}: the launch of '{}' sets core_num to the run-time value {}; cvsim "
                "launches --blocks {} block(s) (pass --blocks N to check N)\n",
                f->name, s->loc.line, kernel, print_expr(*val), blocks);
        });
    }
}

// The entry kernel checked as given, or, when scalar parameters that decide what it runs are not given, once
// per sampled assignment of them (docs/DECISIONS.md, "Unbound control scalars are sampled").
std::vector<CheckEntry> sampled_entries(const CommonOptions& c, const std::string& kernel,
                                        const std::shared_ptr<ir::Program>& program) {
    std::shared_ptr<ir::Function> fn;
    try {
        fn = pick_entry(*program, c.entry);
    } catch (const CompileError&) {
        return {CheckEntry{c, "", "", "", {}, nullptr, "", -1, "", nullptr}};  // the session reports E-ENTRY
    }
    std::vector<std::string> names;
    for (const auto& n : control_scalar_params(*program, *fn)) {
        bool given = false;
        for (const auto& in : c.inputs) given |= in.rfind(n + "=", 0) == 0;
        if (!given) names.push_back(n);
    }
    if (names.empty() || fn->type == ir::FuncType::Orchestration)
        return {CheckEntry{c, "", "", "", {}, nullptr, "", -1, "", nullptr}};
    auto samples = sample_assignments(*fn, names);
    const size_t base_samples = samples.size();
    std::vector<ExtraSample> extras;
    std::vector<std::string> extra_at, chain_at;
    for (const auto& x : extra_samples(*program, *fn)) {
        Assignment a = extra_assignment(*fn, names, x);
        if (std::find(samples.begin(), samples.end(), a) != samples.end()) continue;  // a kind gave it already
        samples.push_back(std::move(a));
        extras.push_back(x);
        (x.chain ? chain_at : extra_at).push_back(x.descending ? "descending" : std::to_string(x.value));
    }
    if (!c.quiet) {
        std::vector<std::string> at;
        for (size_t i = 0; i < base_samples; ++i) at.push_back(samples[i].front().second);
        std::cerr << fmt::format(
            "note: {}: '{}' takes the scalar parameter(s) {} that decide what it runs, and no --input gives them: "
            "cvsim checks it with each set to {} (a verdict each; --input NAME=V checks the values you use); when "
            "none of these finds anything, also with each set to {}, and to the largest of {} it takes\n",
            kernel, fn->name, fmt::join(names, ", "), fmt::join(at, ", then "), fmt::join(extra_at, ", "),
            fmt::join(chain_at, ", "));
    }
    std::vector<CheckEntry> out;
    for (size_t i = 0; i < samples.size(); ++i) {
        const Assignment& a = samples[i];
        CheckEntry e{c, "", "", "", {}, nullptr, "", -1, "", nullptr};
        if (i >= base_samples) {
            e.sample_extra = extras[i - base_samples].chain ? 2 : 1;
            e.opts.work_budget = e.opts.probe_budget;
        }
        e.opts.entry = fn->name;
        for (const auto& [n, v] : a) e.opts.inputs.push_back(n + "=" + v);
        e.sampled = assignment_text(a);
        e.binding = e.sampled + " (sampled)";
        e.sample_group = 0;
        e.program = program;
        out.push_back(std::move(e));
    }
    return out;
}

// A note for each scalar parameter a launch takes from a value the host walk does not know but that cannot matter
// to the kernel (LaunchBinding::dead): it is checked with 0 and the verdict holds for every value. NOTED: the
// (kernel, parameter) pairs already noted.
void note_dead_scalars(const CommonOptions& c, const std::string& kernel, const std::vector<KernelLaunch>& launches,
                       std::set<std::pair<std::string, std::string>>& noted) {
    if (c.quiet) return;
    for (const auto& k : launches)
        for (const auto& b : k.bindings)
            for (const auto& [name, why] : b.dead) {
                bool given = false;
                for (const auto& in : c.inputs) given |= in.rfind(name + "=", 0) == 0;
                if (given || !noted.insert({k.name, name}).second) continue;
                std::cerr << fmt::format(
                    "note: {}: kernel '{}' is launched with its scalar '{}' from a value cvsim does not know ({}), "
                    "but no value derived from it reaches anything the kernel does (an op, an address, a loop "
                    "bound, a branch, a returned value): cvsim checks it with {}=0 and the value does not matter\n",
                    kernel, k.name, name, why, name);
            }
}

std::vector<CheckEntry> entries_of_entry(const CommonOptions& c, const std::string& kernel,
                                         const std::shared_ptr<ir::Program>& program, const HostInputs& host,
                                         const std::set<std::string>& other_entries);

// The integer constants (and each plus one) that the `if` conditions of ORCH, and of the orchestrations it calls,
// compare a computed value with (`x < 3`, `128 < n`: 3, 4, 128, 129), in source order, each once; at most 8.
// Sampled at each, a value on both sides of every such branch is tried (docs/DECISIONS.md, "Branch boundaries
// are sampled").
std::vector<int64_t> branch_boundaries(const ir::Program& p, const ir::Function& orch) {
    constexpr size_t kMaxBounds = 8;
    std::vector<int64_t> out;
    std::set<const ir::Function*> seen;
    std::function<void(const ir::ExprPtr&)> cond = [&](const ir::ExprPtr& e) {
        if (!e) return;
        if (e->kind == ir::ExprKind::Compare && e->args.size() == 2) {
            for (int side = 0; side < 2; ++side) {
                const ir::ExprPtr& k = e->args[side];
                const ir::ExprPtr& other = e->args[1 - side];
                if (!k || !other || k->kind != ir::ExprKind::Int || other->kind == ir::ExprKind::Int) continue;
                if (k->ival < 0 || k->ival > (int64_t{1} << 31)) continue;
                for (int64_t v : {k->ival, k->ival + 1})
                    if (out.size() < kMaxBounds && std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
            }
        }
        for (const auto& a : e->args) cond(a);
    };
    std::function<void(const ir::Function&)> visit = [&](const ir::Function& f) {
        if (!seen.insert(&f).second) return;
        passes::walk(f.body, [&](const ir::StmtPtr& s) {
            if (s->kind == ir::StmtKind::If) cond(s->value);
            if (const ir::ExprPtr& v = s->value; v && v->kind == ir::ExprKind::FuncCall)
                if (auto callee = p.find(v->sval); callee && callee->type == ir::FuncType::Orchestration)
                    visit(*callee);
        });
    };
    visit(orch);
    return out;
}

// The Orchestration functions of P no other Orchestration function calls, in source order, when there are
// several (empty otherwise: pick_entry chooses the entry, or says E-ENTRY for the other kinds).
std::vector<std::string> orchestration_entries(const ir::Program& p) {
    std::set<std::string> called;
    for (const auto& f : p.functions)
        if (f->type == ir::FuncType::Orchestration)
            passes::walk(f->body, [&](const ir::StmtPtr& s) {
                if (const ir::ExprPtr& v = s->value; v && v->kind == ir::ExprKind::FuncCall) called.insert(v->sval);
            });
    std::vector<std::string> out;
    for (const auto& f : p.functions)
        if (f->type == ir::FuncType::Orchestration && f->specialised_from.empty() && !called.count(f->name))
            out.push_back(f->name);
    return out.size() > 1 ? out : std::vector<std::string>{};
}

}  // namespace

std::vector<CheckEntry> entries_of(const CommonOptions& c, const std::string& kernel,
                                   std::vector<std::pair<std::string, int64_t>>* defaulted_out) {
    sim::SessionOptions so = session_options(c);
    std::vector<std::pair<std::string, int64_t>> defaulted;
    auto file = SourceFile::read(kernel);
    std::vector<std::pair<std::string, int64_t>> inferred;
    SemaOptions sema{sim::dims_from_inputs(file, so.dims, so.input_files), kDefaultDim, &defaulted};
    sema.inferred = &inferred;
    std::vector<std::string> specialised;
    sema.specialised = &specialised;
    sema.keep_unread = true;  // the launches that reach a function cvsim cannot read are reported not checked
    sema.reuse = true;        // (its kernels' sessions read the same program)
    auto program = load_program(file, sema);
    if (defaulted_out) *defaulted_out = defaulted;
    // Several Orchestration functions and no --entry: each is an entry of its own, checked in turn
    // (docs/DECISIONS.md, "check takes every Orchestration function of a file").
    const std::vector<std::string> orchs =
        c.entry.empty() ? orchestration_entries(*program) : std::vector<std::string>{};
    if (!c.quiet) {
        for (const auto& [n, v] : inferred) std::cerr << inferred_dim_note(n, v);
        for (const auto& sp : specialised) std::cerr << "note: " << sp << "\n";
        for (const auto& [d, v] : defaulted) std::cerr << defaulted_dim_note(d, v);
        if (orchs.empty()) {
            note_unread(*program, kernel, c.entry);
        } else {
            // What no entry reaches (in source order).
            std::map<const ir::Function*, size_t> unreached;
            for (const auto& o : orchs)
                for (const ir::Function* f : unread_unreached(*program, o)) ++unreached[f];
            for (const auto& fp : program->functions)
                if (const ir::Function* f = fp.get(); unreached.count(f) && unreached[f] == orchs.size())
                    std::cerr << fmt::format(
                        "note: {}: function '{}' is not read ({} at line {}: {}); no entry reaches it (a launch "
                        "that does is not checked)\n",
                        kernel, f->name, f->unread.diag->code, f->unread.diag->loc.line, f->unread.diag->message);
        }
    }
    HostInputs host;
    host.scalars = so.scalars;
    host.iotas = so.iotas;
    host.files = so.input_files;
    host.defaulted_dims = defaulted;
    if (orchs.empty()) return entries_of_entry(c, kernel, program, host, {});
    if (!c.quiet)
        std::cerr << fmt::format(
            "note: {}: the program has {} Orchestration functions ({}); check takes each as an entry in turn (--entry "
            "NAME takes one)\n",
            kernel, orchs.size(), fmt::join(orchs, ", "));
    std::vector<CheckEntry> out;
    for (const auto& o : orchs) {
        CommonOptions co = c;
        co.entry = o;
        std::set<std::string> others(orchs.begin(), orchs.end());
        others.erase(o);
        std::vector<CheckEntry> es;
        try {
            es = entries_of_entry(co, kernel, program, host, others);
        } catch (const CompileError& err) {
            // One entry cvsim cannot walk does not hide the verdicts of the others.
            CheckEntry r{co, "", "", "", {}, program, "", -1, "", nullptr};
            r.rejected = std::make_shared<const Diagnostic>(err.diag());
            es.push_back(std::move(r));
        }
        for (auto& e : es) {
            e.orchestration = o;
            // One kernel's samples under two entries are two groups.
            if (e.sample_group >= 0)
                e.sample_group =
                    static_cast<int>((static_cast<size_t>(e.sample_group) ^ std::hash<std::string>{}(o)) & 0x3fffffff);
            out.push_back(std::move(e));
        }
    }
    return out;
}

namespace {

// The entries of one entry C.entry ("": the one pick_entry chooses) of PROGRAM.
std::vector<CheckEntry> entries_of_entry(const CommonOptions& c, const std::string& kernel,
                                         const std::shared_ptr<ir::Program>& program, const HostInputs& host,
                                         const std::set<std::string>& other_entries) {
    auto launches = kernel_launches(*program, c.entry, host);
    // A kernel the host walk, run to its end, never launches is not part of the program at these sizes and
    // inputs: when checking it anyway could only say E-OOB (a window that does not fit at these sizes) or
    // E-UNCHECKED (scalars the orchestration would compute for a launch it does not make), a note says so instead
    // (docs/DECISIONS.md, "A symbol the orchestration computes"). Others are still checked as launched once.
    std::erase_if(launches, [&](const KernelLaunch& k) {
        if (!k.not_launched || !(k.unread_oob || (!k.unread && !k.distributed && !k.computed.empty()))) return false;
        if (!c.quiet)
            std::cerr << fmt::format(
                "note: {}: kernel '{}' is not launched by the entry with these sizes and inputs (the host walk ran "
                "to its end without launching it); it is not checked\n",
                kernel, k.name);
        return true;
    });
    if (!c.quiet) note_runtime_core_num(*program, c.blocks, launches, other_entries);
    std::set<std::pair<std::string, std::string>> noted_dead;
    note_dead_scalars(c, kernel, launches, noted_dead);
    if (launches.empty()) {
        // --entry KERNEL that an orchestration launches wider than --blocks (its core_num, or the pl.spmd loops
        // around it): its blocks run at once on the board, so it is checked that wide (one block was a false PASS
        // for blocks writing the same rows). --blocks N > 1 given by the user stands.
        const ir::Function* fn = c.entry.empty() ? nullptr : program->find(c.entry).get();
        if (fn && fn->type != ir::FuncType::Orchestration && c.blocks == 1)
            if (auto w = kernel_site_width(*program, c.entry)) {
                CommonOptions wide = c;
                wide.blocks = static_cast<int>(w->first);
                if (!c.quiet)
                    std::cerr << fmt::format(
                        "note: {}: '{}' is launched with {} blocks at line {}; cvsim checks it with {} (--blocks N "
                        "checks another width)\n",
                        kernel, c.entry, w->first, w->second.line, w->first);
                return sampled_entries(wide, kernel, program);
            }
        return sampled_entries(c, kernel, program);
    }
    if (!c.quiet)
        std::cerr << fmt::format(
            "note: {}: the entry{} launches {} kernel(s); each is checked on its own (--entry NAME), and the launches "
            "against each other as the runtime orders them\n",
            kernel, c.entry.empty() ? std::string() : " '" + c.entry + "'", launches.size());
    // A launch whose scalars the walk could not know because nobody gave the entry's scalars or the data it
    // reads them from: the walk runs again with those set to each sampled value (docs/DECISIONS.md, "Unbound
    // control scalars are sampled"); what it still cannot know stays E-UNCHECKED.
    std::set<std::string> known, unknown;  // kernels whose every launch the walk knows / does not
    for (const auto& k : launches) {
        bool u = k.bindings.empty() && !k.computed.empty();
        for (const auto& b : k.bindings) u |= !b.unknown.empty() || (k.runtime_core_num && b.blocks <= 0);
        u &= !k.distributed && !k.unread && !k.rejected;  // their own E-UNSUPPORTED, whatever the values
        (u ? unknown : known).insert(k.name);
    }
    std::vector<CheckEntry> out;
    // Launches the runtime leaves unordered (docs/DECISIONS.md, "Manual scopes" and "AUTO scopes order readers
    // after writers only"): a finding each, before the kernels' own verdicts (which run each launch alone).
    try {
        if (auto orch = pick_entry(*program, c.entry); orch && orch->type == ir::FuncType::Orchestration)
            for (auto& d : unordered_launches(*program, *orch)) {
                CommonOptions co = c;
                co.entry = orch->name;  // the JSON report's "entry": the launches are the orchestration's
                CheckEntry r{co, "", "", "", {}, program, "", -1, "", nullptr};
                r.rejected = std::make_shared<const Diagnostic>(std::move(d));
                out.push_back(std::move(r));
            }
    } catch (const CompileError&) {
        // No entry to follow: the kernels' entries report it.
    }
    add_launch_entries(c, kernel, program, launches, "", std::nullopt, &known, out);
    if (unknown.empty()) return out;
    bool noted = false;
    std::set<std::string> sampled_kernels;  // kernels some sample launches with known scalars
    bool any_sampled = false;               // some walk set a value no --input gives
    // The walk under KIND: the kernels of ONLY it launches with known scalars get entries.
    auto walk_sampled = [&](const SampleKind& kind, const std::set<std::string>& only) {
        std::vector<std::string> sampled;
        HostInputs hs = host;
        hs.sample = kind.value;
        hs.sample_iota = kind.iota;
        hs.sampled = &sampled;
        // Under a sample, only what the walk then knows: a kernel it does not launch (a zero trip count) or
        // launches with a scalar it still cannot know (a sampled read past its tensor) gets no verdict from it.
        std::vector<KernelLaunch> ls;
        const std::vector<KernelLaunch> walked = kernel_launches(*program, c.entry, hs);
        note_dead_scalars(c, kernel, walked, noted_dead);
        for (auto k : walked) {
            std::erase_if(k.bindings, [](const LaunchBinding& b) { return !b.unknown.empty(); });
            if (k.bindings.empty()) continue;
            if (only.count(k.name)) sampled_kernels.insert(k.name);
            ls.push_back(std::move(k));
        }
        any_sampled |= !sampled.empty();
        if (!c.quiet && !noted && !sampled.empty()) {
            noted = true;
            std::cerr << fmt::format(
                "note: {}: the orchestration's launches depend on values no --input gives ({}): cvsim checks them with "
                "each set to 1, then 2, then 0, then ascending from 0 and from 1 (a verdict each; --input gives the "
                "real ones)\n",
                kernel, fmt::join(sampled, ", "));
        }
        const std::string what = kind.iota ? fmt::format("ascending from {}", kind.value) : std::to_string(kind.value);
        add_launch_entries(c, kernel, program, ls,
                           sampled.empty() ? "" : fmt::format("{}={}", fmt::join(sampled, ", "), what), kind, &only,
                           out);
    };
    for (const SampleKind& kind : sample_kinds()) walk_sampled(kind, unknown);
    // The kernels the values above launch: they also get the extra values (below).
    const std::set<std::string> base_sampled = sampled_kernels;
    std::set<std::string> still;
    for (const auto& n : unknown)
        if (!sampled_kernels.count(n)) still.insert(n);
    // A kernel no sample launches (behind a branch on a sampled value that 0, 1 and 2 do not take, such as
    // `if layer_id < 3: ... else: launch`): the walk runs again with the sampled values at each constant the
    // orchestration's branch conditions compare with, and one more, until every such kernel is launched
    // (docs/DECISIONS.md, "Branch boundaries are sampled").
    if (!still.empty() && any_sampled) {
        std::vector<int64_t> bounds = branch_boundaries(*program, *pick_entry(*program, c.entry));
        std::erase_if(bounds, [](int64_t v) { return v == 0 || v == 1 || v == 2; });
        if (!c.quiet && !bounds.empty())
            std::cerr << fmt::format(
                "note: {}: no sampled value launches {}: cvsim also samples the constants the orchestration's branch "
                "conditions compare with, and each plus one ({}), in turn until one launches them\n",
                kernel, fmt::join(still, ", "), fmt::join(bounds, ", "));
        for (int64_t v : bounds) {
            if (still.empty()) break;
            walk_sampled(SampleKind{v, false}, still);
            std::erase_if(still, [&](const std::string& n) { return sampled_kernels.count(n) > 0; });
        }
    }
    // The extra values (app/sampling.h) for the kernels the values above launch, each checked only when those
    // found nothing in that kernel (docs/DECISIONS.md, "Larger sampled values").
    if (any_sampled && !base_sampled.empty()) {
        for (const ExtraSample& x : extra_samples(*program, *pick_entry(*program, c.entry))) {
            if (x.descending) continue;  // the host walk samples one value for all
            const size_t before = out.size();
            walk_sampled(SampleKind{x.value, false}, base_sampled);
            for (size_t i = before; i < out.size(); ++i)
                if (out[i].sample_group >= 0) {
                    out[i].sample_extra = x.chain ? 2 : 1;
                    out[i].opts.work_budget = out[i].opts.probe_budget;
                }
        }
    }
    // What no sample makes known is reported as before (E-UNCHECKED with the walk's reason).
    add_launch_entries(c, kernel, program, launches, "", std::nullopt, &still, out);
    return out;
}

}  // namespace

}  // namespace cvsim::cli
