// explore and check, the sizes cvsim defaulted: retries at smaller sizes when the default is out of bounds, and
// the sampled sizes checked after the default found nothing (ExploreCommand::KernelCheck, cmd_explore_internal.h).
#include <fmt/format.h>

#include <iostream>

#include "app/cli_internal.h"
#include "app/cmd_explore_internal.h"
#include "app/sampling.h"
#include "frontend/codes.h"
#include "frontend/parser.h"
#include "frontend/sema.h"

namespace cvsim::cli {

std::string ExploreCommand::KernelCheck::dims_text(int level) const {
    std::vector<std::string> t;
    for (const auto& dv : m_defaulted) t.push_back(fmt::format("{}={}", dv.first, kDefaultDim >> level));
    return fmt::format("{}", fmt::join(t, ", "));
}

// Queues kernel NAME's launches with the defaulted dims at the first size from kDefaultDim >> LEVEL down
// that gives any; false when no size down to 1 does.
bool ExploreCommand::KernelCheck::push_level(const std::string& name, int level) {
    for (; (kDefaultDim >> level) >= 1; ++level) {
        CommonOptions c2 = m_c;
        c2.quiet = true;
        for (const auto& dv : m_defaulted) c2.dims.push_back(fmt::format("{}={}", dv.first, kDefaultDim >> level));
        int n = 0;
        try {
            for (auto& x : entries_of(c2, m_kernel)) {
                if (retry_key(x) != name || !x.unbound.empty() || x.rejected) continue;
                x.opts.quiet = m_c.quiet;
                x.dim_try = level;
                // The sizes first, unless the binding shows them already (a symbol passed as a scalar).
                std::vector<std::string> shown;
                for (const auto& dv : m_defaulted)
                    if (x.binding.find(dv.first + "=") == std::string::npos)
                        shown.push_back(fmt::format("{}={}", dv.first, kDefaultDim >> level));
                if (!x.binding.empty()) shown.push_back(x.binding);
                x.binding = fmt::format("{}", fmt::join(shown, ", "));
                m_entries.push_back(std::move(x));
                ++n;
            }
        } catch (const CompileError&) {
            // This size does not compile (out of bounds at compile time, ...): the next one.
        }
        m_retries[name].level = level;
        m_retries[name].pending = n;
        if (n > 0) return true;
    }
    return false;
}

// The default's run of ENT put a window out of bounds (WHY): keep its report (REPORT_IT) until a smaller
// size is tried. False when the file has no defaulted dim (REPORT_IT then runs now as before).
bool ExploreCommand::KernelCheck::defer_default(const CheckEntry& ent, const std::string& why,
                                                std::function<bool()> report_it) {
    // Not with --jsonl (a journal is one size's) or in-process (its machine is elaborated once, for the
    // default's widths).
    if (m_defaulted.empty() || ent.dim_try > 0 || !m_e.merge.empty() || !m_e.jsonl.empty() || m_e.jobs == 0)
        return false;
    m_size_dirty.insert(retry_key(ent));
    DimRetry& r = m_retries[retry_key(ent)];
    r.deferred.push_back(std::move(report_it));
    if (r.deferred.size() > 1) return true;
    r.why = why;
    if (!m_c.quiet)
        std::cerr << fmt::format(
            "note: {}{}: with the size(s) cvsim defaulted ({}) a window falls outside its tensor ({}); "
            "cvsim tries smaller sizes\n",
            m_kernel, entry_tag(ent), dims_text(0), why);
    if (!push_level(retry_key(ent), 1)) {
        if (!m_c.quiet)
            std::cerr << fmt::format(
                "note: {}{}: no smaller size gives this launch (the program does not compile with one, or "
                "does not launch it); the default's report stands\n",
                m_kernel, entry_tag(ent));
        r.deferred.clear();  // no smaller size gives a launch: report it now
        return false;
    }
    return true;
}

// An entry of a retry finished (TAKEN: it stayed in bounds): the next size when no entry of this one was
// taken, the default's reports when there is none. True when a report was interrupted.
bool ExploreCommand::KernelCheck::retry_done(const CheckEntry& ent, bool taken) {
    DimRetry& r = m_retries[retry_key(ent)];
    if (taken && !r.taken && !m_c.quiet)
        std::cerr << fmt::format(
            "note: {}{}: also checked with {}, the largest size at most {} at which its nominal run stays in "
            "bounds (the verdict there is above); the report at the size cvsim defaulted follows and "
            "counts (the window fell outside its tensor: {}); --dim NAME=V checks the size you use\n",
            m_kernel, entry_tag(ent), dims_text(r.level), kDefaultDim, r.why);
    r.taken |= taken;
    if (--r.pending > 0) return false;
    if (!r.taken && push_level(retry_key(ent), r.level + 1)) return false;
    if (!r.taken && !m_c.quiet)
        std::cerr << fmt::format("note: {}{}: no smaller size stays in bounds either\n", m_kernel, entry_tag(ent));
    auto deferred = std::move(r.deferred);
    r.deferred.clear();
    for (auto& f : deferred)
        if (f()) return true;
    return false;
}

// Queues the launches of the program with COMBO's sizes; false when it does not compile with them or
// launches nothing there (the default itself and a repeat are not queued again). QUEUED_HERE: how many it
// queued.
bool ExploreCommand::KernelCheck::queue_combo(const DimSizes& combo, int* queued_here) {
    bool is_default = true;
    for (const auto& [n, v] : combo)
        for (const auto& d : m_defaulted) is_default &= d.first != n || d.second == v;
    if (m_capped || is_default || std::find(m_tried.begin(), m_tried.end(), combo) != m_tried.end()) return true;
    m_tried.push_back(combo);
    CommonOptions c2 = m_c;
    c2.quiet = true;
    for (const auto& [n, v] : combo) c2.dims.push_back(fmt::format("{}={}", n, v));
    const std::string text = size_text(combo);
    std::vector<CheckEntry> xs;
    try {
        xs = entries_of(c2, m_kernel);
    } catch (const CompileError&) {
        m_size_skipped.push_back(text);  // this size does not compile: not one the program takes
        return false;
    }
    bool launches = false, any = false;
    for (auto& x : xs) {
        if (x.sample_extra > 0 || !x.unbound.empty()) continue;
        if (x.rejected && !cvsim::is_race_code(x.rejected->code)) continue;
        launches = true;
        if (m_size_dirty.count(retry_key(x)) || m_size_found.count(retry_key(x))) continue;
        if (m_e.jobs == 0 && x.opts.blocks > m_widest) continue;  // this process's machine is narrower
        if (std::string sig = launch_signature(x); !sig.empty() && !m_checked.insert(sig).second) {
            any = true;  // the size is taken (what it changes was checked already)
            continue;
        }
        if (m_queued == kMaxSizeEntries) {
            m_capped = true;
            break;
        }
        x.opts.quiet = m_c.quiet;
        x.opts.work_budget = x.opts.probe_budget;
        x.dim_sample = text;
        x.sample_group = -1;  // not one of the default's samples: no group bookkeeping
        std::vector<std::string> shown;
        for (const auto& [n, v] : combo)
            if (x.binding.find(n + "=") == std::string::npos) shown.push_back(fmt::format("{}={}", n, v));
        if (!x.binding.empty()) shown.push_back(x.binding);
        x.binding = fmt::format("{}", fmt::join(shown, ", "));
        m_entries.push_back(std::move(x));
        ++m_queued;
        if (queued_here) ++*queued_here;
        any = true;
    }
    if (!any && !m_capped) m_size_skipped.push_back(text);
    return launches;
}

void ExploreCommand::KernelCheck::queue_sizes() {
    // (--merge reads journals: it runs nothing, so it has no defaulted sizes.)
    if (m_defaulted.empty() || !m_e.merge.empty()) return;
    for (const auto& x : m_entries)
        if (std::string sig = launch_signature(x); !sig.empty()) m_checked.insert(sig);
    // The sizes: the values the program compares each symbol with (that symbol alone), then all symbols
    // together at 1, 2, 4, ..., 64 (ascending: the smallest sizes overlap the most windows, and those the
    // program does not take cost only a compile), and where the program does not compile with all of them
    // at one size (one symbol needs to be larger), each symbol alone at it.
    try {
        const ast::Module module = parse_module(SourceFile::read(m_kernel));
        for (const auto& d : m_defaulted)
            for (int64_t v : compared_sizes(module, d.first, kMaxComparedSizes, kMaxComparedSize))
                queue_combo({{d.first, v}});
    } catch (const CompileError&) {
        // The program was read before: nothing to add.
    }
    int smallest = 1;
    while ((kDefaultDim >> smallest) > 1) ++smallest;
    for (int k = smallest; k >= 1; --k) {
        DimSizes all;
        for (const auto& d : m_defaulted) all.emplace_back(d.first, kDefaultDim >> k);
        int n = 0;
        if (!queue_combo(all, &n) && m_defaulted.size() > 1)
            for (const auto& d : m_defaulted) queue_combo({{d.first, kDefaultDim >> k}});
        else if (n > 0 && m_defaulted.size() > 1)
            m_size_groups[size_text(all)] = SizeGroup{kDefaultDim >> k, n, false};  // decided when they ran
    }
    if (m_capped && !m_c.quiet)
        std::cerr << fmt::format(
            "note: {}: cvsim checks at most {} launches at sizes other than the one it defaulted; the rest "
            "are not checked (--dim NAME=V checks the sizes you use)\n",
            m_kernel, kMaxSizeEntries);
}

// A launch at a sampled size ran (TAKEN: the program takes the size): when the last launch of all symbols
// together at one size did not take it, each symbol alone at that size is queued.
void ExploreCommand::KernelCheck::size_entry_done(const CheckEntry& ent, bool taken) {
    auto it = m_size_groups.find(ent.dim_sample);
    if (it == m_size_groups.end()) return;
    SizeGroup& g = it->second;
    g.taken |= taken;
    if (--g.pending > 0 || g.taken) return;
    for (const auto& d : m_defaulted) queue_combo({{d.first, g.value}});
}

}  // namespace cvsim::cli
