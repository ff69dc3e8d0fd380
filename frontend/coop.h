// Cooperative round-robin tasks for the reference interpreter: exactly one task runs at a time, a task
// runs until it blocks or finishes, and a round in which every live task is blocked without progress is a
// deadlock. Deterministic: the interleaving depends only on the tasks' behaviour.
#pragma once

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace cvsim {

class CoopScheduler {
  public:
    struct Aborted {};  // thrown inside a task when the run is aborted (deadlock or another task's error)

    // Runs every task to completion (or until abort). Returns false when the tasks deadlocked.
    bool run(std::vector<std::function<void(int id)>> tasks);

    // Called by task `id`: blocks until `ready()` is true, letting the other tasks run meanwhile.
    // Throws Aborted when the run deadlocks or is aborted.
    void wait_until(int id, const std::function<bool()>& ready);
    // Called by task `id`: lets every other live task run one turn first (round-robin), then continues.
    // Not a block: a yielding task never counts towards a deadlock. Throws Aborted when the run is aborted.
    void yield(int id);
    // Record that shared state changed (a push, a pop, an arrival): blocked tasks may proceed.
    void progress() { ++m_progress; }
    // Stop every task (from inside a task that hit an error); the caller then throws its own error.
    void abort();
    bool deadlocked() const { return m_deadlock; }
    // Index of the tasks blocked at the deadlock (valid after run() returned false).
    const std::vector<int>& blocked_tasks() const { return m_blocked_list; }

  private:
    void hand_over(std::unique_lock<std::mutex>& lock, int from);
    void wake_all();

    std::mutex m_mu;  // guards everything below
    // One per task: a hand-over wakes the next task only (one shared variable woke every task at each turn:
    // quadratic in the task count, 72 s on a 1,000-block reference).
    std::unique_ptr<std::condition_variable[]> m_cvs;
    int m_current = 0;                    // the task allowed to run
    int m_n = 0;                          // number of tasks
    std::vector<bool> m_finished;         // task returned
    std::vector<long long> m_blocked_at;  // progress count at which the task blocked (-1: runnable)
    long long m_progress = 0;             // incremented on every shared-state change
    bool m_abort = false;                 // the run is being torn down
    bool m_deadlock = false;              // every live task blocked without progress
    std::vector<int> m_blocked_list;      // tasks blocked at the deadlock
};

}  // namespace cvsim
