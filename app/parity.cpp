// Per-function op sequences of a printed program and their comparison (sim/parity.h).
#include "app/parity.h"

#include <fmt/format.h>

#include <algorithm>
#include <regex>
#include <sstream>

namespace cvsim::sim {

namespace {

struct Line {
    size_t indent = 0;
    std::string text;  // the logical line, comments removed, wrapped lines joined
};

// Logical lines: physical lines joined while a bracket is open; `#` comments outside strings removed.
std::vector<Line> logical_lines(const std::string& src) {
    std::vector<Line> out;
    std::istringstream in(src);
    std::string phys, cur;
    int depth = 0;
    size_t indent = 0;
    while (std::getline(in, phys)) {
        if (depth == 0) {
            cur.clear();
            indent = phys.find_first_not_of(' ');
            if (indent == std::string::npos) continue;
        }
        char quote = 0;
        for (size_t i = 0; i < phys.size(); ++i) {
            char ch = phys[i];
            if (quote) {
                if (ch == '\\') {
                    cur += ch;
                    if (i + 1 < phys.size()) cur += phys[++i];
                    continue;
                }
                if (ch == quote) quote = 0;
                cur += ch;
                continue;
            }
            if (ch == '#') break;
            if (ch == '\'' || ch == '"') quote = ch;
            if (ch == '(' || ch == '[' || ch == '{') ++depth;
            if (ch == ')' || ch == ']' || ch == '}') depth = std::max(0, depth - 1);
            cur += ch;
        }
        cur += ' ';
        if (depth > 0) continue;
        size_t b = cur.find_first_not_of(' '), e = cur.find_last_not_of(' ');
        if (b == std::string::npos) continue;
        out.push_back({indent, cur.substr(b, e - b + 1)});
    }
    return out;
}

// The right-hand side of `x: T = rhs` / `a, b = rhs` (the first `=` outside brackets that is not part of
// a comparison), or the whole statement.
std::string rhs_of(const std::string& s) {
    int depth = 0;
    char quote = 0;
    for (size_t i = 0; i < s.size(); ++i) {
        char ch = s[i];
        if (quote) {
            if (ch == quote) quote = 0;
            continue;
        }
        if (ch == '\'' || ch == '"') {
            quote = ch;
            continue;
        }
        if (ch == '(' || ch == '[' || ch == '{')
            ++depth;
        else if (ch == ')' || ch == ']' || ch == '}')
            --depth;
        else if (ch == '=' && depth == 0) {
            bool cmp = (i + 1 < s.size() && s[i + 1] == '=') ||
                       (i > 0 && std::string("=!<>+-*/%&|^").find(s[i - 1]) != std::string::npos);
            if (!cmp) return s.substr(i + 1);
            if (i + 1 < s.size() && s[i + 1] == '=') ++i;
        }
    }
    return s;
}

bool starts_with(const std::string& s, const char* p) {
    return s.rfind(p, 0) == 0;
}

// `(expr)` -> `expr` while the outer parentheses enclose the whole value (the formatter wraps a long call as
// `x: T = (\n self.f(...)\n)`).
std::string unparen(std::string s) {
    auto trim = [](std::string& t) {
        size_t a = t.find_first_not_of(" \t"), b = t.find_last_not_of(" \t");
        t = a == std::string::npos ? std::string() : t.substr(a, b - a + 1);
    };
    for (trim(s); s.size() >= 2 && s.front() == '(' && s.back() == ')'; trim(s)) {
        int depth = 0;
        size_t close = std::string::npos;
        for (size_t i = 0; i < s.size(); ++i) {
            if (s[i] == '(')
                ++depth;
            else if (s[i] == ')' && --depth == 0) {
                close = i;
                break;
            }
        }
        if (close != s.size() - 1) break;  // `(a)(b)` or `(a), (b)`: not one parenthesised value
        s = s.substr(1, s.size() - 2);
    }
    return s;
}

}  // namespace

std::map<std::string, OpSequence> op_sequences(const std::string& printed) {
    static const std::regex def_re(R"(^def\s+(\w+)\s*\()");
    static const std::regex type_re(R"(FunctionType\.(\w+))");
    static const std::regex op_re(R"(^\s*pl\.((?:\w+\.)*\w+)\s*\()");
    static const std::regex call_re(R"(^\s*self\.(\w+)\s*\()");
    std::map<std::string, OpSequence> out;
    static const std::regex copy_re(R"(# cvsim: '(\w+)' is a per-call copy of '(\w+)')");
    std::map<std::string, std::string> copies;
    for (auto it = std::sregex_iterator(printed.begin(), printed.end(), copy_re); it != std::sregex_iterator(); ++it)
        copies[(*it)[1].str()] = (*it)[2].str();
    std::vector<Line> lines = logical_lines(printed);
    std::string pending_type;
    for (size_t i = 0; i < lines.size(); ++i) {
        const Line& l = lines[i];
        std::smatch m;
        if (starts_with(l.text, "@pl.function")) {
            pending_type = std::regex_search(l.text, m, type_re) ? m[1].str() : "Opaque";
            continue;
        }
        if (!std::regex_search(l.text, m, def_re)) continue;
        OpSequence& f = out[m[1].str()];
        if (auto c = copies.find(m[1].str()); c != copies.end()) f.copy_of = c->second;
        f.type = pending_type.empty() ? "?" : pending_type;
        pending_type.clear();
        std::vector<size_t> blocks;  // indents of the open blocks' headers
        // cvsim prints pl.tile.gather_compare as its two registry ops on the same operands (gather_compare_dst, then
        // gather_compare_cdst; docs/DECISIONS.md), upstream as one call returning the tuple: a printing detail. Each
        // is the token tile.gather_compare; a cdst right after the dst of the same operands is the same call.
        std::string gc_dst_args;  // the operands of the token just pushed when it was a gather_compare_dst
        size_t j = i + 1;
        for (; j < lines.size() && lines[j].indent > l.indent; ++j) {
            const Line& s = lines[j];
            const std::string prev_gc = std::move(gc_dst_args);  // only the line right before counts
            gc_dst_args.clear();
            while (!blocks.empty() && s.indent <= blocks.back()) {
                f.tokens.push_back("}");
                blocks.pop_back();
            }
            const std::string& t = s.text;
            auto opens = [&](const char* tok) {
                f.tokens.push_back(tok);
                blocks.push_back(s.indent);
            };
            if (starts_with(t, "for "))
                opens("for");
            else if (starts_with(t, "while "))
                opens("while");
            else if (starts_with(t, "if ") || starts_with(t, "elif "))
                opens("if");
            else if (starts_with(t, "else:"))
                opens("else");
            else if (starts_with(t, "with ") || starts_with(t, "pass") || starts_with(t, "pl.func_attr("))
                continue;
            else if (starts_with(t, "return"))
                f.tokens.push_back("return");
            else {
                std::string rhs = unparen(rhs_of(t));
                if (std::regex_search(rhs, m, op_re)) {
                    std::string op = m[1].str();
                    // A shape query: cvsim folds pl.tensor.dim of a static dimension to its value, upstream prints
                    // the op (docs/DECISIONS.md, parity); neither side's count includes it.
                    if (op == "tensor.dim") continue;
                    if (op == "tile.gather_compare_dst" || op == "tile.gather_compare_cdst") {
                        std::string args = m.suffix().str();
                        if (op == "tile.gather_compare_cdst" && !prev_gc.empty() && prev_gc == args)
                            continue;  // the dst's call
                        if (op == "tile.gather_compare_dst") gc_dst_args = args;
                        op = "tile.gather_compare";
                    }
                    // cvsim reads pl.tile.gather_row as a load of the source rows and an assemble into dst (docs/
                    // DECISIONS.md, "pl.tile.gather_row"): upstream's one op is those two tokens.
                    if (op == "tile.gather_row") {
                        f.tokens.push_back("tile.load");
                        op = "tile.assemble";
                    }
                    f.tokens.push_back(op == "yield_" ? "yield" : op);
                } else if (std::regex_search(rhs, m, call_re)) {
                    f.tokens.push_back("call");
                }
            }
        }
        while (!blocks.empty()) {
            f.tokens.push_back("}");
            blocks.pop_back();
        }
        // An `else:` holding only `pass` is no statement (upstream prints one where its lane emptied the arm,
        // cvsim's printer omits an empty arm): printing, not an op.
        for (size_t k = 0; k + 1 < f.tokens.size();) {
            if (f.tokens[k] == "else" && f.tokens[k + 1] == "}")
                f.tokens.erase(f.tokens.begin() + static_cast<std::ptrdiff_t>(k),
                               f.tokens.begin() + static_cast<std::ptrdiff_t>(k) + 2);
            else
                ++k;
        }
        i = j - 1;
    }
    return out;
}

bool compare_op_sequences(const std::map<std::string, OpSequence>& ours,
                          const std::map<std::string, OpSequence>& theirs, std::string& report) {
    bool all = true;
    auto show = [](const std::vector<std::string>& v, size_t at) {
        std::string s;
        size_t b = at > 3 ? at - 3 : 0;
        for (size_t k = b; k < std::min(v.size(), at + 4); ++k) s += (k == at ? " >" : " ") + v[k];
        if (at >= v.size()) s += " >(end)";
        return s;
    };
    for (const auto& [name, t] : theirs) {
        auto it = ours.find(name);
        if (it == ours.end()) {
            report += fmt::format("{}: only in upstream's expansion ({})\n", name, t.type);
            all = false;
            continue;
        }
        const OpSequence& o = it->second;
        if (o.type != t.type) {
            report += fmt::format("{}: differs: type {} (cvsim) vs {} (upstream)\n", name, o.type, t.type);
            all = false;
            continue;
        }
        size_t k = 0;
        while (k < o.tokens.size() && k < t.tokens.size() && o.tokens[k] == t.tokens[k]) ++k;
        if (k == o.tokens.size() && k == t.tokens.size()) {
            report += fmt::format("{}: same ({} ops)\n", name, o.tokens.size());
            continue;
        }
        all = false;
        report += fmt::format("{}: differs at op {}:\n  cvsim:   {}\n  upstream:{}\n", name, k + 1, show(o.tokens, k),
                              show(t.tokens, k));
    }
    for (const auto& [name, o] : ours) {
        if (theirs.count(name)) continue;
        // A per-call copy (a kernel called at another size) has upstream's function's ops, at other sizes.
        auto t = o.copy_of.empty() ? theirs.end() : theirs.find(o.copy_of);
        if (t != theirs.end() && t->second.type == o.type && t->second.tokens == o.tokens) {
            report += fmt::format("{}: per-call copy of {}: same ops as upstream's {} ({} ops)\n", name, o.copy_of,
                                  o.copy_of, o.tokens.size());
            continue;
        }
        if (t != theirs.end())
            report += fmt::format("{}: per-call copy of {}: differs from upstream's {}\n", name, o.copy_of, o.copy_of);
        else
            report += fmt::format("{}: only in cvsim's expansion ({})\n", name, o.type);
        all = false;
    }
    return all;
}

}  // namespace cvsim::sim

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>

#include "app/cli.h"

namespace cvsim::cli {

int cmd_parity(const CommonOptions& c, const std::string& before, const std::string& after) {
    auto read = [](const std::string& p) {
        std::ifstream in(p, std::ios::binary);
        if (!in) throw std::runtime_error("cannot read " + p);
        std::stringstream ss;
        ss << in.rdbuf();
        return ss.str();
    };
    std::string theirs = read(after);
    std::error_code ec;
    std::string tmp =
        (std::filesystem::temp_directory_path(ec) / fmt::format("cvsim-parity-{}.py", ::getpid())).string();
    cmd_expand(c, before, tmp);
    std::string ours = read(tmp);
    std::filesystem::remove(tmp, ec);
    std::string report;
    bool same = sim::compare_op_sequences(sim::op_sequences(ours), sim::op_sequences(theirs), report);
    std::cout << report << (same ? "PARITY: same functions, same ops in the same order\n" : "PARITY: differs\n");
    return same ? kExitClean : kExitFindings;
}

}  // namespace cvsim::cli
