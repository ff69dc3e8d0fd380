// Golden tests: every tests/golden/**/*.py runs through cvsim and is checked against the directives in
// its comments (`# RUN:`, `# CHECK:`, `# CHECK-NEXT:`, `# CHECK-NOT:`, `# ERROR:`, `# EXIT:`); see
// tests/golden/README.md. With CVSIM_UPDATE_GOLDEN=1 the CHECK/ERROR lines are rewritten from the actual
// output instead, so a reviewer reads the change as a diff.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <unistd.h>

#include "frontend/diag.h"
#include "frontend/printer.h"
#include "frontend/sema.h"
#include "test_support.h"

using namespace cvsim;
using namespace cvsim::test;
namespace fs = std::filesystem;

namespace {

enum class CheckKind { Plain, Next, Not };

struct Check {
    CheckKind kind = CheckKind::Plain;
    std::string text;  // pattern: a substring of one output line (trailing blanks ignored)
    int line = 0;      // line of the directive in the golden file
};

struct ErrorSpec {
    std::string code;     // "E-TYPE"
    int line = 0;         // expected diagnostic line
    int col = 0;          // 0 = any column
    std::string message;  // substring of the message ("" = any)
};

struct Golden {
    std::string path;                // the golden file
    std::string name;                // gtest-safe name
    std::string command = "expand";  // print, expand, check, run, ...
    std::string input;               // the kernel given to the command (the golden file unless RUN names one)
    std::vector<std::string> args;   // further options
    std::vector<Check> checks;
    std::vector<ErrorSpec> errors;
    std::optional<int> exit_code;  // # EXIT: N
};

std::string trim(const std::string& s) {
    size_t a = s.find_first_not_of(" \t\r");
    size_t b = s.find_last_not_of(" \t\r");
    return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

std::string rtrim(const std::string& s) {
    size_t b = s.find_last_not_of(" \t\r");
    return b == std::string::npos ? "" : s.substr(0, b + 1);
}

std::vector<std::string> split_lines(const std::string& text) {
    std::vector<std::string> out;
    size_t start = 0;
    while (start < text.size()) {
        size_t nl = text.find('\n', start);
        if (nl == std::string::npos) nl = text.size();
        out.push_back(text.substr(start, nl - start));
        start = nl + 1;
    }
    return out;
}

// "# KEY: value" on a line (leading blanks allowed); returns the value after exactly one optional space.
bool directive(const std::string& line, const std::string& key, std::string& value) {
    size_t p = line.find_first_not_of(" \t");
    if (p == std::string::npos) return false;
    std::string head = "# " + key + ":";
    if (line.compare(p, head.size(), head) != 0) return false;
    value = line.substr(p + head.size());
    if (!value.empty() && value[0] == ' ') value.erase(0, 1);
    value = rtrim(value);
    return true;
}

std::string expand_vars(std::string s) {
    const std::string key = "%shared";
    for (size_t p = s.find(key); p != std::string::npos; p = s.find(key, p)) s.replace(p, key.size(), shared_dir());
    return s;
}

Golden load_golden(const fs::path& file, const fs::path& root) {
    Golden g;
    g.path = file.string();
    g.input = g.path;
    std::string rel = fs::relative(file, root).string();
    g.name = rel.substr(0, rel.size() - 3);
    for (auto& ch : g.name)
        if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
    int n = 0;
    for (const std::string& line : split_lines(read_file(g.path))) {
        ++n;
        std::string v;
        if (directive(line, "RUN", v)) {
            auto words = split_args(expand_vars(v));
            if (words.empty()) continue;
            g.command = words[0];
            size_t i = 1;
            if (words.size() > 1 && words[1].size() > 3 && words[1].substr(words[1].size() - 3) == ".py")
                g.input = words[i++];
            g.args.assign(words.begin() + static_cast<std::ptrdiff_t>(i), words.end());
        } else if (directive(line, "CHECK", v)) {
            g.checks.push_back({CheckKind::Plain, v, n});
        } else if (directive(line, "CHECK-NEXT", v)) {
            g.checks.push_back({CheckKind::Next, v, n});
        } else if (directive(line, "CHECK-NOT", v)) {
            g.checks.push_back({CheckKind::Not, v, n});
        } else if (directive(line, "ERROR", v)) {
            auto words = split_args(v);
            ErrorSpec e;
            if (!words.empty()) e.code = words[0];
            if (words.size() > 1) {
                auto colon = words[1].find(':');
                e.line = std::atoi(words[1].substr(0, colon).c_str());
                if (colon != std::string::npos) e.col = std::atoi(words[1].substr(colon + 1).c_str());
            }
            size_t msg = v.find(' ', v.find(' ') + 1);
            if (words.size() > 2 && msg != std::string::npos) e.message = trim(v.substr(msg));
            g.errors.push_back(e);
        } else if (directive(line, "EXIT", v)) {
            g.exit_code = std::atoi(v.c_str());
        }
    }
    return g;
}

std::vector<Golden> load_goldens() {
    std::vector<Golden> out;
    fs::path root = fs::path(source_dir()) / "tests" / "golden";
    if (!fs::exists(root)) return out;
    std::vector<fs::path> files;
    for (const auto& e : fs::recursive_directory_iterator(root))
        // pypto/parity/ holds PyPTO's dumps and their sources, checked by tests/e2e/parity_test.cpp; pypto/src/
        // holds kernel sources for PyPTO (their printed IR is the golden), not cvsim inputs.
        if (e.is_regular_file() && e.path().extension() == ".py" &&
            e.path().string().find("/pypto/parity/") == std::string::npos && e.path().parent_path().filename() != "src")
            files.push_back(e.path());
    std::sort(files.begin(), files.end());
    std::set<std::string> names;
    for (const auto& f : files) {
        out.push_back(load_golden(f, root));
        while (!names.insert(out.back().name).second) out.back().name += "_";
    }
    return out;
}

struct Outcome {
    int exit_code = 0;
    std::string out;                    // the text CHECK lines match (stdout)
    std::string err;                    // stderr
    std::vector<nlohmann::json> diags;  // diagnostics as data
    std::string reprinted;              // print: print(parse(out)), must equal out
};

Outcome run_golden(const Golden& g) {
    Outcome o;
    if (g.command == "print") {
        // In-process: parse + check + print, no expansion (the printed style of the input itself).
        try {
            o.out = print_program(*load_program(SourceFile::read(g.input)));
            o.reprinted = print_program(*load_program_text(g.input + ".printed", o.out));
        } catch (const CompileError& e) {
            o.exit_code = 2;
            o.err = render_text(e.diag());
            o.diags.push_back(to_json(e.diag()));
        }
        return o;
    }
    fs::path json = fs::temp_directory_path() / ("cvsim_golden_" + g.name + "_" + std::to_string(::getpid()) + ".json");
    // Run from the source root with the kernel's path relative to it: reports print the path and wrap at a
    // fixed width, so an absolute path would make the output depend on where the tree is checked out.
    const fs::path src = fs::path(source_dir());
    std::string input = g.input;
    if (std::string rel = fs::relative(g.input, src).string(); !rel.empty() && rel.rfind("..", 0) != 0) input = rel;
    std::vector<std::string> args = {g.command, input};
    args.insert(args.end(), g.args.begin(), g.args.end());
    args.push_back("--json");
    args.push_back(json.string());
    RunLimits limits;
    limits.workdir = src.string();
    RunResult r = run_cvsim(args, 300, limits);
    o.exit_code = r.exit_code;
    o.out = r.out;
    o.err = r.err;
    if (fs::exists(json)) {
        try {
            auto j = nlohmann::json::parse(read_file(json.string()));
            if (j.contains("diagnostics"))
                for (auto& d : j["diagnostics"]) o.diags.push_back(d);
            if (j.contains("kernels"))
                for (auto& k : j["kernels"])
                    if (k.contains("diagnostic")) o.diags.push_back(k["diagnostic"]);
        } catch (const std::exception&) {
        }
        fs::remove(json);
    }
    return o;
}

// FileCheck-like matching; returns "" or a description of the first failure.
std::string match_checks(const std::vector<Check>& checks, const std::string& output) {
    std::vector<std::string> lines = split_lines(output);
    size_t cursor = 0;       // first line the next CHECK may match
    size_t last = SIZE_MAX;  // line of the previous match
    std::vector<const Check*> nots;
    auto find_not = [&](size_t from, size_t to) -> std::string {
        for (const Check* c : nots)
            for (size_t i = from; i < to && i < lines.size(); ++i)
                if (lines[i].find(c->text) != std::string::npos)
                    return "CHECK-NOT at golden line " + std::to_string(c->line) + " found '" + c->text +
                           "' at output line " + std::to_string(i + 1);
        return "";
    };
    for (const Check& c : checks) {
        if (c.kind == CheckKind::Not) {
            nots.push_back(&c);
            continue;
        }
        size_t found = SIZE_MAX;
        if (c.kind == CheckKind::Next) {
            size_t want = last == SIZE_MAX ? 0 : last + 1;
            if (want < lines.size() && lines[want].find(c.text) != std::string::npos) found = want;
            if (found == SIZE_MAX)
                return "CHECK-NEXT at golden line " + std::to_string(c.line) + ": '" + c.text +
                       "' is not on output line " + std::to_string(want + 1) +
                       (want < lines.size() ? " ('" + lines[want] + "')" : " (past the end)");
        } else {
            for (size_t i = cursor; i < lines.size() && found == SIZE_MAX; ++i)
                if (lines[i].find(c.text) != std::string::npos) found = i;
            if (found == SIZE_MAX)
                return "CHECK at golden line " + std::to_string(c.line) + ": '" + c.text +
                       "' not found after output line " + std::to_string(cursor);
        }
        if (auto e = find_not(cursor, found); !e.empty()) return e;
        nots.clear();
        last = found;
        cursor = found + 1;
    }
    return find_not(cursor, lines.size());
}

// Rewrites the golden's directives from the outcome. ERROR lines are replaced where they stand (the line
// numbers they name must not move); CHECK lines are dropped and one per output line appended at the end.
void update_golden(const Golden& g, const Outcome& o) {
    bool is_error = !o.diags.empty();
    std::vector<std::string> errors;
    for (size_t i = 0; i < o.diags.size(); ++i) {
        const auto& d = o.diags[i];
        std::string msg;
        if (i < g.errors.size() && !g.errors[i].message.empty() &&
            d.value("message", "").find(g.errors[i].message) != std::string::npos)
            msg = " " + g.errors[i].message;
        errors.push_back("# ERROR: " + d.value("code", "") + " " + std::to_string(d.value("line", 0)) + ":" +
                         std::to_string(d.value("col", 0)) + msg);
    }
    std::vector<std::string> kept;
    size_t next_error = 0;
    bool had_exit = false;
    std::string v;
    for (const std::string& line : split_lines(read_file(g.path))) {
        if (directive(line, "CHECK", v) || directive(line, "CHECK-NEXT", v) || directive(line, "CHECK-NOT", v))
            continue;
        if (directive(line, "EXIT", v)) {  // kept in place (as ERROR lines) so no line moves
            kept.push_back("# EXIT: " + std::to_string(o.exit_code));
            had_exit = true;
            continue;
        }
        if (directive(line, "ERROR", v)) {
            if (next_error < errors.size()) kept.push_back(errors[next_error++]);
            continue;
        }
        kept.push_back(line);
    }
    while (!kept.empty() && trim(kept.back()).empty()) kept.pop_back();
    std::string text;
    for (auto& l : kept) text += l + "\n";
    if (is_error) {
        for (; next_error < errors.size(); ++next_error) text += errors[next_error] + "\n";
        if (o.exit_code != 2 && !had_exit) text += "# EXIT: " + std::to_string(o.exit_code) + "\n";
    } else {
        if (o.exit_code != 0 && !had_exit) text += "# EXIT: " + std::to_string(o.exit_code) + "\n";
        text += "\n";
        for (const std::string& line : split_lines(o.out))
            if (!trim(line).empty()) text += "# CHECK: " + rtrim(line) + "\n";
    }
    std::ofstream(g.path, std::ios::binary) << text;
}

class GoldenFile : public ::testing::TestWithParam<Golden> {};

TEST_P(GoldenFile, MatchesItsDirectives) {
    const Golden& g = GetParam();
    Outcome o = run_golden(g);
    SCOPED_TRACE("golden " + g.path + "\n--- stdout\n" + o.out + "--- stderr\n" + o.err);
    const char* update = std::getenv("CVSIM_UPDATE_GOLDEN");
    if (update && std::string(update) == "1") {
        update_golden(g, o);
        std::cerr << "updated " << g.path << "\n";
        return;
    }
    ASSERT_TRUE(!g.checks.empty() || !g.errors.empty())
        << "a golden needs # CHECK: or # ERROR: lines (CVSIM_UPDATE_GOLDEN=1 writes them)";
    if (!g.errors.empty()) {
        EXPECT_EQ(o.exit_code, g.exit_code.value_or(2));
        // Exactly one primary diagnostic per mistake, as data and as text.
        ASSERT_EQ(o.diags.size(), g.errors.size()) << "diagnostics: " << nlohmann::json(o.diags).dump();
        size_t texts = 0;
        for (size_t p = o.err.find("error["); p != std::string::npos; p = o.err.find("error[", p + 1)) ++texts;
        EXPECT_EQ(texts, g.errors.size());
        for (size_t i = 0; i < g.errors.size(); ++i) {
            const ErrorSpec& e = g.errors[i];
            const auto& d = o.diags[i];
            EXPECT_EQ(d.value("code", ""), e.code);
            EXPECT_EQ(d.value("line", 0), e.line) << d.value("message", "");
            if (e.col) {
                EXPECT_EQ(d.value("col", 0), e.col);
            }
            if (!e.message.empty()) {
                EXPECT_NE(d.value("message", "").find(e.message), std::string::npos) << d.value("message", "");
            }
        }
        return;
    }
    ASSERT_EQ(o.exit_code, g.exit_code.value_or(0)) << o.err;
    if (g.command == "print") {
        EXPECT_EQ(o.reprinted, o.out) << "print -> parse -> print is not the identity";
    }
    std::string failure = match_checks(g.checks, o.out);
    EXPECT_TRUE(failure.empty()) << failure;
}

std::string golden_name(const ::testing::TestParamInfo<Golden>& info) {
    return info.param.name;
}

[[maybe_unused]] void PrintTo(const Golden& g, std::ostream* os) {
    *os << g.path;
}

}  // namespace

INSTANTIATE_TEST_SUITE_P(Golden, GoldenFile, ::testing::ValuesIn(load_goldens()), golden_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(GoldenFile);

// The matcher itself: order, CHECK-NEXT, CHECK-NOT.
TEST(GoldenMatcher, ChecksMatchInOrderAsSubstrings) {
    std::string out = "a = 1\nb = 2\nc = 3\n";
    EXPECT_EQ(match_checks({{CheckKind::Plain, "a ="}, {CheckKind::Plain, "c = 3"}}, out), "");
    EXPECT_NE(match_checks({{CheckKind::Plain, "c ="}, {CheckKind::Plain, "a ="}}, out), "");
    EXPECT_EQ(match_checks({{CheckKind::Plain, "a"}, {CheckKind::Next, "b = 2"}}, out), "");
    EXPECT_NE(match_checks({{CheckKind::Plain, "a"}, {CheckKind::Next, "c = 3"}}, out), "");
    EXPECT_NE(match_checks({{CheckKind::Plain, "a"}, {CheckKind::Not, "b"}, {CheckKind::Plain, "c"}}, out), "");
    EXPECT_EQ(match_checks({{CheckKind::Plain, "b"}, {CheckKind::Not, "a"}}, out), "");
}
