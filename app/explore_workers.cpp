// Exploration in worker processes under a supervisor (the records and the in-process loop: explore.cpp; a
// worker process: explore_worker_process.cpp).
//
// Supervisor algorithm. The seed range (base..base+N-1, or this shard's slice of it) minus the seeds already
// in the --jsonl file is cut into J contiguous chunks, one per worker. A worker is a fork of this process
// (no SystemC elaborated yet) that compiles the kernel, runs the nominal schedule (it primes the result memo
// and the E-NONDET baseline), then for each seed stores the seed in a slot of memory shared with the
// supervisor and, after the schedule, appends one JSON record to a batch it writes to a pipe (at 16 KiB,
// every 50 ms, at once for a finding). The supervisor polls the pipes, folds records into the summary and
// the JSONL file, draws the progress bar, and reaps workers: a worker that exits without finishing its
// chunk crashed in the schedule its slot names; that seed is recorded as E-CRASH and a fresh worker takes
// over the rest of the chunk, redoing the schedules the dead one finished but had not sent (deterministic). Schedules
// are bounded by the simulated- and wall-time limits inside the worker; a worker silent for longer than twice the wall
// bound is killed and treated the same way.
#include "app/explore.h"
#include "app/explore_internal.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <exception>
#include <new>

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <thread>
#include <tuple>

#include "app/journal.h"
#include "frontend/codes.h"
#include "frontend/diag.h"

namespace cvsim::cli {

using sim::Finding;
using sim::Schedule;

// ---------------------------------------------------------------- workers

namespace {

// A worker's slice of the seed range: seeds next..hi-1 minus the skipped ones (memory flat in the range).
struct Chunk {
    uint64_t next = 0;  // the first seed not yet finished
    uint64_t hi = 0;    // one past the last seed
    int fruitless = 0;  // workers of this chunk that died outside a schedule, since its last record
};

struct Worker {
    pid_t pid = -1;
    int fd = -1;  // read end of its pipe
    int chunk = -1;
    std::string buf;       // partial line
    bool nominal = false;  // reports the nominal schedule first
    bool hung = false;     // killed for being silent too long
    std::chrono::steady_clock::time_point last_heard;
};

// Set by SIGINT/SIGTERM while the supervisor runs: it stops the workers and reports what it has.
volatile std::sig_atomic_t g_interrupted = 0;

void on_interrupt(int) {
    g_interrupted = 1;
}

// Installs the handlers (no SA_RESTART: poll returns at once) for the supervisor's loop, then restores them.
struct InterruptGuard {
    struct sigaction old_int {
    }, old_term{};
    InterruptGuard() {
        struct sigaction sa {};
        sa.sa_handler = on_interrupt;
        sigemptyset(&sa.sa_mask);
        ::sigaction(SIGINT, &sa, &old_int);
        ::sigaction(SIGTERM, &sa, &old_term);
    }
    ~InterruptGuard() {
        ::sigaction(SIGINT, &old_int, nullptr);
        ::sigaction(SIGTERM, &old_term, nullptr);
    }
    InterruptGuard(const InterruptGuard&) = delete;
    InterruptGuard& operator=(const InterruptGuard&) = delete;
};

class Supervisor {
  public:
    Supervisor(const CommonOptions& c, const std::string& kernel, const ExploreOptions& e, const Schedule& base)
        : m_c(c), m_kernel(kernel), m_e(e), m_base(base) {}
    ~Supervisor() {
        // Leaving early (an I/O error, a worker's error): no worker outlives its supervisor.
        for (auto& w : m_workers) {
            ::kill(w.pid, SIGKILL);
            ::close(w.fd);
            int st = 0;
            ::waitpid(w.pid, &st, 0);
        }
        if (m_running) ::munmap(m_running, sizeof(RunningSlot) * m_running_count);
    }
    Supervisor(const Supervisor&) = delete;
    Supervisor& operator=(const Supervisor&) = delete;

