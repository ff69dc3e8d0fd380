// The PyPTO bridge: a kernel *source* file (a @pl.jit function, tensor-level `with pl.at(...)` code, or any
// file with --pypto) is compiled by PyPTO's own pipeline up to ExpandMixedKernel (scripts/pypto_bridge.py,
// installed beside the binary) and cvsim reads the program printed just before that pass.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace cvsim::sim {

// Why `text` is a PyPTO source cvsim cannot read directly ("@pl.jit at line 12"), or nullopt when it is
// printed IR (first non-blank line `# pypto.program...`) or cvsim's own DSL (a @pl.program class).
std::optional<std::string> pypto_source_reason(const std::string& text, uint32_t* line = nullptr);

struct BridgeOptions {
    bool force = false;  // --pypto: compile with PyPTO whatever the file looks like
    std::string target = "a2a3";
    std::string kernel_name;  // --pypto-kernel: the kernel of a file defining several
};

// A bridge failure (PyPTO missing, PyPTO rejected the kernel): exit 2 with `code` and the message.
// `file` and `line` (0: none): the line of the kernel source that made cvsim take it for one, where the
// diagnostic points.
class BridgeError : public std::runtime_error {
  public:
    BridgeError(std::string code, const std::string& msg, std::string file = "", uint32_t line = 0)
        : std::runtime_error(msg), m_code(std::move(code)), m_file(std::move(file)), m_line(line) {}
    const std::string& code() const { return m_code; }
    const std::string& file() const { return m_file; }
    uint32_t line() const { return m_line; }

  private:
    std::string m_code;
    std::string m_file;
    uint32_t m_line = 0;
};

// `path` itself when cvsim reads it directly, else the path of the program PyPTO printed before
// ExpandMixedKernel (in a fresh temporary folder, named on stderr). Throws BridgeError.
std::string resolve_kernel(const std::string& path, const BridgeOptions& opt);
// The same for check/explore with ALL: every kernel a PyPTO source defines (one printed program each; a kernel
// PyPTO cannot compile is named in a note, the others are checked), else as resolve_kernel.
std::vector<std::string> resolve_kernels(const std::string& path, const BridgeOptions& opt, bool all);

// Where the bridge script is: $CVSIM_PYPTO_BRIDGE, else pypto_bridge.py beside the executable, else
// ../share/cvsim/pypto_bridge.py from it; empty when none exists.
std::string bridge_script();

}  // namespace cvsim::sim
