// The reference interpreter's Lane: cross-core rings (push, pop, free), AIV lane splits and barriers.
#include "frontend/reference_internal.h"

namespace cvsim::ref::detail {

// Split code of an aiv_shard / aic_gather: an explicit split= (in a region only the odd variant of its
// mode passes sema), else the enclosing region's mode.
int Lane::shard_split(const Expr& c) {
    if (arg(c, "split")) return static_cast<int>(scalar(arg(c, "split")).as_int());
    return m_region_lane >= 0 ? static_cast<int>(m_region_mode) : 0;
}

TileData Lane::part(const TileData& full, int split, int lane) {
    if (split == 0) return full;
    bool rows = split_rows(split);
    int64_t n = rows ? full.m.rows() : full.m.cols();
    int64_t e0 = half_extent(n, split, 0);
    int64_t e = half_extent(n, split, lane);
    int64_t off = lane == 0 ? 0 : e0;
    TileData d{full.dtype, rows ? Matrix(full.m.middleRows(off, e)) : Matrix(full.m.middleCols(off, e))};
    return d;
}

Ring& Lane::ring(int dir, const Expr& c) {
    int64_t id = arg(c, "id") ? scalar(arg(c, "id")).as_int() : 0;
    auto key = std::make_tuple(m_block, dir, id);
    auto it = m_m.rings.find(key);
    if (it == m_m.rings.end()) {
        Ring r;
        r.c2v = dir == 0;
        r.prod_idx.assign(dir == 0 ? 1 : m_m.aiv_lanes, 0);
        r.cons_idx.assign(dir == 0 ? m_m.aiv_lanes : 1, 0);
        it = m_m.rings.emplace(key, std::move(r)).first;
    }
    return it->second;
}

void Lane::push(const Expr& c, int dir) {
    TileP src = tile(arg(c, "tile"));
    int split = static_cast<int>(scalar(arg(c, "split")).as_int());
    Ring& r = ring(dir, c);
    int lane = dir == 0 ? 0 : m_lane;
    size_t idx = r.prod_idx[lane] - r.base;
    while (r.entries.size() <= idx) {
        RingEntry e;
        e.parts.assign(r.prod_idx.size(), nullptr);
        e.pushed.assign(r.prod_idx.size(), false);
        e.popped.assign(r.cons_idx.size(), false);
        r.entries.push_back(std::move(e));
    }
    RingEntry& e = r.entries[idx];
    TileData d = src->d;
    // Only the valid region travels.
    d.m = Matrix(d.m.topLeftCorner(src->vr, src->vc));
    e.parts[lane] = make_tile(std::move(d), Mem::Vec);
    e.pushed[lane] = true;
    e.split = split;
    ++r.prod_idx[lane];
    m_m.coop.progress();
}

Value Lane::pop(const Expr& c, int dir, const Type& type) {
    Ring& r = ring(dir, c);
    int lane = dir == 0 ? m_lane : 0;
    auto ready = [&] {
        size_t idx = r.cons_idx[lane] - r.base;
        if (idx >= r.entries.size()) return false;
        for (bool p : r.entries[idx].pushed)
            if (!p) return false;
        return true;
    };
    m_m.coop.wait_until(m_task, ready);
    RingEntry& e = r.entries[r.cons_idx[lane] - r.base];
    TileData d;
    if (dir == 0) {
        d = part(e.parts[0]->d, e.split, m_lane);
    } else if (e.split == 0) {
        d = e.parts.back()->d;  // both lanes wrote the same slot: the last one landed
    } else {
        bool rows = split_rows(e.split);
        const Matrix& a = e.parts[0]->d.m;
        const Matrix& b = e.parts.size() > 1 ? e.parts[1]->d.m : Matrix();
        Matrix m(rows ? a.rows() + b.rows() : a.rows(), rows ? a.cols() : a.cols() + b.cols());
        if (rows) {
            m.topRows(a.rows()) = a;
            if (b.size()) m.bottomRows(b.rows()) = b;
        } else {
            m.leftCols(a.cols()) = a;
            if (b.size()) m.rightCols(b.cols()) = b;
        }
        d = TileData{e.parts[0]->d.dtype, m};
    }
    e.popped[lane] = true;
    ++r.cons_idx[lane];
    while (!r.entries.empty()) {
        bool all = true;
        for (bool p : r.entries.front().popped) all &= p;
        if (!all) break;
        r.entries.pop_front();
        ++r.base;
    }
    m_m.coop.progress();
    // The popped tile has the annotated shape; data outside what was pushed is zero.
    int64_t R = type.rows(), C = type.cols();
    TileData out{type.dtype, Matrix::Zero(R, C)};
    int64_t rr = std::min<int64_t>(R, d.m.rows()), cc = std::min<int64_t>(C, d.m.cols());
    for (int64_t i = 0; i < rr; ++i)
        for (int64_t j = 0; j < cc; ++j) out.m(i, j) = round_to(type.dtype, d.m(i, j));
    TileP t = make_tile(std::move(out), type.mem);
    annotated_region(c, *t);
    t->popped = true;
    m_popped.push_back(t.get());
    return Value{t};
}

// A tpop's annotated run-time valid region (Expr::args2), clamped to the tile, as the simulator's.
void Lane::annotated_region(const Expr& c, RTile& t) {
    if (c.args2.empty()) return;
    std::vector<int64_t> vv;
    for (const auto& a : c.args2) vv.push_back(scalar(a).as_int());
    std::tie(t.vr, t.vc) = rt::clamped_region(vv, t.d.m.rows(), t.d.m.cols());
}

void Lane::tfree(const Expr& c) {
    TileP t = tile(arg(c, "tile"));
    // A tfree of a view frees the popped tile's slot (docs/DECISIONS.md, "a5 slot memory").
    if (t && !t->popped && t->popped_src) t = t->popped_src;
    for (auto it = m_popped.begin(); it != m_popped.end(); ++it)
        if (*it == t.get()) {
            m_popped.erase(it);
            return;
        }
    fail(codes::kPipeFree, c.loc,
         fmt::format("tfree of '{}', a tile that was not popped (or was freed already)", arg(c, "tile")->var->name));
}

void Lane::barrier(const std::string& group, const SourceLoc& loc) {
    (void)loc;
    auto& [gen, arrived] = m_m.barrier[group];
    int64_t my_gen = gen;
    ++arrived;
    m_m.coop.progress();
    if (arrived == m_m.barrier_size[group]) {
        arrived = 0;
        ++gen;
        m_m.coop.progress();
        return;
    }
    m_m.coop.wait_until(m_task, [&] { return m_m.barrier[group].first != my_gen; });
}

}  // namespace cvsim::ref::detail
