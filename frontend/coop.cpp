// Cooperative round-robin task scheduler (threads hand a single baton around).
#include "frontend/coop.h"

#include <exception>
#include <thread>

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
    std::vector<std::thread> threads;
    threads.reserve(m_n);
    for (int id = 0; id < m_n; ++id) {
        threads.emplace_back([this, id, &tasks, &errors] {
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
    }
    for (auto& t : threads) t.join();
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
