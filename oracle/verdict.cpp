// The oracle's verdict: cross-core partners of every blocking instruction (k-th push -> k-th pop, k-th free ->
// push k + slot_num, k-th set -> k-th wait, every n-th arrival -> each n-th departure), a greedy run of all
// lanes (deadlock = an instruction that never fires), happens-before as reachability over what fired, and the
// racing pairs. With `cross_check`, every ordering of a conflicting pair is recomputed by freezing.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <stdexcept>

#include "oracle/lanes.h"

namespace cvsim::oracle {

using namespace detail;

std::set<RaceKey> Verdict::race_keys() const {
    std::set<RaceKey> out;
    for (const auto& r : races) out.insert(r.key);
    return out;
}

std::set<std::string> Verdict::race_tensors() const {
    std::set<std::string> out;
    for (const auto& r : races) out.insert(r.key.tensor);
    return out;
}

namespace {

const char* core_label(int core) {
    return core == 0 ? "AIC" : core == 1 ? "AIV0" : "AIV1";
}

struct Graph {
    const Model& m;
    const Options& opt;
    std::vector<int> base;                  // first node of each lane
    std::vector<std::pair<int, int>> node;  // node -> (lane, index)
    std::vector<std::vector<int>> preds;    // same-core deps and cross-core partners (node ids)
    std::vector<bool> never;                // a partner that never exists: the node can never fire
    size_t n = 0;

    Graph(const Model& mm, const Options& o) : m(mm), opt(o) {
        for (size_t l = 0; l < m.lanes.size(); ++l) {
            base.push_back(static_cast<int>(n));
            for (size_t i = 0; i < m.lanes[l].ins.size(); ++i)
                node.push_back({static_cast<int>(l), static_cast<int>(i)});
            n += m.lanes[l].ins.size();
        }
        preds.resize(n);
        never.assign(n, false);
        for (size_t l = 0; l < m.lanes.size(); ++l)
            for (size_t i = 0; i < m.lanes[l].ins.size(); ++i)
                for (int d : m.lanes[l].ins[i].deps) preds[static_cast<size_t>(base[l]) + i].push_back(base[l] + d);
        match();
    }
    const Ins& ins(int v) const {
        return m.lanes[static_cast<size_t>(node[static_cast<size_t>(v)].first)]
            .ins[static_cast<size_t>(node[static_cast<size_t>(v)].second)];
    }
    const Lane& lane_of(int v) const { return m.lanes[static_cast<size_t>(node[static_cast<size_t>(v)].first)]; }

    // The k-th instruction of each kind per key, per lane.
    using Key = std::tuple<int, int, int64_t, std::string>;  // (kind, dir, id, group)
    std::vector<std::map<Key, std::vector<int>>> seqs;       // per lane

    std::vector<int> lanes_where(int cluster, bool aic) const {
        std::vector<int> out;
        for (size_t l = 0; l < m.lanes.size(); ++l)
            if (m.lanes[l].cluster == cluster && (m.lanes[l].core == 0) == aic) out.push_back(static_cast<int>(l));
        return out;
    }
    // The k-th node of (lane, key), -1 when the lane has fewer.
    int kth(int lane, const Key& key, int64_t k) const {
        if (k < 0) return -1;
        auto it = seqs[static_cast<size_t>(lane)].find(key);
        if (it == seqs[static_cast<size_t>(lane)].end() || static_cast<size_t>(k) >= it->second.size()) return -1;
        return it->second[static_cast<size_t>(k)];
    }
    void need(int v, int partner) {
        if (partner < 0)
            never[static_cast<size_t>(v)] = true;
        else
            preds[static_cast<size_t>(v)].push_back(partner);
    }

