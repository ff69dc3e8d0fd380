// The house's layering (README "Layout"): a folder includes headers of its own folder and of the folders below
// it only, and core/, frontend/ and oracle/ never see SystemC. Walks the source tree (CVSIM_SOURCE_DIR) and
// reports every violation as file:line.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

// Folder -> the project folders its files may include besides itself (bottom to top).
const std::map<std::string, std::set<std::string>> kAllowed = {
    {"core", {}},
    {"frontend", {"core"}},
    {"models", {"core"}},
    {"sim", {"core", "frontend", "models"}},
    {"oracle", {"core", "frontend"}},
    {"traces", {"core", "frontend", "models", "sim"}},
    {"app", {"core", "frontend", "models", "sim", "oracle", "traces"}},
};
// Folders whose code must not include SystemC or TLM.
const std::set<std::string> kNoSystemC = {"core", "frontend", "oracle"};
// Top-level folders that hold no library code (not part of the house).
const std::set<std::string> kNotLibraries = {"tests",    "bench",   "build", "docs",
                                             "examples", "scripts", "cmake", "configs"};

struct Include {
    std::string file;  // relative to the source dir
    int line = 0;
    bool quoted = false;
    std::string path;
};

bool is_source(const fs::path& p) {
    const auto e = p.extension().string();
    return e == ".h" || e == ".hpp" || e == ".cpp" || e == ".cc";
}

std::vector<Include> includes_of(const std::string& folder) {
    static const std::regex re(R"(^\s*#\s*include\s*([<"])([^>"]+)[>"])");
    const fs::path root(CVSIM_SOURCE_DIR);
    std::vector<Include> out;
    for (const auto& e : fs::recursive_directory_iterator(root / folder)) {
        if (!e.is_regular_file() || !is_source(e.path())) continue;
        std::ifstream in(e.path());
        std::string text;
        int n = 0;
        while (std::getline(in, text)) {
            ++n;
            std::smatch m;
            if (std::regex_search(text, m, re))
                out.push_back({fs::relative(e.path(), root).string(), n, m[1] == "\"", m[2]});
        }
    }
    return out;
}

std::string join(const std::vector<std::string>& v) {
    std::string s;
    for (const auto& x : v) s += x + "\n";
    return s;
}

TEST(Layering, EveryIncludeGoesDownTheHouse) {
    std::vector<std::string> bad;
    for (const auto& [folder, may] : kAllowed) {
        const auto incs = includes_of(folder);
        EXPECT_FALSE(incs.empty()) << folder << "/ has no includes: wrong CVSIM_SOURCE_DIR?";
        for (const auto& i : incs) {
            if (!i.quoted) continue;
            const auto slash = i.path.find('/');
            if (slash == std::string::npos) continue;  // a generated header (cvsim_version.h)
            const std::string to = i.path.substr(0, slash);
            if (to == folder || may.count(to)) continue;
            if (!kAllowed.count(to)) continue;  // not a folder of the house
            std::string list;
            for (const auto& m : may) list += (list.empty() ? "" : ", ") + m + "/";
            bad.push_back(i.file + ":" + std::to_string(i.line) + ": " + folder + "/ includes \"" + i.path +
                          "\" (it may include " + (list.empty() ? std::string("nothing of the project") : list) + ")");
        }
    }
    EXPECT_TRUE(bad.empty()) << bad.size() << " upward include(s):\n" << join(bad);
}

TEST(Layering, NoSystemCBelowTheModels) {
    std::vector<std::string> bad;
    for (const auto& folder : kNoSystemC)
        for (const auto& i : includes_of(folder)) {
            const bool sc = i.path == "systemc" || i.path == "systemc.h" || i.path == "tlm" || i.path == "tlm.h" ||
                            i.path.rfind("sysc/", 0) == 0 || i.path.rfind("tlm_", 0) == 0 ||
                            i.path.rfind("tlm/", 0) == 0;
            if (sc)
                bad.push_back(i.file + ":" + std::to_string(i.line) + ": " + folder + "/ includes SystemC (" + i.path +
                              ")");
        }
    EXPECT_TRUE(bad.empty()) << join(bad);
}

// A new top-level folder of code gets a row in the table (else its includes would go unchecked).
TEST(Layering, TableCoversEveryCodeFolder) {
    std::vector<std::string> bad;
    for (const auto& e : fs::directory_iterator(fs::path(CVSIM_SOURCE_DIR))) {
        const std::string name = e.path().filename().string();
        if (!e.is_directory() || name.empty() || name[0] == '.' || kNotLibraries.count(name) || kAllowed.count(name))
            continue;
        if (fs::exists(e.path() / "CMakeCache.txt"))
            continue;  // a build folder in the tree (scripts/test.sh's build-asan/)
        for (const auto& f : fs::recursive_directory_iterator(e.path()))
            if (f.is_regular_file() && is_source(f.path())) {
                bad.push_back(name + "/ holds code (" + f.path().filename().string() +
                              ") but has no row in the layering table");
                break;
            }
    }
    EXPECT_TRUE(bad.empty()) << join(bad);
}

}  // namespace
