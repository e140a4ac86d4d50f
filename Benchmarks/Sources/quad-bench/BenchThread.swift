#if canImport(Glibc)
import Glibc
#endif

/// A plain pthread (the fake drone and the load generator must not wait on the Swift concurrency pool).
enum BenchThread {
    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    struct Failure: Error { var code: Int32 }

    static func start(_ run: @escaping @Sendable () -> Void) throws(Failure) {
        let box = Unmanaged.passRetained(Body(run)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { raw in
            guard let raw else { return nil }
            Unmanaged<Body>.fromOpaque(raw).takeRetainedValue().run()
            return nil
        }, box)
        guard result == 0 else {
            Unmanaged<Body>.fromOpaque(box).release()
            throw Failure(code: result)
        }
        pthread_detach(thread)
    }
}

extension BenchThread {
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