    void match() {
        seqs.resize(m.lanes.size());
        std::vector<std::map<Key, int64_t>> pos(n);
        std::vector<int64_t> kof(n, 0);
        for (size_t l = 0; l < m.lanes.size(); ++l)
            for (size_t i = 0; i < m.lanes[l].ins.size(); ++i) {
                const Ins& x = m.lanes[l].ins[i];
                Key key{static_cast<int>(x.kind), x.dir, x.id, x.group};
                if (x.kind == Kind::Set || x.kind == Kind::Wait) key = Key{static_cast<int>(x.kind), 0, x.id, ""};
                // A barrier is a group in one mode: hard and soft arrivals never meet (as in the simulator).
                if (x.kind == Kind::Arrive || x.kind == Kind::Depart)
                    key = Key{static_cast<int>(x.kind), 0, x.hard ? 1 : 0, x.group};
                auto& v = seqs[l][key];
                kof[static_cast<size_t>(base[l]) + i] = static_cast<int64_t>(v.size());
                v.push_back(base[l] + static_cast<int>(i));
            }
        const bool a5 = opt.target == Target::A5;
        for (size_t l = 0; l < m.lanes.size(); ++l) {
            const Lane& ln = m.lanes[l];
            const bool aic = ln.core == 0;
            for (size_t i = 0; i < ln.ins.size(); ++i) {
                const Ins& x = ln.ins[i];
                int v = base[l] + static_cast<int>(i);
                int64_t k = kof[static_cast<size_t>(v)];
                switch (x.kind) {
                    case Kind::PopWait:
                        // Ready when every producer lane pushed its k-th tile.
                        for (int p : lanes_where(ln.cluster, x.dir == 0))
                            need(v, kth(p, Key{static_cast<int>(Kind::Push), x.dir, x.id, ""}, k));
                        break;
                    case Kind::Push: {
                        // Slot k % n is free once every consumer lane freed its (k - n)-th pop.
                        auto it = ln.slot_num.find({x.dir, x.id});
                        int64_t slots = it == ln.slot_num.end() ? 1 : std::max(1, it->second);
                        if (k >= slots)
                            for (int c : lanes_where(ln.cluster, x.dir == 1))
                                need(v, kth(c, Key{static_cast<int>(Kind::Free), x.dir, x.id, ""}, k - slots));
                        break;
                    }
                    case Kind::Wait: {
                        Key set{static_cast<int>(Kind::Set), 0, x.id, ""};
                        if (!aic) {
                            // An AIV waits for the AIC's sets that reach it (a2a3: all; a5: ids 0-15 AIV0, 16-31 AIV1).
                            int lane_of_id = x.id >= 16 ? 1 : 0;
                            auto aics = lanes_where(ln.cluster, true);
                            if (aics.empty() || (a5 && lane_of_id != ln.core - 1))
                                need(v, -1);
                            else
                                need(v, kth(aics[0], set, k));
                        } else {
                            auto aivs = lanes_where(ln.cluster, false);
                            if (aivs.empty()) need(v, -1);
                            if (a5) {
                                int want = x.id >= 16 ? 1 : 0;
                                int found = -1;
                                for (int a : aivs)
                                    if (m.lanes[static_cast<size_t>(a)].core - 1 == want) found = a;
                                need(v, found < 0 ? -1 : kth(found, set, k));
                            } else {
                                for (int a : aivs) need(v, kth(a, set, k));  // a2a3: a set from every AIV lane
                            }
                        }
                        break;
                    }
                    case Kind::Depart: {
                        // Every participant's n-th arrival; a hard barrier below or above full occupancy never
                        // completes (above: the blocks run in waves, PyPTO's HardSyncallOccupancy).
                        if (x.hard && m.blocks != opt.chip_clusters * (m.standalone_aiv ? 2 : 1)) {
                            need(v, -1);
                            break;
                        }
                        Key arr{static_cast<int>(Kind::Arrive), 0, x.hard ? 1 : 0, x.group};
                        for (size_t p = 0; p < m.lanes.size(); ++p) {
                            bool is_aic = m.lanes[p].core == 0;
                            if ((x.group == "aiv" && is_aic) || (x.group == "aic" && !is_aic)) continue;
                            need(v, kth(static_cast<int>(p), arr, k));
                        }
                        break;
                    }
                    default:
                        break;
                }
            }
        }
    }