    ExploreSummary run() {
        auto t0 = std::chrono::steady_clock::now();
        m_t0 = m_last_bar = t0;
        // Bad input fails here, once, with a diagnostic (not in every worker).
        {
            sim::SessionOptions so = session_options(m_c);
            so.max_visibility_delay = m_e.max_visibility;
            sim::Session probe(SourceFile::read(m_kernel), so);
        }
        resume();
        // This shard's slice of the seed range (seeds lo..hi-1), minus what the file already holds. The
        // caller checked that the range does not wrap around 2^64.
        uint64_t n = m_e.schedules;
        uint64_t lo = m_e.seed + slice(n, m_e.shard_index, m_e.shard_count);
        uint64_t hi = m_e.seed + slice(n, m_e.shard_index + 1, m_e.shard_count);
        for (auto it = m_skip.lower_bound(lo); it != m_skip.end() && *it < hi; ++it) ++m_skipped;
        const uint64_t to_run = hi - lo - m_skipped;
        bool nominal_needed = m_e.shard_index == 0 && !m_nominal_in_file;
        int jobs = m_e.jobs > 0 ? m_e.jobs : std::max(1u, std::thread::hardware_concurrency());
        jobs = static_cast<int>(
            std::max<uint64_t>(1, std::min<uint64_t>(static_cast<uint64_t>(jobs), std::max<uint64_t>(to_run, 1))));
        m_total = to_run + (nominal_needed ? 1 : 0);
        for (int w = 0; w < jobs; ++w) {
            Chunk ch;
            ch.next = lo + slice(hi - lo, w, jobs);
            ch.hi = lo + slice(hi - lo, w + 1, jobs);
            m_chunks.push_back(ch);
        }
        void* shared = ::mmap(nullptr, sizeof(RunningSlot) * static_cast<size_t>(jobs), PROT_READ | PROT_WRITE,
                              MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        if (shared == MAP_FAILED) throw std::runtime_error("mmap failed");
        m_running = new (shared) RunningSlot[static_cast<size_t>(jobs)]();
        m_running_count = static_cast<size_t>(jobs);
        if (!m_e.jsonl.empty()) {
            m_jsonl.open(m_e.jsonl);
            if (!m_header_in_file) m_jsonl.add(journal_header(m_c, m_e, m_kernel).dump());
            m_jsonl.flush();
        }
        for (int w = 0; w < jobs; ++w) spawn(w, w == 0 && nominal_needed);
        {
            InterruptGuard guard;
            loop();
        }
        if (m_jsonl.is_open()) m_jsonl.flush();
        if (m_bar)
            std::cerr << "\r\033[K" << std::flush;  // the bar (and a ^C echoed after it) erased before the summary
        ExploreSummary s = m_builder.finish(m_c, m_kernel);
        s.jobs = jobs;
        s.skipped = m_skipped;
        s.interrupted = m_interrupted;
        s.wall_time_stop = m_wall_stop && s.schedules < m_e.schedules + 1;
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
    pid_t m_pid = ::getpid();
    std::vector<Chunk> m_chunks;
    std::vector<Worker> m_workers;
    RunningSlot* m_running = nullptr;  // shared with the workers: the seed each chunk's worker runs
    size_t m_running_count = 0;
    SummaryBuilder m_builder;
    JournalWriter m_jsonl;
    std::set<uint64_t> m_skip;  // seeds not to run: in the journal already, or crashed a worker
    bool m_header_in_file = false;
    bool m_interrupted = false;
    bool m_nominal_recorded = false;
    uint64_t m_total = 0, m_finished = 0, m_skipped = 0;
    bool m_nominal_in_file = false;
    bool m_stop = false;
    bool m_wall_stop = false;  // m_stop because a schedule ran into the wall-time bound
    bool m_bar = false;        // a terminal bar line is on screen
    std::chrono::steady_clock::time_point m_t0 = std::chrono::steady_clock::now();
    std::chrono::steady_clock::time_point m_last_bar = std::chrono::steady_clock::now();  // last progress output

    // n * i / k without overflow (n < 2^64, 0 <= i <= k).
    static uint64_t slice(uint64_t n, int i, int k) {
        const uint64_t ui = static_cast<uint64_t>(i), uk = static_cast<uint64_t>(k);
        return n / uk * ui + n % uk * ui / uk;
    }

    // Folds the records already in the --jsonl file (if it exists and is this exploration's journal).
    void resume() {
        if (m_e.jsonl.empty()) return;
        std::error_code ec;
        // Nothing to resume from a file that does not exist yet or from a device (--jsonl /dev/full).
        auto st = std::filesystem::status(m_e.jsonl, ec);
        if (!std::filesystem::exists(st) || std::filesystem::is_character_file(st) ||
            std::filesystem::is_block_file(st))
            return;
        const nlohmann::json identity = journal_identity(m_c, m_e, m_kernel);
        JournalScan scan =
            scan_journal(m_e.jsonl, m_kernel, identity, m_base.str(), true, [&](const nlohmann::json& j) {
                ScheduleRecord r = record_from_json(j);
                if (r.schedule.strategy == sim::Strategy::Nominal) {
                    if (m_nominal_in_file) return;
                    m_nominal_in_file = true;
                } else if (!m_skip.insert(r.schedule.seed).second) {
                    return;  // recorded twice (two runs sharing the file): counts once
                }
                m_builder.add(r);
            });
        m_header_in_file = scan.header;
        if (scan.torn_bytes)
            std::cerr << fmt::format(
                "note: '{}' ended in a torn line ({} bytes, left by a killed run); it was cut off and "
                "that schedule runs again\n",
                m_e.jsonl, scan.torn_bytes);
    }

    void spawn(int chunk, bool nominal) {
        Chunk& ch = m_chunks[static_cast<size_t>(chunk)];
        while (ch.next < ch.hi && m_skip.count(ch.next)) ++ch.next;
        if (ch.next >= ch.hi && !nominal) return;
        m_running[chunk].store(0);
        int fds[2];
        if (::pipe(fds) != 0) throw std::runtime_error("pipe failed");
        std::cout.flush();
        std::cerr.flush();
        pid_t pid = ::fork();
        if (pid < 0) throw std::runtime_error("fork failed");
        if (pid == 0) {
            ::close(fds[0]);
            // The worker dies with its supervisor (kill -9, a CI job's timeout), not spinning on as an orphan.
            ::prctl(PR_SET_PDEATHSIG, SIGKILL);
            ::signal(SIGINT, SIG_IGN);  // a terminal's ^C reaches the whole group: the supervisor stops workers
            ::signal(SIGTERM, SIG_DFL);
            if (::getppid() != m_pid) _exit(3);
            worker_main(fds[1], m_c, m_kernel, m_e, m_base, ch.next, ch.hi, m_skip, nominal, &m_running[chunk]);
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
        if (r.schedule.strategy == sim::Strategy::Nominal) m_nominal_recorded = true;
        m_builder.add(r);
        if (m_jsonl.is_open()) m_jsonl.add(record_json(r, m_kernel).dump());
        ++m_finished;
        if (m_e.stop_on_first && !r.codes.empty()) m_stop = true;
        if (hit_wall_time_bound(r.full)) m_stop = m_wall_stop = true;  // every further schedule would time out so
    }

    void on_line(Worker& w, const std::string& line) {
        w.last_heard = std::chrono::steady_clock::now();
        if (line.rfind("R ", 0) == 0 || line.rfind("C ", 0) == 0) {
            ScheduleRecord r =
                line[0] == 'C' ? clean_record_from_line(line) : record_from_json(nlohmann::json::parse(line.substr(2)));
            if (r.schedule.strategy != sim::Strategy::Nominal) {
                Chunk& ch = m_chunks[static_cast<size_t>(w.chunk)];
                ch.next = r.schedule.seed + 1;  // a worker reports its seeds in increasing order
                ch.fruitless = 0;
            }
            record(r);
        } else if (line.rfind("E ", 0) == 0) {
            throw std::runtime_error("worker: " + line.substr(2));
        } else if (line == "M") {
            throw std::bad_alloc();
        }
    }

    void crashed(Worker& w, const std::string& why) {
        if (m_stop) return;  // killed on purpose (--stop-on-first, a schedule past the wall-time bound)
        uint64_t slot = m_running[w.chunk].load(std::memory_order_acquire);
        Chunk& ch = m_chunks[static_cast<size_t>(w.chunk)];
        // A seed already recorded was finished: the worker died between two schedules (killed from outside),
        // not in one; no schedule is blamed and the fresh worker goes on from the next unfinished seed.
        if (slot != 0 && slot - 1 < ch.next) slot = 0;
        if (slot == 0 && ++ch.fruitless > 3)
            throw std::runtime_error(
                fmt::format("explore workers keep dying outside any schedule ({}); giving up", why));
        if (slot != 0) {
            const uint64_t seed = slot - 1;
            ScheduleRecord r;
            r.schedule = schedule_for(m_base, m_e, seed);
            r.verdict = "crash";
            Finding f;
            f.code = codes::kCrash;
            f.message = fmt::format(
                "the simulator's worker died in this schedule ({}); the rest of the exploration went on", why);
            f.key = codes::kCrash;
            r.codes = {f.code};
            r.keys = {f.key};
            r.full = {f};
            record(r);
            // The fresh worker redoes the schedules the dead one finished but had not sent yet (they are
            // deterministic), and skips the one that crashed.
            m_skip.insert(seed);
        }
        spawn(w.chunk, w.nominal && !m_nominal_recorded);  // a nominal schedule the dead worker had not sent
    }

    // "4m03s", "2h05m", "3d04h".
    static std::string duration_text(double secs) {
        if (!(secs < 1e9)) return "--";
        auto t = static_cast<uint64_t>(secs + 0.5);
        if (t < 60) return fmt::format("{}s", t);
        if (t < 3600) return fmt::format("{}m{:02}s", t / 60, t % 60);
        if (t < 86400) return fmt::format("{}h{:02}m", t / 3600, t % 3600 / 60);
        return fmt::format("{}d{:02}h", t / 86400, t % 86400 / 3600);
    }

    // Progress: on a terminal one bar line redrawn in place (schedules done / total, rate, ETA, distinct
    // findings so far), erased before the summary; elsewhere (a CI log) one plain line every
    // --progress-interval seconds.
    void draw_bar() {
        if (!m_e.progress) return;
        auto now = std::chrono::steady_clock::now();
        const bool tty = ::isatty(2);
        const double since_last = std::chrono::duration<double>(now - m_last_bar).count();
        if (tty ? m_bar && since_last < 0.2 : since_last < m_e.progress_interval) return;
        m_last_bar = now;
        const double secs = std::chrono::duration<double>(now - m_t0).count();
        const double rate = secs > 0 ? static_cast<double>(m_finished) / secs : 0.0;
        const std::string eta = m_finished >= m_total ? "0s"
                                : rate > 0            ? duration_text(static_cast<double>(m_total - m_finished) / rate)
                                                      : "--";
        const size_t found = m_builder.distinct_so_far();
        std::string text = fmt::format("{}/{} schedules  {:.0f}/s  ETA {}  {} finding{}", m_finished, m_total, rate,
                                       eta, found, found == 1 ? "" : "s");
        if (!tty) {
            std::cerr << fmt::format(
                "progress: {}/{} schedules ({:.1f}%), {:.0f}/s, ETA {}, {} distinct finding{} so far\n", m_finished,
                m_total, m_total ? 100.0 * static_cast<double>(m_finished) / static_cast<double>(m_total) : 100.0, rate,
                eta, found, found == 1 ? "" : "s");
            return;
        }
        m_bar = true;
        // The bar takes what the terminal's width leaves (none below 10 columns); the line never wraps.
        size_t cols = 100;
        struct winsize ws {};
        if (::ioctl(2, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) cols = ws.ws_col;
        const size_t room = cols > text.size() + 4 ? cols - text.size() - 4 : 0;
        const size_t width = std::min<size_t>(30, room);
        std::string bar;
        if (width >= 10) {
            const size_t fill = m_total
                                    ? static_cast<size_t>(static_cast<double>(width) * static_cast<double>(m_finished) /
                                                          static_cast<double>(m_total))
                                    : width;
            bar =
                "[" + std::string(std::min(fill, width), '=') + std::string(width - std::min(fill, width), ' ') + "] ";
        }
        if (text.size() + 1 > cols) text.resize(cols > 1 ? cols - 1 : 0);
        std::cerr << "\r" << bar << text << "\033[K" << std::flush;
    }

    void loop() {
        // A worker owes the supervisor nothing for the reference and the nominal schedule (one bound each) plus a
        // schedule; at least a minute: a probe at a sampled value (then bounded by 2 s per schedule) of a real-size
        // kernel on a loaded machine spent longer than 11 s in its reference and was killed as hung, and the file ended
        // in E-IO "workers keep dying" instead of its verdicts (pypto-lib hc_post). A schedule that really does not
        // end is cut by its own wall-time bound inside the worker.
        const double silent_limit = std::max(60.0, 3 * m_c.timeout + 5);
        while (!m_workers.empty()) {
            if (g_interrupted) {
                // SIGINT/SIGTERM: stop the workers, keep what was received (journal and summary).
                m_interrupted = true;
                for (auto& w : m_workers) {
                    ::kill(w.pid, SIGKILL);
                    ::close(w.fd);
                    int st = 0;
                    ::waitpid(w.pid, &st, 0);
                }
                m_workers.clear();
                break;
            }
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
                    std::string why = dead.hung             ? fmt::format("no progress for {:.0f} s", silent_limit)
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
            if (m_jsonl.is_open()) m_jsonl.flush();  // whole lines only, once per round
            if (m_stop)
                for (auto& w : m_workers) ::kill(w.pid, SIGKILL);
            draw_bar();
        }
    }
};

}  // namespace

ExploreSummary explore_parallel(const CommonOptions& c, const std::string& kernel, const ExploreOptions& e,
                                const Schedule& base) {
    return Supervisor(c, kernel, e, base).run();
}

}  // namespace cvsim::cli
