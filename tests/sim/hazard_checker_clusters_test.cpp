// The happens-before checker across clusters, on hand-built event streams (no SystemC): stored clocks are
// compressed (a cluster's own chunk inline, the other clusters' components in shared snapshots), and the
// orderings are those of full vector clocks.
#include <gtest/gtest.h>

#include "sim/check/hazard_checker.h"

// Instructions are written with designated initializers naming only what they set.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

using namespace cvsim;
using namespace cvsim::sim;

namespace {

using ir::Pipe;

class Clusters {
  public:
    explicit Clusters(int clusters)
        : m_n(clusters), m_seq(clusters * 3), m_pipe_seq(clusters * 3), m_last(clusters * 3, -1) {
        rt::TensorBuffer t;
        t.name = "scratch";
        t.dtype = DType::FP16;
        t.shape = {256, 128};
        m_store.add(t);
        m_checker = std::make_unique<HazardChecker>(clusters, &m_store, 0);
    }
    HazardChecker& checker() { return *m_checker; }
    struct Instr {
        int cluster = 0;
        CoreId core = CoreId::Aiv0;
        Pipe pipe = Pipe::Vector;
        std::vector<GmAccess> gm;
        std::vector<uint32_t> deps;
        std::vector<uint64_t> acq, rel;
        bool after_scalar = true;  // ordered after the core's last scalar instruction
    };
    uint32_t instr(const Instr& in) {
        const int c = in.cluster * 3 + static_cast<int>(in.core);
        Event e;
        e.cluster = in.cluster;
        e.core = in.core;
        e.pipe = in.pipe;
        e.seq = m_seq[static_cast<size_t>(c)]++;
        e.pipe_seq = m_pipe_seq[static_cast<size_t>(c)][static_cast<int>(in.pipe)]++;
        e.scalar_before = in.pipe == Pipe::Scalar || !in.after_scalar ? -1 : m_last[static_cast<size_t>(c)];
        e.deps = in.deps;
        if (in.pipe == Pipe::Scalar) {
            if (m_last[static_cast<size_t>(c)] >= 0)
                e.deps.push_back(static_cast<uint32_t>(m_last[static_cast<size_t>(c)]));
            m_last[static_cast<size_t>(c)] = e.seq;
        }
        e.acquires = in.acq;
        e.releases = in.rel;
        e.gm = in.gm;
        e.loc.line = static_cast<uint32_t>(++m_line);
        e.start = e.end = m_cycle++;
        m_checker->on_event(e);
        return e.seq;
    }
    static GmAccess acc(bool write, int64_t r0 = 0, int64_t rows = 16) {
        GmAccess a;
        a.tensor = 0;
        a.window.tensor = 0;
        a.window.offsets = {r0, 0};
        a.window.extents = {rows, 128};
        a.write = write;
        return a;
    }
    std::vector<std::string> codes() {
        std::vector<std::string> out;
        for (auto& f : m_checker->findings()) out.push_back(f.code);
        return out;
    }

