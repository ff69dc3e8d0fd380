// Exploration: the in-process loop, the JSON-lines records, and the supervisor of worker processes.
//
// Supervisor algorithm. The seed range (base..base+N-1, or this shard's slice of it) minus the seeds already
// in the --jsonl file is cut into J contiguous chunks, one per worker. A worker is a fork of this process
// (no SystemC elaborated yet) that compiles the kernel, runs the nominal schedule (it primes the result memo
// and the E-NONDET baseline), then for each seed stores the seed in a slot of memory shared with the
// supervisor and, after the schedule, appends one JSON record to a batch it writes to a pipe (at 16 KiB,
// every 50 ms, at once for a finding). The supervisor polls the pipes, folds records into the summary and
// the JSONL file, draws the progress bar, and reaps workers: a worker that exits without finishing its
// chunk crashed in the schedule its slot names; that seed is recorded as E-CRASH and a fresh worker takes
// over the rest of the chunk, redoing the schedules the dead one finished but had not sent (deterministic). Schedules are bounded by the simulated- and wall-time limits inside the worker; a worker silent
// for longer than twice the wall bound is killed and treated the same way.
#include "sim/explore.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <set>
#include <tuple>
#include <thread>

#include "frontend/diag.h"

namespace cvsim::cli {

using sim::Finding;
using sim::Schedule;

// ---------------------------------------------------------------- records and summaries

nlohmann::json record_json(const ScheduleRecord& r, const std::string& kernel) {
    nlohmann::json j;
    j["kernel"] = kernel;
    j["seed"] = r.schedule.seed;
    j["strategy"] = r.schedule.str();
    j["verdict"] = r.verdict;
    j["cycles"] = r.cycles;
    if (r.events) j["events"] = r.events;
    if (r.cores) j["cores"] = r.cores;
    j["codes"] = r.codes;
    j["keys"] = r.keys;
    nlohmann::json full = nlohmann::json::array();
    for (const auto& f : r.full) {
        nlohmann::json fj = sim::finding_json(f);
        fj["key"] = f.key;
        full.push_back(fj);
    }
    j["findings"] = full;
    return j;
}

ScheduleRecord record_from_json(const nlohmann::json& j) {
    ScheduleRecord r;
    auto sc = sim::parse_schedule(j.value("strategy", std::string("random")));
    r.schedule = sc ? *sc : Schedule{};
    r.schedule.seed = j.value("seed", uint64_t{0});
    r.verdict = j.value("verdict", std::string("clean"));
    r.cycles = j.value("cycles", uint64_t{0});
    r.events = j.value("events", uint64_t{0});
    r.cores = j.value("cores", 0);
    r.codes = j.value("codes", std::vector<std::string>{});
    r.keys = j.value("keys", std::vector<std::string>{});
    for (const auto& fj : j.value("findings", nlohmann::json::array())) {
        Finding f;
        f.code = fj.value("code", std::string());
        f.message = fj.value("message", std::string());
        f.details = fj.value("details", std::vector<std::string>{});
        f.cycle = fj.value("cycle", uint64_t{0});
        f.key = fj.value("key", std::string());
        r.full.push_back(f);
    }
    return r;
}

void SummaryBuilder::add(const ScheduleRecord& r) {
    ExploreSummary& s = m_sum;
    ++s.schedules;
    bool nominal = r.schedule.strategy == sim::Strategy::Nominal;
    if (nominal) {
        s.nominal_cycles = r.cycles;
        s.nominal_events = r.events;
        s.nominal_cores = r.cores;
    }
    if (r.verdict == "crash") {
        ++s.crashes;
    } else {
        if (!m_any) s.min_cycles = s.max_cycles = r.cycles;
        m_any = true;
        s.min_cycles = std::min(s.min_cycles, r.cycles);
        s.max_cycles = std::max(s.max_cycles, r.cycles);
    }
    if (r.codes.empty()) return;
    ++s.failing;
    bool wrong = false, race = false;
    for (const auto& c : r.codes) {
        wrong |= c == "E-MISMATCH" || c == "E-UNWRITTEN";
        race |= c.rfind("E-RACE-", 0) == 0;
    }
    s.wrong_outputs += wrong;
    s.hazards += race;
    // The full finding comes from the smallest seed that shows it (the nominal schedule before all).
    uint64_t order = nominal ? 0 : r.schedule.seed + 1;
    for (size_t i = 0; i < r.keys.size(); ++i) {
        Key& k = m_keys[r.keys[i]];
        ++k.count;
        const Finding* full = nullptr;
        for (const auto& f : r.full)
            if (f.key == r.keys[i]) full = &f;
        if (order < k.first_seed || (order == k.first_seed && full && !k.have_full)) {
            if (order < k.first_seed) k.have_full = false;
            k.first_seed = order;
            k.first = r.schedule;
            k.nominal = nominal;
            if (full) {
                k.finding = *full;
                k.have_full = true;
            } else if (!k.have_full) {
                k.finding.code = i < r.codes.size() ? r.codes[i] : "?";
                k.finding.key = r.keys[i];
                k.finding.message = k.finding.code;
            }
        } else if (full && !k.have_full) {
            k.finding = *full;  // a later seed's text until the first seed's arrives
            k.have_full = true;
        }
    }
}

ExploreSummary SummaryBuilder::finish(const CommonOptions& c, const std::string& kernel) {
    ExploreSummary s = m_sum;
    // By first seed; within a schedule, causes before symptoms (a race before the wrong output it causes).
    auto rank = [](const std::string& code) {
        if (code.rfind("E-RACE-", 0) == 0) return 0;
        if (code == "E-OCCUPANCY" || code == "E-DEADLOCK") return 1;
        if (code == "E-MISMATCH" || code == "E-UNWRITTEN" || code == "E-NONDET") return 4;
        if (code.rfind("W-", 0) == 0) return 3;
        return 2;
    };
    std::vector<std::tuple<uint64_t, int, std::string>> order;
    for (auto& [key, k] : m_keys) order.push_back({k.first_seed, rank(k.finding.code), key});
    std::sort(order.begin(), order.end());
    for (auto& [seed, r, key] : order) {
        const Key& k = m_keys[key];
        DistinctFinding d;
        d.finding = k.finding;
        d.first = k.first;
        d.count = k.count;
        d.replay = replay_command(c, kernel, k.first);
        s.distinct.push_back(std::move(d));
    }
    return s;
}

namespace {

ScheduleRecord to_record(const sim::ScheduleResult& r, std::set<std::string>* reported) {
    ScheduleRecord rec;
    rec.schedule = r.schedule;
    rec.cycles = r.cycles();
    if (r.schedule.strategy == sim::Strategy::Nominal) {
        rec.events = r.outcome.sync_events;
        for (const auto& c : r.outcome.cores) rec.cores += c.launched ? 1 : 0;
    }
    rec.verdict = r.findings.empty() ? "clean" : "findings";
    for (const auto& f : r.findings) {
        std::string key = f.key.empty() ? f.code + ":" + f.message : f.key;
        rec.codes.push_back(f.code);
        rec.keys.push_back(key);
        if (!reported || reported->insert(key).second) {
            Finding copy = f;
            copy.key = key;
            rec.full.push_back(copy);
        }
    }
    return rec;
}

sim::Schedule schedule_for(const Schedule& base, const ExploreOptions& e, uint64_t seed) {
    Schedule s = base;
    s.seed = seed;
    if (e.max_visibility > 0) s.max_visibility = e.max_visibility;
    return s;
}

}  // namespace

ExploreSummary explore_kernel(sim::Session& session, const CommonOptions& c, const std::string& kernel,
                              const ExploreOptions& e, const Schedule& base,
                              const std::function<void(uint64_t)>& progress) {
    auto t0 = std::chrono::steady_clock::now();
    SummaryBuilder b;
    bool found = false;
    auto nom = session.run(Schedule{});
    b.add(to_record(nom, nullptr));
    found = !nom.findings.empty();
    for (uint64_t i = 0; i < e.schedules; ++i) {
        if (e.stop_on_first && found) break;
        auto r = session.run(schedule_for(base, e, e.seed + i));
        found |= !r.findings.empty();
        b.add(to_record(r, nullptr));
        if (progress) progress(i + 1);
    }
    ExploreSummary s = b.finish(c, kernel);
    s.jobs = 0;
    s.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    s.peak_rss_kb = peak_rss_kb_self();
    return s;
}

long peak_rss_kb_self() {
    struct rusage ru {};
    return ::getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_maxrss : 0;
}

long peak_rss_kb_children() {
    struct rusage ru {};
    return ::getrusage(RUSAGE_CHILDREN, &ru) == 0 ? ru.ru_maxrss : 0;
}

// Calls fn(record json, its strategy) for every line of a --jsonl file that belongs to KERNEL and is the
// nominal schedule or STRATEGY; other kernels', other strategies' and unreadable lines are skipped.
template <class Fn>
void for_each_jsonl_record(std::istream& in, const std::string& kernel, const std::string& strategy, Fn fn) {
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty()) continue;
        nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
        if (j.is_discarded() || j.value("kernel", std::string()) != kernel) continue;
        std::string st = j.value("strategy", std::string());
        if (st != "nominal" && st != strategy) continue;
        fn(j, st);
    }
}

