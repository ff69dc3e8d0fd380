// Values `check` gives the scalars (and the control data) that decide what a kernel runs when nobody gave
// them (docs/DECISIONS.md, "Unbound control scalars are sampled").
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "frontend/ast.h"
#include "frontend/ir/ir.h"

namespace cvsim::cli {

// One assignment: (parameter name, value as --input takes it) per sampled parameter.
using Assignment = std::vector<std::pair<std::string, std::string>>;

// One way of choosing the values: every sampled name at `value` (tensors filled with it), or ascending
// (`iota`): the k-th sampled scalar at value + k, every tensor filled with value + its element's flat index.
struct SampleKind {
    int64_t value = 0;
    bool iota = false;
};
// The kinds in the order they are tried: all 1 (runs each loop and enables each `x > 0` branch once), all 2
// (loop-carried pairs), all 0 (SPEC's default), ascending from 0 and from 1 (two scalars bounding one loop,
// `range(lo, hi)`, and offset tables such as CSR row starts or block tables, which a constant fill makes empty).
const std::vector<SampleKind>& sample_kinds();

// The assignments of NAMES (control parameters of F nobody bound: scalars and control-data tensors), one per
// sample kind, duplicates dropped (a single scalar has three).
std::vector<Assignment> sample_assignments(const ir::Function& f, const std::vector<std::string>& names);

// Values tried after the kinds above when none of them found anything (docs/DECISIONS.md, "Larger sampled
// values"): a race that needs n >= 3, `n == 4` or a loop reaching the last rows of a tensor is empty at 1, 2, 0.
struct ExtraSample {
    int64_t value = 0;
    // One of the descending chain (64, 32, ..., 4): only its largest value the kernel takes (nominal run in
    // bounds) is checked.
    bool chain = false;
    // Descending: the k-th of the m sampled scalars at value + m - 1 - k (`if lo > hi` with two unbound scalars,
    // which every kind above and every constant leaves false); entry kernels only.
    bool descending = false;
};
// The extra values for F of program P: 3, descending from 1, each integer constant a comparison in F (or a
// function it calls) makes with a computed value, and that constant plus one (`n == 4`, `n > 2`: 4, 5, 3), at
// most 8, in source order, the residues 0 .. c - 1 of each `x % c` of a computed x (c <= 16; at most 16 values),
// then the chain; values the kinds above already give are left out.
std::vector<ExtraSample> extra_samples(const ir::Program& p, const ir::Function& f);

// The assignment of NAMES for X: every one at X.value (a tensor filled with it), or descending (tensors at
// X.value), as sample_assignments writes it.
Assignment extra_assignment(const ir::Function& f, const std::vector<std::string>& names, const ExtraSample& x);

// Sizes of a pl.dynamic symbol cvsim defaulted (docs/DECISIONS.md, "Sizes cvsim defaulted are sampled"): the
// sizes in 1..LIMIT at which a comparison of MODULE's source that reads the symbol NAME changes its value, each
// with the size just below it (`N <= 32`: 32, 33; `N // 16 == 1`: 15, 16, 31, 32), in source order, each once,
// at most MAX. A comparison is evaluated with NAME at each size when it reads nothing else than integers, module
// integer constants and `+ - * // %`; any other comparison gives nothing (its sizes come from the chain).
std::vector<int64_t> compared_sizes(const ast::Module& module, const std::string& name, size_t max, int64_t limit);

// "n=1, flag=1"
std::string assignment_text(const Assignment& a);

}  // namespace cvsim::cli
