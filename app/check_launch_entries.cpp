// The check entries of one kernel's launches: a binding each, sampled data variants, and the signature that
// tells two entries apart (cli_internal.h).
#include <fmt/format.h>

#include <functional>
#include <iostream>
#include <map>
#include <set>

#include "app/cli_internal.h"
#include "app/sampling.h"
#include "frontend/control_scalars.h"
#include "frontend/launch.h"
#include "frontend/passes/ir_util.h"
#include "frontend/printer.h"

namespace cvsim::cli {

// The entries of LAUNCHES (the host walk's, under SAMPLED: "" or the walk's sampled values) appended to OUT,
// each distinct launch once.
void add_launch_entries(const CommonOptions& c, const std::string& kernel, const std::shared_ptr<ir::Program>& program,
                        const std::vector<KernelLaunch>& launches, const std::string& sampled,
                        std::optional<SampleKind> sample_kind, const std::set<std::string>* only,
                        std::vector<CheckEntry>& out) {
    for (const auto& k : launches) {
        if (only && !only->count(k.name)) continue;
        if (k.rejected) {  // its arguments cannot be bound: reported in its turn, once
            CheckEntry entry{c, "", "", "", {}, program, "", -1, "", nullptr};
            entry.opts.entry = k.name;
            entry.rejected = k.rejected;
            if (std::none_of(out.begin(), out.end(), [&](const CheckEntry& x) {
                    return x.rejected && x.opts.entry == k.name && x.rejected->message == k.rejected->message;
                }))
                out.push_back(std::move(entry));
            continue;
        }
        // The launches to check: one per distinct scalar binding the host walk found (at most kMaxBindings of
        // them: the first, the last and evenly spaced ones), else the first launch site's constants.
        // A launch with a scalar the walk does not know is always reported (E-UNCHECKED), never left out.
        std::vector<const LaunchBinding*> known, unknown, picked;
        for (const auto& b : k.bindings) (b.unknown.empty() ? known : unknown).push_back(&b);
        const size_t nb = k.bindings.size(), nk = known.size();
        if (nk <= kMaxBindings) {
            picked = known;
        } else {
            // The first and the last, then for each scalar parameter (and the launch width) the first binding
            // with its smallest and with its largest value (an out-of-range window is likeliest there; evenly
            // spaced launches of a non-monotonic scalar can miss both), then evenly spaced ones up to
            // kMaxBindings; extremes beyond that are kept (at most kMaxExtremes in all).
            constexpr size_t kMaxExtremes = 16;
            std::set<size_t> chosen{0, nk - 1};
            auto number = [](const std::string& t) -> std::optional<double> {
                try {
                    size_t used = 0;
                    double v = std::stod(t, &used);
                    if (used == t.size()) return v;
                } catch (const std::exception&) {
                }
                return std::nullopt;
            };
            std::map<std::string, std::pair<size_t, size_t>> lo_hi;  // parameter -> (index of min, index of max)
            std::map<std::string, std::pair<double, double>> value;
            for (size_t j = 0; j < nk; ++j) {
                std::vector<std::pair<std::string, std::string>> vals = known[j]->scalars;
                vals.emplace_back("core_num", std::to_string(known[j]->blocks));
                for (const auto& [name, text] : vals) {
                    auto v = number(text);
                    if (!v) continue;
                    auto [it, fresh] = value.try_emplace(name, *v, *v);
                    auto& idx = lo_hi.try_emplace(name, j, j).first->second;
                    if (fresh) continue;
                    if (*v < it->second.first) it->second.first = *v, idx.first = j;
                    if (*v > it->second.second) it->second.second = *v, idx.second = j;
                }
            }
            for (const auto& [name, idx] : lo_hi)
                for (size_t j : {idx.first, idx.second})
                    if (chosen.size() < kMaxExtremes) chosen.insert(j);
            for (size_t j = 0; chosen.size() < kMaxBindings && j < kMaxBindings; ++j)
                chosen.insert((j * (nk - 1) + (kMaxBindings - 1) / 2) / (kMaxBindings - 1));
            for (size_t j = 0; chosen.size() < kMaxBindings && j < nk; ++j) chosen.insert(j);
            for (size_t j : chosen) picked.push_back(known[j]);
        }
        const size_t n_checked = picked.size();
        picked.insert(picked.end(), unknown.begin(), unknown.end());
        if (!c.quiet && !k.walk_incomplete.empty())
            std::cerr << fmt::format("note: {}: {}\n", kernel, k.walk_incomplete);
        if (!c.quiet && nk > kMaxBindings)
            std::cerr << fmt::format(
                "note: {}: kernel '{}' is launched {} times with {} distinct scalar bindings; cvsim checks {} of them "
                "(the first, the last, the first with the smallest and with the largest value of each scalar and of "
                "core_num, then evenly spaced ones; the others are not checked; --input NAME=V checks one)\n",
                kernel, k.name, k.launch_count, nk, n_checked);
        if (picked.empty()) picked.push_back(nullptr);
        for (const LaunchBinding* b : picked) {
            CheckEntry entry{c, "", "", "", {}, nullptr, "", -1, "", nullptr};
            entry.program = program;  // its kernel's location for a diagnostic about it (E-CAPACITY)
            if (!sampled.empty()) {
                entry.sampled = sampled;
                entry.sample_group = static_cast<int>(std::hash<std::string>{}(k.name) & 0x3fffffff);
            }
            CommonOptions& ck = entry.opts;
            ck.entry = k.name;
            if (k.blocks > 0) ck.blocks = k.blocks;  // the launch's core_num, as a whole-program launch uses it
            ck.inputs.clear();
            auto given = [&](const std::string& name) {
                for (const auto& in : c.inputs)
                    if (in.rfind(name + "=", 0) == 0) return true;
                return false;
            };
            // Another kernel's --input is not this kernel's (a name it does not have would be E-USAGE).
            for (const auto& in : c.inputs) {
                const auto* fn = program->find(k.name).get();
                std::string name = in.substr(0, in.find('='));
                bool has = false;
                for (const auto& p : fn->params) has |= p.var->name == name;
                if (has) ck.inputs.push_back(in);
            }
            auto unbound = [&](const std::string& name, const std::string& why) {
                if (given(name) || !entry.unbound.empty() || k.distributed || k.unread)
                    return;  // its own E-UNSUPPORTED
                entry.unbound = name;
                entry.why = why;
                for (const auto& p : program->find(k.name)->params)
                    if (p.var->name == name) entry.loc = p.var->loc;
                entry.program = program;
            };
            if (b) {
                std::vector<std::string> shown;
                for (const auto& [name, value] : b->scalars) {
                    if (!given(name)) ck.inputs.push_back(name + "=" + value);
                    bool dead = false;
                    for (const auto& d : b->dead) dead |= d.first == name && !given(name);
                    shown.push_back(name + "=" + (dead ? std::string("any") : value));
                }
                if (b->blocks > 0) ck.blocks = b->blocks;
                if (!b->unknown.empty()) unbound(b->unknown, b->why);
                if (!entry.unbound.empty() && !entry.loc.valid()) entry.loc = b->loc;  // a launch width: the launch
                if (nb > 1 || !sampled.empty()) entry.binding = fmt::format("{}", fmt::join(shown, ", "));
            } else {
                for (const auto& [name, value] : k.scalars)
                    if (!given(name)) ck.inputs.push_back(name + "=" + value);
                for (const auto& name : k.computed) unbound(name, "");
            }
            // A user's --input can make two bindings one launch: check it once. Launches not checked for the same
            // reason are reported once.
            if (!entry.unbound.empty()) entry.binding.clear();
            if (!sampled.empty())
                entry.binding += (entry.binding.empty() ? "" : ", ") + std::string("sampled ") + sampled;
            // The kernel's own control data (an entry tensor whose elements it reads into loop bounds or addresses)
            // no --input gives: the orchestration's sample when it has one, else sampled like an entry's scalars.
            std::vector<CheckEntry> variants;
            std::vector<std::string> data;
            if (entry.unbound.empty() && !k.distributed &&
                !k.unread)  // those get their own E-UNSUPPORTED, whatever the data
                for (const auto& n : control_scalar_params(*program, *program->find(k.name)))
                    for (const auto& p : program->find(k.name)->params)
                        if (p.var->name == n && p.var->type.kind == ir::TypeKind::Tensor && !given(n))
                            data.push_back(n);
            if (data.empty()) {
                variants.push_back(std::move(entry));
            } else {
                for (const SampleKind& kind : sample_kind ? std::vector<SampleKind>{*sample_kind} : sample_kinds()) {
                    CheckEntry x = entry;
                    std::vector<std::string> what;
                    const std::string fill =
                        kind.iota ? (kind.value == 0 ? std::string("iota") : fmt::format("iota+{}", kind.value))
                                  : std::to_string(kind.value);
                    for (const auto& n : data) {
                        x.opts.inputs.push_back(fmt::format("{}={}", n, fill));
                        what.push_back("data of " + n);
                    }
                    // (with the orchestration's sample: its values and this data, which it fills alike; the label
                    // and the note of a finding name both, the data being what a scatter through it races on)
                    const std::string mine = fmt::format("{}={}", fmt::join(what, ", "), fill);
                    if (!sample_kind) {
                        x.sampled = mine;
                        x.binding += (x.binding.empty() ? "" : ", ") + std::string("sampled ") + x.sampled;
                        x.sample_group = static_cast<int>(std::hash<std::string>{}(k.name) & 0x3fffffff);
                    } else if (x.sampled.find(mine) == std::string::npos) {
                        x.sampled += (x.sampled.empty() ? "" : ", ") + mine;
                        x.binding += (x.binding.empty() ? "sampled " : ", ") + mine;
                    }
                    // Sampled data makes this a sample of the kernel's group even when the orchestration's walk
                    // sampled nothing of its own (it ran under a sample because a made-up size left a scalar
                    // unknown): a value out of bounds is then no verdict, as for any sample, not E-OOB
                    // (pypto-lib's lookup_embedding: token ids 1..128 past a 128-row table of a made-up size).
                    if (x.sample_group < 0)
                        x.sample_group = static_cast<int>(std::hash<std::string>{}(k.name) & 0x3fffffff);
                    x.program = program;
                    variants.push_back(std::move(x));
                }
            }
            for (auto& x : variants) {
                bool dup = false;
                for (const auto& o : out)
                    if (o.opts.entry == x.opts.entry)
                        dup |= x.unbound.empty() ? o.unbound.empty() && o.opts.inputs == x.opts.inputs &&
                                                       o.opts.blocks == x.opts.blocks
                                                 : o.unbound == x.unbound && o.why == x.why;
                if (!dup) out.push_back(std::move(x));
            }
        }
    }
}

// What the check of entry X depends on: its kernel and the functions it calls as printed (their shapes and every
// size folded in), its inputs and its width. Two entries with one signature are the same check whatever --dim
// made their programs; "" when X has no program to read it from (never the same as another).
std::string launch_signature(const CheckEntry& x) {
    if (!x.program || x.opts.entry.empty() || !x.program->find(x.opts.entry)) return "";
    std::string sig = fmt::format("{}\x1f{}\x1f{}", x.opts.entry, x.opts.blocks, fmt::join(x.opts.inputs, "\x1f"));
    std::set<std::string> seen;
    std::vector<const ir::Function*> todo = {x.program->find(x.opts.entry).get()};
    while (!todo.empty()) {
        const ir::Function* f = todo.back();
        todo.pop_back();
        if (!seen.insert(f->name).second) continue;
        sig += "\x1f" + print_function(*f);
        passes::walk(f->body, [&](const ir::StmtPtr& st) {
            if (const ir::ExprPtr& v = st->value; v && v->kind == ir::ExprKind::FuncCall)
                if (auto callee = x.program->find(v->sval)) todo.push_back(callee.get());
        });
    }
    return sig;
}

}  // namespace cvsim::cli