ExploreSummary merge_jsonl(const CommonOptions& c, const std::string& kernel, const Schedule& base,
                           const std::vector<std::string>& files) {
    SummaryBuilder b;
    std::set<std::pair<std::string, uint64_t>> seen;
    for (const auto& path : files) {
        std::ifstream in(path);
        if (!in) throw std::runtime_error("cannot read '" + path + "'");
        for_each_jsonl_record(in, kernel, base.str(), [&](const nlohmann::json& j, const std::string& st) {
            if (seen.insert({st, j.value("seed", uint64_t{0})}).second) b.add(record_from_json(j));
        });
    }
    ExploreSummary s = b.finish(c, kernel);
    s.jobs = 0;
    return s;
}

// ---------------------------------------------------------------- workers

namespace {

struct Chunk {
    std::vector<uint64_t> seeds;  // in increasing order
    size_t next = 0;              // index of the first seed not yet finished
};

struct Worker {
    pid_t pid = -1;
    int fd = -1;                  // read end of its pipe
    int chunk = -1;
    std::string buf;              // partial line
    bool nominal = false;         // reports the nominal schedule first
    bool hung = false;            // killed for being silent too long
    std::chrono::steady_clock::time_point last_heard;
};

void write_all(int fd, const std::string& s) {
    size_t off = 0;
    while (off < s.size()) {
        ssize_t n = ::write(fd, s.data() + off, s.size() - off);
        if (n <= 0) _exit(3);
        off += static_cast<size_t>(n);
    }
}

// The seed each worker is running, in memory shared with the supervisor (one slot per chunk; 0: none,
// else seed + 1), so that a crash is attributed to its schedule without a pipe write per schedule.
using RunningSlot = std::atomic<uint64_t>;
static_assert(RunningSlot::is_always_lock_free, "the running-seed slots are shared between processes");

[[noreturn]] void worker_main(int fd, const CommonOptions& c, const std::string& kernel, const ExploreOptions& e,
                              const Schedule& base, const uint64_t* seeds, size_t nseeds, bool report_nominal,
                              RunningSlot* running) {
    try {
        sim::SessionOptions so = session_options(c);
        sim::Session session(SourceFile::read(kernel), so);
        std::set<std::string> reported;
        // Records go to the supervisor in batches (a pipe write per schedule costs more than a schedule's
        // checking): at 16 KiB, every 50 ms, at once for a schedule with findings, and at the end.
        std::string out;
        auto last_flush = std::chrono::steady_clock::now();
        auto flush = [&] {
            write_all(fd, out);
            out.clear();
            last_flush = std::chrono::steady_clock::now();
        };
        auto nom = session.run(Schedule{});
        if (report_nominal) {
            out += "R " + record_json(to_record(nom, &reported), kernel).dump() + "\n";
            flush();
        }
        for (size_t i = 0; i < nseeds; ++i) {
            const uint64_t seed = seeds[i];
            running->store(seed + 1, std::memory_order_release);
            int fault = static_cast<int64_t>(seed) == e.fault_abort_seed ? 5 : -1;
            auto r = session.run(schedule_for(base, e, seed), {}, fault);
            ScheduleRecord rec = to_record(r, &reported);
            out += "R " + record_json(rec, kernel).dump() + "\n";
            if (!rec.codes.empty() || out.size() >= 16384 || std::chrono::steady_clock::now() - last_flush > std::chrono::milliseconds(50))
                flush();
        }
        running->store(0, std::memory_order_release);
        out += "D\n";
        flush();
        ::close(fd);
        _exit(0);
    } catch (const std::exception& ex) {
        write_all(fd, fmt::format("E {}\n", ex.what()));
        _exit(3);
    }
}

class Supervisor {
public:
    Supervisor(const CommonOptions& c, const std::string& kernel, const ExploreOptions& e, const Schedule& base)
        : m_c(c), m_kernel(kernel), m_e(e), m_base(base) {}
    ~Supervisor() {
        if (m_running) ::munmap(m_running, sizeof(RunningSlot) * m_running_count);
    }
    Supervisor(const Supervisor&) = delete;
    Supervisor& operator=(const Supervisor&) = delete;

