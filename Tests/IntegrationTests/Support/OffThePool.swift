import Foundation
import Testing

/// Threads for the integration tests' own bodies. These bodies block: they start brokers and wait for their ports,
/// stop services and wait for them to exit, poll child processes. On the cooperative pool (one thread per core: two
/// here, and it never grows — measured: 12 tasks blocking 2 s each take 12 s) every such wait takes a whole core's
/// worth of Swift concurrency from everyone else, and on a busy machine in-process fake controllers and recorders then
/// stayed silent past their tests' deadlines (flat-trim and run-address tests, busy runs). A test body runs here
/// instead (`.offThePool`), so its blocking waits park one of these threads, and the cooperative pool stays free for
/// the tasks the tests start (fakes, recorders, MQTT deliveries).
final class BlockingTestExecutor: TaskExecutor, @unchecked Sendable {
    static let shared = BlockingTestExecutor(threads: 48)

    private static let marker = "BlockingTestExecutor"
    private let condition = NSCondition()

    /// Whether the caller runs on one of these threads (thread names are inherited on Linux, so not those).
    static var isCurrent: Bool { Thread.current.threadDictionary[marker] as? Bool == true }
    private var jobs: [UnownedJob] = []

    init(threads: Int) {
        for _ in 0..<threads {
            Thread.detachNewThread { [self] in
                Thread.current.threadDictionary[Self.marker] = true
                work()
            }
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func work() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}

/// Runs each test of a suite (its `init` and body, and their child tasks) on `BlockingTestExecutor`. Every
/// integration suite carries it.
struct OffThePoolTrait: SuiteTrait, TestTrait, TestScoping {
    var isRecursive: Bool { true }

    func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? { testCase == nil ? nil : self }

    func provideScope(for test: Test, testCase: Test.Case?,
                      performing function: @Sendable () async throws -> Void) async throws {
        try await withTaskExecutorPreference(BlockingTestExecutor.shared) { try await function() }
    }
}

extension Trait where Self == OffThePoolTrait {
    static var offThePool: Self { Self() }
}
