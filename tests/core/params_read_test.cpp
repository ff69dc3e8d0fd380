// Every declared hardware parameter is read by the model, the checker or the expander (issue 10, class 14:
// `gm.visibility_delay`, `chip.flag_counters` and `sync.auto_slot_num` were listed by `cvsim params` and
// overridable, yet changed nothing; `chip.aivs_per_cluster` was removed: the machine has 2 AIVs per cluster
// and simulates no other count). A parameter that means nothing must be removed from the table, or listed
// below with the reason it stays.
#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "core/params.h"

namespace {

using namespace cvsim;

// Parameters that no code outside the table reads, each with the reason it is still declared.
const std::map<std::string, std::string> kNotReadOnPurpose = {
    {"chip.ub_bytes", "the physical UB: it bounds chip.ub_usable_bytes (validate), the part tiles and rings may use"},
};

// How the code names each group's struct (`hw.vector` is often bound to `const VectorParams& vec`).
const std::map<std::string, std::vector<std::string>> kGroupSpellings = {
    {"vector", {"vector", "vec"}},
};

std::string sources_outside_the_table() {
    std::string all;
    const std::filesystem::path root(CVSIM_SOURCE_DIR);
    for (const char* dir : {"core", "frontend", "sim", "models", "traces", "app"}) {
        for (const auto& e : std::filesystem::recursive_directory_iterator(root / dir)) {
            const auto ext = e.path().extension();
            if (!e.is_regular_file() || (ext != ".cpp" && ext != ".h")) continue;
            const std::string name = e.path().filename().string();
            if (e.path().parent_path().filename() == "core" &&
                (name == "params.cpp" || name == "params.h" || name == "params_table.cpp"))
                continue;
            std::ifstream in(e.path());
            std::ostringstream s;
            s << in.rdbuf();
            all += s.str();
            all += "\n";
        }
    }
    return all;
}

bool ident(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// Does `code` hold `<object>.<field>` or `<object>-><field>` (whole identifiers, blanks allowed)?
bool member_access(const std::string& code, const std::string& object, const std::string& field) {
    for (size_t at = code.find(field); at != std::string::npos; at = code.find(field, at + 1)) {
        if ((at + field.size() < code.size() && ident(code[at + field.size()])) || at == 0) continue;
        size_t i = at;
        while (i > 0 && std::isspace(static_cast<unsigned char>(code[i - 1]))) --i;
        if (i >= 1 && code[i - 1] == '.')
            i -= 1;
        else if (i >= 2 && code[i - 1] == '>' && code[i - 2] == '-')
            i -= 2;
        else
            continue;
        while (i > 0 && std::isspace(static_cast<unsigned char>(code[i - 1]))) --i;
        if (i < object.size() || code.compare(i - object.size(), object.size(), object) != 0) continue;
        if (i > object.size() && ident(code[i - object.size() - 1])) continue;
        return true;
    }
    return false;
}

TEST(ParamTable, EveryDeclaredParameterIsRead) {
    const std::string code = sources_outside_the_table();
    ASSERT_GT(code.size(), 100000u) << "the sources were not found under " << CVSIM_SOURCE_DIR;
    for (const ParamInfo& info : param_table()) {
        const std::string key(info.key);
        const auto dot = key.find('.');
        const std::string group = key.substr(0, dot), field = key.substr(dot + 1);
        std::vector<std::string> spellings = {group};
        if (auto it = kGroupSpellings.find(group); it != kGroupSpellings.end()) spellings = it->second;
        bool read = false;
        for (const auto& g : spellings) read |= member_access(code, g, field);
        auto why = kNotReadOnPurpose.find(key);
        if (why == kNotReadOnPurpose.end())
            EXPECT_TRUE(read) << key << " is declared (listed by `cvsim params`, overridable) but no code reads it: "
                              << "read it where it matters or remove it from the table";
        else
            EXPECT_FALSE(read) << key << " is read now: drop it from kNotReadOnPurpose (" << why->second << ")";
    }
}

}  // namespace
