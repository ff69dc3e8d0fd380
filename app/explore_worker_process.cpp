// An exploration worker: the process the supervisor (explore_workers.cpp) forks for one chunk of the seed range.
// It compiles the kernel, runs the nominal schedule, then each seed of its chunk, and sends the records to the
// supervisor through its pipe in batches; the seed it runs sits in a slot of shared memory (explore_internal.h).
#include <unistd.h>

#include <exception>
#include <new>

#include <fmt/format.h>

#include <chrono>
#include <set>

#include "app/explore.h"
#include "app/explore_internal.h"

namespace cvsim::cli {

using sim::Schedule;

namespace {

void write_all(int fd, const std::string& s) {
    size_t off = 0;
    while (off < s.size()) {
        ssize_t n = ::write(fd, s.data() + off, s.size() - off);
        if (n <= 0) _exit(3);
        off += static_cast<size_t>(n);
    }
}

// The worker's pipe to its supervisor, for the terminate handler.
int g_worker_fd = -1;

// An exception that escapes where nothing can catch it (a noexcept frame, a handler that allocates while memory
// is exhausted): the worker still tells its supervisor what ended it instead of dying of SIGABRT ("explore workers
// keep dying" E-IO): out of memory is E-CAPACITY, anything else the worker's error.
[[noreturn]] void worker_terminate() {
    // No allocation on the out-of-memory path: a static line, written with write(2).
    static const char kMemory[] = "M\n";
    static const char kOther[] = "E internal error: an exception escaped to std::terminate\n";
    const char* line = kOther;
    try {
        if (auto ex = std::current_exception()) std::rethrow_exception(ex);
    } catch (const std::bad_alloc&) {
        line = kMemory;
    } catch (...) {
    }
    if (g_worker_fd >= 0) {
        const size_t n = line == kMemory ? sizeof kMemory - 1 : sizeof kOther - 1;
        for (size_t done = 0; done < n;) {
            ssize_t w = ::write(g_worker_fd, line + done, n - done);
            if (w <= 0) break;
            done += static_cast<size_t>(w);
        }
    }
    _exit(3);
}

}  // namespace

[[noreturn]] void worker_main(int fd, const CommonOptions& c, const std::string& kernel, const ExploreOptions& e,
                              const Schedule& base, uint64_t lo, uint64_t hi, const std::set<uint64_t>& skip,
                              bool report_nominal, RunningSlot* running) {
    g_worker_fd = fd;
    std::set_terminate(worker_terminate);
    try {
        sim::SessionOptions so = session_options(c);
        so.max_visibility_delay = e.max_visibility;
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
        for (uint64_t seed = lo; seed < hi; ++seed) {
            if (skip.count(seed)) continue;
            running->store(seed + 1, std::memory_order_release);
            int fault = static_cast<int64_t>(seed) == e.fault_abort_seed ? 5 : -1;
            auto r = session.run(schedule_for(base, e, seed), {}, fault);
            ScheduleRecord rec = to_record(r, &reported);
            out += record_line(rec, kernel);
            if (!rec.codes.empty() || out.size() >= 16384 ||
                std::chrono::steady_clock::now() - last_flush > std::chrono::milliseconds(50))
                flush();
        }
        running->store(0, std::memory_order_release);
        out += "D\n";
        flush();
        ::close(fd);
        _exit(0);
    } catch (const std::bad_alloc&) {
        write_all(fd, "M\n");  // out of memory: the supervisor reports it as main does its own (E-CAPACITY)
        _exit(3);
    } catch (const std::exception& ex) {
        write_all(fd, fmt::format("E {}\n", ex.what()));
        _exit(3);
    }
}

}  // namespace cvsim::cli
