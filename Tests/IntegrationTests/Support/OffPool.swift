import Foundation
import Testing

/// A suite trait: every test under the suite runs on `BlockingTestExecutor`'s threads, not on the cooperative pool.
///
/// The test process's cooperative pool has one thread per core (two here) and every suite of every test target
/// shares it. Integration tests block: a broker's start polls its port with usleep, a stack's stop waits for each
/// child's exit, a command runs to its end, a synchronous test body spawns install.sh. Each such wait held a pool
/// thread; with dozens of integration tests starting at once, both threads sat in them for minutes, and the
/// in-memory suites (Kit tests: their MQTT deliveries, timers, answers) could not run at all: in a loaded `make test`
/// six of them timed out at 120 s together, at the same second, with nothing wrong in them, and in a passing run
/// tests of a few milliseconds took 55–88 s. (`onThread` moved a few waits off the pool one by one; this moves all of
/// an integration test's own code, whatever it calls.) Applied to every integration suite; nested suites inherit it.
struct OffPool: SuiteTrait, TestTrait, TestScoping {
    var isRecursive: Bool { true }

    /// Each test case's run, not the suite's.
    func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? { testCase == nil ? nil : self }

    func provideScope(for test: Test, testCase: Test.Case?,
                      performing function: @Sendable () async throws -> Void) async throws {
        // QUAD_TESTS_ON_POOL=1: as before this trait, to measure what it changes.
        if Self.disabled { return try await function() }
        try await withTaskExecutorPreference(BlockingTestExecutor.shared) { try await function() }
    }

    static let disabled = ProcessInfo.processInfo.environment["QUAD_TESTS_ON_POOL"] == "1"
}

extension Trait where Self == OffPool {
    /// The suite's tests run off the cooperative pool (`OffPool`).
    static var offPool: Self { OffPool() }
}

/// A task executor whose jobs run on plain threads, at most `QUAD_OFFPOOL_THREADS` (default two per core) at once:
/// an idle one if there is one, else a new one up to the bound; beyond it a job waits for a thread. Threads idle for
/// 10 s end. Jobs are the integration tests' own (their task and child tasks); what they start with
/// `Task.detached` (MQTT deliveries) stays on the pool. Bounded because unbounded, every integration suite started
/// its brokers and services in the same second (load average 44 on two cores) and the tests that assert a reaction
/// within 2 s failed; the cooperative pool's two threads had throttled that start by accident.
final class BlockingTestExecutor: TaskExecutor, @unchecked Sendable {
    static let shared = BlockingTestExecutor(
        maxThreads: Int(ProcessInfo.processInfo.environment["QUAD_OFFPOOL_THREADS"] ?? "")
            ?? 2 * ProcessInfo.processInfo.activeProcessorCount)

    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var idle = 0
    private var threads = 0
    private let maxThreads: Int

    init(maxThreads: Int) { self.maxThreads = max(1, maxThreads) }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        let spawn = jobs.count > idle && threads < maxThreads
        if spawn { threads += 1 }
        condition.signal()
        condition.unlock()
        if spawn {
            let thread = Thread { [self] in work() }
            thread.name = "off-pool test"
            thread.start()
        }
    }

    private func work() {
        condition.lock()
        while true {
            if !jobs.isEmpty {
                let job = jobs.removeFirst()
                condition.unlock()
                job.runSynchronously(on: asUnownedTaskExecutor())
                condition.lock()
                continue
            }
            idle += 1
            let signalled = condition.wait(until: Date().addingTimeInterval(10))
            idle -= 1
            if !signalled && jobs.isEmpty {
                threads -= 1
                condition.unlock()
                return
            }
        }
    }
}
