import ServiceThreads

/// A plain thread, the project's `ServiceThread` (the fake drone and the load generator must not wait on the Swift
/// concurrency pool).
enum BenchThread {
    static func start(_ run: @escaping @Sendable () -> Void) throws(ThreadStartFailure) {
        try ServiceThread.detach(run)
    }

    /// `body`'s result, computed on a thread of its own: for what blocks for long (booting a broker cluster), which
    /// must not hold one of the concurrency pool's few threads.
    static func result<T: Sendable>(of body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            do {
                try start { continuation.resume(with: Result { try body() }) }
            } catch {
                continuation.resume(throwing: error)
            }
        }
    }
}
