// The finding and diagnostic code table (frontend/codes.h): every code documented, the README's lists of codes
// are the table's, and no source file spells a code as a string literal outside the table.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "frontend/codes.h"
#include "test_support.h"

using namespace cvsim;

namespace {

std::set<std::string> table_codes(bool findings) {
    std::set<std::string> out;
    for (const auto& c : code_table())
        if (findings ? c.finding : c.diagnostic) out.insert(std::string(c.code));
    return out;
}

std::set<std::string> codes_in(const std::string& text, const std::regex& re) {
    std::set<std::string> out;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator(); ++it)
        out.insert((*it)[1].str());
    return out;
}

// The string literals of a C++ source outside comments, with their line (raw strings, char literals and
// escapes are skipped over correctly).
std::vector<std::pair<int, std::string>> string_literals(const std::string& s) {
    std::vector<std::pair<int, std::string>> out;
    int line = 1;
    auto advance = [&](size_t from, size_t to) {
        for (size_t k = from; k < to && k < s.size(); ++k) line += s[k] == '\n';
    };
    for (size_t i = 0; i < s.size();) {
        if (s.compare(i, 2, "//") == 0) {
            size_t j = s.find('\n', i);
            i = j == std::string::npos ? s.size() : j;
        } else if (s.compare(i, 2, "/*") == 0) {
            size_t j = s.find("*/", i + 2);
            j = j == std::string::npos ? s.size() : j + 2;
            advance(i, j);
            i = j;
        } else if (s[i] == 'R' && i + 1 < s.size() && s[i + 1] == '"' &&
                   (i == 0 || !(std::isalnum(static_cast<unsigned char>(s[i - 1])) || s[i - 1] == '_') ||
                    s[i - 1] == '8' || s[i - 1] == 'u' || s[i - 1] == 'U' || s[i - 1] == 'L')) {
            size_t open = s.find('(', i + 2);
            std::string end = ")" + s.substr(i + 2, open - i - 2) + "\"";
            size_t j = s.find(end, open);
            j = j == std::string::npos ? s.size() : j + end.size();
            advance(i, j);
            i = j;
        } else if (s[i] == '\'' && !(i > 0 && std::isxdigit(static_cast<unsigned char>(s[i - 1])) && i + 1 < s.size() &&
                                     std::isxdigit(static_cast<unsigned char>(s[i + 1])) && s[i + 2] != '\'')) {
            size_t j = i + 1;
            while (j < s.size() && s[j] != '\'') j += s[j] == '\\' ? 2 : 1;
            i = j + 1;
        } else if (s[i] == '"') {
            size_t j = i + 1;
            while (j < s.size() && s[j] != '"') j += s[j] == '\\' ? 2 : 1;
            out.emplace_back(line, s.substr(i + 1, j - i - 1));
            advance(i, j);
            i = j + 1;
        } else {
            line += s[i] == '\n';
            ++i;
        }
    }
    return out;
}

}  // namespace

TEST(Codes, EveryCodeIsUniqueWellFormedAndDocumented) {
    std::set<std::string_view> seen;
    const std::regex form("[EW]-[A-Z0-9]+(-[A-Z0-9]+)*");
    for (const auto& c : code_table()) {
        EXPECT_TRUE(seen.insert(c.code).second) << c.code;
        EXPECT_TRUE(std::regex_match(std::string(c.code), form)) << c.code;
        EXPECT_EQ(c.severity == CodeSeverity::Warning, c.code[0] == 'W') << c.code;
        EXPECT_TRUE(c.finding || c.diagnostic) << c.code << " is neither a finding nor a diagnostic";
        EXPECT_GE(c.doc.size(), 10u) << c.code << " has no doc line";
        EXPECT_EQ(c.doc.find('\n'), std::string_view::npos) << c.code << ": one line";
        EXPECT_EQ(find_code(c.code), &c);
    }
    EXPECT_EQ(find_code("E-NO-SUCH"), nullptr);
    EXPECT_TRUE(is_race_code(codes::kRaceWaw));
    EXPECT_FALSE(is_race_code(codes::kDeadlock));
}