    ExploreSummary run() {
        auto t0 = std::chrono::steady_clock::now();
        // Bad input fails here, once, with a diagnostic (not in every worker).
        { sim::Session probe(SourceFile::read(m_kernel), session_options(m_c)); }
        std::set<uint64_t> done = resume();
        // This shard's slice of the seed range, minus what the file already holds.
        uint64_t n = m_e.schedules;
        uint64_t lo = n * static_cast<uint64_t>(m_e.shard_index) / static_cast<uint64_t>(m_e.shard_count);
        uint64_t hi = n * static_cast<uint64_t>(m_e.shard_index + 1) / static_cast<uint64_t>(m_e.shard_count);
        std::vector<uint64_t> seeds;
        for (uint64_t i = lo; i < hi; ++i)
            if (!done.count(m_e.seed + i)) seeds.push_back(m_e.seed + i);
            else ++m_skipped;
        bool nominal_needed = m_e.shard_index == 0 && !m_nominal_in_file;
        int jobs = m_e.jobs > 0 ? m_e.jobs : std::max(1u, std::thread::hardware_concurrency());
        jobs = static_cast<int>(std::max<size_t>(1, std::min<size_t>(static_cast<size_t>(jobs), std::max<size_t>(seeds.size(), 1))));
        m_total = seeds.size() + (nominal_needed ? 1 : 0);
        for (int w = 0; w < jobs; ++w) {
            Chunk ch;
            size_t a = seeds.size() * static_cast<size_t>(w) / static_cast<size_t>(jobs);
            size_t b = seeds.size() * static_cast<size_t>(w + 1) / static_cast<size_t>(jobs);
            ch.seeds.assign(seeds.begin() + static_cast<std::ptrdiff_t>(a), seeds.begin() + static_cast<std::ptrdiff_t>(b));
            m_chunks.push_back(ch);
        }
        std::vector<uint64_t>().swap(seeds);  // the chunks hold them now
        void* shared = ::mmap(nullptr, sizeof(RunningSlot) * static_cast<size_t>(jobs), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        if (shared == MAP_FAILED) throw std::runtime_error("mmap failed");
        m_running = new (shared) RunningSlot[static_cast<size_t>(jobs)]();
        m_running_count = static_cast<size_t>(jobs);
        if (!m_e.jsonl.empty()) {
            m_jsonl.open(m_e.jsonl, std::ios::app);
            if (!m_jsonl) throw std::runtime_error("cannot write '" + m_e.jsonl + "'");
        }
        for (int w = 0; w < jobs; ++w) spawn(w, w == 0 && nominal_needed);
        loop();
        if (m_bar) std::cerr << "\r\033[K";
        ExploreSummary s = m_builder.finish(m_c, m_kernel);
        s.jobs = jobs;
        s.skipped = m_skipped;
        s.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        s.peak_rss_kb = peak_rss_kb_self();
        s.workers_peak_rss_kb = peak_rss_kb_children();
        return s;
    }

private:
    const CommonOptions& m_c;
    std::string m_kernel;
    const ExploreOptions& m_e;
    Schedule m_base;
    std::vector<Chunk> m_chunks;
    std::vector<Worker> m_workers;
    RunningSlot* m_running = nullptr;  // shared with the workers: the seed each chunk's worker runs
    size_t m_running_count = 0;
    SummaryBuilder m_builder;
    std::ofstream m_jsonl;
    uint64_t m_total = 0, m_finished = 0, m_skipped = 0;
    bool m_nominal_in_file = false;
    bool m_stop = false;
    bool m_bar = false;
    std::chrono::steady_clock::time_point m_last_bar;

    std::set<uint64_t> resume() {
        std::set<uint64_t> done;
        if (m_e.jsonl.empty()) return done;
        std::ifstream in(m_e.jsonl);
        for_each_jsonl_record(in, m_kernel, m_base.str(), [&](const nlohmann::json& j, const std::string& st) {
            if (st == "nominal") m_nominal_in_file = true;
            else done.insert(j.value("seed", uint64_t{0}));
            m_builder.add(record_from_json(j));
        });
        return done;
    }

    void spawn(int chunk, bool nominal) {
        Chunk& ch = m_chunks[static_cast<size_t>(chunk)];
        if (ch.next >= ch.seeds.size() && !nominal) return;
        m_running[chunk].store(0);
        int fds[2];
        if (::pipe(fds) != 0) throw std::runtime_error("pipe failed");
        std::cout.flush();
        std::cerr.flush();
        pid_t pid = ::fork();
        if (pid < 0) throw std::runtime_error("fork failed");
        if (pid == 0) {
            ::close(fds[0]);
            // The rest of the chunk, in place (no copy: the seed list is the one structure that grows with N).
            worker_main(fds[1], m_c, m_kernel, m_e, m_base, ch.seeds.data() + ch.next, ch.seeds.size() - ch.next, nominal,
                        &m_running[chunk]);
        }
        ::close(fds[1]);
        Worker w;
        w.pid = pid;
        w.fd = fds[0];
        w.chunk = chunk;
        w.nominal = nominal;
        w.last_heard = std::chrono::steady_clock::now();
        m_workers.push_back(w);
    }

    void record(const ScheduleRecord& r) {
        m_builder.add(r);
        if (m_jsonl.is_open()) m_jsonl << record_json(r, m_kernel).dump() << "\n";
        ++m_finished;
        if (m_e.stop_on_first && !r.codes.empty()) m_stop = true;
    }

    void on_line(Worker& w, const std::string& line) {
        w.last_heard = std::chrono::steady_clock::now();
        if (line.rfind("R ", 0) == 0) {
            ScheduleRecord r = record_from_json(nlohmann::json::parse(line.substr(2)));
            if (r.schedule.strategy != sim::Strategy::Nominal) {
                Chunk& ch = m_chunks[static_cast<size_t>(w.chunk)];
                ++ch.next;
            }
            record(r);
        } else if (line.rfind("E ", 0) == 0) {
            throw std::runtime_error("worker: " + line.substr(2));
        }
    }

    void crashed(Worker& w, const std::string& why) {
        if (m_stop) return;  // killed on purpose (--stop-on-first)
        Chunk& ch = m_chunks[static_cast<size_t>(w.chunk)];
        uint64_t slot = m_running[w.chunk].load(std::memory_order_acquire);
        if (slot != 0) {
            const uint64_t seed = slot - 1;
            ScheduleRecord r;
            r.schedule = schedule_for(m_base, m_e, seed);
            r.verdict = "crash";
            Finding f;
            f.code = "E-CRASH";
            f.message = fmt::format("the simulator's worker died in this schedule ({}); the rest of the exploration went on", why);
            f.key = "E-CRASH";
            r.codes = {f.code};
            r.keys = {f.key};
            r.full = {f};
            record(r);
            // The fresh worker redoes the schedules the dead one finished but had not sent yet (they are
            // deterministic), and skips the one that crashed.
            auto it = std::find(ch.seeds.begin() + static_cast<std::ptrdiff_t>(ch.next), ch.seeds.end(), seed);
            if (it != ch.seeds.end()) ch.seeds.erase(it);
        }
        spawn(w.chunk, false);
    }

    void draw_bar() {
        if (!m_e.progress || !::isatty(2)) return;
        auto now = std::chrono::steady_clock::now();
        if (m_bar && now - m_last_bar < std::chrono::milliseconds(200)) return;
        m_bar = true;
        m_last_bar = now;
        static auto start = now;
        double secs = std::chrono::duration<double>(now - start).count();
        int width = 30;
        int fill = m_total ? static_cast<int>(width * m_finished / m_total) : width;
        std::cerr << fmt::format("\r[{}{}] {}/{} schedules  {:.0f}/s  ", std::string(static_cast<size_t>(fill), '='),
                                 std::string(static_cast<size_t>(width - fill), ' '), m_finished, m_total,
                                 secs > 0 ? static_cast<double>(m_finished) / secs : 0.0);
    }

    void loop() {
        const double silent_limit = std::max(10.0, 2 * m_c.timeout);
        while (!m_workers.empty()) {
            std::vector<pollfd> fds;
            for (auto& w : m_workers) fds.push_back({w.fd, POLLIN, 0});
            ::poll(fds.data(), fds.size(), 200);
            for (size_t i = 0; i < m_workers.size(); ++i) {
                Worker& w = m_workers[i];
                if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
                char buf[65536];
                ssize_t n = ::read(w.fd, buf, sizeof buf);
                if (n > 0) {
                    w.buf.append(buf, static_cast<size_t>(n));
                    size_t nl;
                    while ((nl = w.buf.find('\n')) != std::string::npos) {
                        std::string line = w.buf.substr(0, nl);
                        w.buf.erase(0, nl + 1);
                        on_line(w, line);
                    }
                    continue;
                }
                // End of the pipe: the worker finished or died.
                ::close(w.fd);
                int status = 0;
                ::waitpid(w.pid, &status, 0);
                Worker dead = w;
                m_workers.erase(m_workers.begin() + static_cast<std::ptrdiff_t>(i));
                bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
                if (!ok) {
                    std::string why = dead.hung ? fmt::format("no progress for {:.0f} s", silent_limit)
                                      : WIFSIGNALED(status) ? fmt::format("signal {}", WTERMSIG(status))
                                                            : fmt::format("exit {}", WEXITSTATUS(status));
                    crashed(dead, why);
                }
                break;  // the fd list changed
            }
            // A worker silent for too long is hung inside a schedule: kill it, it is reported as crashed.
            auto now = std::chrono::steady_clock::now();
            for (auto& w : m_workers)
                if (!w.hung && std::chrono::duration<double>(now - w.last_heard).count() > silent_limit) {
                    w.hung = true;
                    ::kill(w.pid, SIGKILL);
                }
            if (m_stop)
                for (auto& w : m_workers) ::kill(w.pid, SIGKILL);
            draw_bar();
        }
    }
};

}  // namespace

ExploreSummary explore_parallel(const CommonOptions& c, const std::string& kernel, const ExploreOptions& e, const Schedule& base) {
    return Supervisor(c, kernel, e, base).run();
}

}  // namespace cvsim::cli