    // Greedy run: fires every instruction whose predecessors fired; `frozen` never fires. Returns firing order.
    std::vector<int> run(int frozen, std::vector<char>& fired) const {
        fired.assign(n, 0);
        std::vector<int> order;
        bool progress = true;
        while (progress) {
            progress = false;
            for (size_t v = 0; v < n; ++v) {
                if (fired[v] || never[v] || static_cast<int>(v) == frozen) continue;
                bool ok = true;
                for (int p : preds[v])
                    if (!fired[static_cast<size_t>(p)]) {
                        ok = false;
                        break;
                    }
                if (!ok) continue;
                fired[v] = 1;
                order.push_back(static_cast<int>(v));
                progress = true;
            }
        }
        return order;
    }
};

std::string box_str(const Access& a) {
    std::string s = "[";
    for (size_t d = 0; d < a.lo.size(); ++d) s += fmt::format("{}{}:{}", d ? ", " : "", a.lo[d], a.hi[d]);
    return s + "]";
}

bool overlap(const Access& a, const Access& b) {
    if (a.lo.size() != b.lo.size()) return true;
    for (size_t d = 0; d < a.lo.size(); ++d)
        if (a.hi[d] <= b.lo[d] || b.hi[d] <= a.lo[d]) return false;
    return true;
}

}  // namespace

Verdict analyze(const rt::LaunchPlan& plan, const rt::TensorStore& tensors, const Options& opt) {
    Verdict v;
    Model m = build_model(plan, tensors, opt);
    v.oob = m.oob;
    v.unsupported = m.unsupported;
    v.why = m.why;
    Graph g(m, opt);
    v.instructions = g.n;
    std::vector<char> fired;
    std::vector<int> order = g.run(-1, fired);
    for (size_t l = 0; l < m.lanes.size(); ++l) {
        const Lane& ln = m.lanes[l];
        for (size_t i = 0; i < ln.ins.size(); ++i)
            if (!fired[static_cast<size_t>(g.base[l]) + i]) {
                v.deadlock = true;
                std::string who =
                    m.blocks > 1 ? fmt::format("cluster {} {}", ln.cluster, core_label(ln.core)) : core_label(ln.core);
                v.blocked.push_back(fmt::format("{}: {} at line {} never runs", who, ln.ins[i].text, ln.ins[i].line));
                break;
            }
    }

    // Ancestors of every fired node (bitsets, in firing order).
    const size_t words = (g.n + 63) / 64;
    std::vector<uint64_t> anc(g.n * words, 0);
    auto bit = [&](size_t of, size_t x) { return (anc[of * words + x / 64] >> (x % 64)) & 1; };
    for (int x : order) {
        uint64_t* dst = &anc[static_cast<size_t>(x) * words];
        for (int p : g.preds[static_cast<size_t>(x)]) {
            const uint64_t* src = &anc[static_cast<size_t>(p) * words];
            for (size_t w = 0; w < words; ++w) dst[w] |= src[w];
            dst[static_cast<size_t>(p) / 64] |= uint64_t(1) << (static_cast<size_t>(p) % 64);
        }
    }
    // The node that publishes access `a` of node x to other cores: x itself, or under a visibility delay the
    // first fence of its core after a GM write (-1: never published).
    auto publisher = [&](int x, const Access& a) -> int {
        if (!a.write || a.slot || opt.visibility_delay == 0) return x;
        auto [l, i] = g.node[static_cast<size_t>(x)];
        const Lane& ln = m.lanes[static_cast<size_t>(l)];
        for (size_t j = static_cast<size_t>(i) + 1; j < ln.ins.size(); ++j)
            if (ln.ins[j].kind == Kind::Fence) {
                int f = g.base[static_cast<size_t>(l)] + static_cast<int>(j);
                return fired[static_cast<size_t>(f)] ? f : -1;
            }
        return -1;
    };
    auto ordered = [&](int x, const Access& a, int y) {
        int p = publisher(x, a);
        return p >= 0 && bit(static_cast<size_t>(y), static_cast<size_t>(p));
    };
    auto ordered_frozen = [&](int x, const Access& a, int y) {
        int p = publisher(x, a);
        if (p < 0) return false;
        std::vector<char> f2;
        g.run(p, f2);
        return !f2[static_cast<size_t>(y)];
    };

    // Every conflicting pair of different cores.
    struct Item {
        int node;
        const Access* a;
    };
    std::map<int, std::vector<Item>> by_res;
    for (int x : order)
        for (const auto& a : g.ins(x).acc) {
            by_res[a.res].push_back({x, &a});
            v.accesses.insert({m.resources[static_cast<size_t>(a.res)], g.ins(x).line, g.lane_of(x).core, a.write});
        }
    std::set<RaceKey> seen;
    bool checked = opt.cross_check;
    for (auto& [res, items] : by_res) {
        for (size_t i = 0; i < items.size(); ++i)
            for (size_t j = i + 1; j < items.size(); ++j) {
                const Item& p = items[i];
                const Item& q = items[j];
                if (g.node[static_cast<size_t>(p.node)].first == g.node[static_cast<size_t>(q.node)].first) continue;
                if (!p.a->write && !q.a->write) continue;
                if (p.a->atomic && q.a->atomic) continue;
                if (p.a->gather >= 0 && p.a->gather == q.a->gather) continue;
                if (!overlap(*p.a, *q.a)) continue;
                bool pq = ordered(p.node, *p.a, q.node), qp = ordered(q.node, *q.a, p.node);
                if (opt.cross_check) {
                    bool fpq = ordered_frozen(p.node, *p.a, q.node), fqp = ordered_frozen(q.node, *q.a, p.node);
                    if (fpq != pq || fqp != qp)
                        throw std::logic_error(
                            fmt::format("oracle cross-check: reachability and freezing disagree on lines {} / {}",
                                        g.ins(p.node).line, g.ins(q.node).line));
                }
                if (pq || qp) continue;
                const Ins& a = g.ins(p.node);
                const Ins& b = g.ins(q.node);
                bool a_first = a.line <= b.line;
                const Ins& f = a_first ? a : b;
                const Ins& s = a_first ? b : a;
                const Access& fa = a_first ? *p.a : *q.a;
                const Access& sa = a_first ? *q.a : *p.a;
                RaceKey key{m.resources[static_cast<size_t>(res)], f.line, s.line};
                if (!seen.insert(key).second) continue;
                Race r;
                r.key = key;
                r.kind = fa.write && sa.write ? "WAW" : fa.write ? "RAW" : "WAR";
                const Lane& fl = g.lane_of(a_first ? p.node : q.node);
                const Lane& sl = g.lane_of(a_first ? q.node : p.node);
                r.describe = fmt::format("{} {}{}: {}{} {} at line {} / {}{} {} at line {}", r.kind, key.tensor,
                                         box_str(fa), m.blocks > 1 ? fmt::format("cluster {} ", fl.cluster) : "",
                                         core_label(fl.core), fa.write ? "write" : "read", f.line,
                                         m.blocks > 1 ? fmt::format("cluster {} ", sl.cluster) : "",
                                         core_label(sl.core), sa.write ? "write" : "read", s.line);
                bool fw = fa.write;
                r.write_core = fw ? fl.core : sl.core;
                r.other_core = fw ? sl.core : fl.core;
                r.other_write = fw ? sa.write : fa.write;
                v.races.push_back(std::move(r));
            }
    }
    v.cross_checked = checked;
    return v;
}

std::string format_verdict(const Verdict& v) {
    std::string s = fmt::format("oracle: {} instructions, {}{} race(s)", v.instructions, v.deadlock ? "DEADLOCK, " : "",
                                v.races.size());
    if (v.unsupported) s += " [unsupported: " + v.why + "]";
    if (v.oob) s += " [out-of-bounds window dropped]";
    for (const auto& b : v.blocked) s += "\n  blocked " + b;
    for (const auto& r : v.races) s += "\n  race " + r.describe;
    return s;
}

}  // namespace cvsim::oracle