// The README lists the findings in a table (## Findings) and the input diagnostics in the paragraph after it:
// the first are exactly the table's findings, the second exactly its diagnostics (E-OOB is both).
TEST(Codes, TheReadmeListsExactlyTheTablesCodes) {
    const std::string readme = test::read_file(test::source_dir() + "/README.md");
    const size_t findings = readme.find("\n## Findings\n");
    const size_t inputs = readme.find("\nInput diagnostics (exit 2):", findings);
    const size_t limits = readme.find("Limits:", inputs);
    ASSERT_NE(findings, std::string::npos);
    ASSERT_NE(inputs, std::string::npos);
    ASSERT_NE(limits, std::string::npos);
    // The first column of the table's rows.
    std::string first_cells;
    std::istringstream rows(readme.substr(findings, inputs - findings));
    for (std::string row; std::getline(rows, row);)
        if (row.rfind("| `", 0) == 0) first_cells += row.substr(0, row.find(" |", 2)) + "\n";
    const std::regex code("`([EW]-[A-Z0-9-]+)`");
    EXPECT_EQ(codes_in(first_cells, code), table_codes(true));
    EXPECT_EQ(codes_in(readme.substr(inputs, limits - inputs), code), table_codes(false));
    // Any other code the README names is in the table too.
    for (const auto& c : codes_in(readme, std::regex("\\b([EW]-[A-Z0-9]+(?:-[A-Z0-9]+)*)\\b")))
        EXPECT_NE(find_code(c), nullptr) << "the README names " << c << ", which is no code of frontend/codes.cpp";
}

// A code is named by its constant: a string literal "E-..." / "W-..." (or "error[E-...") anywhere else in the
// sources (a typo, a new code outside the table, a prefix test) is reported with its file and line. A code in
// the prose of a message or comment is not an emitted code and is not reported.
TEST(Codes, NoSourceFileSpellsACodeOutsideTheTable) {
    namespace fs = std::filesystem;
    const std::regex code_literal("[EW]-[A-Z0-9-]*");
    const std::regex error_code("error\\[[EW]-");  // "error[E-IO]: ..." spelled out
    std::vector<std::string> found;
    size_t files = 0;
    for (const char* dir : {"frontend", "sim", "models", "oracle", "traces", "core", "app"}) {
        const fs::path root = fs::path(test::source_dir()) / dir;
        if (!fs::is_directory(root)) continue;
        for (const auto& e : fs::recursive_directory_iterator(root)) {
            const std::string ext = e.path().extension().string();
            if (!e.is_regular_file() || (ext != ".cpp" && ext != ".h" && ext != ".hpp")) continue;
            const std::string name = e.path().filename().string();
            if (name == "codes.h" || name == "codes.cpp") continue;  // the table
            ++files;
            for (const auto& [line, lit] : string_literals(test::read_file(e.path().string())))
                if (std::regex_match(lit, code_literal) || std::regex_search(lit, error_code))
                    found.push_back(fmt::format("{}:{}: \"{}\"", e.path().string(), line, lit));
        }
    }
    EXPECT_GT(files, 100u) << "the source folders were not found under " << test::source_dir();
    EXPECT_TRUE(found.empty()) << "name these codes by their constant (frontend/codes.h):\n"
                               << fmt::format("{}", fmt::join(found, "\n"));
}

// The scanner finds a literal in code and none in comments or raw strings.
TEST(Codes, TheScannerSeesOnlyLiteralsInCode) {
    auto lits = string_literals(
        "a = \"E-X\"; // \"E-Y\"\n/* \"E-Z\" */ b = R\"(\"E-W\")\"; c = '\"'; d = 1'000; e = \"x\\\"E-V\";\n");
    std::vector<std::string> got;
    for (const auto& [line, lit] : lits) got.push_back(std::to_string(line) + ":" + lit);
    EXPECT_EQ(got, (std::vector<std::string>{"1:E-X", "2:x\\\"E-V"}));
}
