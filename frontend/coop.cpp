// Cooperative round-robin task scheduler (threads hand a single baton around).
#include "frontend/coop.h"

#include <malloc.h>
#include <pthread.h>

#include <algorithm>
#include <exception>
#include <new>

namespace cvsim {

bool CoopScheduler::run(std::vector<std::function<void(int id)>> tasks) {
    m_n = static_cast<int>(tasks.size());
    m_finished.assign(m_n, false);
    m_blocked_at.assign(m_n, -1);
    m_current = 0;
    m_abort = false;
    m_deadlock = false;
    m_blocked_list.clear();
    if (m_n == 0) return true;
    m_cvs = std::make_unique<std::condition_variable[]>(static_cast<size_t>(m_n));
    std::vector<std::exception_ptr> errors(m_n);
    std::vector<std::function<void()>> bodies;
    bodies.reserve(static_cast<size_t>(m_n));
    std::vector<pthread_t> threads;
    threads.reserve(static_cast<size_t>(m_n));
    // One thread per task, all alive at once (a launch of 1,000 blocks has 3,000 lanes): each gets a stack of
    // kStackBudget / tasks, between 512 KiB (a lane's deepest use is an Eigen product's blocks, at most 128 KiB
    // on the stack, plus the statement walk) and 8 MiB, so the address space they reserve stays bounded (the
    // default 8 MiB each took 6 GB at 768 lanes, past `ulimit -v`, and std::thread's failure ended in
    // std::terminate). One task runs at a time, so one malloc arena serves them all: by default glibc gives
    // new threads arenas of their own (up to 8 per core, 64 MiB of address space each).
    static const bool one_arena = mallopt(M_ARENA_MAX, 1) == 1;
    (void)one_arena;
    constexpr size_t kKiB = size_t{1} << 10, kMiB = kKiB << 10, kStackBudget = 512 * kMiB;
    const size_t stack = std::clamp(kStackBudget / static_cast<size_t>(m_n), 512 * kKiB, 8 * kMiB);
    pthread_attr_t attr;
    if (pthread_attr_init(&attr) != 0) throw std::bad_alloc();
    pthread_attr_setstacksize(&attr, stack);
    auto trampoline = [](void* body) -> void* {
        (*static_cast<std::function<void()>*>(body))();
        return nullptr;
    };
    bool start_failed = false;
    for (int id = 0; id < m_n && !start_failed; ++id) {
        bodies.emplace_back([this, id, &tasks, &errors] {
            std::unique_lock<std::mutex> lock(m_mu);
            m_cvs[id].wait(lock, [&] { return m_current == id || m_abort; });
            if (!m_abort) {
                lock.unlock();
                try {
                    tasks[id](id);
                } catch (const Aborted&) {
                } catch (...) {
                    errors[id] = std::current_exception();
                }
                lock.lock();
            }
            m_finished[id] = true;
            if (errors[id]) m_abort = true;
            hand_over(lock, id);
        });
        pthread_t t;
        if (pthread_create(&t, &attr, trampoline, &bodies.back()) != 0) {
            // Out of threads or address space: stop the tasks started so far, then report it as memory.
            start_failed = true;
            abort();
            break;
        }
        threads.push_back(t);
    }
    pthread_attr_destroy(&attr);
    for (pthread_t t : threads) pthread_join(t, nullptr);
    if (start_failed) throw std::bad_alloc();
    for (auto& e : errors)
        if (e) std::rethrow_exception(e);
    return !m_deadlock;
}

void CoopScheduler::hand_over(std::unique_lock<std::mutex>&, int from) {
    // Next live task in round-robin order after `from`.
    for (int k = 1; k <= m_n; ++k) {
        int j = (from + k) % m_n;
        if (!m_finished[j]) {
            m_current = j;
            if (m_abort)
                wake_all();
            else
                m_cvs[j].notify_one();
            return;
        }
    }
    m_current = -1;  // all finished
    wake_all();
}

void CoopScheduler::wake_all() {
    for (int j = 0; j < m_n; ++j) m_cvs[j].notify_all();
}

void CoopScheduler::wait_until(int id, const std::function<bool()>& ready) {
    while (!ready()) {
        std::unique_lock<std::mutex> lock(m_mu);
        if (m_abort) throw Aborted{};
        m_blocked_at[id] = m_progress;
        // Deadlock: every live task is blocked and nothing changed since it blocked.
        bool all_stuck = true;
        for (int j = 0; j < m_n; ++j)
            if (!m_finished[j] && m_blocked_at[j] != m_progress) all_stuck = false;
        if (all_stuck) {
            m_deadlock = true;
            for (int j = 0; j < m_n; ++j)
                if (!m_finished[j]) m_blocked_list.push_back(j);
            m_abort = true;
            wake_all();
            throw Aborted{};
        }
        hand_over(lock, id);
        m_cvs[id].wait(lock, [&] { return m_current == id || m_abort; });
        if (m_abort) throw Aborted{};
        m_blocked_at[id] = -1;
    }
}

void CoopScheduler::yield(int id) {
    std::unique_lock<std::mutex> lock(m_mu);
    if (m_abort) throw Aborted{};
    hand_over(lock, id);
    m_cvs[id].wait(lock, [&] { return m_current == id || m_abort; });
    if (m_abort) throw Aborted{};
}

void CoopScheduler::abort() {
    std::lock_guard<std::mutex> lock(m_mu);
    m_abort = true;
    wake_all();
}

}  // namespace cvsim
