// Parity of cvsim's ExpandMixedKernel with upstream's: per-function op sequences of two printed programs.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace cvsim::sim {

// One function of a printed program: its pl.FunctionType and its statements as tokens in program order.
// Tokens: the op of each call statement without `pl.` ("tile.load", "system.tfree_to_aic"), `call`
// for a launch of another function (self.f(...)), `for` / `while` / `if` / `else` opening a block and `}`
// closing it, `yield`, `return`. Ignored (printing details): annotations, pl.func_attr, statements with no
// call (scalar arithmetic, aliases), comments, `with pl.scope()` lines, line wrapping.
struct OpSequence {
    std::string type;
    std::vector<std::string> tokens;
    std::string
        copy_of;  // cvsim's per-call copy of this upstream function ("# cvsim: 'f__N_24' is a per-call copy of 'f'")
};
std::map<std::string, OpSequence> op_sequences(const std::string& printed);

// Compares `ours` (cvsim's expansion) with `theirs` (upstream's AFTER): one line per function ("same",
// "differs" with the first divergence, "only in ..."). Returns whether every function is the same.
bool compare_op_sequences(const std::map<std::string, OpSequence>& ours,
                          const std::map<std::string, OpSequence>& theirs, std::string& report);

}  // namespace cvsim::sim

namespace cvsim::cli {
struct CommonOptions;
// `cvsim expand BEFORE --compare AFTER`: expands BEFORE with the command line's options and compares the
// op sequences with AFTER (upstream's printed expansion of the same input). Exit 0 same, 1 differs.
int cmd_parity(const CommonOptions& c, const std::string& before, const std::string& after);
}  // namespace cvsim::cli
