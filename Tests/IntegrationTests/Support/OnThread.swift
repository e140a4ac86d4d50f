import Foundation

/// Runs `body` on its own thread and returns its result. For anything that blocks (waiting for a child process,
/// polling with usleep): the test process's cooperative pool has one thread per core (two here), and a test that
/// blocks one of them for a minute (a browser run, a Python ground station) starves every other suite's tasks —
/// their MQTT deliveries, timers and answers — which then fail on timing that has nothing to do with them.
func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
    }
}
