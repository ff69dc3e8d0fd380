// Report text layout: output width, wrapping and fitting lines, grouping repeated findings, cluster ranges,
// the parameter listing (text and JSON).
#include "app/report.h"

#include <fmt/format.h>

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <map>
#include <set>
#include <sstream>

#include "frontend/codes.h"
#include "sim/verdict.h"

namespace cvsim::cli {

size_t output_width() {
    size_t w = 0;
    if (const char* cols = std::getenv("COLUMNS")) {
        char* end = nullptr;
        long v = std::strtol(cols, &end, 10);
        if (end != cols && *end == '\0' && v > 0) w = static_cast<size_t>(v);
    }
    if (w == 0 && ::isatty(1)) {
        struct winsize ws {};
        if (::ioctl(1, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) w = ws.ws_col;
    }
    if (w == 0) w = 100;
    return std::max<size_t>(w, 40);
}

namespace {

// One line wrapped at spaces; continuation lines indented 4 more (a replay command: a shell continuation).
void wrap_line(std::string& out, const std::string& line, size_t width) {
    if (line.size() <= width) {
        out += line;
        out += '\n';
        return;
    }
    size_t indent = line.find_first_not_of(' ');
    if (indent == std::string::npos) indent = 0;
    const bool command = line.compare(indent, 8, "replay: ") == 0;
    const std::string cont(std::min(indent + 4, width / 2), ' ');
    const std::string tail = command ? " \\" : "";
    std::string rest = line;
    bool first = true;
    while (true) {
        const std::string& lead = first ? std::string() : cont;
        if (lead.size() + rest.size() <= width) {
            out += lead + rest + '\n';
            return;
        }
        // The last space that leaves room for the continuation mark; an overlong word stays whole. A command
        // keeps an option with its value on one line ("--seed 17", never "--seed \\ 17").
        size_t room = width - lead.size() - tail.size();
        size_t lo = first ? indent + 1 : 1;
        auto splits_option = [&](size_t at) {
            if (!command || at + 1 >= rest.size() || rest[at + 1] == '-') return false;
            size_t word = rest.rfind(' ', at == 0 ? 0 : at - 1);
            word = word == std::string::npos ? 0 : word + 1;
            return rest.compare(word, 2, "--") == 0;
        };
        size_t cut = rest.rfind(' ', room);
        while (cut != std::string::npos && cut >= lo && splits_option(cut))
            cut = cut == 0 ? std::string::npos : rest.rfind(' ', cut - 1);
        if (cut == std::string::npos || cut < lo) {
            cut = rest.find(' ', room);
            while (cut != std::string::npos && splits_option(cut)) cut = rest.find(' ', cut + 1);
        }
        if (cut == std::string::npos) {
            out += lead + rest + '\n';
            return;
        }
        out += lead + rest.substr(0, cut) + tail + '\n';
        size_t next = rest.find_first_not_of(' ', cut);
        if (next == std::string::npos) return;
        rest = rest.substr(next);
        first = false;
    }
}

bool is_digit(char c) {
    return c >= '0' && c <= '9';
}

// The text of a finding without what differs between repeats of one mistake: "cluster N " prefixes, cycle
// numbers and GM windows ("[0:16, 0:128]").
std::string finding_shape(const sim::Finding& f) {
    std::string in = f.code + "|" + f.message;
    for (const auto& d : f.details) in += "|" + d;
    std::string out;
    out.reserve(in.size());
    for (size_t i = 0; i < in.size();) {
        if (in.compare(i, 8, "cluster ") == 0 && i + 8 < in.size() && is_digit(in[i + 8])) {
            size_t j = i + 8;
            while (j < in.size() && is_digit(in[j])) ++j;
            if (j < in.size() && in[j] == ' ') ++j;
            i = j;
            continue;
        }
        if (in.compare(i, 6, "cycle ") == 0 && i + 6 < in.size() && is_digit(in[i + 6])) {
            size_t j = i + 6;
            while (j < in.size() && is_digit(in[j])) ++j;
            out += "cycle #";
            i = j;
            continue;
        }
        if (in[i] == '[') {
            size_t j = i + 1;
            while (j < in.size() && (is_digit(in[j]) || in[j] == ':' || in[j] == ',' || in[j] == ' ' || in[j] == '-'))
                ++j;
            if (j < in.size() && in[j] == ']' && j > i + 1) {
                out += "[#]";
                i = j + 1;
                continue;
            }
        }
        out += in[i++];
    }
    return out;
}

// The clusters a finding names: its accesses' (races in this run), else "cluster N" before a core name in
// its message (a core named alone is cluster 0, as the hazard checker writes it).
void finding_clusters(const sim::Finding& f, std::set<uint32_t>& out) {
    if (!f.accesses.empty()) {
        for (const auto& a : f.accesses) out.insert(a.cluster);
        return;
    }
    const std::string& m = f.message;
    for (size_t i = 0; i < m.size(); ++i) {
        if (!(m.compare(i, 3, "AIC") == 0 || m.compare(i, 4, "AIV0") == 0 || m.compare(i, 4, "AIV1") == 0)) continue;
        if (i > 0 && (std::isalnum(static_cast<unsigned char>(m[i - 1])) || m[i - 1] == '_')) continue;
        uint32_t cluster = 0;
        // "... cluster 12 AIC": read the number back from the space before the core name.
        if (i >= 2 && is_digit(m[i - 2])) {
            size_t j = i - 2;
            while (j > 0 && is_digit(m[j - 1])) --j;
            if (j >= 8 && m.compare(j - 8, 8, "cluster ") == 0)
                cluster = static_cast<uint32_t>(std::stoul(m.substr(j, i - 1 - j)));
        }
        out.insert(cluster);
    }
}

}  // namespace

std::string fit_width(const std::string& text, size_t width) {
    std::string out;
    out.reserve(text.size() + text.size() / 8);
    size_t at = 0;
    while (at < text.size()) {
        size_t nl = text.find('\n', at);
        if (nl == std::string::npos) nl = text.size();
        wrap_line(out, text.substr(at, nl - at), width);
        at = nl + 1;
    }
    if (!text.empty() && text.back() != '\n' && !out.empty()) out.pop_back();
    return out;
}

std::vector<FindingGroup> group_findings(const std::vector<const sim::Finding*>& findings,
                                         const std::vector<uint64_t>& rank) {
    std::vector<FindingGroup> groups;
    std::map<std::string, size_t> by_shape;
    std::vector<std::set<uint32_t>> clusters;
    std::vector<std::pair<uint64_t, std::vector<uint32_t>>> best;  // the representative's (rank, clusters)
    for (size_t i = 0; i < findings.size(); ++i) {
        auto [it, fresh] = by_shape.emplace(finding_shape(*findings[i]), groups.size());
        std::set<uint32_t> mine;
        finding_clusters(*findings[i], mine);
        std::pair<uint64_t, std::vector<uint32_t>> key{i < rank.size() ? rank[i] : 0, {mine.begin(), mine.end()}};
        if (fresh) {
            groups.push_back(FindingGroup{i, 0, {}});
            clusters.emplace_back();
            best.push_back(key);
        } else if (key < best[it->second]) {
            // The representative: the lowest rank (earliest seed), then the lowest clusters (cluster 0 first).
            groups[it->second].first = i;
            best[it->second] = key;
        }
        ++groups[it->second].count;
        clusters[it->second].insert(mine.begin(), mine.end());
    }
    for (size_t g = 0; g < groups.size(); ++g) groups[g].clusters.assign(clusters[g].begin(), clusters[g].end());
    return groups;
}

std::string cluster_ranges(const std::vector<uint32_t>& clusters) {
    std::string s;
    int ranges = 0;
    for (size_t i = 0; i < clusters.size();) {
        size_t j = i;
        while (j + 1 < clusters.size() && clusters[j + 1] == clusters[j] + 1) ++j;
        if (++ranges > 6) {
            s += ", ...";
            break;
        }
        if (!s.empty()) s += ", ";
        s += j == i ? std::to_string(clusters[i]) : fmt::format("{}-{}", clusters[i], clusters[j]);
        i = j + 1;
    }
    return s;
}

std::string format_params_text(const std::vector<ParamRow>& rows, size_t width) {
    std::string table = format_param_table(rows);
    size_t widest = 0;
    for (size_t at = 0; at < table.size();) {
        size_t nl = table.find('\n', at);
        if (nl == std::string::npos) nl = table.size();
        widest = std::max(widest, nl - at);
        at = nl + 1;
    }
    if (widest <= width) return table;
    std::string out =
        "parameter = value unit, then its doc (confidence H/M/L) and source\n"
        "(-v: the table, one line per parameter; --json FILE: every field)\n";
    for (const ParamRow& r : rows) {
        out += fmt::format("{} = {}{}\n", r.name, r.value, r.unit.empty() ? "" : " " + r.unit);
        out += "    " + r.doc + "\n";
        out += "    source: " + r.source + "\n";
    }
    return fit_width(out, width);
}

nlohmann::json params_json(const HwParams& hw, const std::vector<ParamRow>& rows) {
    nlohmann::json j;
    j["target"] = std::string(target_name(hw.target));
    j["parameters"] = nlohmann::json::array();
    for (const ParamRow& r : rows) {
        nlohmann::json p;
        p["name"] = r.name;
        // The value as a JSON number or boolean when it is one, else its TOML text.
        nlohmann::json v = nlohmann::json::parse(r.value, nullptr, false);
        p["value"] = v.is_discarded() || v.is_object() || v.is_array() ? nlohmann::json(r.value) : v;
        p["unit"] = r.unit;
        std::string doc = r.doc;
        const std::string suffix = fmt::format(" (conf {})", r.confidence);
        if (doc.size() >= suffix.size() && doc.compare(doc.size() - suffix.size(), suffix.size(), suffix) == 0)
            doc.resize(doc.size() - suffix.size());
        p["doc"] = doc;
        p["confidence"] = std::string(1, r.confidence);
        p["source"] = r.source;
        j["parameters"].push_back(p);
    }
    return j;
}

}  // namespace cvsim::cli
