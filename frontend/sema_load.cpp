// Loading a program: the parse of the file read last and the readings of it kept per option set (a whole-model
// file is read once per kernel, sampled value and size), and the notes on defaulted or inferred dimension symbols.
#include <fmt/format.h>
#include <algorithm>
#include <cctype>
#include <cmath>
#include <list>
#include <map>
#include <mutex>
#include <unordered_map>
#include <variant>
#include "frontend/codes.h"
#include "frontend/diag.h"
#include "frontend/ops.h"
#include "frontend/parser.h"
#include "frontend/passes/expand_mixed_kernel.h"
#include "frontend/sema.h"
#include "frontend/sema_lower.h"
#include "frontend/sema_types.h"

namespace cvsim {

using namespace ir;

std::string defaulted_dim_note(const std::string& name, int64_t value) {
    if (value != kDefaultDim)
        return fmt::format(
            "note: pl.dynamic symbol '{}' is not bound: cvsim uses {}={}, the smallest size the program's windows "
            "along it "
            "need (the default is {}; bind it with --dim {}=VALUE)\n",
            name, name, value, kDefaultDim, name);
    return fmt::format("note: pl.dynamic symbol '{}' is not bound: cvsim uses {}={} (bind it with --dim {}=VALUE)\n",
                       name, name, value, name);
}

std::string inferred_dim_note(const std::string& name, int64_t value) {
    return fmt::format(
        "note: pl.dynamic symbol '{}' is not bound: cvsim uses {}={}, the size the program's own shapes give it "
        "(bind it with --dim {}=VALUE)\n",
        name, name, value, name);
}

std::shared_ptr<Program> load_program(std::shared_ptr<SourceFile> file) {
    return load_program(std::move(file), SemaOptions{});
}

namespace {
// The syntax tree of the file read last, kept for the next load of the same file (same path, same text): `check`
// of a whole model file loads it once per kernel, sampled value and size (66 parses of one 6,000-line file for
// one kernel's check, 70 % of its time). Sema never changes the tree (it takes it const and specialises a copy),
// and a program keeps its own source file alive (Program::sources), so sharing the tree changes no result.
std::shared_ptr<const ast::Module> parsed(const std::shared_ptr<SourceFile>& file) {
    static std::mutex mu;
    static std::shared_ptr<const ast::Module> last;
    std::lock_guard<std::mutex> lock(mu);
    if (last && last->source &&
        (last->source == file || (last->source->path() == file->path() && last->source->text() == file->text())))
        return last;
    last.reset();  // (the old tree is freed before the new one is built)
    last = std::make_shared<const ast::Module>(parse_module(file));
    return last;
}
}  // namespace

namespace {
// (SemaOptions::reuse) The programs read last from the tree parsed() keeps, by the options that shape them (--dim
// bindings, the default size, keep_unread), with the notes their reading appended: `check` of a whole model file reads
// the same program once per kernel session (two or more per kernel; 75 % of a kernel's check in a file of 360
// functions). Nothing after sema changes a program (compile, the expansion and the inliner clone what they change; the
// sessions read it), so the sessions may share one. A reading that throws is not kept (the next one throws again).
struct ReadProgram {
    std::shared_ptr<const ast::Module> module;
    std::map<std::string, int64_t> dims;
    std::optional<int64_t> dim_default;
    bool keep_unread = false;
    std::shared_ptr<Program> program;
    std::vector<std::pair<std::string, int64_t>> defaulted, inferred;
    std::vector<std::string> specialised;
};
// How many readings are kept: check samples a whole-model file's sizes in up to ~30 option sets (each size
// combination it tries, and the kernels' own), every kernel the same ones; at most 48, and at most 200,000 source
// lines together (a reading costs about 0.75 KB per line: 4 MB for a 5,000-line model file, 150 MB in all).
constexpr size_t kKeptPrograms = 48;
constexpr size_t kKeptLines = 200'000;
}  // namespace

std::shared_ptr<Program> load_program(std::shared_ptr<SourceFile> file, const SemaOptions& opt) {
    const std::shared_ptr<const ast::Module> m = parsed(file);
    if (!opt.reuse) return analyze(*m, opt);
    static std::mutex mu;
    static std::list<ReadProgram> kept;  // at most kKept, the one used last at the back
    auto give = [&](const ReadProgram& r) {
        if (opt.defaulted) opt.defaulted->insert(opt.defaulted->end(), r.defaulted.begin(), r.defaulted.end());
        if (opt.inferred) opt.inferred->insert(opt.inferred->end(), r.inferred.begin(), r.inferred.end());
        if (opt.specialised)
            opt.specialised->insert(opt.specialised->end(), r.specialised.begin(), r.specialised.end());
        return r.program;
    };
    // Readings of another file go (checked again after the reading: another thread may have read one meanwhile).
    auto forget_other_files = [&] {
        if (!kept.empty() && kept.front().module != m) kept.clear();
    };
    {
        std::lock_guard<std::mutex> lock(mu);
        forget_other_files();
        for (auto it = kept.begin(); it != kept.end(); ++it)
            if (it->dims == opt.dims && it->dim_default == opt.dim_default && it->keep_unread == opt.keep_unread) {
                kept.splice(kept.end(), kept, it);
                return give(kept.back());
            }
    }
    ReadProgram r{m, opt.dims, opt.dim_default, opt.keep_unread, nullptr, {}, {}, {}};
    SemaOptions own = opt;
    own.defaulted = &r.defaulted;
    own.inferred = &r.inferred;
    own.specialised = &r.specialised;
    r.program = analyze(*m, own);
    std::lock_guard<std::mutex> lock(mu);
    forget_other_files();
    const size_t lines = std::max<size_t>(m->source->line_count(), 1);
    if (kept.size() >= std::min(kKeptPrograms, std::max<size_t>(kKeptLines / lines, 1))) kept.pop_front();
    kept.push_back(std::move(r));
    return give(kept.back());
}

std::shared_ptr<Program> load_program_text(const std::string& path, const std::string& text) {
    return load_program(std::make_shared<SourceFile>(path, text));
}

}  // namespace cvsim