  private:
    int m_n;
    rt::TensorStore m_store;
    std::unique_ptr<HazardChecker> m_checker;
    std::vector<uint32_t> m_seq;
    std::vector<std::array<uint32_t, 7>> m_pipe_seq;
    std::vector<int64_t> m_last;
    uint64_t m_cycle = 0;
    uint32_t m_line = 0;
};

TEST(HazardCheckerClusters, AnOrderingPassedOnThroughAThirdClusterCoversTheWrite) {
    // Cluster 0 writes and releases on the write's pipe; cluster 1 acquires and releases after it; cluster 2
    // acquires that and reads: ordered through cluster 1's clock (its snapshot of cluster 0).
    for (bool chained : {true, false}) {
        Clusters s(3);
        s.instr({.cluster = 0, .pipe = Pipe::Mte3, .gm = {Clusters::acc(true)}});
        s.instr({.cluster = 0, .pipe = Pipe::Mte3, .rel = {1}});
        s.instr({.cluster = 1, .pipe = Pipe::Scalar, .acq = {1}});
        s.instr({.cluster = 1, .pipe = Pipe::Vector, .rel = {2}, .after_scalar = chained});
        s.instr({.cluster = 2, .pipe = Pipe::Scalar, .acq = {2}});
        s.instr({.cluster = 2, .pipe = Pipe::Mte2, .gm = {Clusters::acc(false)}});
        if (chained)
            EXPECT_TRUE(s.codes().empty()) << s.codes().front();
        else
            EXPECT_EQ(s.codes(), std::vector<std::string>{"E-RACE-RAW"});
    }
}

TEST(HazardCheckerClusters, ASharedSnapshotCarriesNoComponentOfItsOwnCluster) {
    // Cluster 1 AIV0: a store on MTE3, then MTE3's next instruction (after the store) acquires cluster 0's token;
    // VECTOR, unordered with the store, acquires the same token and releases one of its own. Both have the same
    // remote part (one snapshot), but only the MTE3 one is after the store: cluster 2, ordered after VECTOR's
    // release only, races with the store.
    Clusters s(3);
    s.instr({.cluster = 0, .pipe = Pipe::Vector, .rel = {1}});
    s.instr({.cluster = 1, .pipe = Pipe::Mte3, .gm = {Clusters::acc(true)}, .after_scalar = false});
    s.instr({.cluster = 1, .pipe = Pipe::Mte3, .acq = {1}, .after_scalar = false});
    s.instr({.cluster = 1, .pipe = Pipe::Vector, .acq = {1}, .rel = {2}, .after_scalar = false});
    s.instr({.cluster = 2, .pipe = Pipe::Scalar, .acq = {2}});
    s.instr({.cluster = 2, .pipe = Pipe::Mte2, .gm = {Clusters::acc(false)}});
    EXPECT_EQ(s.codes(), std::vector<std::string>{"E-RACE-RAW"});
}

TEST(HazardCheckerClusters, ABarrierOverEveryClusterOrdersEveryWriteBeforeEveryLaterRead) {
    // Every cluster writes its band, then arrives (releases) on the write's pipe and waits for every arrival;
    // after it, each cluster reads the next cluster's band: no race. Without the waits, every read races.
    const int n = 24;
    for (bool barrier : {true, false}) {
        Clusters s(n);
        for (int b = 0; b < n; ++b) {
            s.instr({.cluster = b, .pipe = Pipe::Mte3, .gm = {Clusters::acc(true, b, 1)}});
            s.instr({.cluster = b, .pipe = Pipe::Mte3, .rel = {static_cast<uint64_t>(b + 1)}});
        }
        std::vector<uint64_t> all;
        for (int b = 0; b < n; ++b) all.push_back(static_cast<uint64_t>(b + 1));
        for (int b = 0; b < n; ++b) {
            if (barrier) s.instr({.cluster = b, .pipe = Pipe::Scalar, .acq = all});
            s.instr({.cluster = b, .pipe = Pipe::Mte2, .gm = {Clusters::acc(false, (b + 1) % n, 1)}});
        }
        if (barrier) {
            EXPECT_TRUE(s.codes().empty());
            EXPECT_LE(s.checker().snapshots(), static_cast<uint32_t>(n));  // one per cluster's wait, shared after
        } else {
            EXPECT_FALSE(s.codes().empty());
        }
    }
}

TEST(HazardCheckerClusters, StoredClocksDoNotGrowWithTheClusterCount) {
    // 256 clusters, 64 store-release / acquire / load rounds each, synchronised within their cluster only: a full
    // vector clock per instruction was 256 * 24 components (24 KiB); the compressed one is the cluster's chunk.
    const int n = 256, per_core = 64;
    Clusters s(n);
    for (int b = 0; b < n; ++b)
        for (int i = 0; i < per_core; ++i) {
            uint64_t t = static_cast<uint64_t>(b) * per_core + static_cast<uint64_t>(i) + 1;
            std::vector<GmAccess> store;
            if (i == 0) store.push_back(Clusters::acc(true, b, 1));
            s.instr({.cluster = b, .core = CoreId::Aiv0, .pipe = Pipe::Mte3, .gm = store, .rel = {t}});
            s.instr({.cluster = b, .core = CoreId::Aic, .pipe = Pipe::Scalar, .acq = {t}});
            s.instr({.cluster = b, .core = CoreId::Aic, .pipe = Pipe::Mte2, .gm = {Clusters::acc(false, b, 1)}});
        }
    const size_t instructions = static_cast<size_t>(n) * per_core * 3;
    EXPECT_EQ(s.checker().snapshots(), 0u);
    // Per instruction: its chunk (96 B), snapshot id, epoch and flag, and the tokens' clocks, with vector slack.
    EXPECT_LT(s.checker().clock_bytes() / instructions, 512u) << s.checker().clock_bytes();
    EXPECT_TRUE(s.codes().empty());
}

}  // namespace
